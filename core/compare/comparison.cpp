#include "core/compare/comparison.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/design/defaults.h"
#include "core/format/design_validator.h"
#include "core/metrics/figure_names.h"
#include "core/metrics/metrics.h"
#include "core/metrics/serving_report.h"
#include "core/text.h"

namespace studio {

const std::vector<KeyFigure>& keyFigures()
{
    using B = Better;
    static const std::vector<KeyFigure> figures = [] {
        // Labels come from the one table of names (figure_names.h).
        std::vector<KeyFigure> rows = {
            {"inventory.gpus", "", "", B::Neither},
            {"inventory.nodes", "", "", B::Neither},
            {"inventory.racks", "", "", B::Neither},
            {"compute.cluster_peak_pflops", "", "PFLOP/s", B::Higher, 1, true},
            {"training.mfu", "", "%", B::Higher, 100},
            {"training.hfu", "", "%", B::Higher, 100},
            {"training.step_time_s", "", "s", B::Lower},
            {"training.tokens_per_s", "", "tokens/s", B::Higher},
            {"training.days_to_train", "", "days", B::Lower},
            {"reliability.wall_days", "", "days", B::Lower},
            {"power.training_run_mwh", "", "MWh", B::Lower},
            {"training.memory_gb_per_gpu.total", "", "GB", B::Lower},
            {"serving.tokens_per_s_per_gpu", "", "tokens/s", B::Higher},
            {"serving.tokens_per_s_per_user", "", "tokens/s", B::Higher},
            {"serving.ttft_s", "", "ms", B::Lower, 1000},
            {"serving.tpot_s", "", "ms", B::Lower, 1000},
            {"serving.batch", "", "", B::Neither},
            {"serving.gpus_needed", "", "", B::Lower},
            {"serving.kwh_per_million_tokens", "", "kWh", B::Lower},
            {"serving.usd_per_million_tokens", "", "USD", B::Lower},
            {"power.facility_kw", "", "MW", B::Lower, 0.001},
            {"power.pue", "", "", B::Lower},
            {"power.max_rack_kw", "", "kW", B::Lower},
            {"reliability.cluster_mtbf_h", "", "h", B::Higher},
            {"reliability.p_failure_24h", "", "%", B::Lower, 100},
            {"reliability.checkpoint_interval_min", "", "min", B::Neither},
            {"reliability.goodput", "", "%", B::Higher, 100},
            {"power.energy_mwh_per_year", "", "MWh", B::Lower},
            {"power.cost_usd_per_year", "", "USD", B::Lower},
            {"power.co2_tonnes_per_year", "", "t", B::Lower},
            {"inventory.switches.total", "", "", B::Neither},
            {"inventory.cables.total", "", "", B::Neither},
            // What it costs (docs/model.md section 20), each a band whose
            // typical value is compared.
            {"cost.capex_usd", "", "M USD", B::Lower, 1e-6},
            {"cost.annual_tco_usd", "", "M USD", B::Lower, 1e-6},
            {"cost.usd_per_gpu_hour", "", "USD", B::Lower},
            {"cost.run_cost_usd", "", "M USD", B::Lower, 1e-6},
            {"cost.usd_per_million_tokens", "", "USD", B::Lower},
        };
        // A serving fleet restarts requests, not a run: checkpoints, goodput
        // and the run's days and energy are the training run's.
        for (KeyFigure& f : rows) {
            f.label = figureName(f.key);
            if (f.key.starts_with("serving."))
                f.workload = WorkloadKind::Serving;
            else if (f.key.starts_with("training.") || f.key == "reliability.checkpoint_interval_min" ||
                     f.key == "reliability.goodput" || f.key == "reliability.wall_days" ||
                     f.key == "power.training_run_mwh" || f.key == "cost.run_cost_usd")
                f.workload = WorkloadKind::Training;
        }
        return rows;
    }();
    return figures;
}

const KeyFigure* findKeyFigure(const std::string& key)
{
    for (const auto& f : keyFigures())
        if (f.key == key)
            return &f;
    return nullptr;
}

std::string figurePrecision(const Json& metrics)
{
    // A serving design runs at its weights' precision.
    if (metrics.contains("serving"))
        return metrics["serving"].value("weight_precision", "");
    return metrics.contains("compute") ? metrics["compute"].value("precision", "") : "";
}

std::optional<double> figureValue(const Json& metrics, const KeyFigure& figure)
{
    const Json* node = &metrics;
    std::size_t start = 0;
    while (start <= figure.key.size()) {
        const std::size_t dot = figure.key.find('.', start);
        const std::string part = figure.key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!node->is_object() || !node->contains(part))
            return std::nullopt;
        node = &(*node)[part];
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (figure.atTrainingPrecision) {
        const std::string precision = figurePrecision(metrics);
        if (!node->is_object() || !node->contains(precision))
            return std::nullopt;
        node = &(*node)[precision];
    }
    // A cost is a band, {typical, low, high}: its typical value.
    if (node->is_object() && node->contains("typical"))
        node = &(*node)["typical"];
    if (!node->is_number())
        return std::nullopt;
    return node->get<double>();
}

std::string figureUnavailable(const Json& metrics, const KeyFigure& figure)
{
    const auto it = metrics.find("unavailable");
    if (it != metrics.end() && it->contains(figure.key))
        return (*it)[figure.key].get<std::string>();
    if (const std::string kind = figure.workload ? std::string(workloadKindName(*figure.workload)) : "";
        it != metrics.end() && !kind.empty() && it->contains(kind))
        return (*it)[kind].get<std::string>();
    if (figure.workload == WorkloadKind::Serving && !metrics.contains("serving"))
        return "not serving: the workload is training";
    return {};
}

std::string FigureCell::text(const KeyFigure& figure) const
{
    if (value)
        return formatFigure(figure, *value) + (qualifier.empty() ? "" : ", " + qualifier);
    return unavailable.empty() ? "-" : unavailable.substr(0, unavailable.find(':'));
}

Workload runOn(const Workload& own, const Workload& shared, bool keepOwnLayout)
{
    Workload w = shared;
    // A serving replica's shape is part of what is served; a training run's
    // layout is the design's to choose.
    if (keepOwnLayout || !shared.isServing()) {
        w.parallelism = own.parallelism;
        // A serving design's split into prefill and decode workers is its layout too.
        if (w.serving)
            w.serving->disaggregated = own.serving ? own.serving->disaggregated : std::nullopt;
        w.training.micro_batch = own.training.micro_batch;
        // What the other model cannot take: experts to spread when it has
        // none, micro-batches larger than its batch.
        if (w.model.experts.value_or(0) == 0)
            w.parallelism.ep = std::nullopt;
        if (w.training.micro_batch && w.training.global_batch > 0 && *w.training.micro_batch > w.training.global_batch)
            w.training.micro_batch = std::nullopt;
    }
    return w;
}

bool sameRun(const Workload& a, const Workload& b)
{
    TrainingSpec ta = a.training, tb = b.training;
    ta.micro_batch = tb.micro_batch = std::nullopt;  // the layout's
    std::optional<ServingSpec> sa = a.serving, sb = b.serving;
    for (auto* s : {&sa, &sb})
        if (*s)
            (*s)->disaggregated.reset();  // the layout's
    return a.kindOf() == b.kindOf() && a.model == b.model && ta == tb && sa == sb && a.data == b.data &&
        a.extra == b.extra;
}

std::string describeRun(const Workload& w)
{
    std::string s = w.model.name.empty() ? std::string("unnamed model") : w.model.name;
    auto upper = [](std::string p) {
        std::transform(p.begin(), p.end(), p.begin(), [](unsigned char c) { return char(std::toupper(c)); });
        return p;
    };
    if (w.isServing() && w.serving) {
        const ServingSpec& v = *w.serving;
        return s + " · " + upper(orDefault(v.weight_precision, defaults::kServingPrecision)) + " weights · " +
            formatCount(v.prompt_tokens) + " in / " + formatCount(v.output_tokens) + " out tokens";
    }
    // 15T tokens, 300B tokens: as runs are spoken of.
    const double t = w.training.tokens;
    const std::string tokens = t >= 1e12 ? formatReadable(t / 1e12) + "T"
        : t >= 1e9                       ? formatReadable(t / 1e9) + "B"
        : t >= 1e6                       ? formatReadable(t / 1e6) + "M"
                                         : formatReadable(t);
    return s + " · " + upper(orDefault(w.training.precision, defaults::kPrecision)) + " · " + tokens +
        " tokens · batch " + formatCount(w.training.global_batch);
}

namespace {

ComparedDesign analyseCompared(Design design, const Catalog& catalog, std::string source, const Problem* notRunnable)
{
    ComparedDesign d;
    d.label = design.name.empty() ? "Untitled design" : design.name;
    d.source = std::move(source);
    d.analysis = analyzeDesign(design, catalog);
    if (notRunnable)
        d.analysis.notRunnable.insert(d.analysis.notRunnable.begin(), *notRunnable);
    d.metrics = metricsJson(design, d.analysis);
    const Serving serving = addServingMetrics(d.metrics, design, catalog);
    if (design.workload.isServing())
        d.serving = serving;
    d.design = std::move(design);
    return d;
}

}  // namespace

std::string workloadSourceName(const ComparedDesign& d)
{
    switch (d.workloadFrom) {
    case WorkloadFrom::Own: return "own";
    case WorkloadFrom::Baseline: return "baseline";
    case WorkloadFrom::Other: return d.workloadFile;
    }
    return "own";
}

const char* layoutSourceName(const std::optional<LayoutFrom>& from)
{
    return !from ? "none" : *from == LayoutFrom::Best ? "best" : "own";
}

ComparedDesign compareEntry(const Design& design, const Catalog& catalog, std::string source)
{
    ComparedDesign d = analyseCompared(design, catalog, std::move(source), nullptr);
    d.metrics["workload_source"] = workloadSourceName(d);
    return d;
}

std::optional<ComparedDesign> compareEntry(const Design& design, const Catalog& catalog, std::string source,
                                           const Workload* shared, const CompareSetup& setup,
                                           const std::atomic<bool>* cancel)
{
    Design d = design;
    const bool ownLayout = setup.layout == LayoutFrom::Own;
    std::optional<Problem> noLayout;
    if (shared) {
        d.workload = runOn(design.workload, *shared, ownLayout);
        // The design's own layout may not divide the other model (its heads,
        // layers): the search starts from the default layout instead, and an
        // own layout is said not to run it.
        const std::vector<Problem> problems = validateDesign(d, catalog);
        if (hasErrors(problems)) {
            const auto first = std::find_if(problems.begin(), problems.end(),
                                            [](const Problem& p) { return p.severity == Severity::Error; });
            if (ownLayout)
                noLayout = Problem{Severity::Error, first->pointer,
                                   "its own layout cannot run " +
                                       (d.workload.model.name.empty() ? "the model" : d.workload.model.name) + ": " +
                                       first->message,
                                   "own_layout_invalid"};
            const ParallelismSpec own = d.workload.parallelism;
            d.workload.parallelism = ParallelismSpec{};
            d.workload.parallelism.cp_comm = own.cp_comm;
            d.workload.parallelism.tp_comm_overlap = own.tp_comm_overlap;
            d.workload.training.micro_batch = std::nullopt;
        }
    }
    bool searched = false;
    // A serving workload has no layout search: it is served in its replica.
    if (!ownLayout && !d.workload.isServing() && !noLayout) {
        SearchOptions options;
        options.objective = setup.objective;
        options.top = 1;
        options.cancel = cancel;
        const SearchResult found = searchLayoutsWithSpares(d, catalog, options);
        if (found.cancelled)
            return std::nullopt;
        if (found.ok() && !found.top.empty()) {
            applyLayout(d.workload, found.top.front().layout);
            searched = true;
        } else {
            noLayout = Problem{Severity::Error, "/workload/parallelism",
                               "no layout of " + (d.workload.model.name.empty() ? "the model" : d.workload.model.name) +
                                   " runs on this design: " + (found.ok() ? found.nothingFits : found.error),
                               "no_layout"};
        }
    }
    ComparedDesign out = analyseCompared(std::move(d), catalog, std::move(source), noLayout ? &*noLayout : nullptr);
    out.workloadFrom = shared ? setup.workload : WorkloadFrom::Own;
    if (out.workloadFrom == WorkloadFrom::Other)
        out.workloadFile = setup.otherSource;
    out.layoutFrom = searched    ? std::optional(LayoutFrom::Best)
        : noLayout && !ownLayout ? std::nullopt
                                 : std::optional(LayoutFrom::Own);
    out.objective = setup.objective;
    out.metrics["workload_source"] = workloadSourceName(out);
    out.metrics["layout_source"] = layoutSourceName(out.layoutFrom);
    return out;
}

std::vector<ExplainedMetric> explainCompared(const ComparedDesign& design)
{
    std::vector<ExplainedMetric> out = explainMetrics(design.analysis);
    if (design.serving && design.serving->ok())
        for (auto& e : explainServing(*design.serving))
            out.push_back(std::move(e));
    return out;
}

std::optional<std::vector<ComparedDesign>> prepareComparison(const std::vector<CompareInput>& inputs,
                                                             std::size_t baseline, const CompareSetup& setup,
                                                             const std::atomic<bool>* cancel,
                                                             const std::function<void(double)>& progress)
{
    const CompareInput& base = inputs.at(baseline);
    const Workload* shared = setup.workload == WorkloadFrom::Baseline ? &base.design->workload
        : setup.workload == WorkloadFrom::Other && setup.other        ? &*setup.other
                                                                      : nullptr;
    std::optional<EqualBudget> budget;
    if (setup.budget != Budget::AsDesigned)
        budget = budgetAsDesigned(*base.design, *base.catalog, setup.budget);
    std::vector<ComparedDesign> out;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (progress)
            progress(double(i) / double(inputs.size()));
        Design design = *inputs[i].design;
        // The baseline sets the budget and keeps its size.
        std::optional<EqualBudget> scaled = budget;
        if (budget && i != baseline)
            scaled = scaleToBudget(design, *inputs[i].catalog, budget->budget, budget->target);
        auto entry = compareEntry(design, *inputs[i].catalog, inputs[i].source, shared, setup, cancel);
        if (!entry)
            return std::nullopt;
        if (scaled) {
            entry->metrics["equal_budget"] = {{"budget", budgetName(scaled->budget)},
                                              {"target", scaled->target},
                                              {"value", scaled->value},
                                              {"design_gpus", scaled->designGpus},
                                              {"gpus", scaled->gpus},
                                              {"complete", scaled->complete},
                                              {"note", scaled->note}};
            // Its name may say its own size ("8 SUs, 2,048 GPUs").
            if (scaled->gpus != scaled->designGpus)
                entry->label += " at " + formatCount(scaled->gpus) + " GPUs";
            entry->equalBudget = std::move(scaled);
        }
        out.push_back(std::move(*entry));
    }
    return out;
}

