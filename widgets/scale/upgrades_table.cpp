#include "widgets/scale/upgrades_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

#include "core/search/layout.h"
#include "core/text.h"
#include "widgets/common/qt_string.h"
#include "widgets/scale/upgrades_service.h"

namespace studio {
namespace {

enum Column { kApply, kName, kTokens, kDays, kCapex, kCost, kFacility, kColumns };

// "1.71M (+94.6%)": the value after, and its change from today.
QString withChange(double after, double today, const QString& text)
{
    if (!std::isfinite(after) || !std::isfinite(today) || today == 0)
        return text;
    const double change = 100 * (after / today - 1);
    if (std::abs(change) < 0.05)
        return text + QObject::tr(" (same)");
    return text + " (" + (change > 0 ? "+" : "") + q(formatReadable(change, 3)) + "%)";
}

// 1713485 -> "1.71M": a table cell a few characters wide (the tip has the
// whole number).
QString compact(double v)
{
    const char* suffix[] = {"", "k", "M", "B", "T"};
    int i = 0;
    while (std::abs(v) >= 1000 && i < 4) {
        v /= 1000;
        ++i;
    }
    return q(formatReadable(v, 3)) + suffix[i];
}

QString days(const ScaleFigures& f)
{
    return f.goodput > 0 ? q(formatReadable(f.wallDays)) : QObject::tr("never");
}

QString usd(double v)
{
    return "$" + q(formatReadable(v));
}

QTableWidgetItem* cell(const QString& text, const QString& tip)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(tip);
    return item;
}

QString describe(const ScaleFigures& f)
{
    return QObject::tr("%1 tokens/s, MFU %2%, %3 days wall clock, capex %4, run electricity %5, facility %6")
        .arg(q(formatReadable(f.tokensPerS)), q(formatReadable(100 * f.mfu)), days(f), q(formatUsd(f.capexUsd)),
             usd(f.runCostUsd), q(formatPowerKw(f.facilityKw)));
}

// What the row's upgrade changes, its figures against today's and how they
// are made.
QString rowTip(const UpgradesResult& r, const UpgradeOutcome& o)
{
    QString tip = "<b>" + QString(upgradeTitle(o.proposal.kind)) + "</b><ul>";
    for (const auto& c : o.proposal.changes)
        tip += "<li>" + q(c).toHtmlEscaped() + "</li>";
    tip += "</ul>";
    tip += QObject::tr("Today (%1 GPUs): %2.").arg(q(formatCount(r.gpus)), describe(r.today).toHtmlEscaped());
    if (o.after)
        tip += "<br>" +
            QObject::tr("Upgraded (%1 GPUs): %2.").arg(q(formatCount(o.gpus)), describe(*o.after).toHtmlEscaped());
    else
        tip +=
            "<br>" + QObject::tr("Upgraded, the workload's layout does not run: %1.").arg(q(o.whyNot).toHtmlEscaped());
    if (o.best)
        tip += "<br>" +
            QObject::tr("The layout search then prefers %1: %2.")
                .arg(q(describeLayout(o.best->layout)).toHtmlEscaped(), describe(*o.best).toHtmlEscaped());
    tip += "<p>" +
        QObject::tr("Every figure is the analysis of the upgraded design with the workload's layout (dp follows "
                    "the GPUs), as <tt>metrics</tt> computes it; the change is from today's design (docs/model.md, "
                    "section 18). Apply makes the upgrade one edit; Undo takes it back.") +
        "</p>";
    return tip;
}

}  // namespace

UpgradesTable::UpgradesTable(DesignDocument* document, UpgradesService* service, QWidget* parent)
    : QWidget(parent), editor_(document), service_(service)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>What-if upgrades</b>, each against today's design:"), this);
    layout->addWidget(title);
    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName("upgrades");
    table_->setHorizontalHeaderLabels(
        {QString(), tr("Upgrade"), tr("Tokens/s"), tr("Wall days"), tr("Capex"), tr("Electricity"), tr("Facility")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table_, 1);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note_);
    connect(service_, &UpgradesService::finished, this, &UpgradesTable::refresh);
    connect(service_, &UpgradesService::started, this, [this] { table_->setEnabled(false); });
}

