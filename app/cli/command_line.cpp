#include "app/cli/command_line.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "core/catalog/catalog.h"
#include "core/compare/comparison.h"
#include "core/design/resize.h"
#include "core/export/export_files.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/design_writer.h"
#include "core/format/embedded_parts.h"
#include "core/import/calculon_import.h"
#include "core/import/netbox_device_type.h"
#include "core/json/json_pointer.h"
#include "core/metrics/kernel_shapes.h"
#include "core/metrics/metrics.h"
#include "core/metrics/metrics_text.h"
#include "core/metrics/serving_report.h"
#include "core/metrics/validation_runs.h"
#include "core/scale/scale_sweep.h"
#include "core/scale/sensitivity.h"
#include "core/scale/sensitivity_report.h"
#include "core/scale/sweep_report.h"
#include "core/search/layout_search.h"
#include "core/search/search_report.h"
#include "core/serving/serving.h"
#include "core/text.h"
#include "widgets/common/atomic_write.h"
#include "widgets/report/comparison_report.h"
#include "widgets/report/design_report.h"

namespace studio {
namespace {

void out(const std::string& s)
{
    std::fwrite(s.data(), 1, s.size(), stdout);
}
void err(const std::string& s)
{
    std::fwrite(s.data(), 1, s.size(), stderr);
}

void printProblems(const std::string& file, const std::vector<Problem>& problems, bool toStdout)
{
    for (const auto& p : problems) {
        const std::string line = formatProblem(file, p) + "\n";
        toStdout ? out(line) : err(line);
    }
}

struct Verb {
    const char* name;
    const char* synopsis;
    const char* summary;
    int (*run)(const QStringList& args, const Verb& verb);
};

const QCommandLineOption kCatalogOption(QStringLiteral("catalog"),
                                        "Merge the parts of a catalog FILE over the built-in catalog.", "FILE");
const QCommandLineOption kKernelsOption(QStringLiteral("kernels"),
                                        "Use the kernel profile FILE (docs/kernel-profiles.md) for the GPUs it names; "
                                        "none: no profile, every kernel at the catalog's efficiency factors.",
                                        "FILE");

// Parses a verb's arguments; prints usage to stderr and returns false on a
// usage error, so the caller exits 2.
bool parseVerb(QCommandLineParser& parser, const QStringList& args, const Verb& verb, int* exitCode)
{
    parser.setApplicationDescription(QString::fromUtf8(verb.summary));
    parser.addHelpOption();
    if (!parser.parse(args)) {
        err(parser.errorText().toStdString() + "\n");
        err(std::string("usage: cluster-studio ") + verb.synopsis + "\n");
        *exitCode = kExitUsage;
        return false;
    }
    if (parser.isSet("help")) {
        out(std::string("usage: cluster-studio ") + verb.synopsis + "\n\n" +
            parser.helpText().section('\n', 2).toStdString());
        *exitCode = kExitOk;
        return false;
    }
    return true;
}

// The built-in catalog plus --catalog, or nullopt after printing why not.
std::optional<Catalog> catalogFor(const QCommandLineParser& parser)
{
    Catalog catalog = Catalog::builtin();
    if (parser.isSet(kCatalogOption)) {
        const std::string path = parser.value(kCatalogOption).toStdString();
        const auto problems = catalog.mergeFile(path);
        printProblems(path, problems, false);
        if (hasErrors(problems))
            return std::nullopt;
    }
    // After --catalog: a profile names the parts it applies to, which may be
    // the catalog file's own.
    if (parser.isSet(kKernelsOption) && parser.value(kKernelsOption) == QStringLiteral("none")) {
        catalog.clearKernels();
    } else if (parser.isSet(kKernelsOption)) {
        const std::string path = parser.value(kKernelsOption).toStdString();
        const auto problems = catalog.mergeKernelsFile(path);
        printProblems(path, problems, false);
        if (hasErrors(problems))
            return std::nullopt;
    }
    return catalog;
}

// The start of every verb that takes FILE...: parse, require a file, load
// the catalog. Returns the catalog, or nullopt with *exitCode set.
std::optional<Catalog> startFilesVerb(QCommandLineParser& parser, const QStringList& args, const Verb& verb,
                                      int* exitCode)
{
    if (!parseVerb(parser, args, verb, exitCode))
        return std::nullopt;
    if (parser.positionalArguments().isEmpty()) {
        err(std::string(verb.name) + ": no FILE given\nusage: cluster-studio " + verb.synopsis + "\n");
        *exitCode = kExitUsage;
        return std::nullopt;
    }
    auto catalog = catalogFor(parser);
    if (!catalog)
        *exitCode = kExitInvalid;
    return catalog;
}

int runValidate(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    parser.addOption(kCatalogOption);
    parser.addOption(kKernelsOption);
    parser.addPositionalArgument("FILE", "Design files to check.", "FILE...");
    int code = kExitOk;
    const auto catalog = startFilesVerb(parser, args, verb, &code);
    if (!catalog)
        return code;
    for (const QString& file : parser.positionalArguments()) {
        const std::string path = file.toStdString();
        const DesignLoad loaded = loadDesignFile(path, *catalog);
        // What `metrics` would refuse the design for, so the two agree.
        std::vector<Problem> problems = loaded.problems;
        if (loaded.ok())
            for (Problem& p : servingProblems(*loaded.design, *loaded.catalog))
                problems.push_back(std::move(p));
        printProblems(path, problems, true);
        if (hasErrors(problems))
            code = kExitInvalid;
        else
            out(path + ": valid\n");
    }
    return code;
}

// --gpus N when given: false after saying why when it is not a count of 1
// or more; `out` is left alone when the option is absent.
bool readGpus(const QCommandLineParser& parser, const QCommandLineOption& option, std::int64_t* out)
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    const qlonglong n = parser.value(option).toLongLong(&ok);
    if (!ok || n < 1) {
        err("--gpus " + parser.value(option).toStdString() + ": expected a whole number of GPUs, at least 1\n");
        return false;
    }
    *out = n;
    return true;
}

// --set and --gpus: shared by every verb that loads one design to analyse.
// `search` reads --gpus itself (the GPUs its layouts use) and does not
// resize the design.
struct DesignOptions {
    explicit DesignOptions(bool resizes = true)
        : gpus(QStringLiteral("gpus"),
               resizes ? "Resize to N GPUs by changing the design's replicated node count."
                       : "Search layouts that use N of the design's GPUs (default: all of them).",
               "N"),
          resizes(resizes)
    {}
    QCommandLineOption set{QStringLiteral("set"), "Set the value at a JSON POINTER before analysis (repeatable).",
                           "POINTER=VALUE"};
    QCommandLineOption gpus;
    QCommandLineOption workload{QStringLiteral("workload"),
                                "Run the workload of another design FILE on this one: its model and run (tokens, "
                                "global batch, precision), this design's layout; --set edits apply after.",
                                "FILE"};
    bool resizes;
    void addTo(QCommandLineParser& parser) const
    {
        parser.addOption(set);
        parser.addOption(gpus);
        parser.addOption(workload);
    }
};

// A design file read whole, its problems printed; nullopt when it has errors.
std::optional<DesignLoad> loadOrSay(const std::string& path, const Catalog& catalog)
{
    DesignLoad loaded = loadDesignFile(path, catalog);
    printProblems(path, loaded.problems, false);
    if (!loaded.ok())
        return std::nullopt;
    return loaded;
}

// Loads FILE with the --set edits and --gpus resize applied. Returns the
// exit code to stop with, or nullopt on success.
std::optional<int> loadForAnalysis(const QCommandLineParser& parser, const DesignOptions& opts, const std::string& path,
                                   const Catalog& catalog, DesignLoad& loaded)
{
    std::vector<PointerEdit> edits;
    for (const QString& s : parser.values(opts.set)) {
        const int eq = static_cast<int>(s.indexOf('='));
        if (eq <= 0) {
            err("--set " + s.toStdString() + ": expected POINTER=VALUE, e.g. --set /workload/parallelism/tp=4\n");
            return kExitUsage;
        }
        edits.push_back({s.left(eq).toStdString(), parseSetValue(s.mid(eq + 1).toStdString())});
    }
    std::optional<std::int64_t> gpus;
    if (std::int64_t n = 0; !readGpus(parser, opts.gpus, &n))
        return kExitUsage;
    else if (n > 0)
        gpus = n;
    if (parser.isSet(opts.workload)) {
        // Another design's run on this design, exactly as a compare column
        // runs it, so `metrics B --workload A --set <its layout>` reproduces
        // that column.
        const auto other = loadOrSay(parser.value(opts.workload).toStdString(), catalog);
        const auto own = other ? loadOrSay(path, catalog) : std::nullopt;
        if (!own)
            return kExitInvalid;
        Design design = *own->design;
        design.workload = runOn(design.workload, other->design->workload, true);
        loaded = readDesignJson(designToJson(design), catalog, edits);
    } else {
        loaded = loadDesignFile(path, catalog, edits);
    }
    printProblems(path, loaded.problems, false);
    if (!loaded.ok())
        return kExitInvalid;
    if (gpus && opts.resizes) {
        if (auto problem = resizeToGpus(*loaded.design, *loaded.catalog, *gpus)) {
            printProblems(path, {*problem}, false);
            return kExitInvalid;
        }
        const auto problems = validateDesign(*loaded.design, *loaded.catalog);
        if (hasErrors(problems)) {
            printProblems(path, problems, false);
            return kExitInvalid;
        }
    }
    return std::nullopt;
}

// A verb that analyses one FILE (with --set, --gpus and --catalog): parses,
// lets `usageOk` check the verb's own options (printing why not), loads the
// design and hands it to `run`. Usage errors come before the file is read.
int runOnOneDesign(QCommandLineParser& parser, const DesignOptions& opts, const QStringList& args, const Verb& verb,
                   const std::function<bool()>& usageOk,
                   const std::function<int(const DesignLoad& loaded, const QString& file)>& run)
{
    opts.addTo(parser);
    parser.addOption(kCatalogOption);
    parser.addOption(kKernelsOption);
    int code = kExitOk;
    if (!parseVerb(parser, args, verb, &code))
        return code;
    if (parser.positionalArguments().size() != 1) {
        err(std::string(verb.name) + ": expected one FILE\nusage: cluster-studio " + verb.synopsis + "\n");
        return kExitUsage;
    }
    if (!usageOk())
        return kExitUsage;
    const auto catalog = catalogFor(parser);
    if (!catalog)
        return kExitInvalid;
    const QString file = parser.positionalArguments().front();
    DesignLoad loaded;
    if (auto stop = loadForAnalysis(parser, opts, file.toStdString(), *catalog, loaded))
        return *stop;
    return run(loaded, file);
}

// "json, text or csv".
QString choiceList(const QStringList& choices)
{
    return choices.size() > 1 ? choices.mid(0, choices.size() - 1).join(", ") + " or " + choices.back()
                              : choices.join("");
}

// A verb's --format: one of `choices`, the first the default unless the
// verb describes its own ("Output format: json (default), text or csv.").
struct FormatOption {
    QStringList choices;
    QCommandLineOption option;
    explicit FormatOption(const QStringList& allowed, const QString& description = {}, bool withDefault = true)
        : choices(allowed),
          option(QStringLiteral("format"),
                 description.isEmpty() ? "Output format: " +
                         choiceList(QStringList{allowed.front() + " (default)"} + allowed.mid(1)) + "."
                                       : description,
                 allowed.join('|'), withDefault ? allowed.front() : QString())
    {}
    void addTo(QCommandLineParser& parser) const { parser.addOption(option); }
    QString value(const QCommandLineParser& parser) const { return parser.value(option); }
    bool isSet(const QCommandLineParser& parser) const { return parser.isSet(option); }
    // The value is one of the choices, or says why not ("expected json,
    // text or csv").
    bool valid(const QCommandLineParser& parser) const
    {
        if (choices.contains(value(parser)))
            return true;
        err("--format " + value(parser).toStdString() + ": expected " + choiceList(choices).toStdString() + "\n");
        return false;
    }
};

int runMetrics(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    const FormatOption format({"json", "text"});
    format.addTo(parser);
    parser.addPositionalArgument("FILE", "The design to analyse.");
    return runOnOneDesign(
        parser, DesignOptions{}, args, verb, [&] { return format.valid(parser); },
        [&](const DesignLoad& loaded, const QString& file) {
            Json metrics = computeMetrics(*loaded.design, *loaded.catalog);
            // A serving workload's figures, or what stops it being served.
            const Serving serving = addServingMetrics(metrics, *loaded.design, *loaded.catalog);
            if (loaded.design->workload.isServing() && !serving.ok()) {
                for (const Problem& p : serving.errors)
                    err(formatProblem(file.toStdString(), p) + "\n");
                return int(kExitInvalid);
            }
            // The first token as the users' requests line up, as the Serving
            // panel and the review give it (a replay: milliseconds to seconds).
            if (serving.ok())
                if (const std::optional<ArrivalBand> band = arrivalBand(*loaded.design, *loaded.catalog))
                    addArrivalBand(metrics, *band);
            out(format.value(parser) == "json" ? metrics.dump(2) + "\n" : metricsText(metrics));
            return int(kExitOk);
        });
}

// "MIN-MAX" as two whole numbers, MIN >= 1 and MAX >= MIN.
bool parseRange(const QString& text, std::int64_t* lo, std::int64_t* hi)
{
    const QStringList parts = text.split('-');
    bool okLo = false, okHi = false;
    if (parts.size() != 2)
        return false;
    *lo = parts[0].toLongLong(&okLo);
    *hi = parts[1].toLongLong(&okHi);
    return okLo && okHi && *lo >= 1 && *hi >= *lo;
}

int runSearch(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    const QCommandLineOption top(QStringLiteral("top"), "Keep the K best candidates (default 10).", "K", "10");
    const QCommandLineOption objective(QStringLiteral("objective"),
                                       "Rank by step time per token (default), energy per token, days to train "
                                       "including goodput, or the run's cost (ownership and energy, USD).",
                                       QString::fromStdString(objectiveChoices()), "time");
    const FormatOption format({"json", "text", "csv"});
    const QCommandLineOption batch(QStringLiteral("batch-range"),
                                   "Let the global batch vary over MIN-MAX sequences (default: the workload's).",
                                   "MIN-MAX");
    const QCommandLineOption within(QStringLiteral("within"),
                                    "Keep an AXIS (tp, cp, ep, dp, pp) within a TIER (nvlink, leaf, spine, core or "
                                    "any); repeatable. Default: tp=nvlink.",
                                    "AXIS=TIER");
    const QCommandLineOption fix(QStringLiteral("fix"),
                                 "Search only layouts with AXIS at VALUE (tp, pp, dp, cp, ep, micro_batch, interleave, "
                                 "zero, recompute, sequence_parallel): what the training software runs. Repeatable.",
                                 "AXIS=VALUE");
    const QCommandLineOption allow(QStringLiteral("allow"),
                                   "Search only layouts with AXIS at one of the VALUES, e.g. recompute=none,full. "
                                   "Repeatable.",
                                   "AXIS=V1,V2,...");
    const QCommandLineOption exhaustive(QStringLiteral("exhaustive"),
                                        "Model every feasible candidate instead of skipping those the step-time bound "
                                        "rules out (same result, slower).");
    for (const auto* o : {&top, &objective, &format.option, &batch, &within, &fix, &allow, &exhaustive})
        parser.addOption(*o);
    parser.addPositionalArgument("FILE", "The design whose model and GPUs to search.");
    const DesignOptions designOptions(false);
    SearchOptions options;
    return runOnOneDesign(
        parser, designOptions, args, verb,
        [&] {
            if (!format.valid(parser))
                return false;
            bool ok = false;
            options.top = parser.value(top).toInt(&ok);
            if (!ok || options.top < 1 || options.top > 10000) {
                err("--top " + parser.value(top).toStdString() + ": expected a whole number from 1 to 10000\n");
                return false;
            }
            if (!objectiveFromName(parser.value(objective).toStdString(), &options.objective)) {
                err("--objective " + parser.value(objective).toStdString() + ": expected " + objectiveList() + "\n");
                return false;
            }
            if (!readGpus(parser, designOptions.gpus, &options.gpus))
                return false;
            if (parser.isSet(batch) && !parseRange(parser.value(batch), &options.batchMin, &options.batchMax)) {
                err("--batch-range " + parser.value(batch).toStdString() +
                    ": expected MIN-MAX, two whole numbers of sequences with 1 <= MIN <= MAX\n");
                return false;
            }
            for (const QString& w : parser.values(within)) {
                const int eq = static_cast<int>(w.indexOf('='));
                if (eq <= 0) {
                    err("--within " + w.toStdString() + ": expected AXIS=TIER, e.g. --within tp=nvlink\n");
                    return false;
                }
                options.within[w.left(eq).toStdString()] = w.mid(eq + 1).toStdString();
            }
            // --fix AXIS=VALUE is --allow with one value; an axis
            // constrained twice is a mistake, not an intersection.
            for (const auto* o : {&fix, &allow})
                for (const QString& c : parser.values(*o)) {
                    const std::string flag = "--" + o->names().front().toStdString() + " " + c.toStdString();
                    const int eq = static_cast<int>(c.indexOf('='));
                    const QStringList values = c.mid(eq + 1).split(',');
                    if (eq <= 0 || values.contains(QString()) || (o == &fix && values.size() != 1)) {
                        err(flag + ": expected " +
                            (o == &fix ? "AXIS=VALUE, e.g. --fix tp=8"
                                       : "AXIS=V1,V2,..., e.g. --allow recompute=none,full") +
                            "\n");
                        return false;
                    }
                    const std::string axis = c.left(eq).toStdString();
                    if (options.allowed.count(axis)) {
                        err(flag + ": " + axis + " is constrained twice\n");
                        return false;
                    }
                    for (const QString& v : values)
                        options.allowed[axis].push_back(v.toStdString());
                }
            options.prune = !parser.isSet(exhaustive);
            return true;
        },
        [&](const DesignLoad& loaded, const QString& file) {
            const QString fmt = format.value(parser);
            if (loaded.design->workload.isServing()) {
                if (!options.allowed.empty()) {
                    err(file.toStdString() +
                        ": --fix and --allow constrain a training layout; a serving design's search has none\n");
                    return int(kExitInvalid);
                }
                ServingSearchOptions serving;
                serving.top = options.top;
                const ServingSearchResult result = searchServing(*loaded.design, *loaded.catalog, serving);
                if (!result.error.empty()) {
                    err(file.toStdString() + ": " + result.error + "\n");
                    return int(kExitInvalid);
                }
                out(fmt == "json"      ? servingSearchJson(result).dump(2) + "\n"
                        : fmt == "csv" ? servingSearchCsv(result)
                                       : servingSearchText(result));
                return int(kExitOk);
            }
            const SearchResult result = searchLayouts(*loaded.design, *loaded.catalog, options);
            if (!result.error.empty()) {
                err(file.toStdString() + ": " + result.error + "\n");
                return int(kExitInvalid);
            }
            out(fmt == "json"      ? searchJson(result).dump(2) + "\n"
                    : fmt == "csv" ? searchCsv(result)
                                   : searchText(result));
            return int(kExitOk);
        });
}

// A whole number of GPUs from 1 to the sweep's limit, or why not.
bool parseSweepGpus(const QCommandLineParser& parser, const QCommandLineOption& option, std::int64_t* into)
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    *into = parser.value(option).toLongLong(&ok);
    if (ok && *into >= 1 && *into <= kSweepMaxGpus)
        return true;
    err("--" + option.names().front().toStdString() + " " + parser.value(option).toStdString() +
        ": expected a whole number of GPUs from 1 to " + formatCount(kSweepMaxGpus) + "\n");
    return false;
}

