#include "widgets/serving/serving_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

#include "core/metrics/figure_names.h"
#include "core/metrics/serving_error_band.h"
#include "core/serving/serving.h"
#include "core/text.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/figure_table.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/commands.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"
#include "widgets/panels/message_stack.h"
#include "widgets/report/report_document.h"
#include "widgets/serving/arrival_band_service.h"
#include "widgets/serving/serving_search_service.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

QString num(double v, int significant = 3)
{
    return q(formatReadable(v, significant));
}

// The engine as its users know it.
QString engineName(const std::string& engine)
{
    return q(engineDisplayName(engine));
}

// The engine's KV cache budget with its figures: how each engine divides a
// GPU's memory (core/serving/engine.h, EngineMemory; the explanation of
// serving.max_batch names every source).
QString kvBudgetTip(const Serving& s)
{
    const EngineMemory& m = s.memory;
    // The share's source up to its figures ("TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction").
    const std::string& source = m.fractionSource;
    QString tip = QObject::tr("%1%2: %3, %4 sequences of %5 (%6")
                      .arg(s.disaggregation ? QObject::tr("a decode worker's GPU, ") : QString(),
                           engineName(s.engine.engine), q(kvBudgetWorked(m, s.engine.engine)),
                           q(formatCount(s.maxBatch)), num(s.kvGbPerSequence / double(s.gpusPerReplica)) + " GB",
                           q(source.substr(0, std::min(source.find(','), source.find(" as ")))));
    return tip + (m.engineOwn() > 0 ? QObject::tr("; buffers: AIConfigurator's memory model)") : QString(")"));
}

QString secs(double s)
{
    return q(formatSeconds(s));
}

// A log-log plot of tokens/s per GPU against tokens/s per user: the batch
// curve and the search's frontier.
ChartPlot* tradePlot(QWidget* parent, const char* name, const QString& perGpu)
{
    auto* plot = new ChartPlot(parent);
    plot->setObjectName(name);
    plot->setMinimumWidth(290);
    setLogLog(plot, QObject::tr("tokens/s per user"), perGpu);
    return plot;
}

