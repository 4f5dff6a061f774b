#pragma once
// Shared by the tests that feed the core's models hand-built inputs: a
// relative-tolerance comparison for doubles (expected values are worked out
// by hand from docs/model.md, so they may differ from the model in the last
// bits through the order of operations), and small designs built in code.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/analysis/workload_shape.h"
#include "core/catalog/catalog.h"
#include "core/design/design.h"
#include "core/format/design_validator.h"
#include "core/problem.h"

namespace studio::test {

// |actual - expected| <= rel x max(|actual|, |expected|); equal values
// (zeros included) always pass.
inline bool relClose(double actual, double expected, double rel)
{
    if (actual == expected)
        return true;
    return std::fabs(actual - expected) <= rel * std::max(std::fabs(actual), std::fabs(expected));
}

inline QString relMessage(const char* actualText, double actual, const char* expectedText, double expected, double rel)
{
    return QString("%1 = %2, expected %3 = %4 (relative tolerance %5)")
        .arg(actualText)
        .arg(actual, 0, 'g', 17)
        .arg(expectedText)
        .arg(expected, 0, 'g', 17)
        .arg(rel);
}

// Tolerance for numbers the model and the test compute along the same
// formula: only rounding differs.
inline constexpr double kExact = 1e-12;

inline Component part(const std::string& id, const std::string& partId, const std::string& parent = {},
                      std::int64_t count = 1, const std::string& name = {})
{
    Component c;
    c.id = id;
    c.part = partId;
    c.name = name;
    c.parent = parent;
    c.count = count;
    return c;
}

inline Link cable(const std::string& id, const std::string& from, const std::string& to, const std::string& partId,
                  std::int64_t count = 1)
{
    Link l;
    l.id = id;
    l.from = from;
    l.to = to;
    l.part = partId;
    l.count = count;
    return l;
}

// A small valid workload, so hand-built designs pass validateDesign (the
// analyses that read the design, not the workload, ignore it).
inline Workload smallWorkload()
{
    Workload w;
    w.model.name = "test";
    w.model.layers = 2;
    w.model.hidden = 1024;
    w.model.heads = 8;
    w.model.vocab = 32000;
    w.model.seq_len = 2048;
    w.training.global_batch = 64;
    w.training.tokens = 1e9;
    return w;
}

// L 2, h 8,192, a 64, MHA, f = 4h GeLU, V 32,768, s 8,192: 2^31 parameters
// (2 x (4h^2 + 8h^2) + 2 V h) when p = t = 1. Small enough to work by hand.
inline Workload toyWorkload()
{
    Workload w;
    w.model.name = "toy";
    w.model.layers = 2;
    w.model.hidden = 8192;
    w.model.heads = 64;
    w.model.vocab = 32768;
    w.model.seq_len = 8192;
    w.training.global_batch = 4;
    w.training.tokens = 1e12;
    return w;
}

// The workload's shape on `gpus` GPUs, its warnings dropped.
inline WorkloadShape shapeOf(const Workload& w, std::int64_t gpus)
{
    std::vector<Problem> warnings;
    return shapeWorkload(w, gpus, warnings);
}

// An empty design that validates once components are added: a name and a
// small valid workload.
inline Design emptyDesign()
{
    Design d;
    d.name = "hand-built";
    d.workload = smallWorkload();
    return d;
}

// The one problem in `problems` as "code pointer: message" (or how many
// there were instead): compared whole, a mismatch prints both sides.
inline QString onlyProblem(const std::vector<Problem>& problems)
{
    if (problems.size() != 1)
        return QStringLiteral("%1 problems").arg(problems.size());
    const Problem& p = problems.front();
    return QString::fromStdString(p.code + " " + p.pointer + ": " + p.message);
}

// The validation errors of a hand-built design, one per line ("" when
// valid): a test design that does not validate tests nothing.
inline std::string validationErrors(const Design& d, const Catalog& catalog = Catalog::builtin())
{
    std::string out;
    for (const Problem& p : validateDesign(d, catalog))
        if (p.severity == Severity::Error)
            out += p.pointer + ": " + p.message + "\n";
    return out;
}

inline const Problem* findProblem(const std::vector<Problem>& problems, const std::string& code)
{
    const auto it = std::find_if(problems.begin(), problems.end(), [&](const Problem& p) { return p.code == code; });
    return it == problems.end() ? nullptr : &*it;
}

}  // namespace studio::test

// QCOMPARE for doubles with a relative tolerance; honours QEXPECT_FAIL.
#define COMPARE_REL(actual, expected, rel)                                                                             \
    do {                                                                                                               \
        const double actual_ = (actual), expected_ = (expected);                                                       \
        QVERIFY2(::studio::test::relClose(actual_, expected_, (rel)),                                                  \
                 qPrintable(::studio::test::relMessage(#actual, actual_, #expected, expected_, (rel))));               \
    } while (false)

// Requires a hand-built design to validate before a test relies on it.
#define REQUIRE_VALID(design)                                                                                          \
    do {                                                                                                               \
        const std::string errors_ = ::studio::test::validationErrors(design);                                          \
        QVERIFY2(errors_.empty(), errors_.c_str());                                                                    \
    } while (false)