int runSweep(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    const QCommandLineOption from(QStringLiteral("from"),
                                  "Smallest size swept (default: the smallest any layout runs at).", "N");
    const QCommandLineOption to(QStringLiteral("to"), "Largest size swept (default: 131,072 GPUs).", "N");
    const QCommandLineOption weak(QStringLiteral("weak"),
                                  "Weak scaling: the global batch and the tokens grow with the GPUs (default: "
                                  "strong scaling, both stay the workload's).");
    const FormatOption format({"json", "text", "csv"});
    for (const auto* o : {&from, &to, &weak, &format.option})
        parser.addOption(*o);
    parser.addPositionalArgument("FILE", "The design to resize.");
    SweepOptions options;
    return runOnOneDesign(
        parser, DesignOptions{}, args, verb,
        [&] {
            if (!format.valid(parser))
                return false;
            if (!parseSweepGpus(parser, from, &options.from) || !parseSweepGpus(parser, to, &options.to))
                return false;
            if (options.from > options.to) {
                err("--from " + formatCount(options.from) + " is above --to " + formatCount(options.to) + "\n");
                return false;
            }
            options.scaling = parser.isSet(weak) ? Scaling::Weak : Scaling::Strong;
            return true;
        },
        [&](const DesignLoad& loaded, const QString& file) {
            const SweepResult result = sweepScale(*loaded.design, *loaded.catalog, options);
            if (!result.error.empty()) {
                err(file.toStdString() + ": " + result.error + "\n");
                return int(kExitInvalid);
            }
            const QString fmt = format.value(parser);
            out(fmt == "json" ? sweepJson(result).dump(2) + "\n" : fmt == "csv" ? sweepCsv(result) : sweepText(result));
            return int(kExitOk);
        });
}

