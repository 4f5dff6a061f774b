#include "widgets/search/layouts_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

#include "core/search/search_report.h"
#include "core/text.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/panels/message_stack.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

enum Column { Rank, LayoutColumn, Step, Mfu, Tokens, Memory, Bubble, Comm, VsCurrent, Columns };

QString percent(double fraction, int significant = 3)
{
    return q(formatReadable(100 * fraction, significant)) + "%";
}

// Why the figures in a candidate row are what they are: the same models
// the analysis panels use, with the row's layout applied.
const char* columnHelp(int column)
{
    switch (column) {
    case Rank:
        return "Rank by the objective among every feasible layout (ties go to the simpler layout: fewer axes, "
               "smaller groups, lower ZeRO stage, less recompute).";
    case LayoutColumn:
        return "tp, pp (v: interleaved chunks per stage), cp, ep, dp, micro-batch, ZeRO stage, recompute, SP: "
               "sequence parallelism. Double-click or Apply to use it.";
    case Step: return "Step time with this layout: the step-time model of the MFU panel (docs/model.md section 5).";
    case Mfu: return "MFU = model FLOPs per step / (step time x GPUs x peak).";
    case Tokens: return "Tokens per second = global batch x sequence length / step time.";
    case Memory:
        return "Memory per GPU: weights, gradients, optimizer state, activations and workspace (docs/model.md "
               "section 6).";
    case Bubble: return "Pipeline bubble: (pp - 1) / interleave slots of the slowest stage per step.";
    case Comm: return "Exposed communication: TP, CP, EP, PP and DP time that compute does not hide.";
    case VsCurrent: return "Objective against the current layout's: negative is better.";
    }
    return "";
}

// The cloud of feasible layouts is tens of thousands of points: a small
// pixmap stamped per point draws it in 1-2 ms where QCustomPlot's disc (an
// ellipse path per point) takes 15.
QPixmap dotPixmap(const QColor& color, int diameter)
{
    QPixmap dot(diameter, diameter);
    dot.fill(Qt::transparent);
    QPainter p(&dot);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(QRectF(0, 0, diameter, diameter));
    return dot;
}

}  // namespace