// The figures, each row saying on hover how it is made; `band` the first
// token replayed at the two ends of the arrival pattern, where known, and
// `replaying` whether that replay is under way.
std::vector<FigureRow> rowsOf(const Serving& s, const ArrivalBand* band, bool replaying)
{
    const DecodePoint& d = s.decode;
    std::vector<FigureRow> rows;
    if (const auto& x = s.disaggregation) {
        const auto workers = [](const ServingWorker& k, const QString& kind) {
            return QObject::tr("%1 %2 x tp %3 pp %4").arg(k.workers).arg(kind).arg(k.tp).arg(k.pp);
        };
        QString tiers;
        for (const auto& [key, share] : x->kvTiers)
            tiers += (tiers.isEmpty() ? "" : ", ") + q(key) + " " + num(100 * share) + "%";
        rows.push_back({QObject::tr("Layout"),
                        workers(x->prefill, QObject::tr("prefill")) + " + " + workers(x->decode, QObject::tr("decode")),
                        QObject::tr("workload.serving.disaggregated: one copy of %1 GPUs, laid out from the design's "
                                    "first GPU, prefill workers first; the design holds %2 copies. Limited by its %3 "
                                    "(prefill workers %4% busy, decode workers %5%)")
                            .arg(x->gpusPerCopy)
                            .arg(x->copies)
                            .arg(x->limitedBy == "kv_links" ? QObject::tr("links moving the KV cache")
                                                            : q(x->limitedBy) + QObject::tr(" workers"))
                            .arg(num(100 * x->prefill.utilization), num(100 * x->decode.utilization))});
        rows.push_back(
            {QObject::tr("KV cache move"), secs(x->kvTransferS),
             QObject::tr("%1 bytes per request (prompt x 2 x layers x kv_heads x head_dim x bytes) from "
                         "the prefill worker's shards to the decode worker's, over %2 (the pairs' tiers); "
                         "the moves use %3% of the links; added to the time to first token")
                 .arg(q(formatCount(std::int64_t(x->kvBytesPerRequest))), tiers, num(100 * x->kvLinkShare))});
    } else {
        rows.push_back(
            {QObject::tr("Replica"), QObject::tr("tp %1 x pp %2 = %3 GPUs").arg(s.tp).arg(s.pp).arg(s.gpusPerReplica),
             s.replicasInDesign == 1 ? QObject::tr("workload.parallelism's tp x pp; the design holds 1 replica")
                                     : QObject::tr("workload.parallelism's tp x pp; the design holds %1 replicas")
                                           .arg(q(formatCount(s.replicasInDesign)))});
    }
    // The steady state's first token; and, once replayed, what the users
    // would see as their requests line up.
    QString ttftHow =
        QObject::tr("the step in flight when the request comes (%1) + %2 step(s) of %3 prompt tokens, %4 each; "
                    "one prompt on its own: %5")
            .arg(secs(d.engine.arrivalWaitS), q(formatCount(std::int64_t(d.engine.promptSteps))),
                 q(formatCount(std::int64_t(std::round(d.engine.prefillTokensPerMixStep)))), secs(d.engine.mixStepS),
                 secs(s.prefillS));
    if (band)
        ttftHow += ". " + q(arrivalBandText(*band));
    else if (replaying)
        ttftHow += QObject::tr(". Replaying the engine step by step as the users' requests line up (under way)");
    rows.insert(
        rows.end(),
        {
            {q(figureName("serving.batch")), q(formatCount(s.batch)),
             QObject::tr("workload.serving.batch, or with 0 the largest of at most %1 that meets the latency targets "
                         "(docs/model.md section 19)")
                 .arg(q(formatCount(s.maxBatch)))},
            {QObject::tr("Engine"), engineName(s.engine.engine),
             QObject::tr("workload.serving.engine; %1 tokens one step carries (prompt chunks and decodes): %2; "
                         "requests in flight: %3")
                 .arg(q(formatCount(std::int64_t(s.engine.stepTokens))), q(s.engine.stepTokensSource),
                      q(s.engine.maxRequestsSource))},
            {q(figureName("serving.ttft_s")), secs(s.ttftS), ttftHow},
            {q(figureName("serving.tpot_s")), secs(d.tpotS),
             QObject::tr("a decode step alone, %1 (pp x (max(memory %2, compute %3) + communication) at batch %4, %5), "
                         "and the other users' prompt chunks in %6 of a request's %7 output steps, %8 each")
                 .arg(secs(d.stepS), secs(d.memoryS), secs(d.computeS), q(formatCount(d.batch)),
                      d.bandwidthBound() ? QObject::tr("bandwidth-bound") : QObject::tr("compute-bound"),
                      num(std::max(0.0, d.engine.mixStepsPerCycle - d.engine.promptSteps)),
                      q(formatCount(std::max<std::int64_t>(0, s.outputTokens - 1))), secs(d.engine.mixStepS))},
            {QObject::tr("End to end"), secs(s.e2eS), QObject::tr("time to first token + (output tokens - 1) x TPOT")},
            {q(figureName("serving.tokens_per_s_per_user")), num(d.tokensPerSPerUser),
             QObject::tr("1 / time per output token")},
            {q(figureName("serving.tokens_per_s_per_gpu")), num(d.tokensPerSPerGpu),
             QObject::tr("batch x output tokens / (TTFT + (output tokens - 1) x TPOT) / GPUs per replica = %1 / %2; "
                         "steps carrying prompt chunks take %3% of a request's time (continuous batching)")
                 .arg(num(d.tokensPerSPerReplica))
                 .arg(s.gpusPerReplica)
                 .arg(num(100 * d.prefillShare))},
            {QObject::tr("MFU of serving"), num(100 * d.mfu) + "%",
             QObject::tr("tokens/s x 2 x active parameters / (GPUs x %1 TFLOP/s, the %2 peak)")
                 .arg(num(s.peakTflops, 4), q(s.weightPrecision))},
            {QObject::tr("Weights per GPU"), num(s.weightsGbPerGpu) + " GB",
             QObject::tr("parameters x bytes at %1 / GPUs per replica").arg(q(s.weightPrecision))},
            {QObject::tr("KV cache budget per GPU"), num(s.memory.kvBudget / 1e9) + " GB", kvBudgetTip(s)},
            {QObject::tr("KV cache per replica"), num(s.kvCacheGbPerReplica) + " GB",
             QObject::tr("batch x (prompt + output) x %1 bytes per token (2 x layers x kv_heads x head_dim x bytes at "
                         "%2)")
                 .arg(q(formatCount(std::int64_t(s.kvBytesPerToken))), q(s.kvPrecision))},
            {QObject::tr("Requests in flight"), num(s.concurrentRequests),
             QObject::tr("arrival rate x end-to-end latency at the batch served (Little's law, seed 002): what sizes "
                         "the replicas")},
            {q(figureName("serving.replicas_needed")),
             QObject::tr("%1 (%2 GPUs)").arg(q(formatCount(s.replicasNeeded)), q(formatCount(s.gpusNeeded))),
             QObject::tr("requests in flight / batch, rounded up; x GPUs per replica")},
            {q(figureName("serving.kwh_per_million_tokens")), num(s.kwhPerMillionTokens) + " kWh",
             QObject::tr("replica's facility power %1 kW / (tokens/s per replica x 3,600) x 10^6")
                 .arg(num(s.kwPerReplica))},
            {q(figureName("serving.usd_per_million_tokens")), "$" + num(s.usdPerMillionTokens),
             QObject::tr("energy per million tokens x the electricity price, %1 USD/kWh").arg(num(s.pricePerKwh))},
        });
    // A disaggregated copy's latencies come from its own workers. An
    // aggregated replica's say how far measured serving on its GPU and
    // engine fell from the model (the measured points are aggregated).
    if (const auto& x = s.disaggregation) {
        for (FigureRow& r : rows) {
            if (r.name == q(figureName("serving.ttft_s")))
                r.tip = QObject::tr("the prefill step in flight, as often as the prefill workers are busy (%1) + %2 "
                                    "step(s) of %3 prompts, %4 each + moving the KV cache, %5")
                            .arg(secs(d.engine.arrivalWaitS), num(d.engine.promptSteps), num(x->promptsPerStep),
                                 secs(x->prefillStepS), secs(x->kvTransferS));
            else if (r.name == q(figureName("serving.tpot_s")))
                r.tip = QObject::tr("a decode worker's step at batch %1, no prompt sharing it (pp x (max(memory %2, "
                                    "compute %3) + communication), %4)")
                            .arg(q(formatCount(d.batch)), secs(d.memoryS), secs(d.computeS),
                                 d.bandwidthBound() ? QObject::tr("bandwidth-bound") : QObject::tr("compute-bound"));
        }
    } else {
        for (FigureRow& r : rows)
            for (ServedFigure figure : kServedFigures)
                if (r.name == q(figureName(servedFigureKey(figure))))
                    r.tip += ". " + q(servingErrorBand(s.gpuName, s.engine.engine, figure).text);
    }
    // At the arrival rate: the load over the replicas, at the latencies it
    // gives (Little's law solved with them).
    if (const ServingOperation& o = s.operation; o.set()) {
        const QString how =
            (o.replicas == 1 ? QObject::tr("%1 requests/s over %2 replica (%3): it holds the "
                                           "requests in flight Little's law gives at the latencies "
                                           "they cause, served as the engine serves %4 users")
                             : QObject::tr("%1 requests/s over %2 replicas (%3): each holds the "
                                           "requests in flight Little's law gives at the latencies "
                                           "they cause, served as the engine serves %4 users"))
                .arg(num(s.arrivalRatePerS), q(formatCount(o.replicas)),
                     o.designHoldsLoad ? QObject::tr("the design's") : QObject::tr("needed; the design holds fewer"),
                     q(formatCount(o.at.batch)));
        rows.push_back(
            {QObject::tr("At the load, %1 requests/s").arg(num(s.arrivalRatePerS)), {}, {}, FigureRow::Heading});
        rows.push_back({QObject::tr("In flight at the load"), num(o.inFlightPerReplica), how});
        rows.push_back({QObject::tr("TTFT at the load"), secs(o.at.ttftS), how});
        rows.push_back({QObject::tr("TPOT at the load"), secs(o.at.tpotS), how});
        rows.push_back({QObject::tr("Tokens/s/GPU at the load"), num(o.tokensPerSPerGpu),
                        QObject::tr("arrival rate per replica x output tokens / GPUs per replica; ") + how});
    }
    return rows;
}

}  // namespace