int runKernelShapes(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    parser.addPositionalArgument("FILE", "The design whose kernels to list.");
    return runOnOneDesign(
        parser, DesignOptions{}, args, verb, [] { return true; },
        [&](const DesignLoad& loaded, const QString& file) {
            out(kernelShapesText(kernelShapesJson(*loaded.design, *loaded.catalog, file.toStdString())));
            return int(kExitOk);
        });
}

int runSensitivity(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    const FormatOption format({"json", "text"});
    format.addTo(parser);
    parser.addPositionalArgument("FILE", "The design to vary.");
    return runOnOneDesign(
        parser, DesignOptions{}, args, verb, [&] { return format.valid(parser); },
        [&](const DesignLoad& loaded, const QString& file) {
            const SensitivityResult result = analyzeSensitivity(*loaded.design, *loaded.catalog);
            if (!result.error.empty()) {
                err(file.toStdString() + ": " + result.error + "\n");
                return int(kExitInvalid);
            }
            const UpgradesResult upgrades = analyzeUpgrades(*loaded.design, *loaded.catalog);
            if (format.value(parser) == "json") {
                Json json = sensitivityJson(result);
                json["upgrades"] = upgradesJson(upgrades);
                out(json.dump(2) + "\n");
            } else {
                out(sensitivityText(result) + "\n" + upgradesText(upgrades));
            }
            return int(kExitOk);
        });
}

