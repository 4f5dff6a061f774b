#include "widgets/panels/power_panel.h"

#include <QGridLayout>

#include <qcustomplot.h>

#include "core/analysis/analysis.h"
#include "core/text.h"
#include "widgets/common/qt_string.h"
#include "widgets/panels/explain_html.h"
#include "widgets/panels/figure_table.h"
#include "widgets/style/theme.h"

namespace studio {
PowerPanel::PowerPanel(AnalysisService* service, QWidget* parent) : PlotPanel(tr("Power and PUE"), service, parent)
{
    racks_ = addPlot("racks");
    racks_->yAxis->setLabel(tr("Power per rack (kW)"));
    setCategoryAxis(racks_->xAxis);
    withinLimit_ = new QCPBars(racks_->xAxis, racks_->yAxis);
    withinLimit_->setObjectName("racks within their limit");
    overLimit_ = new QCPBars(racks_->xAxis, racks_->yAxis);
    overLimit_->setObjectName("racks over their limit");
    for (QCPBars* b : {withinLimit_, overLimit_}) {
        b->setWidth(0.55);
        setTip(b, [this, b](int i) {
            const Analysis* a = analysis();
            const std::size_t k = categoryOf(b, i);
            if (!a || k >= a->power.racks.size())
                return QString();
            const RackLoad& r = a->power.racks[k];
            return tip(q(r.name), tr("%1 each, x %2").arg(power(r.kwEach), q(formatCount(r.count))),
                       "power.racks." + r.component);
        });
    }
    airLine_ = new QCPItemStraightLine(racks_);
    airLine_->setObjectName("air-cooling limit");
    airLabel_ = new QCPItemText(racks_);
    airLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    airLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    airLabel_->setClipToAxisRect(true);
    setTip(airLine_, [this] {
        const Analysis* a = analysis();
        return a ? tip(tr("Air-cooling limit"), quantity(a->power.airCoolingLimitKw.value, "kW per rack"),
                       "power.air_cooling_limit_kw")
                 : QString();
    });
    noRacks_ = new QCPItemText(racks_);
    noRacks_->position->setType(QCPItemPosition::ptAxisRectRatio);
    noRacks_->position->setCoords(0.5, 0.45);
    noRacks_->setText(tr("No racks in the design.\nDrop a rack and put nodes in it to see kW per rack."));

    facility_ = addPlot("facility");
    facility_->setMinimumHeight(150);
    facility_->setMaximumHeight(210);
    facility_->xAxis->setLabel(tr("Power (kW)"));
    facility_->yAxis->setVisible(false);
    facility_->yAxis->setRange(0.4, 1.7);
    legendOutside(facility_, 3);
    loads_ = addStack(facility_->yAxis, facility_->xAxis, {"compute", "network", "storage", "other", "facility overhead"});
    for (QCPBars* b : loads_) {
        const bool overhead = b->objectName() == "facility overhead";
        setTip(b, [this, overhead](int) {
            const Analysis* a = analysis();
            if (!a)
                return QString();
            return overhead ? tip(tr("Facility"), power(a->power.facilityKw), "power.facility_kw")
                            : tip(tr("IT load"), power(a->power.itKw), "power.it_kw");
        });
    }
    pueLabel_ = new QCPItemText(facility_);
    pueLabel_->position->setType(QCPItemPosition::ptPlotCoords);
    pueLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);

    figures_ = addFigureTable();
    figures_->setMinimumWidth(260);
    figures_->setMaximumWidth(360);
    grid()->addWidget(racks_, 0, 0);
    grid()->addWidget(facility_, 1, 0);
    grid()->addWidget(figures_, 0, 1, 2, 1);
    grid()->setColumnStretch(0, 3);
    grid()->setColumnStretch(1, 1);
    grid()->setRowStretch(0, 3);
    grid()->setRowStretch(1, 1);
}

