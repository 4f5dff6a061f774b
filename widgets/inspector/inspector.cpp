#include "widgets/inspector/inspector.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <cstring>

#include "core/catalog/catalog.h"
#include "core/catalog/part_schema.h"
#include "core/design/defaults.h"
#include "core/format/design_fields.h"
#include "core/text.h"
#include "widgets/canvas/design_scene.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

QString num(double v)
{
    return q(formatValue(v, 6));
}

// A line edit for an optional number: empty means "the default shown as
// placeholder"; text outside [min, max] turns red and is not applied.
QLineEdit* numberEdit(double min, double max, const QString& placeholder, QWidget* parent)
{
    auto* e = new QLineEdit(parent);
    auto* v = new QDoubleValidator(min, max, 6, e);
    v->setNotation(QDoubleValidator::StandardNotation);
    v->setLocale(QLocale::c());
    e->setValidator(v);
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    QObject::connect(e, &QLineEdit::textEdited, e, [e, min, max] {
        bool ok = false;
        const double d = QLocale::c().toDouble(e->text(), &ok);
        const bool bad = !e->text().isEmpty() && (!ok || d < min || d > max);
        e->setStyleSheet(bad ? "QLineEdit { border: 1px solid #d63a3a; }" : QString());
        e->setToolTip(bad ? QObject::tr("Must be between %1 and %2").arg(num(min), num(max)) : QString());
    });
    return e;
}

// A figure's row label: its file key without the unit suffix, then the
// unit ("hbm_tb_per_s" -> "hbm (TB/s)"); the description is the tooltip.
QString figureLabel(const FieldSpec& spec)
{
    std::string key(spec.key);
    for (const char* suffix : {"_tb_per_s", "_gb_per_s", "_tflops", "_tops", "_gbps", "_kiops", "_gpus", "_gb", "_kw",
                               "_us", "_pb", "_w", "_m"})
        if (key.size() > strlen(suffix) && key.compare(key.size() - strlen(suffix), strlen(suffix), suffix) == 0) {
            key.resize(key.size() - strlen(suffix));
            break;
        }
    QString label = q(key).replace('_', ' ');
    return label + " (" + q(spec.unit) + ")";
}

std::optional<double> parsed(const QLineEdit* e)
{
    bool ok = false;
    const double d = QLocale::c().toDouble(e->text(), &ok);
    if (e->text().isEmpty() || !ok)
        return std::nullopt;
    return d;
}

}  // namespace

Inspector::Inspector(DesignDocument* document, DesignScene* scene, QWidget* parent)
    : QWidget(parent), doc_(document), editor_(document), scene_(scene)
{
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll_);
    connect(scene_, &QGraphicsScene::selectionChanged, this, &Inspector::rebuild);
    connect(doc_, &DesignDocument::designReset, this, &Inspector::rebuild);
    connect(doc_, &DesignDocument::changed, this, &Inspector::refreshValues);
    connect(doc_, &DesignDocument::componentRemoved, this, &Inspector::rebuild);
    rebuild();
}

void Inspector::addSection(const QString& title)
{
    auto* label = new QLabel("<b>" + title.toHtmlEscaped() + "</b>", body_);
    label->setContentsMargins(0, 8, 0, 2);
    form_->addRow(label);
}

void Inspector::rebuild()
{
    refreshers_.clear();
    delete body_;
    body_ = new QWidget;
    form_ = new QFormLayout(body_);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form_->setLabelAlignment(Qt::AlignLeft);
    const QStringList comps = scene_->selectedComponentIds();
    const QStringList links = scene_->selectedLinkIds();
    if (!comps.isEmpty())
        buildComponents(comps);
    else if (links.size() == 1)
        buildLink(links.front());
    else
        buildDesign();
    scroll_->setWidget(body_);
}

void Inspector::refreshValues()
{
    for (const auto& r : refreshers_)
        r();
}