// -o OUT and --page: the verbs that write a PDF.
struct OutputOptions {
    QCommandLineOption output{{"o", "output"}, "Where to write the output.", "OUT"};
    QCommandLineOption page{QStringLiteral("page"), "PDF page size: a4 (default) or letter.", "a4|letter", "a4"};
    void addTo(QCommandLineParser& parser) const
    {
        parser.addOption(output);
        parser.addOption(page);
    }
    // The page size, or nullopt after printing why not.
    std::optional<QPageSize::PageSizeId> pageSize(const QCommandLineParser& parser) const
    {
        QPageSize::PageSizeId id;
        if (!pageSizeFromName(parser.value(page), &id)) {
            err("--page " + parser.value(page).toStdString() + ": expected a4 or letter\n");
            return std::nullopt;
        }
        return id;
    }
    // False, after saying so, when -o names one of the input designs: a
    // report must never replace the design it reports on.
    bool sparesInputs(const QCommandLineParser& parser) const
    {
        const QFileInfo target(parser.value(output));
        for (const QString& file : parser.positionalArguments())
            if (target.exists() && target.canonicalFilePath() == QFileInfo(file).canonicalFilePath()) {
                err("-o " + parser.value(output).toStdString() + ": that is the design " + file.toStdString() +
                    "; choose another file for the output\n");
                return false;
            }
        return true;
    }
};