ServingPanel::ServingPanel(DesignDocument* document, AnalysisService* analyses, QWidget* parent)
    : BackgroundPanel(parent), analyses_(analyses)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    // The summary and the tabs, or (no analysis, or a training workload) a
    // sentence saying why there is nothing to serve.
    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(content);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    contentLayout->addWidget(summary_);
    // This design's figures, and (setSearch) the best way to serve beside
    // them: a tab each, so neither is squeezed in a short dock.
    tabs_ = new QTabWidget(content);
    tabs_->setObjectName("serving tabs");
    tabs_->setDocumentMode(true);
    tabs_->setTabBarAutoHide(true);
    // This design's curve, memory and figures, or why it cannot be served
    // as laid out (the search's tab may still find what can).
    auto* page = new QWidget(tabs_);
    auto* row = new QHBoxLayout(page);
    row->setContentsMargins(0, 4, 0, 0);
    curve_ = tradePlot(this, "serving curve", tr("tokens/s per GPU"));
    curve_->setMouseTracking(true);
    connect(curve_, &QCustomPlot::mouseMove, this, &ServingPanel::showTip);
    memory_ = new ChartPlot(this);
    memory_->setObjectName("serving memory");
    memory_->setMinimumWidth(190);
    figures_ = new FigureTable(this);
    figures_->setObjectName("serving figures");
    // Room for its names beside their values: in a narrow dock the curve
    // and the memory bar give way first ("Time per output t..." was cut).
    figures_->setMinimumWidth(280);
    row->addWidget(curve_, 5);
    row->addWidget(memory_, 2);
    row->addWidget(figures_, 3);
    pageStack_ = new MessageStack(page, tabs_);
    tabs_->addTab(pageStack_, tr("This design"));
    contentLayout->addWidget(tabs_, 1);
    stack_ = new MessageStack(content, this);
    layout->addWidget(stack_, 1);
    connect(analyses_, &AnalysisService::updated, this, &ServingPanel::refresh);
    refresh();
    if (document)
        addSearch(document);
}

