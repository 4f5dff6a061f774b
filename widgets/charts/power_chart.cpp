#include "widgets/charts/power_chart.h"

#include <QGridLayout>

#include <algorithm>

#include <qcustomplot.h>

#include "core/metrics/figure_names.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "widgets/charts/chart_text.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/qt_string.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

// IT by category, then what the facility adds on top (cooling, power
// conversion): one bar sums to the facility's load.
struct Load {
    const char* key;
    const char* name;
    double Power::*kw;
};
constexpr Load kLoads[] = {{"compute", "compute", &Power::computeKw},
                           {"network", "network", &Power::networkKw},
                           {"storage", "storage", &Power::storageKw},
                           {"other", "other", &Power::otherKw},
                           {"facility overhead", "facility overhead", &Power::overheadKw}};

}  // namespace

void PowerChart::setUp(ChartView& view)
{
    view_ = &view;
    racks_ = view.addPlot("racks");
    racks_->yAxis->setLabel(QObject::tr("Power per rack (kW)"));
    setCategoryAxis(racks_->xAxis);
    racks_->legend->setVisible(false);
    withinLimit_ = new QCPBars(racks_->xAxis, racks_->yAxis);
    withinLimit_->setObjectName("racks within their limit");
    overLimit_ = new QCPBars(racks_->xAxis, racks_->yAxis);
    overLimit_->setObjectName("racks over their limit");
    for (QCPBars* b : {withinLimit_, overLimit_}) {
        b->setWidth(0.55);
        view.setTip(b, [this, b](int i) {
            const auto& designs = view_->designs();
            const std::size_t bar = categoryOf(b, i);
            if (designs.size() != 1 || bar >= rackOf_.size() ||
                rackOf_[bar] >= designs.front().analysis->power.racks.size())
                return QString();
            const RackLoad& r = designs.front().analysis->power.racks[rackOf_[bar]];
            return view_->tip(0, q(r.name),
                              QObject::tr("%1 each, x %2").arg(power(r.kwEach), q(formatCount(rackCount_[bar]))),
                              "power.racks." + r.component);
        });
    }
    airLine_ = new QCPItemStraightLine(racks_);
    airLine_->setObjectName("air-cooling limit");
    airLabel_ = new ChartText(racks_);
    airLabel_->setObjectName("air-cooling limit label");
    airLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    airLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    airLabel_->setClipToAxisRect(true);
    view.setTip(airLine_, [this] {
        const auto& designs = view_->designs();
        return designs.empty()
            ? QString()
            : view_->tip(0, QObject::tr("Air-cooling limit"),
                         quantity(designs.front().analysis->power.airCoolingLimitKw.value, "kW per rack"),
                         "power.air_cooling_limit_kw");
    });
    noRacks_ = new ChartText(racks_);
    noRacks_->setObjectName("no racks");
    noRacks_->position->setType(QCPItemPosition::ptAxisRectRatio);
    noRacks_->position->setCoords(0.5, 0.45);

    facility_ = view.addPlot("facility");
    facility_->setMinimumHeight(150);
    setCategoryAxis(facility_->yAxis);  // a row per design when overlaid
    legendOutside(facility_, 3);
    loads_ =
        addStack(facility_->yAxis, facility_->xAxis, {"compute", "network", "storage", "other", "facility overhead"});
    for (QCPBars* b : loads_) {
        const bool overhead = b->objectName() == "facility overhead";
        view.setTip(b, [this, b, overhead](int i) {
            const auto& designs = view_->designs();
            const std::size_t d = categoryOf(b, i);
            if (d >= designs.size())
                return QString();
            const Power& p = designs[d].analysis->power;
            return overhead ? view_->tip(d, QObject::tr("Facility"), power(p.facilityKw), "power.facility_kw")
                            : view_->tip(d, QObject::tr("IT load"), power(p.itKw), "power.it_kw");
        });
    }
    pueLabel_ = new ChartText(facility_);
    pueLabel_->setObjectName("pue label");
    pueLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    pueLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);

    view.grid()->addWidget(racks_, 0, 0);
    view.grid()->addWidget(facility_, 1, 0);
    view.grid()->setColumnStretch(0, 3);
    view.grid()->setRowStretch(0, 3);
    view.grid()->setRowStretch(1, 1);
    if (FigureTable* table = view.figureTable()) {
        table->setMinimumWidth(260);
        table->setMaximumWidth(360);
        view.grid()->addWidget(table, 0, 1, 2, 1);
        view.grid()->setColumnStretch(1, 1);
    }
}

