#include "core/metrics/kernel_shapes.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "core/analysis/step_time.h"
#include "core/model/analysis.h"
#include "core/serving/serving.h"

namespace studio {
namespace {

using Json = nlohmann::ordered_json;

// A kernel measures whole rows: a grouped GEMM's share of tokens per
// expert is rounded, never below one.
std::int64_t whole(double v)
{
    return std::max<std::int64_t>(1, std::llround(v));
}

// Every GEMM of the step by name and pass (a shape may repeat: a collector
// measures each once); every other entry once, in the order first asked.
class Shapes {
public:
    void gemm(std::string_view name, std::string_view pass, double m, double n, double k, const std::string& precision)
    {
        const auto key = std::make_tuple(std::string(name), std::string(pass), whole(m), whole(n), whole(k), precision);
        if (!gemmSeen_.insert(key).second)
            return;
        gemms_.push_back({{"name", name},
                          {"pass", pass},
                          {"m", whole(m)},
                          {"n", whole(n)},
                          {"k", whole(k)},
                          {"precision", precision}});
    }
    void add(const char* table, Json entry)
    {
        if (seen_.insert(std::string(table) + entry.dump()).second)
            doc_[table].push_back(std::move(entry));
    }
    Json finish(Json doc)
    {
        doc["gemm"] = std::move(gemms_);
        for (const char* t : {"attention", "memory", "collectives"})
            doc[t] = doc_.contains(t) ? doc_[t] : Json::array();
        return doc;
    }

private:
    Json gemms_ = Json::array();
    Json doc_ = Json::object();
    std::set<std::tuple<std::string, std::string, std::int64_t, std::int64_t, std::int64_t, std::string>> gemmSeen_;
    std::set<std::string> seen_;
};

// The named op a memory-bound kernel of the step is (kKernelOps), or the
// generic curve.
std::string memoryOp(std::string_view name, bool swiglu)
{
    if (name.find("norm") != std::string_view::npos)
        return swiglu ? "rmsnorm_forward" : "layernorm_forward";
    if (name == "SwiGLU")
        return "swiglu_forward";
    if (name == "GeLU")
        return "gelu_forward";
    return "memory";
}

void trainingShapes(const Analysis& a, Shapes& out)
{
    const WorkloadShape& w = a.workload;
    const std::string& precision = a.hardware.gpu.trainingPrecision;
    for (const OpPoint& op : a.step.ops) {
        if (op.m > 0) {
            // Unfused attention's batched GEMMs run at 16 bits.
            const std::string p = op.kind == "attention" ? "bf16" : precision;
            for (const GemmPass& pass : gemmPasses(op.m, op.k, op.n, op.batch))
                out.gemm(op.name, pass.pass, pass.rows, pass.n, pass.k, p);
        } else if (op.kind == "attention") {
            const std::int64_t heads = std::max<std::int64_t>(1, w.heads / w.tp);
            for (const char* pass : {"forward", "backward"})
                out.add("attention",
                        {{"pass", pass},
                         {"batch", w.microBatch},
                         {"heads", heads},
                         {"kv_heads", std::max<std::int64_t>(1, w.kvHeads / w.tp)},
                         {"head_dim", whole(w.headDim)},
                         {"seq", whole(double(w.seq) / std::sqrt(double(w.cp)))},
                         {"causal", true}});
        } else if (op.kind == "memory" || op.kind == "optimizer") {
            const std::string name = op.kind == "optimizer" ? "adamw_step" : memoryOp(op.name, w.swiglu);
            out.add("memory", {{"op", name}, {"bytes", whole(op.bytes)}});
        }
    }
    // Tensor-parallel collectives carry a micro-batch's activations.
    const double buffer = double(w.microBatch) * double(w.seq) / double(w.cp) * double(w.hidden) * 2;
    if (w.tp > 1) {
        if (w.sequenceParallel) {
            out.add("collectives", {{"op", "all_gather"}, {"gpus", w.tp}, {"bytes", whole(buffer)}});
            out.add("collectives", {{"op", "reduce_scatter"}, {"gpus", w.tp}, {"bytes", whole(buffer)}});
        } else {
            out.add("collectives", {{"op", "all_reduce"}, {"gpus", w.tp}, {"bytes", whole(buffer)}});
        }
    }
    if (w.moe() && w.ep > 1)
        out.add("collectives",
                {{"op", "all_to_all"},
                 {"gpus", w.ep},
                 {"bytes", whole(buffer * double(w.expertsPerToken) / double(w.tp))}});
}

void servingShapes(const Serving& s, Shapes& out)
{
    // An engine step that carries prompt tokens beside decodes runs its
    // GEMMs at both together (docs/model.md section 19).
    const EngineRun& e = s.decode.engine;
    const double mixedRows = e.decodesPerMixStep + e.prefillTokensPerMixStep;
    for (const ServingGemm& g : s.gemms) {
        out.gemm(g.name, "prefill", g.lmHead ? 1 : double(s.promptTokens), g.n, g.k, s.weightPrecision);
        out.gemm(g.name, "decode", double(s.batch), g.n, g.k, s.weightPrecision);
        if (!g.lmHead && mixedRows != double(s.promptTokens))
            out.gemm(g.name, "engine step", mixedRows, g.n, g.k, s.weightPrecision);
    }
}

}  // namespace

std::string kernelShapesText(const Json& shapes)
{
    std::string out = "{\n";
    std::size_t i = 0;
    for (auto it = shapes.begin(); it != shapes.end(); ++it, ++i) {
        out += "  " + Json(it.key()).dump() + ": ";
        if (it->is_array() && !it->empty()) {
            out += "[\n";
            for (std::size_t e = 0; e < it->size(); ++e)
                out += "    " + (*it)[e].dump() + (e + 1 < it->size() ? ",\n" : "\n");
            out += "  ]";
        } else {
            out += it->dump();
        }
        out += i + 1 < shapes.size() ? ",\n" : "\n";
    }
    return out + "}\n";
}

Json kernelShapesJson(const Design& design, const Catalog& catalog, const std::string& designPath)
{
    Json doc = {{"format", kKernelShapesFormat}, {"format_version", 1}, {"design", designPath}};
    Shapes shapes;
    const Analysis a = analyzeDesign(design, catalog);
    doc["gpu_part"] = a.hardware.gpu.part;
    if (a.served) {
        const Serving& s = *a.served;
        doc["precision"] = s.weightPrecision;
        if (s.ok())
            servingShapes(s, shapes);
    } else {
        doc["precision"] = a.hardware.gpu.trainingPrecision;
        if (a.step.valid)
            trainingShapes(a, shapes);
    }
    return shapes.finish(std::move(doc));
}

}  // namespace studio