// Writes `text` to `path` atomically; false after printing why not.
bool writeText(const QString& path, const std::string& text)
{
    QString error;
    if (writeAtomically(path, QByteArrayView(text.data(), qsizetype(text.size())), &error))
        return true;
    err(error.toStdString() + "\n");
    return false;
}

int runExport(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    const QCommandLineOption to(QStringLiteral("to"), "The tool to write the design for: netbox, slurm or calculon.",
                                QString::fromStdString(exportTargetChoices()));
    const QCommandLineOption output({"o", "output"},
                                    "The folder to write the files into (made if missing); without it the first "
                                    "file is printed.",
                                    "DIR");
    parser.addOption(to);
    parser.addOption(output);
    parser.addPositionalArgument("FILE", "The design to export.");
    ExportTarget target = ExportTarget::Slurm;
    return runOnOneDesign(
        parser, DesignOptions{}, args, verb,
        [&] {
            if (!parser.isSet(to)) {
                err("export: expected --to " + exportTargetChoices() + "\n");
                return false;
            }
            if (!exportTargetFromName(parser.value(to).toStdString(), &target)) {
                err("--to " + parser.value(to).toStdString() + ": expected " + exportTargetChoices() + "\n");
                return false;
            }
            if (exportNeedsFolder(target) && !parser.isSet(output)) {
                err("export --to " + parser.value(to).toStdString() +
                    ": expected -o DIR, the folder its files go "
                    "into\n");
                return false;
            }
            return true;
        },
        [&](const DesignLoad& loaded, const QString& file) {
            const DesignExport exported = exportDesign(*loaded.design, *loaded.catalog, target);
            if (!exported.error.empty()) {
                err(file.toStdString() + ": " + exported.error + "\n");
                return int(kExitInvalid);
            }
            if (!parser.isSet(output)) {
                out(exported.files.front().text);
                return int(kExitOk);
            }
            const QDir dir(parser.value(output));
            if (!QDir().mkpath(dir.path())) {
                err("-o " + parser.value(output).toStdString() + ": cannot make that folder\n");
                return int(kExitInvalid);
            }
            for (const ExportedFile& f : exported.files) {
                const QString path = dir.filePath(QString::fromStdString(f.name));
                if (!writeText(path, f.text))
                    return int(kExitInvalid);
                out(QDir::toNativeSeparators(path).toStdString() + "\n");
            }
            for (const std::string& n : exported.notes)
                err(file.toStdString() + ": note: " + n + "\n");
            return int(kExitOk);
        });
}

int runImport(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    const QCommandLineOption from(QStringLiteral("from"),
                                  "The tool the files come from: calculon (a design) or netbox (device types as "
                                  "catalog parts).",
                                  "calculon|netbox");
    const QCommandLineOption output({"o", "output"},
                                    "The design (calculon) or catalog (netbox) file to write; without it the JSON is "
                                    "printed.",
                                    "OUT");
    const QCommandLineOption gpus(QStringLiteral("gpus"),
                                  "calculon: GPUs in the design, when no execution file gives num_procs.", "N");
    const QCommandLineOption accelerator(QStringLiteral("accelerator"),
                                         "netbox: the accelerator part the servers carry (they become nodes); "
                                         "without it the device types are switches.",
                                         "PART");
    const QCommandLineOption protocol(QStringLiteral("protocol"),
                                      "netbox: infiniband or ethernet, over what the interface types say.",
                                      "infiniband|ethernet");
    parser.addOption(from);
    parser.addOption(output);
    parser.addOption(gpus);
    parser.addOption(accelerator);
    parser.addOption(protocol);
    parser.addOption(kCatalogOption);
    parser.addOption(kKernelsOption);
    parser.addPositionalArgument("FILE",
                                 "calculon: its system and model JSON, and its execution JSON if any, in any order; "
                                 "netbox: device-type YAML files.",
                                 "FILE...");
    int code = kExitOk;
    if (!parseVerb(parser, args, verb, &code))
        return code;
    const QString source = parser.value(from);
    if (source != "calculon" && source != "netbox") {
        err(parser.isSet(from) ? "--from " + source.toStdString() + ": expected calculon or netbox\n"
                               : std::string("import: expected --from calculon or --from netbox\n"));
        return kExitUsage;
    }
    if (parser.positionalArguments().isEmpty()) {
        err("import: no FILE given\nusage: cluster-studio " + std::string(verb.synopsis) + "\n");
        return kExitUsage;
    }
    std::int64_t count = 0;
    if (!readGpus(parser, gpus, &count))
        return kExitUsage;
    std::vector<std::string> paths;
    for (const QString& f : parser.positionalArguments())
        paths.push_back(f.toStdString());
    // Nothing is written unless every file was read whole.
    std::string text;
    if (source == "calculon") {
        const CalculonImport imported = importCalculonFiles(paths, count);
        for (const std::string& e : imported.errors)
            err(e + "\n");
        if (!imported.ok())
            return kExitInvalid;
        for (const std::string& n : imported.notes)
            err("calculon: note: " + n + "\n");
        text = writeDesignText(*readDesignJson(*imported.design, Catalog::builtin()).design);
    } else {
        const auto catalog = catalogFor(parser);
        if (!catalog)
            return kExitInvalid;
        const DeviceTypeImport imported = importNetBoxDeviceTypeFiles(
            paths, *catalog, {parser.value(accelerator).toStdString(), parser.value(protocol).toStdString()});
        for (const std::string& e : imported.errors)
            err(e + "\n");
        if (!imported.ok())
            return kExitInvalid;
        for (const std::string& n : imported.notes)
            err("note: " + n + "\n");
        text = imported.catalog->dump(2) + "\n";
    }
    if (!parser.isSet(output)) {
        out(text);
        return kExitOk;
    }
    if (!writeText(parser.value(output), text))
        return kExitInvalid;
    out(QDir::toNativeSeparators(parser.value(output)).toStdString() + "\n");
    return kExitOk;
}