std::vector<BackgroundJob*> ServingPanel::jobs() const
{
    if (search_)
        return {search_, arrivals_};
    return {};
}

void ServingPanel::addSearch(DesignDocument* document)
{
    doc_ = document;
    search_ = new ServingSearchService(document, analyses_, this);
    arrivals_ = new ArrivalBandService(document, analyses_, this);
    // A detail of one row's explanation: replayed once the edits pause, so
    // a burst of edits (a spin box held) shares no core with it.
    arrivals_->setQuietMs(BackgroundRunner::kQuietMs);
    const auto refill = [this] {
        if (const Serving* s = analyses_->serving(); s && s->ok())
            fillFigures(*s);
    };
    connect(arrivals_, &BackgroundJob::started, this, refill);
    connect(arrivals_, &BackgroundJob::finished, this, refill);
    searchBox_ = new QWidget(tabs_);
    auto* row = new QHBoxLayout(searchBox_);
    row->setContentsMargins(0, 4, 0, 0);
    // Per GPU of the whole design (idle ones too), as the candidates' column
    // says in its tip; the short label fits a short dock.
    frontier_ = tradePlot(searchBox_, "serving frontier", tr("tokens/s per GPU"));
    auto* side = new QVBoxLayout;
    verdict_ = new QLabel(searchBox_);
    verdict_->setObjectName("serving verdict");
    verdict_->setWordWrap(true);
    // The objective next to the configuration, where a narrow dock still
    // shows it; the latencies it was held to after.
    const QStringList head = {tr("Mode"), tr("Configuration"), tr("tok/s/GPU"), tr("tok/s/user"), tr("TTFT"),
                              tr("TPOT"), tr("Batch"),         tr("KV move"),   tr("tok/s/kW")};
    candidates_ = new QTableWidget(0, int(head.size()), searchBox_);
    candidates_->setObjectName("serving candidates");
    candidates_->setHorizontalHeaderLabels(head);
    const QStringList tips = {
        tr("aggregated: replicas that prefill and decode; disaggregated: prefill workers and decode workers"),
        tr("the layout, and the weights' and KV cache's precisions"),
        tr("tokens/s over every GPU of the design (those a layout leaves idle too): what the search maximises"),
        tr("tokens/s one user sees: 1 / time per output token"),
        tr("time to first token, as the engine serves the batch (with the KV cache's move when split)"),
        tr("time per output token"),
        tr("requests served at once per replica (per decode worker when split)"),
        tr("moving one prompt's KV cache from its prefill worker to its decode worker"),
        tr("tokens/s per kW of the design's facility power")};
    for (int c = 0; c < int(tips.size()); ++c)
        candidates_->horizontalHeaderItem(c)->setToolTip(tips[c]);
    candidates_->verticalHeader()->hide();
    candidates_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    candidates_->setSelectionBehavior(QAbstractItemView::SelectRows);
    candidates_->setSelectionMode(QAbstractItemView::SingleSelection);
    candidates_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    candidates_->horizontalHeader()->setStretchLastSection(true);
    apply_ = new QPushButton(tr("Apply"), searchBox_);
    apply_->setToolTip(tr("Make the selected configuration the design's (one undoable edit)"));
    apply_->setEnabled(false);
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(apply_);
    side->addWidget(verdict_);
    side->addWidget(candidates_, 1);
    side->addLayout(bar);
    row->addWidget(frontier_, 5);
    row->addLayout(side, 5);
    tabs_->addTab(searchBox_, tr("Best way to serve"));
    // Either run's progress beside the tabs, once it takes longer than a frame.
    auto* runs = new QWidget(tabs_);
    auto* runsRow = new QHBoxLayout(runs);
    runsRow->setContentsMargins(0, 0, 4, 0);
    for (auto [job, tip] : {std::pair<BackgroundJob*, QString>{search_, tr("Searching the ways to serve")},
                            {arrivals_, tr("Replaying the first token as the users' requests line up")}}) {
        auto* bar = new RunProgressBar(job, runs);
        bar->setObjectName(job == search_ ? "serving search progress" : "arrival replay progress");
        bar->setToolTip(tip);
        runsRow->addWidget(bar);
    }
    tabs_->setCornerWidget(runs, Qt::TopRightCorner);
    connect(apply_, &QPushButton::clicked, this, [this] { applyRow(candidates_->currentRow()); });
    connect(candidates_, &QTableWidget::cellDoubleClicked, this, [this](int r, int) { applyRow(r); });
    connect(candidates_, &QTableWidget::currentCellChanged, this,
            [this](int r) { apply_->setEnabled(r >= 0 && r < int(rowCandidates_.size())); });
    connect(search_, &BackgroundJob::finished, this, &ServingPanel::refreshSearch);
    // A new analysis or another tab: whether the search is wanted, and what it shows.
    const auto resync = [this] {
        updateWanted();
        refreshSearch();
    };
    connect(analyses_, &AnalysisService::updated, this, resync);
    connect(tabs_, &QTabWidget::currentChanged, this, resync);
    resync();
}

