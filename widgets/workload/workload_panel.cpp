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
#include "core/contract.h"
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

// The serving engines as the choice offers them: each by its users' name.
std::vector<std::pair<QString, QString>> engineLabels()
{
    std::vector<std::pair<QString, QString>> labels;
    for (std::string_view engine : kServingEngines)
        labels.emplace_back(q(std::string(engine)), q(engineDisplayName(engine)));
    return labels;
}

// A field's type without its optional: what its editor shows.
template <typename T>
struct Unwrapped {
    using type = T;
    static constexpr bool optional = false;
};
template <typename T>
struct Unwrapped<std::optional<T>> {
    using type = T;
    static constexpr bool optional = true;
};

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
    // Each field's pointer, range, choices and a choice's default are its
    // row of the file's tables (core/format/design_fields); the dock adds
    // how it shows.
    const WorkloadPart<ModelSpec> model{"/workload/model", fields::model(), [](const W& w) { return w.model; },
                                        [](W& w) -> ModelSpec& { return w.model; }};
    const WorkloadPart<TrainingSpec> training{"/workload/training", fields::training(),
                                              [](const W& w) { return w.training; },
                                              [](W& w) -> TrainingSpec& { return w.training; }};
    const WorkloadPart<ParallelismSpec> parallelism{"/workload/parallelism", fields::parallelism(),
                                                    [](const W& w) { return w.parallelism; },
                                                    [](W& w) -> ParallelismSpec& { return w.parallelism; }};
    const WorkloadPart<DataSpec> data{"/workload/data", fields::data(), [](const W& w) { return w.data; },
                                      [](W& w) -> DataSpec& { return w.data; }};
    // A serving field set on a design without its section creates it.
    const WorkloadPart<ServingSpec> serving{"/workload/serving", fields::serving(),
                                            [](const W& w) { return w.serving.value_or(defaultServing()); },
                                            [](W& w) -> ServingSpec& {
                                                if (!w.serving)
                                                    w.serving = defaultServing();
                                                return *w.serving;
                                            }};
    const auto precisions =
        std::vector<std::pair<QString, QString>>{{"bf16", "BF16"}, {"fp16", "FP16"}, {"fp8", "FP8"}, {"fp4", "FP4"}};

    tableField(model, "layers", tr("Layers"), tr("Transformer blocks"));
    tableField(model, "hidden", tr("Hidden size"), tr("Model dimension h; the heads must divide it"));
    tableField(model, "heads", tr("Attention heads"), tr("Query heads; tensor parallelism splits them"));
    tableField(model, "kv_heads", tr("KV heads"),
               tr("Key/value heads (grouped-query attention); default: as many as the query heads"),
               {.fallback = [](const W& w) { return double(w.model.heads); }});
    tableField(model, "ffn_hidden", tr("FFN hidden size"), tr("Default: 4 x hidden"),
               {.fallback = [](const W& w) { return 4.0 * double(w.model.hidden); }});
    tableField(model, "ffn_type", tr("FFN type"), tr("Default: GeLU"),
               {.labels = {{"gelu", tr("GeLU")}, {"swiglu", tr("SwiGLU")}}});
    tableField(model, "vocab", tr("Vocabulary"), tr("Tokens in the vocabulary (embedding and output layer)"));
    tableField(model, "seq_len", tr("Sequence length"), tr("Tokens per sequence; context parallelism splits it"));
    tableField(model, "experts", tr("Experts"), tr("Experts per MoE layer; 0 is a dense model"),
               {.special = tr("dense")});
    tableField(model, "experts_per_token", tr("Experts per token"), tr("Experts each token is routed to (top-k)"));
    tableField(model, "dropout", tr("Dropout"), tr("Dropout probability; GPT-3-era models used 0.1. Default 0"),
               {.decimals = 2});

    addSection(tr("Training"));
    tableField(training, "global_batch", tr("Global batch"),
               tr("Sequences per optimizer step (the global batch in sequences, not tokens)"));
    tableField(training, "micro_batch", tr("Micro-batch"), tr("Sequences per micro-batch; default 1"),
               {.fallback = [](const W&) { return 1.0; }});
    tableField(training, "tokens", tr("Tokens to train"), tr("Total training tokens, in billions"),
               {.scale = 1e9, .decimals = 6, .suffix = tr(" B")});
    tableField(training, "precision", tr("Precision"),
               tr("Math precision of the GEMMs; sets the compute ceiling. Default BF16"), {.labels = precisions});
    tableField(training, "attention_kernel", tr("Attention kernel"),
               tr("Fused attention keeps the s x s scores out of HBM. Default fused"),
               {.labels = {{"flash", tr("Fused (Flash)")}, {"unfused", tr("Unfused")}}});

    addSection(tr("Serving"));
    tableField(serving, "prompt_tokens", tr("Prompt tokens"), tr("Tokens of each request's prompt (prefill)"));
    tableField(serving, "output_tokens", tr("Output tokens"), tr("Tokens each request generates (decode)"));
    tableField(serving, "batch", tr("Batch per replica"),
               tr("Sequences a replica decodes together; auto takes the most that fit within the latency targets"),
               {.special = tr("auto")});
    tableField(serving, "arrival_rate_per_s", tr("Arrival rate"),
               tr("Requests per second the fleet serves: sets the replicas (Little's law)"),
               {.decimals = 2, .suffix = tr(" req/s")});
    // Targets: 0 shows and means none.
    const Look target{.zeroUnsets = true, .scale = 0.001, .decimals = 1, .suffix = tr(" ms")};
    tableField(serving, "ttft_target_s", tr("TTFT target"), tr("Time to first token; 0: no target"), target);
    tableField(serving, "tpot_target_s", tr("TPOT target"), tr("Time per output token; 0: no target"), target);
    tableField(serving, "e2e_target_s", tr("End-to-end target"), tr("Whole request; 0: no target"), target);
    tableField(
        serving, "weight_precision", tr("Weights in"),
        tr("Precision of the weights: their bytes and the compute roof; the GPU needs a peak at it. Default BF16"),
        {.labels = precisions});
    tableField(serving, "kv_precision", tr("KV cache in"),
               tr("Precision of the KV cache; FP8 holds twice the sequences. Default BF16"), {.labels = precisions});
    tableField(serving, "engine", tr("Engine"),
               tr("The serving engine: its defaults set the tokens one step carries and the requests it keeps in "
                  "flight. Default TensorRT-LLM"),
               {.labels = engineLabels()});
    // The engine's limits: 0 shows its default.
    const Look engineLimit{.special = tr("engine default"), .zeroUnsets = true};
    tableField(serving, "step_tokens", tr("Tokens per step"),
               tr("Prompt and decode tokens one engine step carries at most (max_num_tokens, "
                  "max_num_batched_tokens, chunked_prefill_size)"),
               engineLimit);
    tableField(serving, "max_requests", tr("Requests in flight"),
               tr("Requests the engine keeps in flight at most (max_batch_size, max_num_seqs, "
                  "max_running_requests)"),
               engineLimit);
    tableField(serving, "memory_fraction", tr("Memory share"),
               tr("The engine's share of each GPU's memory: TensorRT-LLM's free_gpu_memory_fraction (of what the "
                  "weights and its buffers leave), vLLM's gpu_memory_utilization and SGLang's mem_fraction_static "
                  "(of the whole)"),
               {.special = tr("engine default"), .zeroUnsets = true, .decimals = 2});

    addSection(tr("Parallelism"));
    // "Any software" is the default: a file that names none means it. Its
    // choices are the catalog's profiles, not a fixed list.
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
    const Look one{.fallback = [](const W&) { return 1.0; }};
    tableField(parallelism, "tp", tr("Tensor (tp)"),
               tr("Tensor-parallel degree: splits every layer; wants one NVLink domain"), one);
    tableField(parallelism, "pp", tr("Pipeline (pp)"), tr("Pipeline stages"), one);
    tableField(parallelism, "cp", tr("Context (cp)"), tr("Context-parallel degree: splits the sequence"), one);
    tableField(parallelism, "ep", tr("Expert (ep)"),
               tr("Expert-parallel degree (MoE): carved out of the data-parallel ranks"), one);
    tableField(parallelism, "dp", tr("Data (dp)"),
               tr("Data-parallel degree; auto derives it from the GPUs: GPUs / (tp x pp x cp)"),
               {.special = tr("auto")});
    tableField(parallelism, "interleave", tr("Interleave"),
               tr("Model chunks per pipeline stage (interleaved 1F1B): divides the bubble"), one);
    tableField(
        parallelism, "zero", tr("ZeRO stage"),
        tr("What data-parallel ranks shard: 1 the optimizer state, 2 also the gradients, 3 also the weights "
           "(FSDP); default 1"),
        {.fallback = one.fallback,
         .labels = {
             {"0", tr("0: none")}, {"1", tr("1: optimizer")}, {"2", tr("2: + gradients")}, {"3", tr("3: + weights")}}});
    tableField(parallelism, "sequence_parallel", tr("Sequence parallel"),
               tr("Shards norms and dropout with tp (Korthikanti et al. 2022); default on"), one);
    tableField(parallelism, "tp_comm_overlap", tr("TP overlap"),
               tr("Pipelines TP all-gathers and reduce-scatters with their GEMMs (Megatron --tp-comm-overlap, "
                  "Transformer Engine userbuffers); needs sequence parallelism; default off"));
    tableField(
        parallelism, "cp_comm", tr("CP exchange"),
        tr("How context parallelism exchanges keys and values (Megatron --cp-comm-type): the ring hides "
           "behind attention, all-gather (Llama 3) and all-to-all are exposed; default ring"),
        {.labels = {{"p2p", tr("ring (p2p)")}, {"all_gather", tr("all-gather")}, {"a2a", tr("all-to-all (Ulysses)")}}});
    tableField(parallelism, "recompute", tr("Recompute"),
               tr("Activation recomputation: selective re-runs the attention core, full the whole block; default "
                  "selective"),
               {.labels = {{"none", tr("none")}, {"selective", tr("selective")}, {"full", tr("full")}}});

    addSection(tr("Data"));
    tableField(
        data, "bytes_per_token", tr("Bytes per token"), q(std::string(defaults::kBytesPerToken.source)),
        {.fallback = [](const W&) { return defaults::kBytesPerToken.value; }, .decimals = 3, .suffix = tr(" B")});
    tableField(data, "file_mb", tr("Shard file size"), q(std::string(defaults::kFileMb.source)),
               {.fallback = [](const W&) { return defaults::kFileMb.value; }, .decimals = 1, .suffix = tr(" MB")});

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
                                std::function<void(Workload&, double)> set, const QString& help, const QString& special)
{
    // `scale`: the field shows value / scale (tokens in billions).
    auto* box = new CompactDoubleSpinBox;
    box->setRange(min, max);
    if (!special.isEmpty())
        box->setSpecialValueText(special);
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

template <typename S>
void WorkloadPanel::tableField(const WorkloadPart<S>& part, std::string_view key, const QString& label,
                               const QString& help, const Look& look)
{
    const fields::Field<S>* field = &fields::find(part.table, key);
    const QString pointer = part.pointer + "/" + q(std::string(key));
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(std::declval<S&>().*member)>;
            using V = typename Unwrapped<T>::type;
            // The value, or what the model takes when the file leaves it out.
            const auto read = [get = part.get, member, field, fallback = look.fallback](const Workload& w) -> V {
                const S section = get(w);
                const T& v = section.*member;
                if constexpr (!Unwrapped<T>::optional)
                    return v;
                else if constexpr (std::is_same_v<V, std::string>)
                    return orDefault(v, field->fallback);
                else
                    return v ? *v : V(fallback ? fallback(w) : 0.0);
            };
            const auto write = [edit = part.edit, member, zeroUnsets = look.zeroUnsets](Workload& w, const V& v) {
                if constexpr (Unwrapped<T>::optional && std::is_arithmetic_v<V> && !std::is_same_v<V, bool>)
                    if (zeroUnsets && v <= 0) {
                        (edit(w).*member).reset();
                        return;
                    }
                edit(w).*member = v;
            };
            if constexpr (std::is_same_v<V, bool>) {
                choiceField(
                    label, pointer, {{"1", tr("on")}, {"0", tr("off")}},
                    [read](const Workload& w) { return QString(read(w) ? "1" : "0"); },
                    [write](Workload& w, const QString& v) { write(w, v == "1"); }, help);
            } else if constexpr (std::is_same_v<V, std::string>) {
                STUDIO_EXPECTS(!field->choices.empty());  // free text has an editor of its own
                std::vector<std::pair<QString, QString>> options;
                for (std::string_view c : field->choices) {
                    const QString value = q(std::string(c));
                    QString text = value;
                    for (const auto& [v, shown] : look.labels)
                        if (v == value)
                            text = shown;
                    options.emplace_back(value, text);
                }
                choiceField(
                    label, pointer, options, [read](const Workload& w) { return q(read(w)); },
                    [write](Workload& w, const QString& v) { write(w, v.toStdString()); }, help);
            } else if constexpr (std::is_same_v<V, std::int64_t>) {
                if (!look.labels.empty())
                    choiceField(
                        label, pointer, look.labels, [read](const Workload& w) { return QString::number(read(w)); },
                        [write](Workload& w, const QString& v) { write(w, v.toLongLong()); }, help);
                else
                    intField(label, pointer, look.zeroUnsets ? 0 : std::int64_t(field->min), std::int64_t(field->max),
                             read, write, help, look.special);
            } else {
                const double min = look.zeroUnsets ? 0
                    : field->minExclusive          ? std::pow(10.0, -look.decimals)
                                                   : field->min / look.scale;
                doubleField(label, pointer, min, field->max / look.scale, look.decimals, look.scale, look.suffix, read,
                            write, help, look.special);
            }
        },
        field->member);
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
                             .arg(q(currentRankText(*r)).toHtmlEscaped(), objectiveMeaning(r->objective));
    if (rank_->text() != text)
        rank_->setText(text);
}

}  // namespace studio