const char* verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Baseline: return "baseline";
    case Verdict::Same: return "same";
    case Verdict::Better: return "better";
    case Verdict::Worse: return "worse";
    case Verdict::Changed: return "changed";
    case Verdict::DifferentWorkloads: return "different_workloads";
    }
    return "same";
}

namespace {

// Differences below this share of the baseline are rounding, not change.
constexpr double kSameWithin = 1e-9;

FigureCell cellFor(const KeyFigure& f, std::optional<double> value, std::optional<double> base)
{
    FigureCell cell;
    cell.value = value;
    if (!value || !base)
        return cell;
    cell.delta = *value - *base;
    // No percentage against a baseline of 0, nor against one so small the
    // quotient overflows (a carbon intensity of 5e-324 g/kWh: fuzz_serving).
    if (const double relative = *cell.delta / std::fabs(*base); *base != 0 && std::isfinite(relative))
        cell.relative = relative;
    const double scale = std::max(std::fabs(*base), std::fabs(*value));
    if (scale == 0 || std::fabs(*cell.delta) <= kSameWithin * scale)
        cell.verdict = Verdict::Same;
    else if (f.better == Better::Neither)
        cell.verdict = Verdict::Changed;
    else
        cell.verdict = (*cell.delta > 0) == (f.better == Better::Higher) ? Verdict::Better : Verdict::Worse;
    return cell;
}

bool isCount(const KeyFigure& f)
{
    return f.unit.empty() &&
        (f.key.starts_with("inventory.") || f.key == "serving.batch" || f.key == "serving.gpus_needed");
}

std::string signedText(double v, const std::string& text)
{
    return (v > 0 ? "+" : "") + text;
}

// Plain numbers for CSV: full precision, no thousands separators.
std::string csvNumber(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<std::int64_t>(v));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

}  // namespace

