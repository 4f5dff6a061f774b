#include "widgets/workload/workload_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <set>

#include "core/analysis/workload_shape.h"
#include "core/design/defaults.h"
#include "core/design/model_presets.h"
#include "core/format/design_validator.h"
#include "core/format/workload_limits.h"
#include "core/search/search_report.h"
#include "core/serving/engine.h"
#include "core/text.h"
#include "widgets/analysis/analysis_service.h"
#include "widgets/common/qt_string.h"
#include "widgets/document/design_document.h"
#include "widgets/search/layout_search_service.h"
#include "widgets/style/theme.h"
#include "widgets/workload/checked_spin_box.h"

namespace studio {
namespace {

int clampInt(std::int64_t v)
{
    return int(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX));
}

// Shows as many decimals as the value has, up to its precision: "15,600 B"
// and "0.125 B", not "15,600.000 B".
class CompactDoubleSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override
    {
        QString text = locale().toString(value, 'f', decimals());
        if (text.contains(locale().decimalPoint())) {
            while (text.endsWith('0'))
                text.chop(1);
            if (text.endsWith(locale().decimalPoint()))
                text.chop(1);
        }
        return text;
    }
};

}  // namespace

WorkloadPanel::WorkloadPanel(DesignDocument* document, AnalysisService* service, QWidget* parent)
    : QWidget(parent), doc_(document), editor_(document), service_(service)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // fields shrink with the dock
    outer->addWidget(scroll);
    auto* body = new QWidget;
    scroll->setWidget(body);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(8, 6, 8, 6);
    summary_ = new QLabel(body);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    layout->addWidget(summary_);
    rank_ = new QLabel(body);
    rank_->setWordWrap(true);
    rank_->setTextFormat(Qt::RichText);
    rank_->setVisible(false);
    rank_->setToolTip(tr("Rank of this layout's objective among every feasible layout of this model on these GPUs "
                         "(the Layouts panel): 1 + the layouts strictly better; the gap is its objective over the "
                         "best's, minus 1."));
    connect(rank_, &QLabel::linkActivated, this, &WorkloadPanel::layoutsRequested);
    layout->addWidget(rank_);
    refusalLabel_ = new QLabel(body);
    refusalLabel_->setWordWrap(true);
    refusalLabel_->setVisible(false);
    layout->addWidget(refusalLabel_);
    form_ = new QFormLayout;
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setLabelAlignment(Qt::AlignLeft);
    layout->addLayout(form_);
    layout->addStretch(1);

    using W = Workload;
    using I = std::int64_t;
    namespace L = limits;
    addSection(tr("Workload"));
    choiceField(
        tr("Kind"), "/workload/kind",
        {{q(workloadKindName(WorkloadKind::Training)), tr("Training")},
         {q(workloadKindName(WorkloadKind::Serving)), tr("Serving")}},
        [](const W& w) { return q(workloadKindName(w.kindOf())); },
        [this](W& w, const QString& v) {
            switchKind(
                w, v == q(workloadKindName(WorkloadKind::Serving)) ? WorkloadKind::Serving : WorkloadKind::Training);
        },
        tr("Training sizes a training run (days, MFU, failures); serving sizes a fleet of replicas for a request "
           "load (the Serving panel). Each keeps its own section, so switching back loses nothing."));

    addSection(tr("Model"));
    preset_ = new QComboBox(body);
    preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    preset_->setMinimumContentsLength(8);
    preset_->addItem(tr("Custom"), QString());
    for (const auto& p : modelPresets())
        preset_->addItem(q(p.model.name), q(p.id));
    preset_->setToolTip(tr("Published model shapes with the training sizes their papers report. Choosing one replaces "
                           "the model, the global batch and the tokens; the parallel layout stays yours."));
    connect(preset_, &QComboBox::activated, this, &WorkloadPanel::usePreset);
    addRow(tr("Preset"), QString(), preset_, preset_->toolTip());
    auto* name = new QLineEdit(body);
    const int nameKey = nextMergeKey();
    connect(name, &QLineEdit::editingFinished, this, [=, this] {
        if (name->text().trimmed().isEmpty() || name->text().toStdString() == doc_->design().workload.model.name)
            return;
        apply(tr("Rename model"), nameKey, [&](W& w) { w.model.name = name->text().trimmed().toStdString(); });
    });
    refreshers_.push_back([=, this] {
        if (!name->hasFocus())
            name->setText(q(doc_->design().workload.model.name));
    });
    addRow(tr("Name"), "/workload/model/name", name, tr("The model's name, shown in reports"));
    intField(
        tr("Layers"), "/workload/model/layers", L::kLayers.min, L::kLayers.max,
        [](const W& w) { return w.model.layers; }, [](W& w, I v) { w.model.layers = v; }, tr("Transformer blocks"));
    intField(
        tr("Hidden size"), "/workload/model/hidden", L::kHidden.min, L::kHidden.max,
        [](const W& w) { return w.model.hidden; }, [](W& w, I v) { w.model.hidden = v; },
        tr("Model dimension h; the heads must divide it"));
    intField(
        tr("Attention heads"), "/workload/model/heads", L::kHeads.min, L::kHeads.max,
        [](const W& w) { return w.model.heads; }, [](W& w, I v) { w.model.heads = v; },
        tr("Query heads; tensor parallelism splits them"));
    intField(
        tr("KV heads"), "/workload/model/kv_heads", L::kHeads.min, L::kHeads.max,
        [](const W& w) { return w.model.kv_heads.value_or(w.model.heads); }, [](W& w, I v) { w.model.kv_heads = v; },
        tr("Key/value heads (grouped-query attention); default: as many as the query heads"));
    intField(
        tr("FFN hidden size"), "/workload/model/ffn_hidden", L::kFfnHidden.min, L::kFfnHidden.max,
        [](const W& w) { return w.model.ffn_hidden.value_or(4 * w.model.hidden); },
        [](W& w, I v) { w.model.ffn_hidden = v; }, tr("Default: 4 x hidden"));
    choiceField(
        tr("FFN type"), "/workload/model/ffn_type", {{"gelu", tr("GeLU")}, {"swiglu", tr("SwiGLU")}},
        [](const W& w) { return q(orDefault(w.model.ffn_type, defaults::kFfnType)); },
        [](W& w, const QString& v) { w.model.ffn_type = v.toStdString(); }, tr("Default: GeLU"));
    intField(
        tr("Vocabulary"), "/workload/model/vocab", L::kVocab.min, L::kVocab.max,
        [](const W& w) { return w.model.vocab; }, [](W& w, I v) { w.model.vocab = v; },
        tr("Tokens in the vocabulary (embedding and output layer)"));
    intField(
        tr("Sequence length"), "/workload/model/seq_len", L::kSeqLen.min, L::kSeqLen.max,
        [](const W& w) { return w.model.seq_len; }, [](W& w, I v) { w.model.seq_len = v; },
        tr("Tokens per sequence; context parallelism splits it"));
    intField(
        tr("Experts"), "/workload/model/experts", L::kExperts.min, L::kExperts.max,
        [](const W& w) { return w.model.experts.value_or(0); }, [](W& w, I v) { w.model.experts = v; },
        tr("Experts per MoE layer; 0 is a dense model"), tr("dense"));
    intField(
        tr("Experts per token"), "/workload/model/experts_per_token", L::kExperts.min, L::kExperts.max,
        [](const W& w) { return w.model.experts_per_token.value_or(0); },
        [](W& w, I v) { w.model.experts_per_token = v; }, tr("Experts each token is routed to (top-k)"));
    doubleField(
        tr("Dropout"), "/workload/model/dropout", 0, L::kDropoutMax, 2, 1, QString(),
        [](const W& w) { return w.model.dropout.value_or(0); }, [](W& w, double v) { w.model.dropout = v; },
        tr("Dropout probability; GPT-3-era models used 0.1. Default 0"));

    addSection(tr("Training"));
    intField(
        tr("Global batch"), "/workload/training/global_batch", L::kGlobalBatch.min, L::kGlobalBatch.max,
        [](const W& w) { return w.training.global_batch; }, [](W& w, I v) { w.training.global_batch = v; },
        tr("Sequences per optimizer step (the global batch in sequences, not tokens)"));
    intField(
        tr("Micro-batch"), "/workload/training/micro_batch", L::kGlobalBatch.min, L::kGlobalBatch.max,
        [](const W& w) { return w.training.micro_batch.value_or(1); }, [](W& w, I v) { w.training.micro_batch = v; },
        tr("Sequences per micro-batch; default 1"));
    doubleField(
        tr("Tokens to train"), "/workload/training/tokens", 1e-6, L::kTokensMax / 1e9, 6, 1e9, tr(" B"),
        [](const W& w) { return w.training.tokens; }, [](W& w, double v) { w.training.tokens = v; },
        tr("Total training tokens, in billions"));
    choiceField(
        tr("Precision"), "/workload/training/precision", {{"bf16", "BF16"}, {"fp16", "FP16"}, {"fp8", "FP8"}},
        [](const W& w) { return q(orDefault(w.training.precision, defaults::kPrecision)); },
        [](W& w, const QString& v) { w.training.precision = v.toStdString(); },
        tr("Math precision of the GEMMs; sets the compute ceiling. Default BF16"));
    choiceField(
        tr("Attention kernel"), "/workload/training/attention_kernel",
        {{"flash", tr("Fused (Flash)")}, {"unfused", tr("Unfused")}},
        [](const W& w) { return q(orDefault(w.training.attention_kernel, defaults::kAttentionKernel)); },
        [](W& w, const QString& v) { w.training.attention_kernel = v.toStdString(); },
        tr("Fused attention keeps the s x s scores out of HBM. Default fused"));

    addSection(tr("Serving"));
    // A serving field set on a design without its section creates it.
    auto serving = [](W& w) -> ServingSpec& {
        if (!w.serving)
            w.serving = defaultServing();
        return *w.serving;
    };
    auto servingOf = [](const W& w) { return w.serving.value_or(defaultServing()); };
    intField(
        tr("Prompt tokens"), "/workload/serving/prompt_tokens", L::kServingTokens.min, L::kServingTokens.max,
        [=](const W& w) { return servingOf(w).prompt_tokens; }, [=](W& w, I v) { serving(w).prompt_tokens = v; },
        tr("Tokens of each request's prompt (prefill)"));
    intField(
        tr("Output tokens"), "/workload/serving/output_tokens", L::kServingTokens.min, L::kServingTokens.max,
        [=](const W& w) { return servingOf(w).output_tokens; }, [=](W& w, I v) { serving(w).output_tokens = v; },
        tr("Tokens each request generates (decode)"));
    intField(
        tr("Batch per replica"), "/workload/serving/batch", L::kServingBatch.min, L::kServingBatch.max,
        [=](const W& w) { return servingOf(w).batch.value_or(0); }, [=](W& w, I v) { serving(w).batch = v; },
        tr("Sequences a replica decodes together; auto takes the most that fit within the latency targets"),
        tr("auto"));
    doubleField(
        tr("Arrival rate"), "/workload/serving/arrival_rate_per_s", 0, L::kArrivalRateMax, 2, 1, tr(" req/s"),
        [=](const W& w) { return servingOf(w).arrival_rate_per_s.value_or(0); },
        [=](W& w, double v) { serving(w).arrival_rate_per_s = v; },
        tr("Requests per second the fleet serves: sets the replicas (Little's law)"));
    // An optional serving field a 0 shows and clears: its getter and setter.
    auto zeroIsUnset = [=](auto member) {
        return std::pair{[=](const W& w) { return (servingOf(w).*member).value_or(0); },
                         [=](W& w, auto v) {
                             if (v > 0)
                                 serving(w).*member = v;
                             else
                                 (serving(w).*member).reset();
                         }};
    };
    // Targets: 0 shows and means none.
    auto target = [&](const QString& label, const char* key, std::optional<double> ServingSpec::*member,
                      const QString& help) {
        const auto [get, set] = zeroIsUnset(member);
        doubleField(label, QString("/workload/serving/") + key, 0, L::kLatencyTargetMax * 1000, 1, 0.001, tr(" ms"),
                    get, set, help + tr("; 0: no target"));
    };
    target(tr("TTFT target"), "ttft_target_s", &ServingSpec::ttft_target_s, tr("Time to first token"));
    target(tr("TPOT target"), "tpot_target_s", &ServingSpec::tpot_target_s, tr("Time per output token"));
    target(tr("End-to-end target"), "e2e_target_s", &ServingSpec::e2e_target_s, tr("Whole request"));
    choiceField(
        tr("Weights in"), "/workload/serving/weight_precision", {{"bf16", "BF16"}, {"fp8", "FP8"}, {"fp4", "FP4"}},
        [=](const W& w) { return q(orDefault(servingOf(w).weight_precision, defaults::kServingPrecision)); },
        [=](W& w, const QString& v) { serving(w).weight_precision = v.toStdString(); },
        tr("Precision of the weights: their bytes and the compute roof; the GPU needs a peak at it. Default BF16"));
    choiceField(
        tr("KV cache in"), "/workload/serving/kv_precision", {{"bf16", "BF16"}, {"fp8", "FP8"}},
        [=](const W& w) { return q(orDefault(servingOf(w).kv_precision, defaults::kServingPrecision)); },
        [=](W& w, const QString& v) { serving(w).kv_precision = v.toStdString(); },
        tr("Precision of the KV cache; FP8 holds twice the sequences. Default BF16"));
    choiceField(
        tr("Engine"), "/workload/serving/engine",
        {{"trtllm", "TensorRT-LLM"}, {"vllm", "vLLM"}, {"sglang", "SGLang"}},
        [=](const W& w) { return q(servingOf(w).engine.value_or(std::string(kDefaultServingEngine))); },
        [=](W& w, const QString& v) { serving(w).engine = v.toStdString(); },
        tr("The serving engine: its defaults set the tokens one step carries and the requests it keeps in flight. "
           "Default TensorRT-LLM"));
    // The engine's limits: 0 shows its default.
    auto engineLimit = [&](const QString& label, const char* key, std::optional<std::int64_t> ServingSpec::*member,
                           limits::IntRange range, const QString& help) {
        const auto [get, set] = zeroIsUnset(member);
        intField(label, QString("/workload/serving/") + key, 0, range.max, get, set, help, tr("engine default"));
    };
    engineLimit(tr("Tokens per step"), "step_tokens", &ServingSpec::step_tokens, L::kEngineStepTokens,
                tr("Prompt and decode tokens one engine step carries at most (max_num_tokens, "
                   "max_num_batched_tokens, chunked_prefill_size)"));
    engineLimit(tr("Requests in flight"), "max_requests", &ServingSpec::max_requests, L::kEngineMaxRequests,
                tr("Requests the engine keeps in flight at most (max_batch_size, max_num_seqs, "
                   "max_running_requests)"));

    addSection(tr("Parallelism"));
    // "Any software" is the default: a file that names none means it.
    choiceField(
        tr("Software"), "/workload/software",
        [this] {
            std::vector<Choice> choices;
            for (const SoftwareProfile& p : doc_->catalog().softwareProfiles()) {
                const std::string limits = describeAllowed(p.allowed);
                choices.push_back({q(p.id), q(p.name),
                                   q(p.name + ": " + (limits.empty() ? std::string("any layout") : limits) + "\n" +
                                     p.note + "\nSource: " + p.source)});
            }
            return choices;
        },
        [](const W& w) { return q(w.software.value_or(std::string(kAnySoftware))); },
        [](W& w, const QString& id) {
            w.software = id == q(kAnySoftware) ? std::nullopt : std::optional(id.toStdString());
        },
        tr("What the training framework runs: the layout search, scale sweep, comparison and upgrades propose only "
           "layouts it supports (hover a choice for its axes and source)"));
    intField(
        tr("Tensor (tp)"), "/workload/parallelism/tp", L::kParallel.min, L::kParallel.max,
        [](const W& w) { return w.parallelism.tp.value_or(1); }, [](W& w, I v) { w.parallelism.tp = v; },
        tr("Tensor-parallel degree: splits every layer; wants one NVLink domain"));
    intField(
        tr("Pipeline (pp)"), "/workload/parallelism/pp", L::kParallel.min, L::kParallel.max,
        [](const W& w) { return w.parallelism.pp.value_or(1); }, [](W& w, I v) { w.parallelism.pp = v; },
        tr("Pipeline stages"));
    intField(
        tr("Context (cp)"), "/workload/parallelism/cp", L::kParallel.min, L::kParallel.max,
        [](const W& w) { return w.parallelism.cp.value_or(1); }, [](W& w, I v) { w.parallelism.cp = v; },
        tr("Context-parallel degree: splits the sequence"));
    intField(
        tr("Expert (ep)"), "/workload/parallelism/ep", L::kParallel.min, L::kParallel.max,
        [](const W& w) { return w.parallelism.ep.value_or(1); }, [](W& w, I v) { w.parallelism.ep = v; },
        tr("Expert-parallel degree (MoE): carved out of the data-parallel ranks"));
    intField(
        tr("Data (dp)"), "/workload/parallelism/dp", L::kDp.min, L::kDp.max,
        [](const W& w) { return w.parallelism.dp.value_or(0); }, [](W& w, I v) { w.parallelism.dp = v; },
        tr("Data-parallel degree; auto derives it from the GPUs: GPUs / (tp x pp x cp)"), tr("auto"));
    intField(
        tr("Interleave"), "/workload/parallelism/interleave", L::kInterleave.min, L::kInterleave.max,
        [](const W& w) { return w.parallelism.interleave.value_or(1); },
        [](W& w, I v) { w.parallelism.interleave = v; },
        tr("Model chunks per pipeline stage (interleaved 1F1B): divides the bubble"));
    choiceField(
        tr("ZeRO stage"), "/workload/parallelism/zero",
        {{"0", tr("0: none")}, {"1", tr("1: optimizer")}, {"2", tr("2: + gradients")}, {"3", tr("3: + weights")}},
        [](const W& w) { return QString::number(w.parallelism.zero.value_or(1)); },
        [](W& w, const QString& v) { w.parallelism.zero = v.toInt(); },
        tr("What data-parallel ranks shard: 1 the optimizer state, 2 also the gradients, 3 also the weights (FSDP); "
           "default 1"));
    switchField(tr("Sequence parallel"), "/workload/parallelism/sequence_parallel", &ParallelismSpec::sequence_parallel,
                true, tr("Shards norms and dropout with tp (Korthikanti et al. 2022); default on"));
    switchField(tr("TP overlap"), "/workload/parallelism/tp_comm_overlap", &ParallelismSpec::tp_comm_overlap, false,
                tr("Pipelines TP all-gathers and reduce-scatters with their GEMMs (Megatron --tp-comm-overlap, "
                   "Transformer Engine userbuffers); needs sequence parallelism; default off"));
    choiceField(
        tr("CP exchange"), "/workload/parallelism/cp_comm",
        {{"p2p", tr("ring (p2p)")}, {"all_gather", tr("all-gather")}, {"a2a", tr("all-to-all (Ulysses)")}},
        [](const W& w) { return q(orDefault(w.parallelism.cp_comm, defaults::kCpComm)); },
        [](W& w, const QString& v) { w.parallelism.cp_comm = v.toStdString(); },
        tr("How context parallelism exchanges keys and values (Megatron --cp-comm-type): the ring hides behind "
           "attention, all-gather (Llama 3) and all-to-all are exposed; default ring"));
    choiceField(
        tr("Recompute"), "/workload/parallelism/recompute",
        {{"none", tr("none")}, {"selective", tr("selective")}, {"full", tr("full")}},
        [](const W& w) { return q(orDefault(w.parallelism.recompute, defaults::kRecompute)); },
        [](W& w, const QString& v) { w.parallelism.recompute = v.toStdString(); },
        tr("Activation recomputation: selective re-runs the attention core, full the whole block; default selective"));

    addSection(tr("Data"));
    doubleField(
        tr("Bytes per token"), "/workload/data/bytes_per_token", 0.001, L::kBytesPerTokenMax, 3, 1, tr(" B"),
        [](const W& w) { return w.data.bytes_per_token.value_or(defaults::kBytesPerToken.value); },
        [](W& w, double v) { w.data.bytes_per_token = v; }, q(std::string(defaults::kBytesPerToken.source)));
    doubleField(
        tr("Shard file size"), "/workload/data/file_mb", 0.001, L::kFileMbMax, 1, 1, tr(" MB"),
        [](const W& w) { return w.data.file_mb.value_or(defaults::kFileMb.value); },
        [](W& w, double v) { w.data.file_mb = v; }, q(std::string(defaults::kFileMb.source)));

    connect(doc_, &DesignDocument::settingsChanged, this, &WorkloadPanel::refreshValues);
    connect(doc_, &DesignDocument::designReset, this, &WorkloadPanel::refreshValues);
    connect(service_, &AnalysisService::updated, this, &WorkloadPanel::refreshValues);
    refreshValues();
}