void PowerChart::draw(ChartView& view, const std::vector<ChartDesign>& designs)
{
    drawRacks(view, designs);
    drawFacility(view, designs);
}

void PowerChart::drawRacks(ChartView& view, const std::vector<ChartDesign>& designs)
{
    overlayRacks_.clear(racks_);
    const SceneColors colors = sceneColors();
    const bool one = designs.size() == 1;
    styleBars(withinLimit_, seriesColor(0), 170);
    styleBars(overLimit_, colors.error, 190);
    // Racks: one bar per kind of rack (a rack component, replicated) of one design,
    // or each design's densest; its limit a tick across the bar, the air
    // limit a line across the plot.
    struct Bar {
        const RackLoad* rack;
        std::size_t design;
        std::int64_t count = 0;  // racks the bar stands for
        std::int64_t alike = 0;  // other rack components in it
    };
    std::vector<Bar> bars;
    rackOf_.clear();
    rackCount_.clear();
    double air = 0;
    for (std::size_t i = 0; i < designs.size(); ++i) {
        const Power& p = designs[i].analysis->power;
        air = std::max(air, p.airCoolingLimitKw.value);
        if (!one) {
            bars.push_back({p.racks.empty() ? nullptr : &p.racks[p.maxRack], i});
            continue;
        }
        // Racks alike (one part, load, limit and cooling) are one bar: a
        // design drawn in full has a rack component per rack, and 512 bars
        // of one kind of rack read as none.
        for (std::size_t k = 0; k < p.racks.size(); ++k) {
            const RackLoad& r = p.racks[k];
            const auto same = std::find_if(bars.begin(), bars.end(), [&r](const Bar& b) {
                return b.rack->part == r.part && b.rack->kwEach == r.kwEach && b.rack->limitKw == r.limitKw &&
                    b.rack->cooling == r.cooling;
            });
            if (same != bars.end()) {
                same->count += r.count;
                ++same->alike;
                rackCount_[std::size_t(same - bars.begin())] = same->count;
                continue;
            }
            bars.push_back({&r, i, r.count, 0});
            rackOf_.push_back(k);
            rackCount_.push_back(r.count);
        }
    }
    QVector<double> okKeys, okValues, badKeys, badValues;
    auto ticker = categoryTicker(racks_->xAxis);
    ticker->clear();
    double top = air;
    std::size_t limits = 0;
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double key = double(i + 1);
        const RackLoad* r = bars[i].rack;
        if (!one)
            ticker->addTick(key, designTick(designs[i].label));
        if (!r)
            continue;
        top = std::max({top, r->kwEach, r->limitKw});
        if (one) {
            (r->overLimit() ? badKeys : okKeys) << key;
            (r->overLimit() ? badValues : okValues) << r->kwEach;
            const QString name = bars[i].alike > 0
                ? QObject::tr("%1 and %2 alike").arg(q(r->name), q(formatCount(bars[i].alike)))
                : q(r->name);
            ticker->addTick(
                key, name + "\n" + QObject::tr("x %1, %2 cooled").arg(q(formatCount(bars[i].count)), q(r->cooling)));
        } else {
            QCPBars* b = overlayRacks_.add(new QCPBars(racks_->xAxis, racks_->yAxis));
            b->setObjectName("densest rack");
            b->setName(designs[i].label);
            b->setWidth(0.55);
            styleBars(b, r->overLimit() ? colors.error : designColor(int(i)));
            b->addData(key, r->kwEach);
            view.setTip(b, [this, i](int) {
                const auto& designs = view_->designs();
                if (i >= designs.size() || designs[i].analysis->power.racks.empty())
                    return QString();
                const Power& p = designs[i].analysis->power;
                const RackLoad& rack = p.racks[p.maxRack];
                return view_->tip(i, QObject::tr("densest rack, %1").arg(q(rack.name)),
                                  QObject::tr("%1 (limit %2)").arg(power(rack.kwEach), power(rack.limitKw)),
                                  "power.max_rack_kw");
            });
        }
        while (limits_.size() <= limits)
            limits_.push_back(new QCPItemLine(racks_));
        QCPItemLine* limit = limits_[limits++];
        limit->setVisible(true);
        limit->setObjectName("limit " + q(r->component));
        const double half = one ? 0.38 : 0.3;
        limit->start->setCoords(key - half, r->limitKw);
        limit->end->setCoords(key + half, r->limitKw);
        limit->setPen(QPen(view.textColor(), 2));
        QCPItemText* t = view.label(racks_, rackLabels_, i);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(key, std::max(r->kwEach, r->limitKw));
        t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        t->setTextAlignment(Qt::AlignHCenter);
        // Overlaid, the value only: the limit is the tick, named in the tip.
        // One line: the plot's headroom above the limit (30% of the axis) is
        // a line high when the panel is at its smallest, not two.
        t->setText(one ? QObject::tr("%1 per rack, limit %2").arg(power(r->kwEach), power(r->limitKw))
                       : power(r->kwEach));
        t->position->setCoords(key, std::max(r->kwEach, r->limitKw));
        t->setColor(r->overLimit() ? colors.error : view.textColor());
    }
    for (std::size_t i = limits; i < limits_.size(); ++i)
        limits_[i]->setVisible(false);
    for (std::size_t i = 0; i < bars.size(); ++i)
        if (!bars[i].rack && i < rackLabels_.size())
            rackLabels_[i]->setVisible(false);
    ChartView::hideFrom(rackLabels_, bars.size());
    withinLimit_->setVisible(one);
    overLimit_->setVisible(one);
    withinLimit_->setData(okKeys, okValues, true);
    overLimit_->setData(badKeys, badValues, true);
    // At least three bars' room, so one rack type is not a slab.
    const double pad = std::max(0.6, (3.0 - double(bars.size())) / 2 + 0.6);
    racks_->xAxis->setRange(1 - pad, double(std::max<std::size_t>(bars.size(), 1)) + pad);
    racks_->yAxis->setRange(0, top * 1.3);
    bool none = true;
    for (const Bar& b : bars)
        none = none && !b.rack;
    noRacks_->setVisible(none);
    noRacks_->setText(one ? QObject::tr("No racks in the design.\nDrop a rack and put nodes in it to see kW per rack.")
                          : QObject::tr("No design has racks."));
    noRacks_->setColor(view.textColor(true));
    airLine_->point1->setCoords(0, air);
    airLine_->point2->setCoords(1, air);
    const QColor airColor = seriesColor(4);
    airLine_->setPen(QPen(airColor, 2, Qt::DashLine));
    // Under the line, at its right end: the racks' values sit above their
    // ticks, which are often at the same height.
    airLabel_->position->setCoords(racks_->xAxis->range().upper, air);
    airLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    airLabel_->setText(QObject::tr("air-cooling limit %1").arg(power(air)));
    airLabel_->setColor(airColor.darker(currentTheme() == Theme::Dark ? 100 : 130));
}