Comparison compareDesigns(std::vector<ComparedDesign> designs, std::size_t baseline)
{
    if (designs.size() < kMinCompared || designs.size() > kMaxCompared)
        throw std::invalid_argument("compare needs 2 to 4 designs, got " + std::to_string(designs.size()));
    if (baseline >= designs.size())
        throw std::invalid_argument("the baseline must be one of the designs compared");
    std::map<std::string, int> seen;
    for (auto& d : designs)
        if (const int n = ++seen[d.label]; n > 1)
            d.label += " (" + std::to_string(n) + ")";

    Comparison c;
    c.baseline = baseline;
    const Workload& baseRun = designs[baseline].design.workload;
    std::vector<bool> sameAsBase;
    for (const auto& d : designs) {
        sameAsBase.push_back(sameRun(d.design.workload, baseRun));
        c.sameWorkload = c.sameWorkload && sameAsBase.back();
    }
    // The precision a figure is at is named: in the row's label when every
    // design runs one, else in each cell.
    std::vector<std::string> precisions;
    for (const auto& d : designs) {
        std::string p = figurePrecision(d.metrics);
        std::transform(p.begin(), p.end(), p.begin(), [](unsigned char ch) { return char(std::toupper(ch)); });
        precisions.push_back(p);
    }
    const bool onePrecision = std::all_of(precisions.begin(), precisions.end(),
                                          [&](const std::string& p) { return p == precisions.front(); });
    const auto serving =
        std::count_if(designs.begin(), designs.end(), [](const auto& d) { return d.serving.has_value(); });
    const bool anyServing = serving > 0, anyTraining = serving < std::ssize(designs);
    for (const auto& f : keyFigures()) {
        if ((f.workload == WorkloadKind::Serving && !anyServing) ||
            (f.workload == WorkloadKind::Training && !anyTraining))
            continue;
        FigureComparison row{f, f.label, {}};
        const bool atPrecision = f.namesItsPrecision();
        if (atPrecision && onePrecision && !precisions.front().empty())
            row.label += ", " + precisions.front();
        // A figure said to be unavailable has no value, whatever else the
        // metrics hold (a serving design's training memory).
        auto valueOf = [&](const ComparedDesign& d) {
            return figureUnavailable(d.metrics, f).empty() ? figureValue(d.metrics, f) : std::nullopt;
        };
        const auto base = valueOf(designs[baseline]);
        for (std::size_t i = 0; i < designs.size(); ++i) {
            FigureCell cell = cellFor(f, valueOf(designs[i]), base);
            cell.unavailable = figureUnavailable(designs[i].metrics, f);
            if (atPrecision && !onePrecision)
                cell.qualifier = precisions[i];
            // A cost over a design with unpriced parts leaves them out.
            if (f.key.starts_with("cost.") && !designs[i].metrics["cost"].value("complete", true))
                cell.qualifier = "incomplete";
            if (i == baseline) {
                cell.verdict = Verdict::Baseline;
            } else if (f.ofTheWorkload() && !sameAsBase[i]) {
                // Another run: a difference here answers no question.
                cell.verdict = Verdict::DifferentWorkloads;
                cell.delta = cell.relative = std::nullopt;
            }
            row.cells.push_back(std::move(cell));
        }
        c.figures.push_back(std::move(row));
    }
    for (std::size_t i = 0; i < designs.size(); ++i)
        for (const auto& line : designs[i].analysis.inventory.bom) {
            auto it =
                std::find_if(c.bom.begin(), c.bom.end(), [&](const BomComparison& b) { return b.part == line.part; });
            if (it == c.bom.end()) {
                c.bom.push_back({line.part, line.name, std::string(partKindName(line.kind)),
                                 std::vector<std::int64_t>(designs.size())});
                it = c.bom.end() - 1;
            }
            it->counts[i] += line.count;
        }
    c.designs = std::move(designs);
    return c;
}