ServingSpec WorkloadPanel::defaultServing()
{
    // A chat-sized request, the scale MLPerf's Llama 2 70B benchmark uses
    // (inputs up to 1,024 tokens, about 294 out): a starting point to edit.
    ServingSpec s;
    s.prompt_tokens = 1024;
    s.output_tokens = 256;
    return s;
}

void WorkloadPanel::switchKind(Workload& w, WorkloadKind kind)
{
    w.kind = std::string(workloadKindName(kind));
    if (kind == WorkloadKind::Serving && !w.serving) {
        w.serving = defaultServing();
        emit message(tr("Serving: 1,024-token prompts and 256-token answers to start with (the Serving section)"));
    }
    // Back to training from a design that never had a training run: the
    // model preset's published sizes, else a placeholder the user sees.
    if (kind == WorkloadKind::Training && w.training == TrainingSpec{}) {
        if (const ModelPreset* p = matchModelPreset(w.model)) {
            w.training.global_batch = p->globalBatch;
            w.training.tokens = p->tokens;
            emit message(tr("Training: the global batch and tokens %1 reports").arg(q(p->model.name)));
        } else {
            w.training.global_batch = 1024;
            w.training.tokens = 1e12;
            emit message(tr("Training: a global batch of 1,024 sequences and 1 trillion tokens to start with "
                            "(the Training section)"));
        }
    }
}