void ServingPanel::setShown(bool shown)
{
    shown_ = shown;
    updateWanted();
}

void ServingPanel::updateWanted()
{
    if (search_)
        search_->setWanted(shown_ && tabs_->currentWidget() == searchBox_ && analyses_->serving() != nullptr);
    if (arrivals_)
        arrivals_->setWanted(shown_ && analyses_->serving() != nullptr);
}

bool ServingPanel::applyRow(int row)
{
    // A row of the search for the design before the last edit is not applied.
    if (!doc_ || !search_->result() || row < 0 || row >= int(rowCandidates_.size()))
        return false;
    const ServingCandidate c = rowCandidates_[std::size_t(row)];
    DesignSettings settings = DesignSettings::of(doc_->design());
    if (!settings.workload.serving)
        return false;
    applyServingCandidate(settings.workload, c);
    const QString text = tr("Serve as %1").arg(q(describeServingCandidate(c)));
    const EditResult r = DesignEditor(doc_).changeSettings(std::move(settings), text);
    if (r.refused())
        emit message(tr("%1 refused: %2").arg(text, r.reason));
    else if (r.applied())
        emit message(text);
    return r.applied();
}

void ServingPanel::refreshSearch()
{
    if (!searchBox_)
        return;
    const Serving* s = analyses_->serving();
    // While a search runs for the latest edit, the last one stays on show
    // (Apply waits for the fresh one): an edit does not blank the tab.
    const ServingSearchResult* fresh = search_->result();
    const ServingSearchResult* r = fresh ? fresh : search_->lastResult();
    frontier_->clearGraphs();
    frontier_->clearItems();
    candidates_->setRowCount(0);
    rowCandidates_.clear();
    apply_->setEnabled(false);
    candidates_->setEnabled(fresh != nullptr);
    if (!s || !r || !r->ok()) {
        verdict_->setText(!s                           ? QString()
                              : r && !r->error.empty() ? q(r->error)
                                                       : tr("Searching aggregated and disaggregated layouts..."));
        stylePlot(frontier_, palette());
        frontier_->replot();
        return;
    }
    verdict_->setText(
        fresh ? q(r->verdict)
              : tr("Searching again for the latest edit; until then, for the design before it: %1").arg(q(r->verdict)));
    verdict_->setToolTip(tr("%1 configurations on %2 GPUs, %3 modelled by the serving analysis, %4 meet the targets "
                            "(docs/model.md section 19, \"The serving search\")")
                             .arg(q(formatCount(r->space)), q(formatCount(r->gpus)), q(formatCount(r->modelled)),
                                  q(formatCount(r->feasible))));
    // The frontier: each kind's candidates, the design's own starred.
    double lo = INFINITY, hi = 0, left = INFINITY, right = 0;
    const auto extend = [&](const ServingCandidate& c) {
        lo = std::min(lo, c.tokensPerSPerGpu);
        hi = std::max(hi, c.tokensPerSPerGpu);
        left = std::min(left, c.tokensPerSPerUser);
        right = std::max(right, c.tokensPerSPerUser);
    };
    // Each kind's best as its batch grows: the frontier it traces.
    int kind = 0;
    for (const auto& [frontier, name] : {std::pair{&r->aggregatedFrontier, tr("best aggregated, batch 1 up")},
                                         std::pair{&r->disaggregatedFrontier, tr("best disaggregated, batch 1 up")}}) {
        QCPGraph* line = frontier_->addGraph();
        line->setName(name);
        line->setPen(QPen(designColor(kind == 0 ? 0 : 2), 1.5, Qt::DashLine));
        QVector<double> x, y;
        for (const auto& p : *frontier) {
            x.push_back(p.tokensPerSPerUser);
            y.push_back(p.tokensPerSPerGpu);
            lo = std::min(lo, p.tokensPerSPerGpu);
            hi = std::max(hi, p.tokensPerSPerGpu);
            left = std::min(left, p.tokensPerSPerUser);
            right = std::max(right, p.tokensPerSPerUser);
        }
        line->setData(x, y);  // not sorted by key: the curve runs from right to left
        ++kind;
    }
    kind = 0;
    for (const auto& [list, name] :
         {std::pair{&r->aggregated, tr("aggregated")}, std::pair{&r->disaggregated, tr("disaggregated")}}) {
        QCPGraph* g = frontier_->addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        const QColor color = designColor(kind == 0 ? 0 : 2);
        g->setScatterStyle(kind == 0 ? QCPScatterStyle(QCPScatterStyle::ssDisc, color, 7)
                                     : QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(color, 2), color, 9));
        for (const ServingCandidate& c : *list) {
            g->addData(c.tokensPerSPerUser, c.tokensPerSPerGpu);
            extend(c);
        }
        ++kind;
    }
    if (r->currentFeasible) {
        QCPGraph* own = frontier_->addGraph();
        own->setName(tr("the design's: %1").arg(q(describeServingCandidate(r->current))));
        own->setLineStyle(QCPGraph::lsNone);
        own->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(designColor(1), 2.5), Qt::NoBrush, 16));
        own->addData(r->current.tokensPerSPerUser, r->current.tokensPerSPerGpu);
        extend(r->current);
    }
    if (hi > 0) {
        frontier_->xAxis->setRange(decadeBelow(left), decadeAbove(right));
        frontier_->yAxis->setRange(decadeBelow(lo), decadeAbove(hi));
    }
    legendOutside(frontier_, 3);
    stylePlot(frontier_, palette());
    frontier_->replot();
    // The table: both kinds, best first.
    rowCandidates_ = rankedCandidates(*r);
    candidates_->setRowCount(int(rowCandidates_.size()));
    for (int i = 0; i < int(rowCandidates_.size()); ++i) {
        const ServingCandidate& c = rowCandidates_[std::size_t(i)];
        const QString cells[] = {q(c.mode),
                                 q(describeServingCandidate(c)),
                                 num(c.tokensPerSPerGpu),
                                 num(c.tokensPerSPerUser),
                                 secs(c.ttftS),
                                 secs(c.tpotS),
                                 q(formatCount(c.batch)),
                                 c.kvTransferS > 0 ? secs(c.kvTransferS) : "-",
                                 num(c.tokensPerSPerKw)};
        const QString how = tr("%1 of %2 GPUs; TTFT, TPOT and tokens/s as the serving analysis gives this "
                               "configuration (Apply, then the figures above say how each is made)")
                                .arg(c.replicas == 1 ? tr("1 replica") : tr("%1 replicas").arg(c.replicas))
                                .arg(c.gpusPerReplica);
        const QString perKw = tr("tokens/s per kW = the design's tokens/s / its facility power (IT x PUE, the "
                                 "Power and PUE panel). Every configuration draws the same rated power, so this ranks "
                                 "as tokens/s per GPU does.");
        for (int col = 0; col < candidates_->columnCount(); ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            if (col >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(col == candidates_->columnCount() - 1 ? perKw : how);
            candidates_->setItem(i, col, item);
        }
    }
}

void ServingPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refresh();
        refreshSearch();
    }
}

void ServingPanel::refresh()
{
    const Serving* s = analyses_->serving();
    curve_->clearGraphs();
    curve_->clearItems();
    memory_->clearPlottables();
    memory_->clearItems();
    figures_->setFigures({});
    if (!s || !s->ok()) {
        const Analysis* a = analyses_->analysis();
        summary_->clear();
        if (!a)
            stack_->showMessage(tr("No serving figures: the design has errors (see the Warnings dock)."));
        else if (!s)
            stack_->showMessage(tr("The workload is training: this design has no serving figures."),
                                tr("Set the workload's Kind to Serving (the Workload dock; its training section is "
                                   "kept) for what the design serves, its latencies and the best way to serve."));
        else {
            stack_->showContent();
            pageStack_->showMessage(
                tr("This workload cannot be served as laid out: %1.").arg(q(s->errors.front().message).toHtmlEscaped()),
                searchBox_ ? tr("The \"Best way to serve\" tab finds the layouts that can.") : QString());
        }
        for (ChartPlot* p : {curve_, memory_}) {
            stylePlot(p, palette());
            p->replot();
        }
        return;
    }
    stack_->showContent();
    pageStack_->showContent();
    const DecodePoint& d = s->decode;
    QString text = s->disaggregation
        ? tr("<b>Disaggregated, batch %1 per decode worker, copies of %2 GPUs: %3 tokens/s per GPU, %4 per "
             "user</b>; on %5, first token in %6 (the prompt on a prefill worker, then %7 moving its KV cache), "
             "%8 per token after it (decode steps alone, %9).")
              .arg(q(formatCount(s->batch)), QString::number(s->gpusPerReplica), num(d.tokensPerSPerGpu),
                   num(d.tokensPerSPerUser), engineName(s->engine.engine), secs(s->ttftS),
                   secs(s->disaggregation->kvTransferS), secs(d.tpotS),
                   d.bandwidthBound() ? tr("bandwidth-bound") : tr("compute-bound"))
        : tr("<b>Batch %1 per replica of %2 GPUs: %3 tokens/s per GPU, %4 per user</b>; as %5 serves "
             "them, first token in %6, %7 per token after it (a decode step alone %8, %9).")
              .arg(q(formatCount(s->batch)), QString::number(s->gpusPerReplica), num(d.tokensPerSPerGpu),
                   num(d.tokensPerSPerUser), engineName(s->engine.engine), secs(s->ttftS), secs(d.tpotS), secs(d.stepS),
                   d.bandwidthBound() ? tr("bandwidth-bound") : tr("compute-bound"));
    if (const ServingOperation& o = s->operation; o.set()) {
        text += " " +
            (s->replicasNeeded == 1 ? tr("At %1 requests/s the load needs %2 replica, %3 GPUs")
                                    : tr("At %1 requests/s the load needs %2 replicas, %3 GPUs"))
                .arg(num(s->arrivalRatePerS), q(formatCount(s->replicasNeeded)), q(formatCount(s->gpusNeeded)));
        const QString replicas =
            o.replicas == 1 ? tr("1 replica, it holds") : tr("%1 replicas, each holds").arg(q(formatCount(o.replicas)));
        text += o.designHoldsLoad
            ? tr("; over the design's %1 %2 requests in flight: first token in %3, %4 per "
                 "token, %5 tokens/s per GPU.")
                  .arg(replicas, num(o.inFlightPerReplica), secs(o.at.ttftS), secs(o.at.tpotS), num(o.tokensPerSPerGpu))
            : tr("; the design holds %1. With %2, each would hold %3 requests in flight: first "
                 "token in %4, %5 per token.")
                  .arg(q(formatCount(s->replicasInDesign)), q(formatCount(o.replicas)), num(o.inFlightPerReplica),
                       secs(o.at.ttftS), secs(o.at.tpotS));
    }
    if (!s->meetsLatencyTargets)
        text += " <span style=\"color:" + sceneColors().error.name() + "\">" +
            capitalized(s->whyNotMet).toHtmlEscaped() + ".</span>";
    summary_->setText(text);
    drawCurve(*s);
    drawMemory(*s);
    fillFigures(*s);
}