std::string formatFigure(const KeyFigure& f, double v)
{
    if (isCount(f))
        return formatCount(std::llround(v));
    const double shown = v * f.scale;
    // As every dollar figure reads: "$2.60", "$101k", "$5.13M" (CSV keeps
    // the figure's unit and scale: millions for "M USD").
    if (f.unit == "USD" || f.unit == "M USD")
        return formatUsd(v);
    return f.unit.empty() ? formatReadable(shown) : formatReadable(shown) + " " + f.unit;
}

std::string relativeChangeText(double fraction)
{
    std::string s = formatChange(fraction);
    return s.substr(0, s.size() - 1) + " %";
}

std::string formatDelta(const KeyFigure& f, const FigureCell& cell)
{
    if (cell.verdict == Verdict::DifferentWorkloads)
        return cell.value ? "different workloads" : "";
    if (cell.verdict == Verdict::Baseline || !cell.delta)
        return "";
    if (cell.verdict == Verdict::Same)
        return "=";
    const double d = *cell.delta;
    if (isCount(f))
        return signedText(d, formatCount(std::llround(d)));
    // A percentage moves in points: 40 % -> 42 % is +2 pts, not +5 %.
    if (f.unit == "%")
        return signedText(d, formatReadable(d * f.scale, 2) + " pts");
    if (cell.relative)
        return relativeChangeText(*cell.relative);
    return signedText(d, formatReadable(d * f.scale) + (f.unit.empty() ? "" : " " + f.unit));
}