void PowerPanel::refresh(const Analysis& a)
{
    const Power& p = a.power;
    const SceneColors colors = sceneColors();
    QColor ok = seriesColor(0), bad = colors.error;
    withinLimit_->setPen(QPen(ok.darker(120)));
    ok.setAlpha(170);
    withinLimit_->setBrush(ok);
    overLimit_->setPen(QPen(bad.darker(120)));
    bad.setAlpha(190);
    overLimit_->setBrush(bad);

    // Racks: one bar per rack component (a type, replicated), its limit a
    // tick across the bar, the air limit a line across the plot.
    QVector<double> okKeys, okValues, badKeys, badValues;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(racks_->xAxis->ticker());
    ticker->clear();
    double top = p.airCoolingLimitKw.value;
    for (std::size_t i = 0; i < p.racks.size(); ++i) {
        const RackLoad& r = p.racks[i];
        const double key = double(i + 1);
        top = std::max({top, r.kwEach, r.limitKw});
        (r.overLimit() ? badKeys : okKeys) << key;
        (r.overLimit() ? badValues : okValues) << r.kwEach;
        ticker->addTick(key, q(r.name) + "\n" + tr("x %1, %2 cooled").arg(q(formatCount(r.count)), q(r.cooling)));
        while (limits_.size() <= i)
            limits_.push_back(new QCPItemLine(racks_));
        QCPItemLine* limit = limits_[i];
        limit->setVisible(true);
        limit->setObjectName("limit " + q(r.component));
        limit->start->setCoords(key - 0.38, r.limitKw);
        limit->end->setCoords(key + 0.38, r.limitKw);
        limit->setPen(QPen(textColor(), 2));
        QCPItemText* t = label(racks_, rackLabels_, i);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(key, std::max(r.kwEach, r.limitKw));
        t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        t->setTextAlignment(Qt::AlignHCenter);
        t->setText(tr("%1 per rack\nlimit %2").arg(power(r.kwEach), power(r.limitKw)));
        t->setColor(r.overLimit() ? colors.error : textColor());
    }
    for (std::size_t i = p.racks.size(); i < limits_.size(); ++i)
        limits_[i]->setVisible(false);
    hideFrom(rackLabels_, p.racks.size());
    withinLimit_->setData(okKeys, okValues, true);
    overLimit_->setData(badKeys, badValues, true);
    // At least three bars' room, so one rack type is not a slab.
    const double pad = std::max(0.6, (3.0 - double(p.racks.size())) / 2 + 0.6);
    racks_->xAxis->setRange(1 - pad, double(std::max<std::size_t>(p.racks.size(), 1)) + pad);
    racks_->yAxis->setRange(0, top * 1.3);
    noRacks_->setVisible(p.racks.empty());
    noRacks_->setColor(textColor(true));
    airLine_->point1->setCoords(0, p.airCoolingLimitKw.value);
    airLine_->point2->setCoords(1, p.airCoolingLimitKw.value);
    QColor air = seriesColor(4);
    airLine_->setPen(QPen(air, 2, Qt::DashLine));
    airLabel_->position->setCoords(racks_->xAxis->range().upper, p.airCoolingLimitKw.value);
    airLabel_->setText(tr("air-cooling limit %1").arg(power(p.airCoolingLimitKw.value)));
    airLabel_->setColor(air.darker(currentTheme() == Theme::Dark ? 100 : 130));

    // IT by category, then what the facility adds on top.
    const double parts[] = {p.computeKw, p.networkKw, p.storageKw, p.otherKw, p.overheadKw};
    const char* names[] = {"compute", "network", "storage", "other", "facility overhead"};
    for (std::size_t i = 0; i < loads_.size(); ++i) {
        QCPBars* b = loads_[i];
        b->setData({1.0}, {parts[i]}, true);
        const QColor c = i == 4 ? textColor(true) : seriesColor(int(i));
        b->setBrush(i == 4 ? QBrush(c, Qt::BDiagPattern) : QBrush(c));
        b->setPen(QPen(c.darker(120)));
        b->setName(tr("%1 %2").arg(tr(names[i]), power(parts[i])));
        if (parts[i] > 0)
            b->addToLegend();
        else
            b->removeFromLegend();
    }
    facility_->xAxis->setRange(0, std::max(p.facilityKw, 1e-9) * 1.08);
    pueLabel_->position->setCoords(p.facilityKw, 1.35);
    pueLabel_->setText(tr("IT %1 x PUE %2 = facility %3")
                           .arg(power(p.itKw), q(formatReadable(p.pue.value)), power(p.facilityKw)));
    pueLabel_->setColor(textColor());

    std::vector<FigureRow> rows{
        {tr("Load"), {}, {}, FigureRow::Heading},
        explained(tr("IT load"), power(p.itKw), "power.it_kw"),
        explained(tr("PUE"), q(formatReadable(p.pue.value)), "power.pue"),
        explained(tr("Facility load"), power(p.facilityKw), "power.facility_kw", FigureRow::Good)};
    if (!p.racks.empty())
        rows.push_back(explained(tr("Densest rack"), power(p.maxRackKw), "power.max_rack_kw",
                           p.racksOverLimit > 0 ? FigureRow::Bad : FigureRow::Normal));
    if (p.racksOverLimit > 0)
        rows.push_back(explained(tr("Racks over their cooling limit"), q(formatCount(p.racksOverLimit)),
                                 "power.max_rack_kw", FigureRow::Bad));
    rows.push_back({tr("Per year"), {}, {}, FigureRow::Heading});
    rows.push_back(explained(tr("Energy"), quantity(p.energyMwhPerYear, "MWh"), "power.energy_mwh_per_year"));
    rows.push_back(explained(tr("Cost"), "$" + q(formatReadable(p.costUsdPerYear)), "power.cost_usd_per_year"));
    rows.push_back(explained(tr("CO2"), quantity(p.co2TonnesPerYear, "t"), "power.co2_tonnes_per_year"));
    rows.push_back({tr("Training run"), {}, {}, FigureRow::Heading});
    rows.push_back(explained(tr("Energy of the run"), quantity(a.trainingRunMwh, "MWh"), "power.training_run_mwh"));
    figures_->setFigures(rows);
}

}  // namespace studio