void WorkloadPanel::addSection(const QString& title)
{
    auto* label = new QLabel("<b>" + title.toHtmlEscaped() + "</b>");
    label->setContentsMargins(0, 8, 0, 2);
    form_->addRow(label);
    sections_.push_back({title, form_->rowCount() - 1, form_->rowCount()});
}

void WorkloadPanel::addRow(const QString& label, const QString& pointer, QWidget* field, const QString& help)
{
    const QString tip = pointer.isEmpty() ? help : help + "<br><small>" + pointer + "</small>";
    field->setToolTip(tip);
    auto* l = new QLabel(label);
    l->setToolTip(tip);
    form_->addRow(l, field);
    if (!pointer.isEmpty())
        fields_.insert(pointer, field);
    if (!sections_.empty())
        sections_.back().end = form_->rowCount();
}

void WorkloadPanel::intField(const QString& label, const QString& pointer, std::int64_t min, std::int64_t max,
                             std::function<std::int64_t(const Workload&)> get,
                             std::function<void(Workload&, std::int64_t)> set, const QString& help,
                             const QString& special)
{
    auto* box = new CheckedSpinBox;
    box->setRange(clampInt(min), clampInt(max));
    box->setGroupSeparatorShown(true);
    if (!special.isEmpty())
        box->setSpecialValueText(special);
    const int key = nextMergeKey();
    box->setCheck([=, this](int v) {
        Workload w = doc_->design().workload;
        set(w, v);
        return refusalOf(w);
    });
    connect(box, &CheckedSpinBox::refused, this, [=, this](const QString& why) { showRefusal(label + ": " + why); });
    connect(box, &QSpinBox::valueChanged, this, [=, this](int v) {
        if (get(doc_->design().workload) == v)
            return;
        if (!apply(tr("Set %1 to %2").arg(label, q(formatCount(v))), key, [&](Workload& w) { set(w, v); }))
            refreshValues();
    });
    refreshers_.push_back([=, this] {
        const int v = clampInt(get(doc_->design().workload));
        if (box->value() == v && box->hasFocus())
            return;  // setValue would reset what the user is typing
        QSignalBlocker block(box);
        box->setValue(v);
    });
    addRow(label, pointer, box, help);
}