std::string describeComparison(const Comparison& c)
{
    const ComparedDesign& base = c.designs[c.baseline];
    const bool allBest = std::all_of(c.designs.begin(), c.designs.end(), [](const auto& d) {
        return d.layoutFrom != LayoutFrom::Own || d.design.workload.isServing();
    });
    const std::string objective = objectiveMeaning(base.objective);
    const std::string layouts = allBest
        ? "each at the best layout the layout search finds for it (by " + objective + ")"
        : "each at its own layout";
    if (!c.sameWorkload)
        return "The designs run different workloads, " + layouts +
            ": throughput, days and the run's energy are not compared (\"different workloads\").";
    return "Every design runs " + describeRun(base.design.workload) +
        (base.workloadFrom == WorkloadFrom::Own            ? " (each its own, and they are the same)"
             : base.workloadFrom == WorkloadFrom::Baseline ? " (the baseline's workload)"
                                                           : " (the workload of " + base.workloadFile + ")") +
        ", " + layouts + "." + (c.designs[c.baseline].equalBudget ? " " + describeBudgets(c) : "");
}

std::string describeBudgets(const Comparison& c)
{
    const auto& base = c.designs[c.baseline].equalBudget;
    if (!base || base->budget == Budget::AsDesigned)
        return "";
    std::string out = std::string("At equal ") + budgetLabel(base->budget) + " (the baseline's, " +
        formatBudget(base->budget, base->target) + ")";
    bool partial = !base->complete;
    const char* separator = ": ";
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const auto& e = c.designs[i].equalBudget;
        if (i == c.baseline || !e)
            continue;
        out += separator + c.designs[i].label + ", " + describeEqualBudget(*e);
        separator = "; ";
        partial = partial || !e->complete;
    }
    out += ".";
    if (partial)
        out += " Capex counts priced parts only: a part without a price is left out of the budget.";
    return out;
}