LayoutsPanel::LayoutsPanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent)
    : BackgroundPanel(parent), doc_(document), search_(new LayoutSearchService(document, analyses, this)),
      editor_(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Rank by"), this));
    objective_ = new QComboBox(this);
    objective_->addItem(tr("Step time per token"), int(Objective::Time));
    objective_->addItem(tr("Energy per token"), int(Objective::Energy));
    objective_->addItem(tr("Days to train (with goodput)"), int(Objective::Days));
    objective_->addItem(tr("Cost of the run"), int(Objective::Cost));
    objective_->setToolTip(tr("What the search minimises. With all the design's GPUs and a fixed batch the four "
                              "rank alike; they differ in the figure they compare (docs/model.md, Layout search). "
                              "Where cost ranks sizes apart from speed is the Scale panel's cheapest size."));
    bar->addWidget(objective_);
    progress_ = new RunProgressBar(search_, this);
    bar->addWidget(progress_);
    bar->addStretch(1);
    apply_ = new QPushButton(tr("Apply"), this);
    apply_->setToolTip(tr("Make the selected layout the design's (one undoable edit)"));
    apply_->setEnabled(false);
    bar->addWidget(apply_);
    layout->addLayout(bar);

    // The summary, table and plot, or a sentence saying why there are none.
    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(content);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    contentLayout->addWidget(summary_);

    auto* split = new QSplitter(Qt::Horizontal, content);
    table_ = new QTableWidget(0, Columns, split);
    table_->setHorizontalHeaderLabels({tr("#"), tr("Layout"), tr("Step s"), tr("MFU"), tr("Tokens/s"), tr("GB/GPU"),
                                       tr("Bubble s"), tr("Exposed comm s"), tr("vs current")});
    for (int c = 0; c < Columns; ++c)
        table_->horizontalHeaderItem(c)->setToolTip(tr(columnHelp(c)));
    table_->verticalHeader()->setVisible(false);
    table_->setWordWrap(false);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(LayoutColumn, QHeaderView::Stretch);
    plot_ = new ChartPlot(split);
    plot_->setMinimumWidth(280);
    // The axes show the best region; drag and wheel reach the rest.
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->xAxis->setLabel(tr("memory per GPU (GB)"));
    plot_->yAxis->setLabel(tr("step time (s)"));
    auto graph = [this](const QString& name) {
        QCPGraph* g = plot_->addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        return g;
    };
    all_ = graph(tr("feasible layouts"));
    top_ = graph(tr("top %1").arg(LayoutSearchService::kTop));
    current_ = graph(tr("current"));
    best_ = graph(tr("best"));
    selected_ = graph(tr("selected"));
    selected_->removeFromLegend();
    legendOutside(plot_, 4);
    split->addWidget(table_);
    split->addWidget(plot_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    contentLayout->addWidget(split, 1);
    stack_ = new MessageStack(content, this);
    layout->addWidget(stack_, 1);

    connect(objective_, &QComboBox::currentIndexChanged, this,
            [this] { search_->setObjective(Objective(objective_->currentData().toInt())); });
    connect(apply_, &QPushButton::clicked, this, [this] { applyRow(table_->currentRow()); });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applyRow(row); });
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const Layout* l = layoutOfRow(table_->currentRow());
        apply_->setEnabled(l && search_->result() && !(*l == search_->result()->current.layout));
        markSelection();
    });
    connect(plot_, &QCustomPlot::mouseMove, this, &LayoutsPanel::showPointTip);
    connect(search_, &LayoutSearchService::started, this, [this] {
        // The previous result stays, dimmed, until this one lands.
        summary_->setEnabled(false);
        table_->setEnabled(false);
    });
    connect(search_, &LayoutSearchService::finished, this, &LayoutsPanel::refresh);
    refresh();
}

void LayoutsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (stale_)
        refresh();
}

std::vector<BackgroundJob*> LayoutsPanel::jobs() const
{
    return {search_};
}

void LayoutsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        stylePlot(plot_, palette());
        plot_->replot();
    }
}

const Layout* LayoutsPanel::layoutOfRow(int row) const
{
    return row >= 0 && row < int(rowLayouts_.size()) ? &rowLayouts_[std::size_t(row)] : nullptr;
}

bool LayoutsPanel::applyRow(int row)
{
    const Layout* l = layoutOfRow(row);
    if (!l)
        return false;
    DesignSettings s = DesignSettings::of(doc_->design());
    applyLayout(s.workload, *l);
    const QString text = tr("Apply layout %1").arg(q(describeLayout(*l)));
    const EditResult r = editor_.changeSettings(std::move(s), text);
    if (r.refused())
        emit message(tr("%1 refused: %2").arg(text, r.reason));
    else if (r.applied())
        emit message(text);
    return r.applied();
}