int runReport(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    OutputOptions output;
    output.addTo(parser);
    parser.addPositionalArgument("FILE", "The design to report on.");
    std::optional<QPageSize::PageSizeId> pageSize;
    return runOnOneDesign(
        parser, DesignOptions{}, args, verb,
        [&] {
            if (!parser.isSet(output.output)) {
                err(std::string("report: expected -o OUT.pdf\nusage: cluster-studio ") + verb.synopsis + "\n");
                return false;
            }
            pageSize = output.pageSize(parser);
            return pageSize.has_value() && output.sparesInputs(parser);
        },
        [&](const DesignLoad& loaded, const QString& file) {
            ReportOptions options;
            options.pageSize = *pageSize;
            options.source = file;
            QString error;
            const QString target = parser.value(output.output);
            if (!writeDesignReport(*loaded.design, loaded.catalog, target, options, &error)) {
                err(error.toStdString() + "\n");  // names the file
                return int(kExitInvalid);
            }
            return int(kExitOk);
        });
}

int runCompare(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    OutputOptions output;
    output.addTo(parser);
    const FormatOption format({"json", "text"}, "Print the comparison: json (default without -o) or text.", false);
    format.addTo(parser);
    const QCommandLineOption baseline(QStringLiteral("baseline"),
                                      "Which design the others are compared with: "
                                      "its position, 1 (default) to 4.",
                                      "K", "1");
    parser.addOption(baseline);
    const QCommandLineOption workload(QStringLiteral("workload"),
                                      "The workload every design runs: the baseline's (default), each design's own, "
                                      "or that of another design FILE.",
                                      "baseline|own|FILE", "baseline");
    const QCommandLineOption layout(QStringLiteral("layout"),
                                    "The layout each design runs it at: the best the layout search finds for it "
                                    "(default) or the design's own.",
                                    "best|own", "best");
    const QCommandLineOption objective(QStringLiteral("objective"),
                                       "What the best layout is best at: time (default), energy, days or cost.",
                                       QString::fromStdString(objectiveChoices()), "time");
    const QCommandLineOption normalize(QStringLiteral("normalize"),
                                       "Compare at equal budget: every design but the baseline resized along its "
                                       "growth unit, as the scale sweep resizes it, to the largest size whose capex "
                                       "or facility power is at most the baseline's.",
                                       "capex|power");
    for (const auto* o : {&workload, &layout, &objective, &normalize})
        parser.addOption(*o);
    parser.addOption(kCatalogOption);
    parser.addOption(kKernelsOption);
    parser.addPositionalArgument("FILE", "2 to 4 designs; the first is the baseline.", "A B [C [D]]");
    int code = kExitOk;
    if (!parseVerb(parser, args, verb, &code))
        return code;
    const QStringList files = parser.positionalArguments();
    if (files.size() < int(kMinCompared) || files.size() > int(kMaxCompared)) {
        err("compare: expected 2 to 4 FILEs, got " + std::to_string(files.size()) + "\nusage: cluster-studio " +
            verb.synopsis + "\n");
        return kExitUsage;
    }
    const QString fmt = format.value(parser);
    if (format.isSet(parser) && !format.valid(parser))
        return kExitUsage;
    bool ok = false;
    const int base = parser.value(baseline).toInt(&ok);
    if (!ok || base < 1 || base > files.size()) {
        err("--baseline " + parser.value(baseline).toStdString() + ": expected a position from 1 to " +
            std::to_string(files.size()) + "\n");
        return kExitUsage;
    }
    const QString target = parser.value(output.output);
    const QString suffix = QFileInfo(target).suffix().toLower();
    if (parser.isSet(output.output) && suffix != "pdf" && suffix != "csv") {
        err("-o " + target.toStdString() + ": expected a .pdf or .csv file\n");
        return kExitUsage;
    }
    const auto pageSize = output.pageSize(parser);
    if (!pageSize || !output.sparesInputs(parser))
        return kExitUsage;
    CompareSetup setup;
    if (parser.value(layout) != "best" && parser.value(layout) != "own") {
        err("--layout " + parser.value(layout).toStdString() + ": expected best or own\n");
        return kExitUsage;
    }
    setup.layout = parser.value(layout) == "own" ? LayoutFrom::Own : LayoutFrom::Best;
    if (!objectiveFromName(parser.value(objective).toStdString(), &setup.objective)) {
        err("--objective " + parser.value(objective).toStdString() + ": expected " + objectiveList() + "\n");
        return kExitUsage;
    }
    if (parser.isSet(normalize)) {
        const std::string name = parser.value(normalize).toStdString();
        if (name == budgetName(Budget::AsDesigned) || !budgetFromName(name, &setup.budget)) {
            err("--normalize " + name + ": expected capex or power\n");
            return kExitUsage;
        }
    }
    const QString workloadFrom = parser.value(workload);
    setup.workload = workloadFrom == "baseline" ? WorkloadFrom::Baseline
        : workloadFrom == "own"                 ? WorkloadFrom::Own
                                                : WorkloadFrom::Other;
    const auto catalog = catalogFor(parser);
    if (!catalog)
        return kExitInvalid;
    if (setup.workload == WorkloadFrom::Other) {
        const auto other = loadOrSay(workloadFrom.toStdString(), *catalog);
        if (!other)
            return kExitInvalid;
        setup.other = other->design->workload;
        setup.otherSource = workloadFrom.toStdString();
    }
    std::vector<DesignLoad> loads;
    for (const QString& file : files) {
        auto loaded = loadOrSay(file.toStdString(), *catalog);
        if (!loaded)
            code = kExitInvalid;
        else
            loads.push_back(std::move(*loaded));
    }
    if (code != kExitOk)
        return code;
    std::vector<CompareInput> inputs;
    for (std::size_t i = 0; i < loads.size(); ++i)
        inputs.push_back({&*loads[i].design, loads[i].catalog.get(), files[int(i)].toStdString()});
    const Comparison comparison =
        compareDesigns(*prepareComparison(inputs, std::size_t(base - 1), setup), std::size_t(base - 1));
    if (parser.isSet(output.output)) {
        if (suffix == "csv") {
            if (!writeText(target, comparisonCsv(comparison)))
                return kExitInvalid;
        } else {
            QString error;
            ReportOptions options;
            options.pageSize = *pageSize;
            if (!writeComparisonReport(comparison, target, options, &error)) {
                err(error.toStdString() + "\n");  // names the file
                return kExitInvalid;
            }
        }
    }
    if (!parser.isSet(output.output) || format.isSet(parser))
        out(fmt == "text" ? comparisonText(comparison) : comparisonJson(comparison).dump(2) + "\n");
    return kExitOk;
}

