// The design file format: presets valid and byte-stable, unknown keys kept,
// versions handled, migrations applied in order, and every bad file in the
// corpus rejected with its exact message.
#include <QtTest>

#include "core/analysis/workload_shape.h"
#include "core/model/analysis.h"

#include <QTemporaryDir>

#include <fstream>
#include <random>
#include <set>

#include "core/catalog/part_schema.h"
#include "core/design/defaults.h"
#include "core/format/design_fields.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/format/design_writer.h"
#include "core/format/embedded_parts.h"
#include "core/format/migrations.h"
#include "core/json/json_pointer.h"
#include "core/search/layout_search.h"
#include "core/serving/serving.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

std::vector<std::string> errorLines(const DesignLoad& loaded)
{
    std::vector<std::string> lines;
    for (const auto& p : loaded.problems)
        if (p.severity == Severity::Error)
            lines.push_back((p.pointer.empty() ? "/" : p.pointer) + ": " + p.message);
    return lines;
}

// Sets every field of a table to a value it accepts (its last choice, its
// largest number), so a writer that omits optional values still has them.
template <typename S>
void fillEveryField(S& s, const fields::Table<S>& table)
{
    for (const auto& f : table)
        std::visit(
            [&](auto member) {
                using T = std::remove_reference_t<decltype(s.*member)>;
                auto& slot = s.*member;
                if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::optional<std::string>>)
                    slot = f.choices.empty() ? std::string("x") : std::string(f.choices.back());
                else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::optional<bool>>)
                    slot = true;
                else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::optional<std::int64_t>>)
                    slot = std::int64_t(f.max);
                else
                    slot = f.max;
            },
            f.member);
}

template <typename S>
void expectEveryKey(const Json& section, const fields::Table<S>& table, const char* where)
{
    for (const auto& f : table)
        QVERIFY2(section.contains(std::string(f.key)),
                 qPrintable(QString("%1/%2 is not written").arg(where, QString::fromUtf8(f.key.data(), f.key.size()))));
}

Json smallDesign()
{
    return Json::parse(test::readBytes(test::sourcePath("tests/data/good/small-h100-pod.cluster.json")));
}

}  // namespace

