#include "core/compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/metrics/metrics.h"
#include "core/serving/serving_report.h"
#include "core/text.h"

namespace studio {

const std::vector<KeyFigure>& keyFigures()
{
    using B = Better;
    static const std::vector<KeyFigure> figures = [] {
        std::vector<KeyFigure> rows = {
            {"inventory.gpus", "GPUs", "", B::Neither},
            {"inventory.nodes", "Nodes", "", B::Neither},
            {"inventory.racks", "Racks", "", B::Neither},
            {"compute.cluster_peak_pflops", "Peak at the workload's precision", "PFLOP/s", B::Higher, 1, true},
            {"training.mfu", "MFU", "%", B::Higher, 100},
            {"training.hfu", "HFU", "%", B::Higher, 100},
            {"training.step_time_s", "Step time", "s", B::Lower},
            {"training.tokens_per_s", "Tokens per second", "tokens/s", B::Higher},
            {"training.days_to_train", "Days to train", "days", B::Lower},
            {"training.memory_gb_per_gpu.total", "Memory per GPU", "GB", B::Lower},
            {"serving.tokens_per_s_per_gpu", "Tokens/s per GPU served", "tokens/s", B::Higher},
            {"serving.tokens_per_s_per_user", "Tokens/s per user", "tokens/s", B::Higher},
            {"serving.ttft_s", "Time to first token", "ms", B::Lower, 1000},
            {"serving.tpot_s", "Time per output token", "ms", B::Lower, 1000},
            {"serving.batch", "Batch served", "", B::Neither},
            {"serving.gpus_needed", "GPUs for the load", "", B::Lower},
            {"serving.kwh_per_million_tokens", "Energy per million tokens", "kWh", B::Lower},
            {"serving.usd_per_million_tokens", "Electricity per million tokens", "USD", B::Lower},
            {"power.facility_kw", "Facility power", "MW", B::Lower, 0.001},
            {"power.pue", "PUE", "", B::Lower},
            {"power.max_rack_kw", "Max rack power", "kW", B::Lower},
            {"reliability.cluster_mtbf_h", "Cluster MTBF", "h", B::Higher},
            {"reliability.p_failure_24h", "P(failure in 24 h)", "%", B::Lower, 100},
            {"reliability.checkpoint_interval_min", "Checkpoint interval", "min", B::Neither},
            {"reliability.goodput", "Goodput", "%", B::Higher, 100},
            {"power.energy_mwh_per_year", "Energy per year", "MWh", B::Lower},
            {"power.cost_usd_per_year", "Electricity cost per year", "USD", B::Lower},
            {"power.co2_tonnes_per_year", "CO2 per year", "t", B::Lower},
            {"inventory.switches.total", "Switches", "", B::Neither},
            {"inventory.cables.total", "Cables", "", B::Neither},
        };
        // A serving fleet restarts requests, not a run: checkpoints and
        // goodput are the training run's.
        for (KeyFigure& f : rows)
            if (f.key.starts_with("serving."))
                f.workload = "serving";
            else if (f.key.starts_with("training.") || f.key == "reliability.checkpoint_interval_min" ||
                     f.key == "reliability.goodput")
                f.workload = "training";
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
        // A serving design runs at its weights' precision.
        const std::string precision = metrics.contains("serving") ? metrics["serving"].value("weight_precision", "")
                                                                  : metrics["compute"].value("precision", "");
        if (!node->is_object() || !node->contains(precision))
            return std::nullopt;
        node = &(*node)[precision];
    }
    if (!node->is_number())
        return std::nullopt;
    return node->get<double>();
}

std::string figureUnavailable(const Json& metrics, const KeyFigure& figure)
{
    const auto it = metrics.find("unavailable");
    if (it != metrics.end() && it->contains(figure.key))
        return (*it)[figure.key].get<std::string>();
    if (it != metrics.end() && !figure.workload.empty() && it->contains(figure.workload))
        return (*it)[figure.workload].get<std::string>();
    if (figure.workload == "serving" && !metrics.contains("serving"))
        return "not serving: the workload is training";
    return {};
}

std::string FigureCell::text(const KeyFigure& figure) const
{
    if (value)
        return formatFigure(figure, *value);
    return unavailable.empty() ? "-" : unavailable.substr(0, unavailable.find(':'));
}

ComparedDesign compareEntry(const Design& design, const Catalog& catalog, std::string source)
{
    ComparedDesign d;
    d.label = design.name.empty() ? "Untitled design" : design.name;
    d.source = std::move(source);
    d.analysis = analyzeDesign(design, catalog);
    d.metrics = metricsJson(design, d.analysis);
    const Serving serving = addServingMetrics(d.metrics, design, catalog);
    if (design.workload.isServing())
        d.serving = serving;
    return d;
}

std::vector<ExplainedMetric> explainCompared(const ComparedDesign& design)
{
    std::vector<ExplainedMetric> out = explainMetrics(design.analysis);
    if (design.serving && design.serving->ok())
        for (auto& e : explainServing(*design.serving))
            out.push_back(std::move(e));
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
    if (*base != 0)
        cell.relative = *cell.delta / std::fabs(*base);
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

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csvLine(const std::vector<std::string>& fields)
{
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i)
        line += (i ? "," : "") + csvField(fields[i]);
    return line + "\n";
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
    const auto serving =
        std::count_if(designs.begin(), designs.end(), [](const auto& d) { return d.serving.has_value(); });
    const bool anyServing = serving > 0, anyTraining = serving < std::ssize(designs);
    for (const auto& f : keyFigures()) {
        if ((f.workload == "serving" && !anyServing) || (f.workload == "training" && !anyTraining))
            continue;
        FigureComparison row{f, {}};
        // A figure said to be unavailable has no value, whatever else the
        // metrics hold (a serving design's training memory).
        auto valueOf = [&](const ComparedDesign& d) {
            return figureUnavailable(d.metrics, f).empty() ? figureValue(d.metrics, f) : std::nullopt;
        };
        const auto base = valueOf(designs[baseline]);
        for (std::size_t i = 0; i < designs.size(); ++i) {
            row.cells.push_back(cellFor(f, valueOf(designs[i]), base));
            row.cells.back().unavailable = figureUnavailable(designs[i].metrics, f);
            if (i == baseline)
                row.cells.back().verdict = Verdict::Baseline;
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
    if (f.unit == "USD")
        return "$" + formatReadable(shown);
    return f.unit.empty() ? formatReadable(shown) : formatReadable(shown) + " " + f.unit;
}

std::string formatDelta(const KeyFigure& f, const FigureCell& cell)
{
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
        return signedText(*cell.relative, formatReadable(*cell.relative * 100, 3) + " %");
    return signedText(d, formatReadable(d * f.scale) + (f.unit.empty() ? "" : " " + f.unit));
}

Json comparisonJson(const Comparison& c)
{
    Json out = Json::array();
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        Json d = c.designs[i].metrics;
        d["label"] = c.designs[i].label;
        d["source"] = c.designs[i].source;
        d["baseline"] = i == c.baseline;
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
    for (const auto& row : c.figures) {
        std::vector<std::string> line{row.figure.label};
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
    std::vector<std::size_t> width(n + 1);
    for (const auto& line : table)
        for (std::size_t k = 0; k < line.size(); ++k)
            width[k] = std::max(width[k], line[k].size());
    std::string out;
    for (std::size_t r = 0; r < table.size(); ++r) {
        const auto& line = table[r];
        std::string s;
        for (std::size_t k = 0; k < line.size(); ++k) {
            const std::string pad(width[k] - line[k].size(), ' ');
            s += k == 0 ? line[k] + pad : "  " + pad + line[k];  // values right-aligned
        }
        while (!s.empty() && s.back() == ' ')
            s.pop_back();
        out += s + "\n";
        if (r == 0 || r == figureRows + 1) {
            std::string rule;
            for (std::size_t k = 0; k < width.size(); ++k)
                rule += (k ? "  " : "") + std::string(width[k], '-');
            out += rule + "\n";
        }
    }
    return out;
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
    for (const auto& row : c.figures) {
        const KeyFigure& f = row.figure;
        std::vector<std::string> line{f.label, f.key, f.unit};
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