int runNormalize(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    parser.addOption(kCatalogOption);
    parser.addOption(kKernelsOption);
    const QCommandLineOption embed(QStringLiteral("embed-parts"),
                                   "Carry the catalog parts the design uses inside the file, so it opens the same "
                                   "on another machine.");
    parser.addOption(embed);
    parser.addPositionalArgument("FILE", "Design files to rewrite in canonical form.", "FILE...");
    int code = kExitOk;
    const auto catalog = startFilesVerb(parser, args, verb, &code);
    if (!catalog)
        return code;
    for (const QString& file : parser.positionalArguments()) {
        const std::string path = file.toStdString();
        const DesignLoad loaded = loadDesignFile(path, *catalog);
        printProblems(path, loaded.problems, false);
        if (!loaded.ok()) {
            code = kExitInvalid;
            continue;
        }
        Design design = *loaded.design;
        if (parser.isSet(embed))
            embedUsedParts(design, *loaded.catalog);
        if (!writeText(file, writeDesignText(design)))
            code = kExitInvalid;
    }
    return code;
}

int runValidationReport(const QStringList& args, const Verb& verb)
{
    QCommandLineParser parser;
    parser.addOption(kCatalogOption);
    parser.addOption(kKernelsOption);
    const FormatOption format({"markdown", "json"},
                              "markdown (default: docs/validation.md) or json (resources/validation-errors.json, the "
                              "error bands' data).");
    format.addTo(parser);
    parser.addPositionalArgument("RUNS", "The published-runs file (tests/data/published/runs.json).");
    int code = kExitOk;
    const auto catalog = startFilesVerb(parser, args, verb, &code);
    if (!catalog)
        return code;
    const QString fmt = format.value(parser);
    if (!format.valid(parser))
        return kExitUsage;
    const std::string path = parser.positionalArguments().front().toStdString();
    const ValidationReport report = runValidation(path, *catalog);
    printProblems(path, report.problems, false);
    if (hasErrors(report.problems))
        return kExitInvalid;
    const std::string command = "cluster-studio validation-report " + path;
    out(fmt == "json"
            ? validationErrorsJson(report, command + " --format json > resources/validation-errors.json").dump(2) + "\n"
            : validationMarkdown(report, command + " > docs/validation.md"));
    return kExitOk;
}

