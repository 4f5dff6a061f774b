// JsonReader on hand-built JSON: every wrong type, missing key and value out
// of range becomes one problem with its exact message at its JSON pointer,
// reading goes on after each, and unknown keys are kept and warned about.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/json/json_reader.h"
#include "core/problem.h"

using namespace studio;

namespace {

// "pointer: message" of each problem, errors and warnings marked, in order.
std::vector<std::string> lines(const std::vector<Problem>& problems)
{
    std::vector<std::string> out;
    for (const auto& p : problems)
        out.push_back(std::string(p.severity == Severity::Error ? "error " : "warning ") + p.pointer + ": " +
                      p.message);
    return out;
}

}  // namespace

class TestJsonReader : public QObject {
    Q_OBJECT
private slots:
    void wrongTypesNameWhatWasFound()
    {
        const std::string longText(45, 'x');
        const Json obj = Json::parse(R"({"name": 5, "label": 1.5, "count": 2.5, "layers": true, "tp": "8",
            "ratio": "x", "pue": null, "async": 1, "flag": "true", "list": {}, "tags": [], "note": ")" +
                                     longText + R"("})");
        std::vector<Problem> problems;
        JsonReader r(problems);
        const std::string at = "/components/3";
        QVERIFY(!r.string(obj, at, "name", true));
        QVERIFY(!r.string(obj, at, "label", true));
        QVERIFY(!r.integer(obj, at, "count", true, 1, 100));
        QVERIFY(!r.integer(obj, at, "layers", true, 1, 100));
        QVERIFY(!r.integer(obj, at, "tp", true, 1, 100));
        QVERIFY(!r.number(obj, at, "ratio", true, 0, 1));
        QVERIFY(!r.number(obj, at, "pue", true, 1, 3));
        QVERIFY(!r.boolean(obj, at, "async", true));
        QVERIFY(!r.boolean(obj, at, "flag", true));
        QVERIFY(!r.isArray(obj["list"], at + "/list"));
        QVERIFY(!r.isObject(obj["tags"], at + "/tags"));
        QVERIFY(!r.integer(obj, at, "note", true, 0, 10));
        // One error per bad value, all in one pass, in reading order; strings
        // longer than 40 characters are cut.
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "error /components/3/name: must be a string, got integer 5",
                     "error /components/3/label: must be a string, got number 1.5",
                     "error /components/3/count: must be a whole number, got 2.5",
                     "error /components/3/layers: must be a whole number, got boolean",
                     "error /components/3/tp: must be a whole number, got string \"8\"",
                     "error /components/3/ratio: must be a number, got string \"x\"",
                     "error /components/3/pue: must be a number, got null",
                     "error /components/3/async: must be true or false, got integer 1",
                     "error /components/3/flag: must be true or false, got string \"true\"",
                     "error /components/3/list: must be an array, got object",
                     "error /components/3/tags: must be an object, got array",
                     "error /components/3/note: must be a whole number, got string \"" + std::string(40, 'x') + "...\"",
                 }));
        QVERIFY(r.failed());
    }

    void missingRequiredKeysAreErrorsOptionalOnesAreNot()
    {
        const Json obj = Json::object();
        std::vector<Problem> problems;
        JsonReader r(problems);
        QVERIFY(!r.string(obj, "/workload/model", "name", true));
        QVERIFY(!r.integer(obj, "/workload/model", "layers", true, 1, 1000));
        QVERIFY(!r.number(obj, "/facility", "pue", true, 1, 3));
        QVERIFY(!r.boolean(obj, "/operations/checkpoint", "async", true));
        QVERIFY(!r.choice(obj, "/workload/model", "ffn_type", {"gelu", "swiglu"}, true));
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "error /workload/model/name: missing (required)",
                     "error /workload/model/layers: missing (required)",
                     "error /facility/pue: missing (required)",
                     "error /operations/checkpoint/async: missing (required)",
                     "error /workload/model/ffn_type: missing (required)",
                 }));
        // Optional and absent: nothing read, nothing reported.
        problems.clear();
        QVERIFY(!r.string(obj, "/workload/model", "name", false));
        QVERIFY(!r.integer(obj, "/workload/model", "kv_heads", false, 1, 1000));
        QVERIFY(!r.number(obj, "/facility", "pue", false, 1, 3));
        QVERIFY(!r.boolean(obj, "/operations/checkpoint", "async", false));
        QVERIFY(!r.choice(obj, "/workload/model", "ffn_type", {"gelu", "swiglu"}, false));
        QVERIFY(problems.empty());
        QVERIFY(!r.failed());
        // At the document's root the pointer is "/key".
        QVERIFY(!r.string(obj, "", "name", true));
        QCOMPARE(problems.back().pointer, std::string("/name"));
    }

    void integersOutOfRange()
    {
        const Json obj = Json::parse(R"({"zero": 0, "huge": 20000000, "negative": -5, "big": 18446744073709551615,
            "whole": 3.0, "low": 1, "high": 10000000})");
        std::vector<Problem> problems;
        JsonReader r(problems);
        const std::string at = "/components/0";
        QVERIFY(!r.integer(obj, at, "zero", true, 1, 10'000'000));
        QVERIFY(!r.integer(obj, at, "huge", true, 1, 10'000'000));
        QVERIFY(!r.integer(obj, at, "negative", true, 0, 10));
        QVERIFY(!r.integer(obj, at, "whole", true, 1, 10));
        // The limits themselves are in range.
        QCOMPARE(r.integer(obj, at, "low", true, 1, 10'000'000), std::optional<std::int64_t>(1));
        QCOMPARE(r.integer(obj, at, "high", true, 1, 10'000'000), std::optional<std::int64_t>(10'000'000));
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "error /components/0/zero: must be at least 1, got 0",
                     "error /components/0/huge: is 20,000,000, above the limit of 10,000,000",
                     "error /components/0/negative: must be at least 0, got -5",
                     // a JSON float is not a count, even when whole
                     "error /components/0/whole: must be a whole number, got 3.0",
                 }));

        // Above the signed 64-bit range: rejected, and said to be too big.
        problems.clear();
        QVERIFY(!r.integer(obj, at, "big", true, 1, 10'000'000));
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(lines(problems).front(),
                 std::string("error /components/0/big: is 18446744073709551615, above the limit of 10,000,000"));
    }

    void numbersOutOfRange()
    {
        const Json obj = Json::parse(R"({"pue": 0.9, "rate": 0, "share": 1.5, "tokens": 2e7, "edge": 1,
            "tiny": 1e-9, "count": 2})");
        std::vector<Problem> problems;
        JsonReader r(problems);
        QVERIFY(!r.number(obj, "/facility", "pue", true, 1, 3));
        QVERIFY(!r.number(obj, "/facility", "rate", true, 0, 1, true));
        QVERIFY(!r.number(obj, "/operations", "share", true, 0, 1));
        QVERIFY(!r.number(obj, "/workload/training", "tokens", true, 1, 1e7));
        // Inclusive bounds; an exclusive minimum admits anything above it;
        // integers read as numbers.
        QCOMPARE(r.number(obj, "/facility", "edge", true, 1, 3), std::optional<double>(1.0));
        QCOMPARE(r.number(obj, "/facility", "edge", true, 0, 1), std::optional<double>(1.0));
        QCOMPARE(r.number(obj, "/facility", "tiny", true, 0, 1, true), std::optional<double>(1e-9));
        QCOMPARE(r.number(obj, "/facility", "count", true, 0, 10), std::optional<double>(2.0));
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "error /facility/pue: must be at least 1, got 0.9",
                     "error /facility/rate: must be greater than 0, got 0",
                     "error /operations/share: is 1.5, above the limit of 1",
                     "error /workload/training/tokens: is 20,000,000, above the limit of 10,000,000",
                 }));
    }

    void nonFiniteNumbersBuiltInMemory()
    {
        // Parsed text cannot hold NaN or infinity, but an edited document can.
        Json obj = Json::object();
        obj["nan"] = std::numeric_limits<double>::quiet_NaN();
        obj["inf"] = std::numeric_limits<double>::infinity();
        std::vector<Problem> problems;
        JsonReader r(problems);
        QVERIFY(!r.number(obj, "/x", "nan", true, 0, 1));
        QVERIFY(!r.number(obj, "/x", "inf", true, 0, 1e300));
        QVERIFY(!r.integer(obj, "/x", "inf", true, 0, 10));
        QVERIFY(!r.numberValue(obj["nan"], "/x/0", 0, 1));
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "error /x/nan: must be a finite number",
                     "error /x/inf: must be a finite number",
                     "error /x/inf: must be a finite whole number",
                     "error /x/0: must be a finite number",
                 }));
    }

    void choicesAndEmptyStrings()
    {
        const Json obj = Json::parse(R"({"ffn_type": "relu", "kind": "swiglu", "name": "", "cooling": ""})");
        std::vector<Problem> problems;
        JsonReader r(problems);
        QVERIFY(!r.choice(obj, "/workload/model", "ffn_type", {"gelu", "swiglu"}, true));
        QCOMPARE(r.choice(obj, "/workload/model", "kind", {"gelu", "swiglu"}, true),
                 std::optional<std::string>("swiglu"));
        QVERIFY(!r.string(obj, "", "name", true));
        QCOMPARE(r.string(obj, "", "name", true, true), std::optional<std::string>(""));  // empty allowed
        QVERIFY(!r.choice(obj, "/facility", "cooling", {"air", "liquid", "hybrid"}, false));
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "error /workload/model/ffn_type: must be one of 'gelu', 'swiglu', got 'relu'",
                     "error /name: must not be empty",
                     "error /facility/cooling: must not be empty",
                 }));
    }

    void valuesReadBackAsWritten()
    {
        const Json obj = Json::parse(R"({"name": "pod", "count": 64, "pue": 1.25, "async": false})");
        std::vector<Problem> problems;
        JsonReader r(problems);
        QCOMPARE(r.string(obj, "", "name", true), std::optional<std::string>("pod"));
        QCOMPARE(r.integer(obj, "", "count", true, 1, 100), std::optional<std::int64_t>(64));
        QCOMPARE(r.number(obj, "", "pue", true, 1, 3), std::optional<double>(1.25));
        QCOMPARE(r.boolean(obj, "", "async", true), std::optional<bool>(false));
        QCOMPARE(r.integerValue(obj["count"], "/count", 1, 100), std::optional<std::int64_t>(64));
        QVERIFY(r.isObject(obj, ""));
        QVERIFY(problems.empty());
        QVERIFY(!r.failed());
    }

    void unknownKeysAreKeptAndWarned()
    {
        const Json obj = Json::parse(R"({"id": "gpu", "cuont": 3, "x/y": {"k": 1}, "a~b": [1, 2], "count": 8})");
        std::vector<Problem> problems;
        JsonReader r(problems);
        Json extra = Json::object();
        r.keepUnknown(obj, "/components/2", {"id", "count"}, extra);
        // Kept as they were, in the file's order.
        QCOMPARE(extra.dump(), std::string(R"({"cuont":3,"x/y":{"k":1},"a~b":[1,2]})"));
        // One warning each, the key escaped in the pointer (RFC 6901).
        QCOMPARE(lines(problems),
                 (std::vector<std::string>{
                     "warning /components/2/cuont: unknown key 'cuont' (kept as is on save)",
                     "warning /components/2/x~1y: unknown key 'x/y' (kept as is on save)",
                     "warning /components/2/a~0b: unknown key 'a~b' (kept as is on save)",
                 }));
        // Warnings alone do not fail a read.
        QVERIFY(!r.failed());
        r.error("/components/2/id", "duplicate");
        QVERIFY(r.failed());
        QCOMPARE(problems.back().severity, Severity::Error);
    }
};

QTEST_APPLESS_MAIN(TestJsonReader)
#include "tst_json_reader.moc"