std::string layoutText(const ComparedDesign& d, bool howChosen)
{
    const WorkloadShape& w = d.analysis.workload;
    if (d.design.workload.isServing())
        return d.analysis.served && d.analysis.served->ok()
            ? describeServingLayout(*d.analysis.served)
            : "replica tp " + formatCount(w.tp) + " · pp " + formatCount(w.pp) +
                (w.ep > 1 ? " · ep " + formatCount(w.ep) : std::string());
    if (!d.analysis.runnable())
        return stepUnavailable(d.analysis);
    const std::string spare = w.gpusUsed < d.analysis.inventory.gpus
        ? " on " + formatCount(w.gpusUsed) + " of " + formatCount(d.analysis.inventory.gpus) + " GPUs"
        : std::string();
    return describeLayout(layoutOf(w)) + spare +
        (!howChosen                             ? ""
             : d.layoutFrom == LayoutFrom::Best ? " (best found)"
                                                : " (its own)");
}

Json comparisonJson(const Comparison& c)
{
    Json out = Json::array();
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        Json d = c.designs[i].metrics;
        d["label"] = c.designs[i].label;
        d["source"] = c.designs[i].source;
        d["baseline"] = i == c.baseline;
        d["workload_source"] = workloadSourceName(c.designs[i]);
        d["layout_source"] = layoutSourceName(c.designs[i].layoutFrom);
        d["run"] = describeRun(c.designs[i].design.workload);
        Json deltas = Json::object();
        for (const auto& row : c.figures) {
            const FigureCell& cell = row.cells[i];
            const auto& base = row.cells[c.baseline].value;
            auto num = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
            deltas[row.figure.key] = {{"value", num(cell.value)},
                                      {"baseline", num(base)},
                                      {"delta", num(cell.delta)},
                                      {"relative", num(cell.relative)},
                                      {"verdict", verdictName(cell.verdict)}};
            if (!cell.unavailable.empty())
                deltas[row.figure.key]["unavailable"] = cell.unavailable;
        }
        d["deltas"] = std::move(deltas);
        out.push_back(std::move(d));
    }
    return out;
}