const std::vector<Verb>& verbs()
{
    static const std::vector<Verb> list = {
        {"validate", "validate FILE... [--catalog FILE] [--kernels FILE]",
         "Check design files. Exits 0 if all are valid; otherwise prints one line per problem "
         "(FILE: /json/pointer: what is wrong) and exits 1.",
         runValidate},
        {"metrics",
         "metrics FILE [--workload OTHER] [--set /json/pointer=VALUE]... [--gpus N] [--format json|text] "
         "[--catalog FILE] [--kernels FILE]",
         "Print a design's inventory and analyses, after taking another design's workload, applying --set edits and "
         "a --gpus resize.",
         runMetrics},
        {"search",
         "search FILE [--top K] [--objective time|energy|days|cost] [--gpus N] [--workload OTHER] "
         "[--set /json/pointer=VALUE]... "
         "[--batch-range MIN-MAX] [--within AXIS=TIER]... [--fix AXIS=VALUE]... [--allow AXIS=V1,V2]... [--exhaustive] "
         "[--format json|text|csv] [--catalog FILE] "
         "[--kernels FILE]",
         "Search the parallelism layouts of a design's model on its GPUs: the best K by step time, energy or days, "
         "the current layout's rank, and what was rejected and why.",
         runSearch},
        {"sweep",
         "sweep FILE [--from N] [--to N] [--weak] [--workload OTHER] [--set /json/pointer=VALUE]... [--gpus N] "
         "[--format json|text|csv] [--catalog FILE] [--kernels FILE]",
         "Resize the design along its growth unit up to 131,072 GPUs: at each size the best layout's tokens/s, MFU, "
         "step time, days, MTBF, goodput, power and energy, rho per axis, and where scaling stops paying.",
         runSweep},
        {"sensitivity",
         "sensitivity FILE [--workload OTHER] [--set /json/pointer=VALUE]... [--gpus N] [--format json|text] "
         "[--catalog FILE] [--kernels FILE]",
         "Change each input (GPU peak, HBM, NVLink, network, efficiency, storage, failures, restart, PUE, price) by "
         "-50%, -10%, +10% and +50% in turn: days to train and run cost, sorted by effect, and the binding "
         "constraint.",
         runSensitivity},
        {"kernel-shapes",
         "kernel-shapes FILE [--workload OTHER] [--set /json/pointer=VALUE]... [--gpus N] [--catalog FILE] "
         "[--kernels FILE]",
         "Print the kernel shapes a design's step runs on its GPU (every GEMM forward and backward, attention, "
         "memory-bound kernels, collectives) as JSON, for tools/collect-kernels.py to measure on that GPU.",
         runKernelShapes},
        {"export",
         "export FILE --to netbox|slurm|calculon [-o DIR] [--set /json/pointer=VALUE]... [--gpus N] [--catalog FILE]",
         "Write the design for another tool: netbox (its bulk-import files in import order: manufacturers, "
         "device roles, site, racks, device types as YAML with their interface templates, devices, cables) or slurm "
         "(topology.conf for the "
         "tree plugin, a line per switch of the compute fabric; topology.block.conf when NVLink domains span "
         "nodes) or calculon (its model, system and execution JSON and a README.md with the command that runs "
         "them; what Calculon cannot represent is printed as notes). Names are the design as built, the same in "
         "NetBox and Slurm.",
         runExport},
        {"import",
         "import FILE... --from calculon|netbox [-o OUT] [--gpus N] [--accelerator PART] [--protocol P] "
         "[--catalog FILE]",
         "calculon: read Calculon's system, model and execution JSON (in any order) as a design with its parts and a "
         "training workload: the processor becomes the GPU, the first network the NVLink domain, the rest a fat tree "
         "of the matching bandwidth. netbox: read NetBox device-type YAML (the devicetype-library's format) as "
         "catalog parts for --catalog: switches, or with --accelerator PART servers as nodes. What the studio cannot "
         "represent is printed as notes; a file with an unknown key or a bad value is refused whole, nothing written.",
         runImport},
        {"report",
         "report FILE -o OUT.pdf [--workload OTHER] [--set /json/pointer=VALUE]... [--gpus N] [--page a4|letter] "
         "[--catalog FILE] [--kernels FILE]",
         "Write the design-review PDF of a design: cover, canvas, bill of materials, a page per analysis, "
         "assumptions and sources.",
         runReport},
        {"compare",
         "compare A B [C [D]] [--workload baseline|own|FILE] [--layout best|own] [--objective time|energy|days|cost] "
         "[--normalize capex|power] "
         "[-o OUT.pdf | -o OUT.csv] [--format json|text] [--baseline K] [--page a4|letter] [--catalog FILE] [--kernels "
         "FILE]",
         "Compare 2 to 4 designs with the first (or --baseline K), all running one workload (the baseline's unless "
         "--workload says otherwise), each at the best layout the search finds for it (or --layout own): key "
         "figures with their differences, and the bills of materials. Prints JSON (one object per design: its "
         "metrics, the layout it ran and its deltas) or text; -o writes a PDF or CSV instead.",
         runCompare},
        {"normalize", "normalize FILE... [--embed-parts] [--catalog FILE] [--kernels FILE]",
         "Rewrite design files in canonical form (stable key order), atomically.", runNormalize},
        {"validation-report", "validation-report RUNS [--format markdown|json] [--catalog FILE] [--kernels FILE]",
         "Compare the performance model with published training and serving runs; print docs/validation.md (or, "
         "as json, resources/validation-errors.json: the training runs' errors).",
         runValidationReport},
    };
    return list;
}

void printUsage()
{
    std::string s = "usage: cluster-studio [FILE]            open the studio (on FILE)\n";
    for (const auto& v : verbs())
        s += std::string("       cluster-studio ") + v.synopsis + "\n";
    s += "       cluster-studio screenshot FILE -o OUT.png [--size WxH]\n";
    s += "\nExit codes: 0 success, 1 invalid input, 2 usage error. "
         "Run 'cluster-studio VERB --help' for a verb's options.\n";
    out(s);
}

}  // namespace

bool needsWidgets(const QStringList& args)
{
    const QString first = args.value(1);
    return first == QLatin1String("report") || first == QLatin1String("compare");
}

namespace {

// A word that is neither a verb nor a file: a mistyped verb ("metirc"). A
// script that mistypes one must fail, not wait on a window. Paths (with a
// dot or a slash) still open the studio, which says what is wrong with them.
bool isUnknownVerb(const QString& first)
{
    static const QRegularExpression word(QStringLiteral("^[A-Za-z][A-Za-z0-9_-]*$"));
    return word.match(first).hasMatch() && !QFileInfo::exists(first);
}

// Edits (insert, delete, replace, swap two neighbours) between two short words.
int editDistance(const std::string& a, const std::string& b)
{
    std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        for (std::size_t j = 0; j <= b.size(); ++j) {
            if (i == 0 || j == 0) {
                d[i][j] = int(i + j);
                continue;
            }
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

int unknownVerb(const QString& first)
{
    std::string names, nearest;
    int best = 3;  // suggest only within two edits
    for (const auto& v : verbs()) {
        names += (names.empty() ? "" : ", ") + std::string(v.name);
        if (const int d = editDistance(first.toStdString(), v.name); d < best)
            best = d, nearest = v.name;
    }
    names += ", screenshot";
    err("cluster-studio: unknown verb '" + first.toStdString() + "'" +
        (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") + "; the verbs are " + names +
        ". Run 'cluster-studio --help' for usage.\n");
    return kExitUsage;
}

}  // namespace

bool isCommandLine(const QStringList& args)
{
    if (args.size() < 2)
        return false;
    const QString first = args.at(1);
    if (first == "--help" || first == "-h" || first == "--version" || first == "-v" || first == "help")
        return true;
    for (const auto& v : verbs())
        if (first == QLatin1String(v.name))
            return true;
    return isUnknownVerb(first);
}

int runCommandLine(const QStringList& args)
{
    const QString first = args.value(1);
    if (first == "--help" || first == "-h" || first == "help") {
        printUsage();
        return kExitOk;
    }
    if (first == "--version" || first == "-v") {
        out("cluster-studio " + QCoreApplication::applicationVersion().toStdString() + "\n");
        return kExitOk;
    }
    // The verb's own parser sees "cluster-studio VERB args...": drop argv[0]
    // so the verb stands where QCommandLineParser expects the program name.
    const QStringList verbArgs = args.mid(1);
    for (const auto& v : verbs())
        if (first == QLatin1String(v.name))
            return v.run(verbArgs, v);
    if (isUnknownVerb(first))
        return unknownVerb(first);
    printUsage();
    return kExitUsage;
}

}  // namespace studio