void Inspector::buildComponents(const QStringList& ids)
{
    const Design& d = doc_->design();
    const Catalog& cat = doc_->catalog();
    std::vector<std::string> sid;
    for (const QString& id : ids)
        sid.push_back(id.toStdString());
    const int first = doc_->componentIndex(sid.front());
    if (first < 0)
        return;
    const Part* part = cat.find(d.components[std::size_t(first)].part);
    bool samePart = true;
    for (const auto& id : sid) {
        const int i = doc_->componentIndex(id);
        samePart = samePart && i >= 0 && d.components[std::size_t(i)].part == d.components[std::size_t(first)].part;
    }
    // Applies `edit` to a copy of every selected component and pushes one
    // command, refusing edits that would make the design invalid.
    auto apply = [this, sid](const QString& text, int mergeKey, const std::function<void(Component&)>& edit) {
        std::vector<Component> after;
        for (const auto& id : sid)
            if (const Component* now = doc_->design().component(id)) {
                Component c = *now;
                edit(c);
                after.push_back(std::move(c));
            }
        const EditResult r = editor_.changeComponents(std::move(after), text, mergeKey);
        if (r.refused())
            emit message(r.reason);
        return !r.refused();
    };
    auto current = [this, sid]() -> const Component* {
        const int i = doc_->componentIndex(sid.front());
        return i < 0 ? nullptr : &doc_->design().components[std::size_t(i)];
    };

    auto* title = new QLabel(body_);
    title->setWordWrap(true);
    if (samePart && part) {
        title->setText("<b>" + q(part->name).toHtmlEscaped() + "</b><br><span style='color:gray'>" +
                       q(partKindName(part->kind)) + " \u00b7 " + q(part->id) + "</span>" +
                       (ids.size() > 1 ? tr("<br>%1 items selected: edits apply to all").arg(ids.size()) : QString()));
    } else {
        title->setText(tr("<b>%1 items selected</b><br>Different parts: only their counts can be edited together")
                           .arg(ids.size()));
    }
    form_->addRow(title);

    if (ids.size() == 1) {
        auto* name = new QLineEdit(body_);
        const int key = nextMergeKey();
        connect(name, &QLineEdit::editingFinished, this, [=, this] {
            const Component* c = current();
            if (c && name->text().toStdString() != c->name)
                apply(tr("Rename to %1").arg(name->text()), key,
                      [&](Component& x) { x.name = name->text().toStdString(); });
        });
        refreshers_.push_back([=, this] {
            if (!name->hasFocus())
                if (const Component* c = current()) {
                    name->setText(q(c->name));
                    name->setCursorPosition(0);  // a long name shows its start
                }
        });
        form_->addRow(tr("Name"), name);
        auto* id = new QLabel(q(sid.front()), body_);
        id->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form_->addRow(tr("Id"), id);
    }

    auto* count = new QSpinBox(body_);
    count->setRange(1, int(kMaxCount));
    count->setGroupSeparatorShown(true);
    count->setToolTip(tr("Replication: this item and everything inside it, this many times"));
    const int countKey = nextMergeKey();
    connect(count, &QSpinBox::valueChanged, this, [=, this](int v) {
        if (const Component* c = current(); c && c->count != v)
            if (!apply(tr("Set count to %1").arg(v), countKey, [v](Component& x) { x.count = v; }))
                count->setValue(int(current()->count));
    });
    refreshers_.push_back([=, this] {
        if (!count->hasFocus())
            if (const Component* c = current()) {
                QSignalBlocker block(count);
                count->setValue(int(c->count));
            }
    });
    form_->addRow(tr("Count"), count);

    if (!samePart || !part) {
        refreshValues();
        return;
    }

    // Settings that are not figures: a switch's tier, a fabric's parts.
    const auto settings = settingSpecs(part->kind);
    if (!settings.empty())
        addSection(tr("Settings"));
    for (const auto& spec : settings) {
        const std::string key(spec.key);
        const QString label = q(spec.description);
        auto setProp = [=, this](const std::optional<Json>& value, const QString& text) {
            apply(text, 0, [&](Component& x) {
                if (value)
                    x.props[key] = *value;
                else
                    x.props.erase(key);
            });
        };
        auto* combo = new QComboBox(body_);
        combo->setToolTip(label);
        if (spec.type == SettingType::PartRef) {
            if (!spec.required)
                combo->addItem(tr("(none)"), QString());
            for (const Part& p : doc_->catalog().parts())
                if (p.kind == *spec.partRef)
                    combo->addItem(partIcon(p.kind), q(p.name), q(p.id));
        } else if (spec.type == SettingType::String) {
            combo->addItem(tr("(default)"), QString());
            for (auto v : spec.allowed)
                combo->addItem(q(v), q(v));
        } else if (spec.type == SettingType::Boolean) {
            combo->addItem(tr("(as the part)"), QString());
            combo->addItem(tr("yes"), "true");
            combo->addItem(tr("no"), "false");
        } else {
            combo->setEditable(true);
            combo->addItem(key == "tiers" ? tr("0 (fewest that fit)") : tr("(from the switch)"), QString());
            combo->lineEdit()->setValidator(new QIntValidator(int(spec.min), int(spec.max), combo));
        }
        connect(combo, &QComboBox::activated, this, [=, this](int) {
            const QString v = combo->currentData().toString();
            if (spec.type == SettingType::Integer) {
                bool ok = false;
                const int n = combo->currentText().toInt(&ok);
                setProp(ok ? std::optional<Json>(n) : std::nullopt, tr("Set %1").arg(q(spec.key)));
            } else if (spec.type == SettingType::Boolean) {
                setProp(v.isEmpty() ? std::nullopt : std::optional<Json>(v == "true"), tr("Set %1").arg(q(spec.key)));
            } else {
                setProp(v.isEmpty() ? std::nullopt : std::optional<Json>(v.toStdString()),
                        tr("Set %1").arg(q(spec.key)));
            }
        });
        refreshers_.push_back([=, this] {
            const Component* c = current();
            if (!c || combo->hasFocus())
                return;
            QSignalBlocker block(combo);
            const auto it = c->props.find(key);
            QString v;
            if (it != c->props.end())
                v = it->second.is_string()    ? q(it->second.get<std::string>())
                    : it->second.is_boolean() ? (it->second.get<bool>() ? "true" : "false")
                                              : q(it->second.dump());
            if (spec.type == SettingType::Integer) {
                combo->setCurrentIndex(0);
                if (!v.isEmpty())
                    combo->setEditText(v);
            } else {
                const int i = combo->findData(v);
                combo->setCurrentIndex(std::max(0, i));
            }
        });
        form_->addRow(label.left(1).toUpper() + label.mid(1), combo);
    }

    // Figures: empty means the catalog's value, shown beside with its source.
    const auto fields = fieldSpecs(part->kind);
    if (!fields.empty())
        addSection(tr("Figures (empty: catalog value)"));
    for (const auto& spec : fields) {
        const std::string key(spec.key);
        const Figure* f = part->figure(spec.key);
        auto* row = new QWidget(body_);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        // floor(): 0 stays typeable where it means "none" (no FP8, no
        // scale-up link); between it and min the edit's check says why not.
        const double min = spec.minExclusive ? spec.floor() + 1e-9 : spec.floor();
        // Empty means the catalog's value, which stands beside the field.
        auto* edit = numberEdit(min, spec.max, QString(), row);
        edit->setMinimumWidth(80);
        auto* catalogValue = new QLabel(row);
        catalogValue->setText(f ? tr("catalog %1%2").arg(num(f->value), f->uncertain ? " \u26a0" : "")
                                : tr("no value"));
        catalogValue->setToolTip(f ? tr("Source: %1%2")
                                         .arg(q(f->source).toHtmlEscaped(),
                                              f->note.empty() ? QString() : "<br>" + q(f->note).toHtmlEscaped())
                                   : QString());
        QPalette pal = catalogValue->palette();
        pal.setColor(QPalette::WindowText, pal.color(QPalette::PlaceholderText));
        catalogValue->setPalette(pal);
        h->addWidget(edit, 1);
        h->addWidget(catalogValue);
        connect(edit, &QLineEdit::editingFinished, this, [=, this] {
            const auto v = parsed(edit);
            const Component* c = current();
            if (!c)
                return;
            const auto it = c->props.find(key);
            if (!v && edit->text().isEmpty() && it != c->props.end()) {
                apply(tr("Use the catalog's %1").arg(q(spec.key)), 0, [&](Component& x) { x.props.erase(key); });
            } else if (v && *v >= min && *v <= spec.max && (it == c->props.end() || it->second != Json(*v))) {
                const Json value = spec.integer ? Json(std::int64_t(std::llround(*v))) : Json(*v);
                apply(tr("Set %1 to %2").arg(q(spec.key), edit->text()), 0,
                      [&](Component& x) { x.props[key] = value; });
            } else if (!edit->text().isEmpty() && (!v || *v < min || *v > spec.max)) {
                emit message(
                    tr("%1 must be between %2 and %3 %4").arg(q(spec.key), num(min), num(spec.max), q(spec.unit)));
            }
        });
        refreshers_.push_back([=, this] {
            const Component* c = current();
            if (!c || edit->hasFocus())
                return;
            const auto it = c->props.find(key);
            edit->setText(it != c->props.end() && it->second.is_number() ? num(it->second.get<double>()) : QString());
            edit->setStyleSheet(QString());
        });
        auto* rowLabel = new QLabel(figureLabel(spec), body_);
        rowLabel->setToolTip(q(spec.description));
        form_->addRow(rowLabel, row);
    }
    refreshValues();
}