void WorkloadPanel::doubleField(const QString& label, const QString& pointer, double min, double max, int decimals,
                                double scale, const QString& suffix, std::function<double(const Workload&)> get,
                                std::function<void(Workload&, double)> set, const QString& help)
{
    // `scale`: the field shows value / scale (tokens in billions).
    auto* box = new CompactDoubleSpinBox;
    box->setRange(min, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    box->setGroupSeparatorShown(true);
    box->setSingleStep(max <= 1 ? 0.05 : 1);
    const int key = nextMergeKey();
    connect(box, &QDoubleSpinBox::valueChanged, this, [=, this](double shown) {
        const double v = shown * scale;
        if (std::abs(get(doc_->design().workload) - v) <= 1e-12 * std::max(1.0, std::abs(v)))
            return;
        if (!apply(tr("Set %1").arg(label), key, [&](Workload& w) { set(w, v); }))
            refreshValues();
    });
    refreshers_.push_back([=, this] {
        const double v = get(doc_->design().workload) / scale;
        if (box->hasFocus() && std::abs(box->value() - v) <= std::pow(10.0, -decimals))
            return;  // setValue would reset what the user is typing
        QSignalBlocker block(box);
        box->setValue(v);
    });
    addRow(label, pointer, box, help);
}

void WorkloadPanel::choiceField(const QString& label, const QString& pointer,
                                const std::vector<std::pair<QString, QString>>& options,
                                std::function<QString(const Workload&)> get,
                                std::function<void(Workload&, const QString&)> set, const QString& help)
{
    std::vector<Choice> choices;
    for (const auto& [value, text] : options)
        choices.push_back({value, text, {}});
    choiceField(
        label, pointer, [choices] { return choices; }, std::move(get), std::move(set), help);
}

void WorkloadPanel::choiceField(const QString& label, const QString& pointer,
                                std::function<std::vector<Choice>()> options,
                                std::function<QString(const Workload&)> get,
                                std::function<void(Workload&, const QString&)> set, const QString& help)
{
    auto* box = new QComboBox;
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(6);
    connect(box, &QComboBox::activated, this, [=, this](int i) {
        const QString v = box->itemData(i).toString();
        if (get(doc_->design().workload) == v)
            return;
        if (!apply(tr("Set %1 to %2").arg(label, box->itemText(i)), 0, [&](Workload& w) { set(w, v); }))
            refreshValues();
    });
    // The choices are asked for at each refresh: the software profiles come
    // from the catalog, which a user's catalog may extend.
    refreshers_.push_back([=, this] {
        QSignalBlocker block(box);
        const std::vector<Choice> now = options();
        bool same = box->count() == int(now.size());
        for (int i = 0; same && i < box->count(); ++i)
            same = box->itemData(i).toString() == now[std::size_t(i)].value;
        if (!same) {
            box->clear();
            for (const Choice& c : now) {
                box->addItem(c.text, c.value);
                if (!c.tip.isEmpty())
                    box->setItemData(box->count() - 1, c.tip, Qt::ToolTipRole);
            }
        }
        box->setCurrentIndex(std::max(0, box->findData(get(doc_->design().workload))));
    });
    addRow(label, pointer, box, help);
}

void WorkloadPanel::switchField(const QString& label, const QString& pointer,
                                std::optional<bool> ParallelismSpec::*flag, bool fallback, const QString& help)
{
    choiceField(
        label, pointer, {{"1", tr("on")}, {"0", tr("off")}},
        [=](const Workload& w) { return (w.parallelism.*flag).value_or(fallback) ? "1" : "0"; },
        [=](Workload& w, const QString& v) { w.parallelism.*flag = v == "1"; }, help);
}

QString WorkloadPanel::refusalOf(const Workload& proposed) const
{
    // Only the workload changes, so only its rules can find a new error: the
    // rest of a design of thousands of items is not checked for each value.
    if (const auto problem = editor_.firstNew(validateWorkload(proposed, doc_->catalog())))
        return editor_.describe(*problem);
    const Analysis* a = service_->analysis();
    if (!a)
        return {};
    std::set<std::string> before;
    for (const auto& p : unrunnableLayout(doc_->design().workload, a->inventory.gpus))
        before.insert(p.code);
    for (const auto& p : unrunnableLayout(proposed, a->inventory.gpus))
        if (!before.count(p.code)) {
            QString why = q(p.message);
            if (p.code == "layout_mismatch" && proposed.parallelism.dp.value_or(0) > 0)
                why += tr(" (set dp to auto to derive it from the GPUs)");
            return why;
        }
    return {};
}

bool WorkloadPanel::apply(const QString& undoText, int mergeKey, const std::function<void(Workload&)>& edit)
{
    DesignSettings s = DesignSettings::of(doc_->design());
    edit(s.workload);
    if (s.workload == doc_->design().workload)
        return true;
    if (const QString why = refusalOf(s.workload); !why.isEmpty()) {
        showRefusal(tr("%1 refused: %2").arg(undoText, why));
        return false;
    }
    // Checked above with the layout rules too: the editor's own check is the
    // same validation, so this push cannot be refused for another reason.
    const EditResult r = editor_.changeSettings(std::move(s), undoText, mergeKey);
    showRefusal(r.refused() ? tr("%1 refused: %2").arg(undoText, r.reason) : QString());
    return !r.refused();
}

void WorkloadPanel::usePreset(int index)
{
    const ModelPreset* p = findModelPreset(preset_->itemData(index).toString().toStdString());
    if (!p) {
        refreshValues();
        return;
    }
    const bool applied = apply(tr("Use model %1").arg(q(p->model.name)), 0, [&](Workload& w) {
        w.model = p->model;
        w.training.global_batch = p->globalBatch;
        w.training.tokens = p->tokens;
        // A dense model has no experts to spread, and a micro-batch cannot
        // exceed the new global batch.
        if (!p->model.experts)
            w.parallelism.ep.reset();
        if (w.training.micro_batch.value_or(1) > p->globalBatch)
            w.training.micro_batch.reset();
    });
    if (applied)
        emit message(tr("Model: %1. Source: %2").arg(q(p->model.name), q(p->source)));
    else
        refreshValues();
}

void WorkloadPanel::showRefusal(const QString& why)
{
    refusal_ = why;
    refusalLabel_->setVisible(!why.isEmpty());
    if (why.isEmpty())
        return;
    const QColor error = sceneColors().error;
    refusalLabel_->setText("<span style='color:" + error.name() + "'>" + why.toHtmlEscaped() + "</span>");
    emit message(why);
}

void WorkloadPanel::refreshValues()
{
    const Workload& w = doc_->design().workload;
    {
        QSignalBlocker block(preset_);
        const ModelPreset* match = matchModelPreset(w.model);
        preset_->setCurrentIndex(match ? std::max(0, preset_->findData(q(match->id))) : 0);
        preset_->setToolTip(match ? q(match->source) : tr("A model shape of your own"));
    }
    for (const auto& r : refreshers_)
        r();
    // A workload shows the section of its kind: a serving design's
    // training fields would show clamped placeholders.
    const bool serving = w.isServing();
    // The serving search's axes are the engine's, not a framework's.
    form_->setRowVisible(field("/workload/software"), !serving);
    for (const Section& sec : sections_)
        if (sec.title == tr("Training") || sec.title == tr("Serving")) {
            const bool show = (sec.title == tr("Serving")) == serving;
            for (int row = sec.first; row < sec.end; ++row)
                form_->setRowVisible(row, show);
        }
    refreshSummary();
}

QString WorkloadPanel::summary() const
{
    return summary_->text();
}

void WorkloadPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refreshSummary();
}