void PowerChart::drawFacility(ChartView& view, const std::vector<ChartDesign>& designs)
{
    const std::size_t n = designs.size();
    const bool one = n == 1;
    double most = 0;
    for (const ChartDesign& d : designs)
        most = std::max(most, d.analysis->power.facilityKw);
    // MW once any design reaches a megawatt, so the axis reads 1.5, not 1,500.
    scale_ = most >= 1000 ? 1e-3 : 1;
    facility_->xAxis->setLabel(scale_ < 1 ? QObject::tr("Power (MW)") : QObject::tr("Power (kW)"));
    fillStack(
        loads_, n, [&](std::size_t l, std::size_t i) { return designs[i].analysis->power.*kLoads[l].kw * scale_; },
        view.textColor(true));
    for (std::size_t l = 0; l < loads_.size(); ++l)
        loads_[l]->setName(one ? QObject::tr("%1 %2").arg(QObject::tr(kLoads[l].name),
                                                          power(designs.front().analysis->power.*kLoads[l].kw))
                               : QObject::tr(kLoads[l].name));
    auto ticker = categoryTicker(facility_->yAxis);
    ticker->clear();
    if (one) {
        const Power& p = designs.front().analysis->power;
        facility_->yAxis->setVisible(false);
        facility_->yAxis->setRangeReversed(false);
        facility_->yAxis->setRange(0.4, 1.7);
        facility_->xAxis->setRange(0, std::max(p.facilityKw * scale_, 1e-9) * 1.08);
        pueLabel_->setVisible(true);
        pueLabel_->position->setCoords(p.facilityKw * scale_, 1.35);
        pueLabel_->setText(
            QObject::tr("IT %1 x PUE %2 = facility %3").arg(power(p.itKw), readable(p.pue.value), power(p.facilityKw)));
        pueLabel_->setColor(view.textColor());
        ChartView::hideFrom(pueLabels_, 0);
        facility_->setMinimumHeight(150);
        facility_->setMaximumHeight(210);
        return;
    }
    // A row per design, the first on top, each with its PUE at its end.
    pueLabel_->setVisible(false);
    facility_->setMaximumHeight(QWIDGETSIZE_MAX);
    facility_->setMinimumHeight(90 + 45 * int(n));
    facility_->yAxis->setVisible(true);
    facility_->yAxis->setRangeReversed(true);
    facility_->yAxis->setRange(0.4, double(n) + 0.6);
    facility_->xAxis->setRange(0, std::max(most * scale_, 1e-9) * 1.5);
    for (std::size_t i = 0; i < n; ++i) {
        const Power& p = designs[i].analysis->power;
        ticker->addTick(double(i + 1), designTick(designs[i].label));
        QCPItemText* t = view.label(facility_, pueLabels_, i);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(p.facilityKw * scale_, double(i + 1));
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setText(QObject::tr(" x PUE %1 = %2").arg(readable(p.pue.value), power(p.facilityKw)));
        t->setColor(designColor(int(i)).darker(currentTheme() == Theme::Dark ? 100 : 115));
    }
    ChartView::hideFrom(pueLabels_, n);
}