void Inspector::buildLink(const QString& id)
{
    const std::string sid = id.toStdString();
    auto current = [this, sid]() -> const Link* {
        const int i = doc_->linkIndex(sid);
        return i < 0 ? nullptr : &doc_->design().links[std::size_t(i)];
    };
    const Link* l = current();
    if (!l)
        return;
    auto* intro = new QLabel(tr("<b>Link</b><br><span style='color:gray'>%1 \u2192 %2</span>")
                                 .arg(q(l->from).toHtmlEscaped(), q(l->to).toHtmlEscaped()),
                             body_);
    intro->setWordWrap(true);
    form_->addRow(intro);
    auto push = [this, current](const QString& text, int key, const std::function<void(Link&)>& edit) {
        if (const Link* now = current()) {
            Link next = *now;
            edit(next);
            if (const EditResult r = editor_.changeLinks({next}, text, key); r.refused())
                emit message(r.reason);
        }
    };
    auto* cable = new QComboBox(body_);
    for (const Part& p : doc_->catalog().parts())
        if (p.kind == PartKind::Link)
            cable->addItem(partIcon(p.kind), q(p.name), q(p.id));
    connect(cable, &QComboBox::activated, this, [=, this](int) {
        push(tr("Set cable"), 0, [&](Link& x) { x.part = cable->currentData().toString().toStdString(); });
    });
    auto* count = new QSpinBox(body_);
    count->setRange(1, int(kMaxCount));
    count->setToolTip(tr("Cables per instance of the more replicated end"));
    const int key = nextMergeKey();
    connect(count, &QSpinBox::valueChanged, this, [=, this](int v) {
        if (const Link* now = current(); now && now->count != v)
            push(tr("Set cables to %1").arg(v), key, [v](Link& x) { x.count = v; });
    });
    refreshers_.push_back([=, this] {
        if (const Link* now = current()) {
            QSignalBlocker b1(cable), b2(count);
            cable->setCurrentIndex(std::max(0, cable->findData(q(now->part))));
            if (!count->hasFocus())
                count->setValue(int(now->count));
        }
    });
    form_->addRow(tr("Cable"), cable);
    form_->addRow(tr("Cables per instance"), count);
    refreshValues();
}