void LayoutsPanel::refresh()
{
    if (!isVisible()) {
        stale_ = true;
        return;
    }
    stale_ = false;
    const SearchResult* r = search_->result();
    summary_->setEnabled(true);
    table_->setEnabled(true);
    // Nothing to rank (a serving design, errors): the choice has no effect.
    objective_->setEnabled((r && r->error.empty()) || search_->running());
    if (!r || !r->error.empty()) {
        table_->setRowCount(0);
        rowLayouts_.clear();
        for (QCPGraph* g : {all_, top_, current_, best_, selected_})
            g->data()->clear();
        plot_->replot();
        summary_->clear();
        showWhyNone(*stack_, tr("No layout search"), r ? &r->error : nullptr, search_->running(),
                    tr("Searching layouts..."), doc_->design());
        return;
    }
    stack_->showContent();
    QString text;
    if (!r->nothingFits.empty())
        text = "<b>" + q(r->nothingFits).toHtmlEscaped() + "</b>";
    else
        text = tr("Current layout: <b>%1</b>. ").arg(q(currentRankText(*r)).toHtmlEscaped());
    text += tr("Searched %1 layouts on %2 GPUs: %3 feasible; rejected %4 indivisible, %5 on a forbidden tier "
               "(tp beyond the NVLink domain), %6 out of memory.")
                .arg(q(formatCount(r->space)), q(formatCount(r->gpus)), q(formatCount(r->feasible)),
                     q(formatCount(r->rejected.indivisible)),
                     q(formatCount(r->rejected.forbiddenTier + r->rejected.noPath)),
                     q(formatCount(r->rejected.outOfMemory)));
    if (!r->allowed.empty())
        text += tr(" Within what %1 runs: %2 (the workload's Software).")
                    .arg(q(r->allowedBy), q(describeAllowed(r->allowed)))
                    .toHtmlEscaped();
    summary_->setText(text);
    fillTable(*r);
    plotPoints(*r);
}

void LayoutsPanel::fillTable(const SearchResult& r)
{
    const Layout* selected = layoutOfRow(table_->currentRow());
    const Layout keep = selected ? *selected : Layout{};
    const bool hadSelection = selected != nullptr;
    QSignalBlocker block(table_);
    rowLayouts_.clear();
    const auto& cur = r.current;
    bool currentListed = false;
    std::vector<std::pair<QString, const Candidate*>> rows;
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        rows.emplace_back(QString::number(i + 1), &r.top[i]);
        currentListed |= cur.feasible && r.top[i].layout == cur.layout;
    }
    // The current layout closes the table when it is not among the best.
    if (cur.feasible && !currentListed)
        rows.emplace_back("#" + q(formatCount(cur.rank)), &cur.figures);
    // Columns are sized to their contents once, after the fill: in
    // ResizeToContents mode every setItem measures its whole column again
    // (60 ms for 21 rows, on the GUI thread, each time a search lands).
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Fixed);
    table_->setRowCount(int(rows.size()));
    QFont bold = table_->font();
    bold.setBold(true);
    for (int row = 0; row < int(rows.size()); ++row) {
        const Candidate& c = *rows[std::size_t(row)].second;
        rowLayouts_.push_back(c.layout);
        const bool isCurrent = cur.feasible && c.layout == cur.layout;
        const double vs = cur.feasible && cur.figures.objective > 0 ? c.objective / cur.figures.objective - 1 : NAN;
        const QStringList cells = {rows[std::size_t(row)].first,
                                   q(describeLayout(c.layout)) + (isCurrent ? tr("  (current)") : QString()),
                                   q(formatReadable(c.stepS, 4)),
                                   percent(c.mfu),
                                   q(formatReadable(c.tokensPerS)),
                                   q(formatReadable(c.memoryGb)),
                                   q(formatReadable(c.bubbleS)),
                                   q(formatReadable(c.exposedCommS)),
                                   std::isnan(vs) ? QString("-") : (vs > 0 ? "+" : "") + percent(vs)};
        for (int col = 0; col < Columns; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setTextAlignment(col == LayoutColumn ? Qt::AlignLeft | Qt::AlignVCenter
                                                       : Qt::AlignRight | Qt::AlignVCenter);
            // The layout column is often too narrow for the whole layout.
            item->setToolTip(col == LayoutColumn ? cells[col] + "\n\n" + tr(columnHelp(col)) : tr(columnHelp(col)));
            if (isCurrent)
                item->setFont(bold);
            table_->setItem(row, col, item);
        }
    }
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(LayoutColumn, QHeaderView::Stretch);
    int select = 0;
    for (int row = 0; hadSelection && row < int(rowLayouts_.size()); ++row)
        if (rowLayouts_[std::size_t(row)] == keep)
            select = row;
    if (!rowLayouts_.empty())
        table_->selectRow(select);
    const Layout* l = layoutOfRow(table_->currentRow());
    apply_->setEnabled(l && !(cur.feasible && *l == cur.layout));
}