void ServingPanel::drawCurve(const Serving& s)
{
    QVector<double> x, y;
    double lo = INFINITY, hi = 0, left = INFINITY, right = 0;
    for (const DecodePoint& p : s.curve) {
        x.push_back(p.tokensPerSPerUser);
        y.push_back(p.tokensPerSPerGpu);
        lo = std::min(lo, p.tokensPerSPerGpu);
        hi = std::max(hi, p.tokensPerSPerGpu);
        left = std::min(left, p.tokensPerSPerUser);
        right = std::max(right, p.tokensPerSPerUser);
    }
    QCPGraph* line = curve_->addGraph();
    line->setName(tr("batch 1 to %1").arg(q(formatCount(s.maxBatch))));
    line->setPen(QPen(designColor(0), 2));
    line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, designColor(0), 6));
    line->setData(x, y);  // not sorted by key: the curve runs from right to left
    QCPGraph* served = curve_->addGraph();
    served->setName(tr("served: batch %1").arg(q(formatCount(s.batch))));
    served->setLineStyle(QCPGraph::lsNone);
    served->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(designColor(1), 2.5), Qt::NoBrush, 16));
    served->addData(s.decode.tokensPerSPerUser, s.decode.tokensPerSPerGpu);
    curve_->xAxis->setRange(decadeBelow(left), decadeAbove(right));
    curve_->yAxis->setRange(decadeBelow(lo), decadeAbove(hi));
    // A batch label on every other point, so they do not crowd.
    for (std::size_t i = 0; i < s.curve.size(); i += 2) {
        auto* label = new QCPItemText(curve_);
        label->position->setCoords(s.curve[i].tokensPerSPerUser, s.curve[i].tokensPerSPerGpu);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(4, 2, 0, 0));
        label->setText(q(formatCount(s.curve[i].batch)));
        label->setColor(palette().color(QPalette::PlaceholderText));
    }
    // The per-token target as the slowest speed a user may get.
    if (s.tpotTargetS > 0) {
        const double minUser = 1 / s.tpotTargetS;
        auto* target = new QCPItemStraightLine(curve_);
        target->point1->setCoords(minUser, 1);
        target->point2->setCoords(minUser, 2);
        target->setPen(QPen(sceneColors().error, 1, Qt::DashLine));
        auto* label = new QCPItemText(curve_);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        // At the foot of the line: the served batch, the largest within the
        // target, sits at its top.
        label->position->setCoords(minUser, 0.98);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignLeft);
        label->setPadding(QMargins(3, 0, 0, 0));
        label->setColor(sceneColors().error);
        label->setText(tr("TPOT target %1").arg(secs(s.tpotTargetS)));
    }
    legendOutside(curve_, 2);
    stylePlot(curve_, palette());
    curve_->replot();
}