void Inspector::buildDesign()
{
    auto* intro = new QLabel(tr("<b>Design</b><br><span style='color:gray'>Select an item to edit it; these are "
                                "the design's own inputs.</span>"),
                             body_);
    intro->setWordWrap(true);
    form_->addRow(intro);
    auto push = [this](const QString& text, int key, const std::function<void(DesignSettings&)>& edit) {
        DesignSettings s = DesignSettings::of(doc_->design());
        edit(s);
        if (const EditResult r = editor_.changeSettings(std::move(s), text, key); r.refused())
            emit message(r.reason);
    };
    auto* name = new QLineEdit(body_);
    const int nameKey = nextMergeKey();
    connect(name, &QLineEdit::editingFinished, this, [=, this] {
        if (!name->text().trimmed().isEmpty())
            push(tr("Rename design"), nameKey, [&](DesignSettings& s) { s.name = name->text().toStdString(); });
    });
    refreshers_.push_back([=, this] {
        if (!name->hasFocus()) {
            name->setText(q(doc_->design().name));
            name->setCursorPosition(0);  // a long name shows its start
        }
    });
    form_->addRow(tr("Name"), name);

    // Optional numeric inputs: empty shows `placeholder` (the default, or
    // what having none means).
    auto optionalInput = [&](const QString& label, const QString& placeholder, const QString& tip, const auto& rule,
                             std::function<std::optional<double>&(DesignSettings&)> field) {
        const double min = rule.min, max = rule.max;
        auto* e = numberEdit(min, max, placeholder, body_);
        e->setToolTip(tip);
        connect(e, &QLineEdit::editingFinished, this, [=, this] {
            const auto v = parsed(e);
            if (!e->text().isEmpty() && (!v || *v < min || *v > max)) {
                emit message(tr("%1 must be between %2 and %3").arg(label, num(min), num(max)));
                return;
            }
            push(tr("Set %1").arg(label), 0, [&](DesignSettings& s) { field(s) = v; });
        });
        refreshers_.push_back([=, this] {
            if (e->hasFocus())
                return;
            DesignSettings s = DesignSettings::of(doc_->design());
            const auto& v = field(s);
            e->setText(v ? num(*v) : QString());
        });
        form_->addRow(label, e);
    };
    // ... with their documented defaults.
    auto optional = [&](const QString& label, const SourcedDefault& def, const auto& rule,
                        std::function<std::optional<double>&(DesignSettings&)> field) {
        optionalInput(label, num(def.value),
                      tr("Empty: the default %1 %2<br>Source: %3")
                          .arg(num(def.value), q(def.unit), q(def.source).toHtmlEscaped()),
                      rule, std::move(field));
    };
    addSection(tr("Facility"));
    // The ranges the file format allows (core/format/design_fields.h).
    const auto facility = [](std::string_view key) { return fields::find(fields::facility(), key); };
    optional(
        tr("PUE"), defaults::kPue, facility("pue"), [](DesignSettings & s) -> auto& { return s.facility.pue; });
    optional(
        tr("Electricity (USD/kWh)"), defaults::kElectricityPrice, facility("electricity_usd_per_kwh"),
        [](DesignSettings & s) -> auto& { return s.facility.electricity_usd_per_kwh; });
    optional(
        tr("Carbon (gCO2/kWh)"), defaults::kCarbon, facility("carbon_g_per_kwh"),
        [](DesignSettings & s) -> auto& { return s.facility.carbon_g_per_kwh; });
    optionalInput(
        tr("Site budget (MW)"), tr("no limit"),
        tr("The facility power the site can supply. Empty: no limit. A design above it is warned about; the Scale "
           "panel marks the size where the sweep passes it."),
        facility("site_mw"), [](DesignSettings & s) -> auto& { return s.facility.site_mw; });
    auto* cooling = new QComboBox(body_);
    cooling->addItem(tr("(not set)"), QString());
    for (const char* c : {"air", "liquid", "hybrid"})
        cooling->addItem(c, c);
    connect(cooling, &QComboBox::activated, this, [=, this](int) {
        const QString v = cooling->currentData().toString();
        push(tr("Set cooling"), 0, [&](DesignSettings& s) {
            s.facility.cooling = v.isEmpty() ? std::nullopt : std::optional<std::string>(v.toStdString());
        });
    });
    refreshers_.push_back([=, this] {
        QSignalBlocker b(cooling);
        cooling->setCurrentIndex(std::max(0, cooling->findData(q(doc_->design().facility.cooling.value_or("")))));
    });
    form_->addRow(tr("Cooling"), cooling);
    // What owning it costs besides its parts (docs/model.md section 20).
    addSection(tr("Cost"));
    optional(
        tr("Facility capex (USD/MW)"), defaults::kFacilityCapexPerMw, facility("capex_usd_per_mw"),
        [](DesignSettings & s) -> auto& { return s.facility.capex_usd_per_mw; });
    optionalInput(
        tr("Colocation (USD/kW-month)"), tr("built, not rented"),
        tr("The facility rented instead of built: paid each year as this x IT kW x 12, with no facility capex. Set "
           "either this or the facility capex, not both."),
        facility("colocation_usd_per_kw_month"),
        [](DesignSettings & s) -> auto& { return s.facility.colocation_usd_per_kw_month; });
    optional(
        tr("IT amortisation (years)"), defaults::kAmortizationYearsIt, facility("amortization_years_it"),
        [](DesignSettings & s) -> auto& { return s.facility.amortization_years_it; });
    optional(
        tr("Facility amortisation (years)"), defaults::kAmortizationYearsFacility,
        facility("amortization_years_facility"),
        [](DesignSettings & s) -> auto& { return s.facility.amortization_years_facility; });
    optional(
        tr("Cost of capital (a year)"), defaults::kCostOfCapital, facility("cost_of_capital"),
        [](DesignSettings & s) -> auto& { return s.facility.cost_of_capital; });
    optional(
        tr("Utilisation (of hours)"), defaults::kUtilization, facility("utilization"),
        [](DesignSettings & s) -> auto& { return s.facility.utilization; });
    optional(
        tr("Operations (of capex a year)"), defaults::kOperationsShare, facility("operations_share"),
        [](DesignSettings & s) -> auto& { return s.facility.operations_share; });
    optionalInput(
        tr("Cloud price (USD/GPU-hour)"), tr("the GPU's"),
        tr("The rent-or-own line a GPU-hour owned is set against. Empty: the catalog's cloud price for the design's "
           "GPU (docs/evidence/prices.md)."),
        facility("cloud_usd_per_gpu_hour"),
        [](DesignSettings & s) -> auto& { return s.facility.cloud_usd_per_gpu_hour; });
    addSection(tr("Operations"));
    const auto checkpoint = [](std::string_view key) { return fields::find(fields::checkpoint(), key); };
    const auto operations = [](std::string_view key) { return fields::find(fields::operations(), key); };
    optional(
        tr("Restart (min)"), defaults::kRestart, checkpoint("restart_min"),
        [](DesignSettings & s) -> auto& { return s.operations.checkpoint.restart_min; });
    optional(
        tr("Checkpoint interval (min)"), defaults::kCheckpointInterval, checkpoint("interval_min"),
        [](DesignSettings & s) -> auto& { return s.operations.checkpoint.interval_min; });
    optional(
        tr("Maintenance (fraction)"), defaults::kMaintenance, operations("maintenance_fraction"),
        [](DesignSettings & s) -> auto& { return s.operations.maintenance_fraction; });
    optional(
        tr("Straggler CV"), defaults::kStragglerCv, operations("straggler_cv"),
        [](DesignSettings & s) -> auto& { return s.operations.straggler_cv; });
    auto* async = new QCheckBox(tr("Asynchronous checkpoints"), body_);
    connect(async, &QCheckBox::toggled, this, [=, this](bool on) {
        push(tr("Set asynchronous checkpoints"), 0, [&](DesignSettings& s) { s.operations.checkpoint.async = on; });
    });
    refreshers_.push_back([=, this] {
        QSignalBlocker b(async);
        async->setChecked(doc_->design().operations.checkpoint.async.value_or(false));
    });
    form_->addRow(async);
    refreshValues();
}

}  // namespace studio