std::string comparisonText(const Comparison& c)
{
    const std::size_t n = c.designs.size();
    std::vector<std::vector<std::string>> table;
    std::vector<std::string> head{"figure"};
    for (std::size_t i = 0; i < n; ++i)
        head.push_back(c.designs[i].label + (i == c.baseline ? " (baseline)" : ""));
    table.push_back(head);
    std::vector<std::string> run{"Workload"}, layout{figureName("training.layout")};
    for (const auto& d : c.designs) {
        run.push_back(describeRun(d.design.workload) +
                      (d.workloadFrom == WorkloadFrom::Own ? "" : " (" + workloadSourceName(d) + "'s)"));
        layout.push_back(layoutText(d));
    }
    table.push_back(run);
    table.push_back(layout);
    for (const auto& row : c.figures) {
        std::vector<std::string> line{row.label};
        for (const auto& cell : row.cells) {
            std::string text = cell.text(row.figure);
            if (const std::string delta = formatDelta(row.figure, cell); !delta.empty())
                text += " (" + delta +
                    (cell.verdict == Verdict::Better      ? ", better"
                         : cell.verdict == Verdict::Worse ? ", worse"
                                                          : "") +
                    ")";
            line.push_back(text);
        }
        table.push_back(line);
    }
    const std::size_t figureRows = table.size();
    table.push_back({});
    std::vector<std::string> bomHead{"bill of materials"};
    for (std::size_t i = 0; i < n; ++i)
        bomHead.push_back(c.designs[i].label);
    table.push_back(bomHead);
    for (const auto& b : c.bom) {
        std::vector<std::string> line{b.name + " [" + b.kind + "]"};
        for (std::size_t i = 0; i < n; ++i) {
            std::string text = formatCount(b.counts[i]);
            if (i != c.baseline && b.counts[i] != b.counts[c.baseline])
                text += " (" +
                    signedText(double(b.counts[i] - b.counts[c.baseline]),
                               formatCount(b.counts[i] - b.counts[c.baseline])) +
                    ")";
            line.push_back(text);
        }
        table.push_back(line);
    }
    // The figure names to the left, values (with their deltas) to the right.
    return describeComparison(c) + "\n\n" + alignedColumns(table, {0}, {0, figureRows + 1});
}

std::string comparisonCsv(const Comparison& c)
{
    const std::size_t n = c.designs.size();
    std::vector<std::string> head{"figure", "key", "unit"};
    for (const auto& d : c.designs)
        head.push_back(d.label);
    for (std::size_t i = 0; i < n; ++i)
        if (i != c.baseline) {
            head.push_back(c.designs[i].label + " delta");
            head.push_back(c.designs[i].label + " delta %");
        }
    std::string out = csvLine(head);
    // What each design ran: text in the design columns, nothing to subtract.
    std::vector<std::string> run{"Workload", "run", ""}, layout{figureName("training.layout"), "training.layout", ""};
    for (const auto& d : c.designs) {
        run.push_back(describeRun(d.design.workload));
        layout.push_back(layoutText(d));
    }
    // Nothing to subtract, but every row as wide as the header.
    run.resize(head.size());
    layout.resize(head.size());
    out += csvLine(run) + csvLine(layout);
    for (const auto& row : c.figures) {
        const KeyFigure& f = row.figure;
        std::vector<std::string> line{row.label, f.key, f.unit};
        for (const auto& cell : row.cells)
            line.push_back(cell.value ? csvNumber(*cell.value * f.scale) : "");
        for (std::size_t i = 0; i < n; ++i)
            if (i != c.baseline) {
                const auto& cell = row.cells[i];
                line.push_back(cell.delta ? csvNumber(*cell.delta * f.scale) : "");
                line.push_back(cell.relative ? csvNumber(*cell.relative * 100) : "");
            }
        out += csvLine(line);
    }
    for (const auto& b : c.bom) {
        std::vector<std::string> line{b.name, "bom." + b.part, "count"};
        for (auto count : b.counts)
            line.push_back(std::to_string(count));
        const auto base = b.counts[c.baseline];
        for (std::size_t i = 0; i < n; ++i)
            if (i != c.baseline) {
                line.push_back(std::to_string(b.counts[i] - base));
                line.push_back(base ? csvNumber(double(b.counts[i] - base) / double(base) * 100) : "");
            }
        out += csvLine(line);
    }
    return out;
}

}  // namespace studio