void WorkloadPanel::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    // A dock tab brought to the front is painted, not shown again.
    if (summaryStale_)
        QTimer::singleShot(0, this, &WorkloadPanel::refreshSummary);
}

void WorkloadPanel::refreshSummary()
{
    // A new summary lays the dock out again (its labels wrap): not while
    // the dock is tabbed away, which is most edits' case. Seen, it catches up.
    summaryStale_ = !isVisible() || visibleRegion().isEmpty();
    if (summaryStale_)
        return;
    const Workload& w = doc_->design().workload;
    const Analysis* a = service_->analysis();
    if (!a) {
        summary_->setText(tr("The design has errors: see the Warnings dock."));
        return;
    }
    const WorkloadShape& s = a->workload;
    QString text = tr("<b>%1</b>: %2 B parameters").arg(q(s.name).toHtmlEscaped(), q(formatReadable(s.params / 1e9)));
    if (s.moe())
        text += tr(" (%1 B active per token)").arg(q(formatReadable(s.activeParamsPerToken / 1e9)));
    if (w.isServing())
        text += tr("<br>serving: replicas of tp %1 x pp %2 = %3 GPUs, %4 of them in the design's %5 GPUs")
                    .arg(q(formatCount(s.tp)), q(formatCount(s.pp)), q(formatCount(s.tp * s.pp)),
                         q(formatCount(a->inventory.gpus / std::max<std::int64_t>(1, s.tp * s.pp))),
                         q(formatCount(a->inventory.gpus)));
    else
        text += tr("<br>tp %1 x pp %2 x cp %3 x dp %4%5 = %6 of %7 GPUs; %8 micro-batches per pipeline")
                    .arg(q(formatCount(s.tp)), q(formatCount(s.pp)), q(formatCount(s.cp)), q(formatCount(s.dp)),
                         w.parallelism.dp.value_or(0) > 0 ? QString() : tr(" (auto)"), q(formatCount(s.gpusUsed)),
                         q(formatCount(a->inventory.gpus)), q(formatValue(s.microBatches, 4)));
    if (summary_->text() != text)  // a new text relays the dock out
        summary_->setText(text);
}

void WorkloadPanel::setLayoutSearch(LayoutSearchService* search)
{
    search_ = search;
    // While a search runs the last rank stays, dimmed: edits never wait.
    connect(search_, &LayoutSearchService::started, this, [this] { rank_->setEnabled(false); });
    connect(search_, &LayoutSearchService::finished, this, &WorkloadPanel::refreshRank);
    refreshRank();
}

QString WorkloadPanel::layoutRank() const
{
    return rank_->isVisibleTo(this) ? rank_->text() : QString();
}

void WorkloadPanel::refreshRank()
{
    const SearchResult* r = search_ ? search_->result() : nullptr;
    rank_->setEnabled(true);
    rank_->setVisible(r && r->error.empty());
    if (!rank_->isVisibleTo(this))
        return;
    const QString text = tr("Layout rank: <b>%1</b> by %2. <a href=\"layouts\">Better layouts...</a>")
                             .arg(q(currentRankText(*r)).toHtmlEscaped(),
                                  r->objective == Objective::Time         ? tr("step time")
                                      : r->objective == Objective::Energy ? tr("energy per token")
                                                                          : tr("days to train"));
    if (rank_->text() != text)
        rank_->setText(text);
}

}  // namespace studio