void LayoutsPanel::plotPoints(const SearchResult& r)
{
    const QPalette pal = palette();
    QColor muted = pal.color(QPalette::PlaceholderText);
    muted.setAlpha(110);
    all_->setScatterStyle(QCPScatterStyle(dotPixmap(muted, 3)));
    top_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, designColor(0), designColor(0), 6));
    current_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(designColor(1), 2.5), Qt::NoBrush, 13));
    best_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(designColor(2), 2.5), Qt::NoBrush, 16));
    selected_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(pal.color(QPalette::Highlight), 2), Qt::NoBrush, 11));

    QVector<double> x, y;
    x.reserve(int(r.points.size()));
    y.reserve(int(r.points.size()));
    double xMax = 0, yMin = INFINITY, yMax = 0;
    for (const auto& p : r.points) {
        x.push_back(p.memoryGb);
        y.push_back(p.stepS);
        xMax = std::max(xMax, p.memoryGb);
        yMin = std::min(yMin, p.stepS);
        yMax = std::max(yMax, p.stepS);
    }
    // Not sorted by memory: QCPGraph sorts (its visible range and sampling
    // depend on it; a zoomed plot would lose points otherwise).
    all_->setData(x, y);
    x.clear();
    y.clear();
    for (const auto& c : r.top) {
        x.push_back(c.memoryGb);
        y.push_back(c.stepS);
    }
    top_->setData(x, y);
    current_->data()->clear();
    if (r.current.feasible)
        current_->addData(r.current.figures.memoryGb, r.current.figures.stepS);
    best_->data()->clear();
    if (!r.top.empty())
        best_->addData(r.top.front().memoryGb, r.top.front().stepS);
    if (r.points.empty()) {
        plot_->xAxis->setRange(0, 1);
        plot_->yAxis->setRange(0, 1);
    } else {
        // Step times span decades when a layout starves the GPUs: the best
        // region matters most, so the axis starts at zero and stops where
        // most of the field lies, at most ten times the best.
        plot_->xAxis->setRange(0, xMax * 1.05);
        plot_->yAxis->setRange(0, std::min(yMax, 10 * yMin) * 1.05);
    }
    stylePlot(plot_, pal);
    markSelection();
}

void LayoutsPanel::markSelection()
{
    selected_->data()->clear();
    const Layout* l = layoutOfRow(table_->currentRow());
    const SearchResult* r = search_->result();
    if (l && r) {
        if (r->current.feasible && *l == r->current.layout)
            selected_->addData(r->current.figures.memoryGb, r->current.figures.stepS);
        for (const auto& c : r->top)
            if (c.layout == *l)
                selected_->addData(c.memoryGb, c.stepS);
    }
    plot_->replot();
}

void LayoutsPanel::showPointTip(QMouseEvent* event)
{
    const SearchResult* r = search_->result();
    if (!r || r->points.empty())
        return;
    // The nearest point within a few pixels: a linear pass is a fraction of
    // a millisecond even over tens of thousands of layouts.
    const int at = nearestPoint(
        plot_, event->position(), r->points.size(),
        [&](std::size_t i) { return QPointF(r->points[i].memoryGb, r->points[i].stepS); }, 8);
    if (at < 0) {
        QToolTip::hideText();
        return;
    }
    const SearchPoint* nearest = &r->points[std::size_t(at)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1\nstep %2 s, %3 GB per GPU\n%4 %5")
                           .arg(q(describeLayout(nearest->layout)), q(formatReadable(nearest->stepS, 4)),
                                q(formatReadable(nearest->memoryGb)), q(formatReadable(nearest->objective, 4)),
                                objectiveUnit(r->objective)),
                       plot_);
}

}  // namespace studio