class TestFormat : public QObject {
    Q_OBJECT
private slots:
    void presetsLoadWithoutProblems_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = test::presetFiles();
        QVERIFY(files.size() >= 7);
        for (const QString& f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void presetsLoadWithoutProblems()
    {
        QFETCH(QString, file);
        const DesignLoad loaded = loadDesignFile(file.toStdString(), Catalog::builtin());
        for (const auto& p : loaded.problems)
            qWarning("%s", formatProblem(file.toStdString(), p).c_str());
        QVERIFY(loaded.ok());
        QVERIFY(loaded.problems.empty());  // not even a warning
        QVERIFY(!loaded.design->description.empty());
    }

    void presetsRoundTripByteForByte_data() { presetsLoadWithoutProblems_data(); }
    void presetsRoundTripByteForByte()
    {
        QFETCH(QString, file);
        const std::string bytes = test::readBytes(file);
        const DesignLoad loaded = readDesignText(bytes, Catalog::builtin());
        QVERIFY(loaded.ok());
        const std::string saved = writeDesignText(*loaded.design);
        QCOMPARE(saved, bytes);
        const DesignLoad again = readDesignText(saved, Catalog::builtin());
        QVERIFY(again.ok());
        QVERIFY(*again.design == *loaded.design);
    }

    // Every field the reader knows is written back: a key the writer forgets
    // is an input lost on the next save (cp_comm and tp_comm_overlap were).
    void savingWritesEveryFieldTheReaderReads()
    {
        Design d;
        fillEveryField(d.workload.model, fields::model());
        fillEveryField(d.workload.training, fields::training());
        fillEveryField(d.workload.parallelism, fields::parallelism());
        fillEveryField(d.workload.data, fields::data());
        fillEveryField(d.workload, fields::workloadInfo());
        d.workload.serving.emplace();
        fillEveryField(*d.workload.serving, fields::serving());
        fillEveryField(d.facility, fields::facility());
        fillEveryField(d.operations, fields::operations());
        fillEveryField(d.operations.failure_mttf_h, fields::failureMttf());
        fillEveryField(d.operations.checkpoint, fields::checkpoint());
        const Json j = Json::parse(writeDesignText(d));
        expectEveryKey(j["workload"]["model"], fields::model(), "/workload/model");
        expectEveryKey(j["workload"]["training"], fields::training(), "/workload/training");
        expectEveryKey(j["workload"]["parallelism"], fields::parallelism(), "/workload/parallelism");
        expectEveryKey(j["workload"]["data"], fields::data(), "/workload/data");
        expectEveryKey(j["workload"], fields::workloadInfo(), "/workload");
        expectEveryKey(j["workload"]["serving"], fields::serving(), "/workload/serving");
        expectEveryKey(j["facility"], fields::facility(), "/facility");
        expectEveryKey(j["operations"], fields::operations(), "/operations");
        expectEveryKey(j["operations"]["failure_mttf_h"], fields::failureMttf(), "/operations/failure_mttf_h");
        expectEveryKey(j["operations"]["checkpoint"], fields::checkpoint(), "/operations/checkpoint");
    }

    // Format 1.3 added workload.kind and workload.serving; a 1.2 file is the
    // training workload it always was, and is saved at the current version.
    void aFormat12FileOpensAsTraining()
    {
        Json doc = smallDesign();
        doc["format_version"] = "1.2";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QVERIFY(loaded.problems.empty());
        QVERIFY(!loaded.design->workload.kind);
        QVERIFY(!loaded.design->workload.isServing());
        QVERIFY(analyzeDesign(*loaded.design, Catalog::builtin()).runnable());
        QCOMPARE(Json::parse(writeDesignText(*loaded.design))["format_version"].get<std::string>(),
                 toString(kDesignFormatVersion));
    }

    // Format 1.6 added workload.software; a 1.5 file searches every layout
    // the model knows, as it did, and is saved at the current version
    // without naming a profile.
    void aFormat15FileSearchesAnySoftware()
    {
        Json doc = smallDesign();
        doc["format_version"] = "1.5";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QVERIFY(loaded.problems.empty());
        QVERIFY(!loaded.design->workload.software);
        const SearchResult r = searchLayouts(*loaded.design, *loaded.catalog, {});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.software, std::string("anything"));
        QVERIFY(r.allowed.empty());
        const Json saved = Json::parse(writeDesignText(*loaded.design));
        QCOMPARE(saved["format_version"].get<std::string>(), toString(kDesignFormatVersion));
        QVERIFY(!saved["workload"].contains("software"));
    }

    // Format 1.8 added workload.serving.memory_fraction; a 1.7 serving file
    // takes its engine's share (TensorRT-LLM's 0.9 of what the model leaves
    // free), is saved at the current version without the key, and a share
    // the design sets is read, used and written back.
    void aFormat17ServingFileTakesTheEnginesMemoryShare()
    {
        Json doc = Json::parse(test::readBytes(test::sourcePath("tests/data/good/serving-70b-h100-node.cluster.json")));
        doc["format_version"] = "1.7";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QVERIFY(!loaded.design->workload.serving->memory_fraction);
        const Serving s = analyzeServing(*loaded.design, *loaded.catalog);
        QCOMPARE(s.memory.fraction, 0.9);
        Json saved = Json::parse(writeDesignText(*loaded.design));
        QCOMPARE(saved["format_version"].get<std::string>(), toString(kDesignFormatVersion));
        QVERIFY(!saved["workload"]["serving"].contains("memory_fraction"));
        saved["workload"]["serving"]["memory_fraction"] = 0.8;
        const DesignLoad set = readDesignJson(saved, Catalog::builtin());
        QVERIFY(set.ok());
        QCOMPARE(*set.design->workload.serving->memory_fraction, 0.8);
        const Serving less = analyzeServing(*set.design, *set.catalog);
        QCOMPARE(less.memory.fraction, 0.8);
        QVERIFY(less.maxBatch < s.maxBatch || less.maxBatch == s.engine.maxRequests);
        QCOMPARE(Json::parse(writeDesignText(*set.design))["workload"]["serving"]["memory_fraction"].get<double>(),
                 0.8);
    }