void ServingPanel::drawMemory(const Serving& s)
{
    // One GPU's HBM as a stack: weights, the served batch's KV cache, what
    // is left of the engine's KV cache budget, and what the engine keeps for
    // its own buffers or out of reach (core's EngineMemory).
    const double hbm = s.memory.capacity / 1e9;
    const double kv = s.kvCacheGbPerReplica / double(s.gpusPerReplica);
    const double budget = s.memory.kvBudget / 1e9;
    const std::vector<QCPBars*> stack =
        addStack(memory_->xAxis, memory_->yAxis, {"weights", "kv cache", "free", "reserve"});
    const double values[] = {s.weightsGbPerGpu, kv, std::max(0.0, budget - kv),
                             std::max(0.0, hbm - s.weightsGbPerGpu - std::max(budget, kv))};
    const QString names[] = {tr("weights"), tr("KV cache (batch %1)").arg(q(formatCount(s.batch))), tr("free"),
                             tr("engine and reserve")};
    for (std::size_t i = 0; i < stack.size(); ++i) {
        stack[i]->setName(names[i]);
        stack[i]->addData(1, values[i]);
        styleBars(stack[i], i < 2 ? seriesColor(int(i)) : palette().color(QPalette::Mid), i < 2 ? 255 : 90);
    }
    // Hatched: the engine never fills it, unlike the free share beside it.
    stack[3]->setBrush(QBrush(palette().color(QPalette::Mid).darker(115), Qt::BDiagPattern));
    memory_->xAxis->setRange(0.4, 1.6);
    memory_->xAxis->setTicks(false);
    memory_->xAxis->setLabel(tr("one GPU's HBM"));
    memory_->yAxis->setLabel(tr("GB"));
    memory_->yAxis->setRange(0, hbm * 1.05);
    legendOutside(memory_, 1);
    stylePlot(memory_, palette());
    memory_->replot();
}

void ServingPanel::fillFigures(const Serving& s)
{
    const ArrivalBand* band = arrivals_ ? arrivals_->band() : paperBand_ ? &*paperBand_ : nullptr;
    figures_->setFigures(rowsOf(s, band, arrivals_ && arrivals_->running()));
}

void ServingPanel::showTip(QMouseEvent* event)
{
    const Serving* s = analyses_->serving();
    if (!s || !s->ok())
        return;
    const int nearest = nearestPoint(
        curve_, event->position(), s->curve.size(),
        [&](std::size_t i) { return QPointF(s->curve[i].tokensPerSPerUser, s->curve[i].tokensPerSPerGpu); }, 18);
    if (nearest < 0) {
        QToolTip::hideText();
        return;
    }
    const DecodePoint& p = s->curve[std::size_t(nearest)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("batch %1: %2 tokens/s per GPU, %3 per user\nTTFT %4, TPOT %5 (a decode step alone %6 = "
                          "pp x (max(memory %7, compute %8) + communication %9))\n%10; MFU %11%")
                           .arg(q(formatCount(p.batch)), num(p.tokensPerSPerGpu), num(p.tokensPerSPerUser),
                                secs(p.ttftS), secs(p.tpotS), secs(p.stepS), secs(p.memoryS), secs(p.computeS),
                                secs(p.commS))
                           .arg(p.bandwidthBound() ? tr("bandwidth-bound: the weights and KV cache read each step")
                                                   : tr("compute-bound"),
                                num(100 * p.mfu)),
                       curve_);
}

std::any ServingPanel::prepareReport(const Design& design, const Catalog& catalog, const std::atomic<bool>* cancel)
{
    return arrivalBand(design, catalog, cancel);
}

void ServingPanel::report(ReportDocument& doc, const ReportInputs& in)
{
    doc.heading(QObject::tr("Serving"), 1, true);
    ServingPanel panel(nullptr, &in.analyses);
    panel.paperBand_ = preparedOr<std::optional<ArrivalBand>>(in, [&] { return arrivalBand(in.design, in.catalog); });
    if (const Serving* s = in.analyses.serving(); s && s->ok())
        panel.fillFigures(*s);
    forPaper(panel);
    // What the panel says: its summary, or why it has none.
    const QString said = panel.messageStack()->showsMessage() ? panel.messageStack()->message()
        : panel.designMessageStack()->showsMessage()          ? panel.designMessageStack()->message()
                                                              : panel.summaryLabel()->text();
    doc.paragraph(said);
    const Serving* s = in.analyses.serving();
    if (!s || !s->ok())
        return;
    // The charts take the page's width; the table follows as text.
    panel.figureTable()->hide();
    doc.panelPlots(panel, {panel.curvePlot(), panel.memoryPlot()});
    doc.table({QObject::tr("Figure"), QObject::tr("Value"), QObject::tr("How it is computed")},
              figureRows(panel.figureTable()->figures()), {24, 18, 58});
}

}  // namespace studio