void UpgradesTable::refresh()
{
    table_->setEnabled(true);
    table_->clearContents();
    const UpgradesResult* r = service_->result();
    if (!r || !r->ok()) {
        table_->setRowCount(0);
        note_->setText(!r ? tr("No upgrades: the design has errors (see the Warnings dock).")
                          : tr("No upgrades: %1").arg(q(r->error)));
        return;
    }
    note_->setText(tr("Hover a row for what it changes; Apply makes it one edit (Undo takes it back)."));
    table_->setRowCount(int(r->upgrades.size()));
    for (int row = 0; row < int(r->upgrades.size()); ++row) {
        const UpgradeOutcome& o = r->upgrades[std::size_t(row)];
        auto* name = new QTableWidgetItem(upgradeTitle(o.proposal.kind));
        name->setFlags(Qt::ItemIsEnabled);
        table_->setItem(row, kName, name);
        auto* apply = new QPushButton(tr("Apply"), table_);
        apply->setEnabled(o.proposal.ok());
        connect(apply, &QPushButton::clicked, this, [this, row] { this->apply(row); });
        table_->setCellWidget(row, kApply, apply);
        if (!o.proposal.ok() || !o.after) {
            const QString why = o.proposal.ok() ? tr("does not run: %1").arg(q(o.whyNot))
                                                : tr("not possible: %1").arg(q(o.proposal.unavailable));
            auto* item = cell(why, o.proposal.ok() ? rowTip(*r, o) : why);
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            item->setForeground(palette().brush(QPalette::PlaceholderText));
            table_->setItem(row, kTokens, item);
            table_->setSpan(row, kTokens, 1, kColumns - kTokens);
            name->setToolTip(why);
            continue;
        }
        const QString tip = rowTip(*r, o);
        name->setToolTip(tip);
        if (o.gpus != r->gpus)  // NVL72 racks round the GPUs up
            name->setText(tr("%1 (%2 GPUs)").arg(name->text(), q(formatCount(o.gpus))));
        const ScaleFigures& a = *o.after;
        table_->setItem(row, kTokens, cell(withChange(a.tokensPerS, r->today.tokensPerS, compact(a.tokensPerS)), tip));
        table_->setItem(row, kDays,
                        cell(a.goodput > 0 ? withChange(a.wallDays, r->today.wallDays, days(a)) : days(a), tip));
        // Over the priced parts only: a part without a price leaves it short.
        auto* capex = cell(withChange(a.capexUsd, r->today.capexUsd, "$" + compact(a.capexUsd)) +
                               (a.costComplete ? QString() : tr(" *")),
                           a.costComplete ? tip
                                          : tr("Incomplete: a part this upgrade brings has no price, so the capex "
                                               "leaves it out.<br><br>") +
                                   tip);
        table_->setItem(row, kCapex, capex);
        table_->setItem(row, kCost,
                        cell(withChange(a.runCostUsd, r->today.runCostUsd, "$" + compact(a.runCostUsd)), tip));
        table_->setItem(row, kFacility,
                        cell(withChange(a.facilityKw, r->today.facilityKw, q(formatPowerKw(a.facilityKw))), tip));
        apply->setToolTip(tip);
    }
}

bool UpgradesTable::apply(int row)
{
    const UpgradesResult* r = service_->result();
    if (!r || row < 0 || row >= int(r->upgrades.size()) || !r->upgrades[std::size_t(row)].proposal.ok()) {
        emit message(tr("This upgrade cannot be applied to the design as it is now."));
        return false;
    }
    const ProposedUpgrade& p = r->upgrades[std::size_t(row)].proposal;
    const QString title = upgradeTitle(p.kind);
    // A copy: applying it restarts the service, which drops its result.
    const Design upgraded = p.design;
    const EditResult e = editor_.changeDesign(upgraded, tr("Upgrade: %1").arg(title));
    if (e.refused()) {
        emit message(tr("%1 was not applied: %2").arg(title, e.reason));
        return false;
    }
    emit message(tr("Applied %1 (Undo takes it back)").arg(title));
    return e.applied();
}

}  // namespace studio