    // A design names its software by a catalog profile's id: read, written
    // after the kind, searched within; a profile of a user's catalog travels
    // in the design's embedded catalog, so the file opens and searches the
    // same where that catalog is not loaded; an id no catalog has is an
    // error naming the ids there are.
    void aDesignsSoftwareRoundTripsAndTravelsWithIt()
    {
        Json doc = smallDesign();
        Json workload = Json::object();
        workload["kind"] = "training";
        workload["software"] = "our-fork";
        for (auto it = doc["workload"].begin(); it != doc["workload"].end(); ++it)
            if (it.key() != "kind")
                workload[it.key()] = it.value();
        doc["workload"] = workload;
        doc["catalog"] = Json::parse(R"json({"sources": {"fork": "our Megatron fork, 2026"}, "parts": [],
          "software": [{"id": "our-fork", "name": "Our fork", "source": "fork", "allowed": {"zero": [3]}}]})json");
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY2(loaded.ok(), errorLines(loaded).empty() ? "" : errorLines(loaded).front().c_str());
        QCOMPARE(*loaded.design->workload.software, std::string("our-fork"));
        QVERIFY(!Catalog::builtin().software("our-fork"));
        SearchOptions o;
        o.top = 20;
        const SearchResult r = searchLayouts(*loaded.design, *loaded.catalog, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.allowedBy, std::string("Our fork"));
        QVERIFY(!r.top.empty());
        for (const Candidate& c : r.top)
            QCOMPARE(c.layout.zero, 3);
        const Json saved = Json::parse(writeDesignText(*loaded.design));
        QCOMPARE(saved["workload"]["software"].get<std::string>(), std::string("our-fork"));
        QCOMPARE(std::next(saved["workload"].begin()).key(), std::string("software"));
        QCOMPARE(saved["catalog"], doc["catalog"]);

        // The studio embeds the profile a design names with its parts.
        Design embedded = *loaded.design;
        embedUsedParts(embedded, *loaded.catalog);
        QCOMPARE(embedded.catalog["software"].size(), std::size_t(1));
        QCOMPARE(embedded.catalog["software"][0]["id"].get<std::string>(), std::string("our-fork"));
        QCOMPARE(embedded.catalog["sources"]["fork"].get<std::string>(), std::string("our Megatron fork, 2026"));