std::vector<FigureRow> PowerChart::figures(const Analysis& a)
{
    const Power& p = a.power;
    std::vector<FigureRow> rows{
        {QObject::tr("Load"), {}, {}, FigureRow::Heading},
        explained(QObject::tr("IT load"), power(p.itKw), "power.it_kw"),
        explained(q(figureName("power.pue")), readable(p.pue.value), "power.pue"),
        explained(q(figureName("power.facility_kw")), power(p.facilityKw), "power.facility_kw", FigureRow::Good)};
    if (!p.racks.empty())
        rows.push_back(explained(q(figureName("power.max_rack_kw")), power(p.maxRackKw), "power.max_rack_kw",
                                 p.racksOverLimit > 0 ? FigureRow::Bad : FigureRow::Normal));
    if (p.racksOverLimit > 0)
        rows.push_back(explained(QObject::tr("Racks over their cooling limit"), q(formatCount(p.racksOverLimit)),
                                 "power.max_rack_kw", FigureRow::Bad));
    rows.push_back({QObject::tr("Per year"), {}, {}, FigureRow::Heading});
    rows.push_back(explained(q(figureName("power.energy_mwh_per_year")), quantity(p.energyMwhPerYear, "MWh"),
                             "power.energy_mwh_per_year"));
    rows.push_back(explained(q(figureName("power.cost_usd_per_year")), "$" + readable(p.costUsdPerYear),
                             "power.cost_usd_per_year"));
    rows.push_back(explained(q(figureName("power.co2_tonnes_per_year")), quantity(p.co2TonnesPerYear, "t"),
                             "power.co2_tonnes_per_year"));
    rows.push_back({QObject::tr("Training run"), {}, {}, FigureRow::Heading});
    rows.push_back(explainedIf(runUnavailable(a), q(figureName("power.training_run_mwh")),
                               quantity(a.trainingRunMwh, "MWh"), "power.training_run_mwh"));
    return rows;
}

}  // namespace studio
