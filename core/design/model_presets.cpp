#include "core/design/model_presets.h"

#include <vector>

namespace studio {
namespace {

ModelSpec spec(std::string name, std::int64_t layers, std::int64_t hidden, std::int64_t heads,
               std::optional<std::int64_t> kvHeads, std::int64_t ffn, const char* ffnType, std::int64_t vocab,
               std::int64_t seq)
{
    ModelSpec m;
    m.name = std::move(name);
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = kvHeads;
    m.ffn_hidden = ffn;
    m.ffn_type = ffnType;
    m.vocab = vocab;
    m.seq_len = seq;
    return m;
}

std::vector<ModelPreset> build()
{
    std::vector<ModelPreset> p;
    p.push_back({"gpt3-175b", spec("GPT-3 175B", 96, 12288, 96, std::nullopt, 4 * 12288, "gelu", 51200, 2048), 1536,
                 300e9,
                 "Brown et al. 2020, Table 2.1: 96 layers, d_model 12,288, 96 heads, context 2,048, batch 3.2M tokens "
                 "(1,536 sequences), 300B tokens; vocabulary 50,257 padded to 51,200 as Megatron-LM does "
                 "(Narayanan et al. 2021)"});
    p.push_back({"llama3-8b", spec("Llama 3 8B", 32, 4096, 32, 8, 14336, "swiglu", 128256, 8192), 2048, 15e12,
                 "The Llama 3 Herd of Models (2024), Table 3: 32 layers, model dimension 4,096, FFN 14,336, 32 heads, "
                 "8 KV heads, vocabulary 128,256 (as released), sequence 8,192; over 15T tokens. Batch: the 405B "
                 "run's 16M tokens per step (the paper does not give the 8B's)"});
    p.push_back({"llama3-70b", spec("Llama 3 70B", 80, 8192, 64, 8, 28672, "swiglu", 128256, 8192), 2048, 15e12,
                 "The Llama 3 Herd of Models (2024), Table 3: 80 layers, model dimension 8,192, FFN 28,672, 64 heads, "
                 "8 KV heads, vocabulary 128,256, sequence 8,192; over 15T tokens. Batch: the 405B run's 16M tokens "
                 "per step (the paper does not give the 70B's)"});
    p.push_back({"llama3-405b", spec("Llama 3 405B", 126, 16384, 128, 8, 53248, "swiglu", 128256, 8192), 2048, 15.6e12,
                 "The Llama 3 Herd of Models (2024), Table 3 and section 3.4: 126 layers, model dimension 16,384, FFN "
                 "53,248, 128 heads, 8 KV heads, vocabulary 128,256, sequence 8,192, 16M tokens per step (2,048 "
                 "sequences), 15.6T tokens"});
    p.push_back({"megatron-1t", spec("Megatron 1T", 128, 25600, 160, std::nullopt, 4 * 25600, "gelu", 51200, 2048),
                 3072, 450e9,
                 "Narayanan et al. 2021 (SC21), Table 1: 128 layers, hidden 25,600, 160 heads, sequence 2,048, "
                 "vocabulary 51,200, batch 3,072; section 5.1's training-time estimate uses 450B tokens"});
    ModelPreset moe{"mixtral-8x7b", spec("Mixtral-style MoE 8x7B", 32, 4096, 32, 8, 14336, "swiglu", 32000, 4096), 1024,
                    1e12,
                    "Jiang et al. 2024 (Mixtral of Experts), Table 1: 32 layers, dim 4,096, 32 heads, 8 KV heads, "
                    "FFN 14,336, 8 experts with 2 per token, vocabulary 32,000. Not published, assumptions: sequence "
                    "4,096, 1,024 sequences per step, 1T tokens"};
    moe.model.experts = 8;
    moe.model.experts_per_token = 2;
    p.push_back(std::move(moe));
    return p;
}

}  // namespace

std::span<const ModelPreset> modelPresets()
{
    static const std::vector<ModelPreset> presets = build();
    return presets;
}

const ModelPreset* findModelPreset(const std::string& id)
{
    for (const auto& p : modelPresets())
        if (p.id == id)
            return &p;
    return nullptr;
}

const ModelPreset* matchModelPreset(const ModelSpec& model)
{
    // Defaults written out or left implicit describe the same model; the
    // name, sequence length and dropout do not change which model it is.
    auto same = [](const auto& a, const auto& b, auto def) { return a.value_or(def) == b.value_or(def); };
    for (const auto& p : modelPresets()) {
        const auto& m = p.model;
        if (model.layers == m.layers && model.hidden == m.hidden && model.heads == m.heads &&
            same(model.kv_heads, m.kv_heads, model.heads) && same(model.ffn_hidden, m.ffn_hidden, 4 * model.hidden) &&
            same(model.ffn_type, m.ffn_type, std::string("gelu")) && model.vocab == m.vocab &&
            same(model.experts, m.experts, std::int64_t(0)) &&
            same(model.experts_per_token, m.experts_per_token, std::int64_t(0)))
            return &p;
    }
    return nullptr;
}

}  // namespace studio