        doc.erase("catalog");
        const DesignLoad missing = readDesignJson(doc, Catalog::builtin());
        QVERIFY(!missing.ok());
        const auto errors = errorLines(missing);
        QCOMPARE(QString::fromStdString(errors.front()),
                 QString("/workload/software: no software profile 'our-fork' in the catalog; one of 'anything', "
                         "'megatron-lm', 'megatron-lm-2021', 'nemo', 'torchtitan', 'deepspeed-zero'"));
    }

    // Format 1.4 added the serving engine; a 1.3 serving file is served by
    // TensorRT-LLM's defaults (the 8,192 tokens a step 1.3's model took) and
    // saved at the current version.
    void aFormat13ServingFileIsServedByTensorRtLlm()
    {
        Json doc = Json::parse(test::readBytes(test::sourcePath("tests/data/good/serving-70b-h100-node.cluster.json")));
        doc["format_version"] = "1.3";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QVERIFY(loaded.problems.empty());
        QVERIFY(!loaded.design->workload.serving->engine);
        const Serving s = analyzeServing(*loaded.design, *loaded.catalog);
        QCOMPARE(s.engine.engine, std::string("trtllm"));
        QCOMPARE(s.engine.stepTokens, 8192.0);
        QCOMPARE(Json::parse(writeDesignText(*loaded.design))["format_version"].get<std::string>(),
                 toString(kDesignFormatVersion));
    }

    // A serving workload (format 1.3): its serving section instead of the
    // training one, read, checked and written back as it was.
    void servingWorkloadsRoundTripWithoutATrainingSection()
    {
        Json doc = smallDesign();
        doc["workload"].erase("training");
        doc["workload"]["kind"] = "serving";
        doc["workload"]["serving"] = {{"prompt_tokens", 2048},
                                      {"output_tokens", 256},
                                      {"arrival_rate_per_s", 4.5},
                                      {"tpot_target_s", 0.05},
                                      {"weight_precision", "fp8"}};
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY2(loaded.ok(), errorLines(loaded).empty() ? "" : errorLines(loaded).front().c_str());
        QVERIFY(loaded.problems.empty());
        const Workload& w = loaded.design->workload;
        QVERIFY(w.isServing());
        QCOMPARE(w.serving->prompt_tokens, 2048);
        QCOMPARE(*w.serving->weight_precision, std::string("fp8"));
        QVERIFY(!w.serving->batch);
        QVERIFY(w.training == TrainingSpec{});
        QVERIFY(validateDesign(*loaded.design, Catalog::builtin()).empty());
        const Json saved = Json::parse(writeDesignText(*loaded.design));
        QVERIFY(!saved["workload"].contains("training"));
        QCOMPARE(saved["workload"]["serving"], doc["workload"]["serving"]);
        QCOMPARE(saved["workload"].begin().key(), std::string("kind"));
        QVERIFY(*readDesignJson(saved, Catalog::builtin()).design == *loaded.design);

        // What a serving workload needs, at its pointer.
        Json missing = doc;
        missing["workload"].erase("serving");
        QCOMPARE(errorLines(readDesignJson(missing, Catalog::builtin())).front(),
                 std::string("/workload/serving: missing (required)"));
        Json zero = doc;
        zero["workload"]["serving"]["output_tokens"] = 0;
        QCOMPARE(errorLines(readDesignJson(zero, Catalog::builtin())).front(),
                 std::string("/workload/serving/output_tokens: must be at least 1, got 0"));
        Json kind = doc;
        kind["workload"]["kind"] = "inference";
        QVERIFY(errorLines(readDesignJson(kind, Catalog::builtin())).front().rfind("/workload/kind: ", 0) == 0);
        // A training design still needs its training section.
        Json training = doc;
        training["workload"].erase("kind");
        QCOMPARE(errorLines(readDesignJson(training, Catalog::builtin())).front(),
                 std::string("/workload/training: missing (required)"));
        // An edit that makes a design serving without its section is refused.
        Design edited = *readDesignJson(smallDesign(), Catalog::builtin()).design;
        edited.workload.kind = "serving";
        const auto problems = validateDesign(edited, Catalog::builtin());
        QVERIFY(hasErrors(problems));
        QCOMPARE(problems.front().pointer, std::string("/workload/serving"));
    }

    void savingPutsKeysInCanonicalOrder()
    {
        Json doc = smallDesign();
        Json shuffled = Json::object();
        for (auto it = doc.rbegin(); it != doc.rend(); ++it)  // reversed key order
            shuffled[it.key()] = it.value();
        const DesignLoad loaded = readDesignJson(shuffled, Catalog::builtin());
        QVERIFY(loaded.ok());
        const Json saved = Json::parse(writeDesignText(*loaded.design));
        std::vector<std::string> keys;
        for (auto it = saved.begin(); it != saved.end(); ++it)
            keys.push_back(it.key());
        const std::vector<std::string> expected = {"format",     "format_version", "app_version", "name",
                                                   "components", "links",          "workload"};
        QCOMPARE(keys, expected);
        // Whole numbers stay whole: 1e11 tokens is written as an integer.
        QCOMPARE(saved["workload"]["training"]["tokens"].dump(), std::string("100000000000"));
    }

    void unknownKeysAreKeptAndWarnedAbout()
    {
        Json doc = smallDesign();
        doc["x_layout_hints"] = {{"grid", 20}};
        doc["components"][2]["x_color"] = "teal";
        doc["workload"]["model"]["x_rope_theta"] = 500000;
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.problems.size(), std::size_t(3));
        QCOMPARE(loaded.problems[0].severity, Severity::Warning);
        QCOMPARE(formatProblem("f", loaded.problems[0]),
                 std::string("f: /components/2/x_color: warning: unknown key 'x_color' (kept as is on save)"));
        const Json saved = Json::parse(writeDesignText(*loaded.design));
        QCOMPARE(saved["x_layout_hints"]["grid"].get<int>(), 20);
        QCOMPARE(saved["components"][2]["x_color"].get<std::string>(), std::string("teal"));
        QCOMPARE(saved["workload"]["model"]["x_rope_theta"].get<int>(), 500000);
        // Unknown keys follow the known ones, so the known layout never shifts.
        QCOMPARE(saved.items().begin().key(), std::string("format"));
    }

    void newerMinorVersionLoadsWithAWarningAndKeepsItsNumber()
    {
        Json doc = smallDesign();
        const std::string newer = toString({kDesignFormatVersion.major, kDesignFormatVersion.minor + 1});
        doc["format_version"] = newer;
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.problems.size(), std::size_t(1));
        QCOMPARE(loaded.problems[0].severity, Severity::Warning);
        QCOMPARE(loaded.problems[0].pointer, std::string("/format_version"));
        QCOMPARE(Json::parse(writeDesignText(*loaded.design))["format_version"].get<std::string>(), newer);
    }

    void olderVersionWithoutAMigrationIsRefused()
    {
        Json doc = smallDesign();
        doc["format_version"] = "0.9";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(!loaded.ok());
        QCOMPARE(errorLines(loaded).front(),
                 "/format_version: format 0.9 is older than " + toString(kDesignFormatVersion) +
                     " and no migration from it exists");
    }

    // Format 1.1 added workload.parallelism.cp_comm; a 1.0 file means the
    // ring (p2p) it always meant, and is saved at the current version.
    void aFormat10FileOpensWithTheRingContextExchange()
    {
        Json doc = smallDesign();
        doc["format_version"] = "1.0";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QVERIFY(!loaded.design->workload.parallelism.cp_comm);  // unset: the ring, p2p
        std::vector<Problem> warnings;
        QCOMPARE(shapeWorkload(loaded.design->workload, 8, warnings).cpComm, std::string("p2p"));
        QCOMPARE(Json::parse(writeDesignText(*loaded.design))["format_version"].get<std::string>(),
                 toString(kDesignFormatVersion));
    }

    // A new design is written at the version this studio reads.
    void aNewDesignHasTheCurrentVersion() { QCOMPARE(Design{}.format_version, toString(kDesignFormatVersion)); }

    // Format 1.2 added workload.parallelism.tp_comm_overlap; a 1.1 file
    // means the exposed TP communication it always meant, and is saved at
    // the current version.
    void aFormat11FileOpensWithTpCommunicationExposed()
    {
        Json doc = smallDesign();
        doc["format_version"] = "1.1";
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QVERIFY(loaded.problems.empty());
        QVERIFY(!loaded.design->workload.parallelism.tp_comm_overlap);
        Workload w = loaded.design->workload;
        w.parallelism.tp = 8;
        std::vector<Problem> warnings;
        QVERIFY(!shapeWorkload(w, 8, warnings).tpCommOverlap);
        QCOMPARE(Json::parse(writeDesignText(*loaded.design))["format_version"].get<std::string>(),
                 toString(kDesignFormatVersion));
        // A 1.2 file says it, and a wrong type is an error at its path.
        doc["format_version"] = "1.2";
        doc["workload"]["parallelism"]["tp_comm_overlap"] = true;
        QVERIFY(*readDesignJson(doc, Catalog::builtin()).design->workload.parallelism.tp_comm_overlap);
        doc["workload"]["parallelism"]["tp_comm_overlap"] = "yes";
        const DesignLoad bad = readDesignJson(doc, Catalog::builtin());
        QVERIFY(!bad.ok());
        QVERIFY(errorLines(bad).front().starts_with("/workload/parallelism/tp_comm_overlap: "));
    }

    // The migration machinery, with a chain of two steps standing in for
    // future format changes: each step runs once, in order.
    void migrationsApplyEachStepInOrder()
    {
        const Migration chain[] = {
            {{0, 8},
             {0, 9},
             "rename 'title' to 'name'",
             [](Json& d) {
                 d["name"] = d["title"];
                 d.erase("title");
             }},
            {{0, 9},
             {1, 0},
             "counts were 'replicas'",
             [](Json& d) {
                 for (auto& c : d["components"]) {
                     c["count"] = c["replicas"];
                     c.erase("replicas");
                 }
             }},
        };
        Json doc = smallDesign();
        doc["format_version"] = "0.8";
        doc["title"] = doc["name"];
        doc.erase("name");
        for (auto& c : doc["components"]) {
            c["replicas"] = c["count"];
            c.erase("count");
        }
        QVERIFY(!migrate(doc, {0, 8}, {1, 0}, chain));
        QCOMPARE(doc["format_version"].get<std::string>(), std::string("1.0"));
        const DesignLoad loaded = readDesignJson(doc, Catalog::builtin());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.design->name, std::string("Small H100 pod"));
        QCOMPARE(loaded.design->component("rack")->count, std::int64_t(2));
        QVERIFY(loaded.problems.empty());

        Json gap = smallDesign();
        const auto problem = migrate(gap, {0, 7}, {1, 0}, chain);
        QVERIFY(problem);
        QCOMPARE(problem->message, std::string("format 0.7 is older than 1.0 and no migration from it exists"));
    }

    void embeddedPartsOpenWithoutTheCatalog()
    {
        // A design that embeds its parts loads against an empty catalog.
        const DesignLoad original = readDesignJson(smallDesign(), Catalog::builtin());
        QVERIFY(original.ok());
        const std::vector<std::string> used = partsUsedBy(*original.design, Catalog::builtin());
        const std::vector<std::string> expected = {"gpu.h100-sxm",        "nic.connectx-7", "nic.bluefield-3",
                                                   "switch.qm9700",       "node.dgx-h100",  "rack.air-42u",
                                                   "link.ib-ndr-optical", "group.pod",      "fabric.rail-optimized"};
        // The fabric's switch is found through its setting, the DPU through
        // the node platform that names it.
        QCOMPARE(used, expected);
        Design embedded = *original.design;
        embedUsedParts(embedded, Catalog::builtin());
        const DesignLoad loaded = readDesignJson(designToJson(embedded), Catalog());
        for (const auto& p : loaded.problems)
            qWarning("%s", formatProblem("embedded", p).c_str());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.catalog->find("gpu.h100-sxm")->origin, std::string("embedded in the design"));
        // And round-trips with the catalog section intact.
        const DesignLoad again = readDesignText(writeDesignText(*loaded.design), Catalog());
        QVERIFY(again.ok());
        QVERIFY(*again.design == *loaded.design);
    }

    void setEditsApplyBeforeReading()
    {
        Json doc = smallDesign();
        QVERIFY(!setAtPointer(doc, "/components/1/count", 4));
        QCOMPARE(doc["components"][1]["count"].get<int>(), 4);
        QVERIFY(!setAtPointer(doc, "/workload/parallelism/cp", 2));  // a new key in an existing object
        QCOMPARE(doc["workload"]["parallelism"]["cp"].get<int>(), 2);
        auto p = setAtPointer(doc, "/components/99/count", 4);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("nothing at /components/99 to set a value in"));
        p = setAtPointer(doc, "/components/99", Json::object());
        QVERIFY(p);
        QCOMPARE(p->message, std::string("index 99 is past the end of an array of 6"));
        p = setAtPointer(doc, "/facility/pue", 1.2);  // no facility section in this file
        QVERIFY(p);
        QCOMPARE(p->message, std::string("nothing at /facility to set a value in"));
        p = setAtPointer(doc, "workload", 1);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("a --set pointer must start with '/'"));
        // Tokens that are no array index, found by fuzz_set: "" stopped the
        // program (nlohmann's pointers throw on it).
        p = setAtPointer(doc, "/components//props", 1);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("nothing at /components/ to set a value in"));
        p = setAtPointer(doc, "/components/01/count", 4);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("nothing at /components/01 to set a value in"));
        p = setAtPointer(doc, "/components/-", 4);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("'-' is not an array index"));
        p = setAtPointer(doc, "/components/99999999999999999999999", 4);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("index 99999999999999999999999 is past the end of an array of 6"));
        p = setAtPointer(doc, "/workload/a~2b", 1);
        QVERIFY(p);
        QCOMPARE(p->message, std::string("malformed pointer: '~' must be followed by 0 or 1"));
        QVERIFY(!setAtPointer(doc, "/workload/a~1b~0c", 1));
        QCOMPARE(doc["workload"]["a/b~c"].get<int>(), 1);
        QCOMPARE(parseSetValue("64"), Json(64));
        QCOMPARE(parseSetValue("true"), Json(true));
        QCOMPARE(parseSetValue("My pod"), Json("My pod"));
    }

    // The fuzzers' dictionary (tests/fuzz/cluster.dict) holds every key and
    // value the reader knows, so mutations write them whole.
    void dictionaryHasEveryKey()
    {
        std::set<std::string> entries;
        std::ifstream in(test::sourcePath("tests/fuzz/cluster.dict").toStdString());
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#')
                continue;
            const auto open = line.find('"'), close = line.rfind('"');
            QVERIFY2(open != std::string::npos && close > open, line.c_str());
            std::string value;
            for (auto i = open + 1; i < close; ++i)
                value += line[i] == '\\' ? line[++i] : line[i];
            entries.insert(value);
        }
        std::vector<std::string> missing;
        auto require = [&](std::string_view word) {
            if (!entries.count("\"" + std::string(word) + "\""))
                missing.push_back(std::string(word));
        };
        auto requireTable = [&](const auto& table) {
            for (const auto& f : table) {
                require(f.key);
                for (auto choice : f.choices)
                    require(choice);
            }
        };
        requireTable(fields::designInfo());
        requireTable(fields::component());
        requireTable(fields::position());
        requireTable(fields::size());
        requireTable(fields::link());
        requireTable(fields::workloadInfo());
        requireTable(fields::model());
        requireTable(fields::training());
        requireTable(fields::serving());
        requireTable(fields::servingWorkers());
        requireTable(fields::parallelism());
        requireTable(fields::data());
        requireTable(fields::facility());
        requireTable(fields::failureMttf());
        requireTable(fields::checkpoint());
        requireTable(fields::operations());
        // The sections design_reader.cpp reads by hand, and the catalog's keys.
        for (auto key :
             {"format",  "format_version", "components", "links",          "workload",   "facility", "operations",
              "catalog", "position",       "size",       "collapsed",      "props",      "model",    "training",
              "serving", "parallelism",    "data",       "failure_mttf_h", "checkpoint", "sources",  "parts",
              "kind",    "vendor",         "attributes", "figures",        "value",      "source",   "uncertain",
              "note",    "disaggregated",  "prefill",    "decode"})
            require(key);
        for (PartKind kind : kAllPartKinds) {
            require(partKindName(kind));
            for (const auto& f : fieldSpecs(kind))
                require(f.key);
            for (const auto& a : attributeSpecs(kind)) {
                require(a.key);
                for (auto v : a.allowed)
                    require(v);
            }
            for (const auto& st : settingSpecs(kind)) {
                require(st.key);
                for (auto v : st.allowed)
                    require(v);
            }
        }
        for (const Part& part : Catalog::builtin().parts())
            require(part.id);
        std::string list;
        for (const auto& m : missing)
            list += " \"\\\"" + m + "\\\"\"";
        QVERIFY2(missing.empty(), qPrintable("add to tests/fuzz/cluster.dict:" + QString::fromStdString(list)));
    }

    // docs/file-format.md documents every figure, attribute, setting and
    // default the code knows, so the two cannot drift apart.
    void documentationCoversTheSchema()
    {
        const std::string doc = test::readBytes(test::sourcePath("docs/file-format.md"));
        QVERIFY(!doc.empty());
        auto documented = [&doc](std::string_view key) {
            return doc.find("`" + std::string(key) + "`") != std::string::npos;
        };
        for (PartKind kind : kAllPartKinds) {
            for (const auto& f : fieldSpecs(kind))
                QVERIFY2(documented(f.key), f.key.data());
            for (const auto& a : attributeSpecs(kind))
                QVERIFY2(documented(a.key), a.key.data());
            for (const auto& st : settingSpecs(kind))
                QVERIFY2(documented(st.key), st.key.data());
        }
        for (const auto& d : defaults::kAll) {
            const std::string_view key = d.pointer.substr(d.pointer.rfind('/') + 1);
            QVERIFY2(documented(key), d.pointer.data());
            // The default's source is quoted with it (the MTTF table derives
            // each from its Llama 3 counts instead).
            if (d.pointer.find("/failure_mttf_h/") == std::string_view::npos)
                QVERIFY2(doc.find(std::string(d.source.substr(0, 40))) != std::string::npos, d.pointer.data());
        }
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        std::ifstream in(test::sourcePath("tests/data/bad/expected.tsv").toStdString());
        std::string line;
        int rows = 0;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            const auto tab = line.find('\t');
            QVERIFY(tab != std::string::npos);
            const QString name = QString::fromStdString(line.substr(0, tab));
            QTest::newRow(qPrintable(name))
                << test::sourcePath("tests/data/bad/" + name) << QString::fromStdString(line.substr(tab + 1));
            ++rows;
        }
        QVERIFY(rows >= 25);
    }
    // As `validate` reads them: the reader's errors, then what stops a
    // design that reads from being served.
    void badFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        DesignLoad loaded = loadDesignFile(file.toStdString(), Catalog::builtin());
        if (loaded.ok())
            for (Problem& p : servingProblems(*loaded.design, *loaded.catalog))
                loaded.problems.push_back(std::move(p));
        QVERIFY(hasErrors(loaded.problems));
        const auto lines = errorLines(loaded);
        const bool found = std::find(lines.begin(), lines.end(), expected.toStdString()) != lines.end();
        if (!found)
            for (const auto& l : lines)
                qWarning("got: %s", l.c_str());
        QVERIFY2(found, qPrintable(expected));
    }

    // A design built in memory (the studio's edits, a compare or report
    // caller) meets the same count rule as a file, before any analysis
    // divides by it.
    void countsBelowOneAreRefusedInMemoryToo()
    {
        DesignLoad l = loadDesignFile(test::sourcePath("tests/data/good/small-h100-pod.cluster.json").toStdString(),
                                      Catalog::builtin());
        QVERIFY(l.ok());
        Design d = *l.design;
        d.components[1].count = 0;
        d.links[0].count = -2;
        std::vector<std::string> lines;
        for (const auto& p : validateDesign(d, *l.catalog))
            lines.push_back(formatProblem("d", p));
        QVERIFY(std::find(lines.begin(), lines.end(), "d: /components/1/count: must be at least 1, got 0") !=
                lines.end());
        QVERIFY(std::find(lines.begin(), lines.end(), "d: /links/0/count: must be at least 1, got -2") != lines.end());
    }

    void everyCorpusFileHasAnExpectedMessage()
    {
        const std::string table = test::readBytes(test::sourcePath("tests/data/bad/expected.tsv"));
        const QDir dir(test::sourcePath("tests/data/bad"));
        const QStringList files = dir.entryList({"*.cluster.json"}, QDir::Files);
        QVERIFY(files.size() >= 25);
        for (const QString& f : files)
            QVERIFY2(table.find(f.toStdString() + "\t") != std::string::npos, qPrintable(f));
    }

    void fiftyMegabytesOfGarbage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("garbage.cluster.json");
        {
            std::ofstream out(path.toStdString(), std::ios::binary);
            std::mt19937 rng(7);
            std::string chunk(1 << 20, '\0');
            for (int mb = 0; mb < 50; ++mb) {
                for (auto& c : chunk)
                    c = static_cast<char>(rng());
                out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
            }
        }
        const DesignLoad loaded = loadDesignFile(path.toStdString(), Catalog::builtin());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.problems.size(), std::size_t(1));
        QVERIFY(loaded.problems[0].message.rfind("not valid JSON: ", 0) == 0);
        QCOMPARE(loaded.problems[0].pointer, std::string(""));
    }

    void fiftyMegabytesOfNestingStopsAtTheDepthLimit()
    {
        const std::string deep(50u << 20, '[');
        const DesignLoad loaded = readDesignText(deep, Catalog::builtin());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.problems.size(), std::size_t(1));
        QVERIFY(loaded.problems[0].message.find("not valid JSON") == 0 ||
                loaded.problems[0].message.find("nested deeper than 64 levels") == 0);
    }

    // Pasted text meets a file's limits: 300,000 nested arrays in a
    // component's props overflowed the stack when the fragment was read
    // (found with fuzz_fragment).
    void aDeeplyNestedPasteStopsAtTheDepthLimit()
    {
        const std::size_t depth = 300'000;
        const std::string text = R"({"format": "cluster-studio.fragment", "components": [{"id": "a", "part": )"
                                 R"("group.pod", "props": {"x": )" +
            std::string(depth, '[') + std::string(depth, ']') + "}}], \"links\": []}";
        const FragmentLoad loaded = readFragmentText(text);
        QVERIFY(!loaded.fragment);
        QCOMPARE(loaded.problems.size(), std::size_t(1));
        QCOMPARE(loaded.problems[0].message,
                 std::string("nested deeper than 64 levels; a design or catalog never needs that"));
    }

    void filesAboveTheSizeLimitAreRefusedUnread()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("huge.cluster.json");
        {
            std::ofstream out(path.toStdString(), std::ios::binary);
            out.seekp(static_cast<std::streamoff>(101) << 20);  // sparse: 101 MB without writing them
            out.put(' ');
        }
        const DesignLoad loaded = loadDesignFile(path.toStdString(), Catalog::builtin());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.problems[0].message, std::string("file is 101 MB, above the limit of 100 MB"));
    }
};

QTEST_APPLESS_MAIN(TestFormat)
#include "tst_format.moc"
