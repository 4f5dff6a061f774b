#include "tests/fuzz/fuzz_checks.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/analysis/inventory.h"
#include "core/compare/comparison.h"
#include "core/export/calculon_files.h"
#include "core/export/physical_design.h"
#include "core/format/design_writer.h"
#include "core/format/embedded_parts.h"
#include "core/metrics/metrics_text.h"
#include "core/scale/upgrades.h"
#include "core/serving/serving.h"
#include "tests/fuzz/shipped_designs.h"

namespace studio::fuzz {
namespace {

void walkFinite(const Json& j, std::string& path, std::string_view what)
{
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
        finding(std::string(what) + ": " + (path.empty() ? "/" : path) + " is " + j.dump());
    if (!j.is_structured())
        return;
    const std::size_t at = path.size();
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            path += "/" + it.key();
            walkFinite(it.value(), path, what);
            path.resize(at);
        }
    } else {
        for (std::size_t i = 0; i < j.size(); ++i) {
            path += "/" + std::to_string(i);
            walkFinite(j[i], path, what);
            path.resize(at);
        }
    }
}

// Whole words only: "Infiniband" and "inflight" are not figures.
bool hasNonFiniteWord(std::string_view text)
{
    auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && !isWordChar(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && isWordChar(text[i]))
            ++i;
        std::string word(text.substr(start, i - start));
        for (char& c : word)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (word == "nan" || word == "inf" || word == "infinity")
            return true;
    }
    return false;
}

// A servable design's serving figures are all numbers: servingJson prints
// an infinite one as null, which says nothing about why. Null says
// something for four: no target missed, no arrival rate (no operation),
// an engine that keeps as many requests as the KV cache holds, an
// aggregated layout (no disaggregated workers).
void requireServingFigures(const Json& serving)
{
    for (auto it = serving.begin(); it != serving.end(); ++it) {
        if (it.value().is_null() && it.key() != "why_not_met" && it.key() != "operation" &&
            it.key() != "max_requests" && it.key() != "disaggregated")
            finding("metrics: serving." + it.key() + " is null for a servable design");
        if ((it.key() == "operation" || it.key() == "disaggregated") && it.value().is_object())
            for (auto o = it.value().begin(); o != it.value().end(); ++o)
                if (o.value().is_null())
                    finding("metrics: serving." + it.key() + "." + o.key() + " is null for a servable design");
        if (it.key() == "curve")
            for (const Json& point : it.value())
                for (auto p = point.begin(); p != point.end(); ++p)
                    if (p.value().is_null())
                        finding("metrics: serving.curve[]." + p.key() + " is null for a servable design");
    }
}

// The explanations the studio shows on hover and the reports print: every
// input a number, except those of a figure that says it is unavailable.
void requireExplanations(const std::vector<ExplainedMetric>& explained)
{
    for (const auto& [key, e] : explained)
        for (const ExplainInput& in : e.inputs)
            if (!std::isfinite(in.value))
                finding("explain." + key + ": input '" + in.name + "' is " + std::to_string(in.value));
}

// The first shipped design of a workload, analysed once for comparing.
const ComparedDesign& shippedEntry(bool serving)
{
    static const auto entryOf = [](bool wanted) {
        const ShippedDesign& shipped = pickDesign(0, [wanted](const ShippedDesign& d) { return d.serving == wanted; });
        const DesignLoad loaded = readDesignText(shipped.text, Catalog::builtin());
        return compareEntry(*loaded.design, *loaded.catalog, shipped.file);
    };
    static const ComparedDesign training = entryOf(false), servingOne = entryOf(true);
    return serving ? servingOne : training;
}

std::string firstError(const DesignLoad& loaded)
{
    for (const Problem& p : loaded.problems)
        if (p.severity == Severity::Error)
            return formatProblem("FILE", p);
    return "(no error)";
}

// Save, read again: the same design (but for the versions the writer
// stamps), and saving that gives the same bytes (design_writer.h).
void requireRoundTrip(const Design& design, const Catalog& base)
{
    const std::string saved = writeDesignText(design);
    const DesignLoad again = readDesignText(saved, base);
    if (!again.ok())
        finding("normalize: the saved design does not read again: " + firstError(again) + "\n" + saved);
    Design expected = design;
    expected.format_version = again.design->format_version;
    expected.app_version = again.design->app_version;
    if (!(expected == *again.design))
        finding("normalize: the saved design reads as another design\n" + saved);
    if (writeDesignText(*again.design) != saved)
        finding("normalize: saving the saved design changes it\n" + saved);
}

}  // namespace

void finding(const std::string& what)
{
    std::fprintf(stderr, "\n==== FINDING: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

void prepare()
{
    shippedEntry(false);
    shippedEntry(true);
}

void requireFinite(const Json& output, std::string_view what)
{
    std::string path;
    walkFinite(output, path, what);
}

void requirePrintable(const Json& output, std::string_view what)
{
    requireFinite(output, what);
    try {
        (void)output.dump(2);
    } catch (const Json::exception& e) {
        finding(std::string(what) + ": does not print: " + e.what());
    }
}

void requireFiniteText(std::string_view text, std::string_view what, std::string_view userText)
{
    if (hasNonFiniteWord(text) && !hasNonFiniteWord(userText))
        finding(std::string(what) + ": prints a non-finite figure\n" + std::string(text));
    // A figure past the int64 range rounded to an integer prints as the
    // int64 limits (llround's answer out of range).
    for (std::string_view limit : {"9,223,372,036,854,775,80", "922337203685477580"})
        if (text.find(limit) != std::string_view::npos && userText.find(limit) == std::string_view::npos)
            finding(std::string(what) + ": prints a figure as the int64 limit\n" + std::string(text));
}

std::string userTextOf(const Json& doc)
{
    std::string text = doc.dump();
    const auto strings = [&](const Json& j, const auto& self) -> void {
        if (j.is_string())
            text += "\n" + j.get<std::string>();
        else if (j.is_object())
            for (const auto& [key, value] : j.items()) {
                text += "\n" + key;
                self(value, self);
            }
        else if (j.is_array())
            for (const Json& value : j)
                self(value, self);
    };
    strings(doc, strings);
    return text;
}

bool validateAccepts(const DesignLoad& loaded)
{
    return loaded.ok() && !hasErrors(servingProblems(*loaded.design, *loaded.catalog));
}

void checkDesignVerbs(const DesignLoad& loaded, const Catalog& base, std::string_view userText)
{
    if (!loaded.ok()) {
        if (!hasErrors(loaded.problems))
            finding("read: refused without an error");
        return;
    }
    const Design& design = *loaded.design;
    const Catalog& catalog = *loaded.catalog;

    // metrics, as runMetrics in app/cli/command_line.cpp: compareEntry
    // makes the same object (analyzeDesign, metricsJson, addServingMetrics)
    // and keeps it for the comparison below.
    ComparedDesign entry = compareEntry(design, catalog, "fuzz input");
    const Json& metrics = entry.metrics;
    const Serving serving = entry.serving ? *entry.serving : Serving{};
    const bool metricsAccepts = !(design.workload.isServing() && !serving.ok());
    if (metricsAccepts) {
        requirePrintable(metrics, "metrics");
        requireFiniteText(metricsText(metrics), "metrics --format text", userText);
        if (design.workload.isServing())
            requireServingFigures(metrics.at("serving"));
    } else {
        for (const Problem& p : serving.errors)
            if (p.severity != Severity::Error || p.message.empty())
                finding("metrics: a serving error without a message");
    }
    if (validateAccepts(loaded) != metricsAccepts)
        finding(std::string("validate ") + (validateAccepts(loaded) ? "accepts" : "refuses") + " a design metrics " +
                (metricsAccepts ? "accepts" : "refuses") +
                (serving.ok() ? std::string() : ": " + formatProblem("FILE", serving.errors.front())));

    // export --to calculon: a training design's three files carry only
    // finite numbers (Calculon reads NaN as a number and runs on).
    if (metricsAccepts) {
        const CalculonFiles calculon = calculonFiles(design, catalog);
        if (calculon.error.empty())
            for (const Json* file : {&calculon.model, &calculon.system, &calculon.execution})
                requirePrintable(*file, "export --to calculon");
    }

    // export --to netbox and slurm: the cable plan lists what the inventory
    // counts (a fat tree's up-links are one rule, upLinksFor, that both
    // read), and every switch it sizes. Small plans only: a listed cable is
    // a few hundred bytes, the plan visits every instance of every
    // component (a node's 6 million GPUs too), and the harness must stay
    // fast.
    if (metricsAccepts) {
        const DesignIndex index(design, catalog);
        const Inventory inventory = takeInventory(index);
        std::int64_t visits = inventory.cables;
        for (std::size_t i = 0; i < design.components.size() && visits <= 200'000; ++i)
            visits += index.instances(i);
        if (visits <= 200'000) {
            const PhysicalDesign physical = expandDesign(index, inventory);
            if (physical.ok()) {
                std::int64_t switches = 0;
                for (const PhysicalDevice& d : physical.devices)
                    switches += d.role == DeviceRole::Switch;
                if (std::int64_t(physical.cables.size()) != inventory.cables || switches != inventory.switches)
                    finding("export --to netbox: " + std::to_string(physical.cables.size()) + " cables and " +
                            std::to_string(switches) + " switches listed, the inventory counts " +
                            std::to_string(inventory.cables) + " and " + std::to_string(inventory.switches));
            }
        }
    }

    // compare: the design as the baseline of itself (every delta zero) and
    // of a shipped design of the other workload (the rows of both, deltas
    // from whatever the design's figures are). The metrics printed above
    // are most of comparisonJson; its own numbers are the cells'.
    requireExplanations(explainCompared(entry));
    std::vector<ComparedDesign> designs;
    designs.push_back(entry);
    designs.push_back(entry);
    designs.push_back(shippedEntry(!design.workload.isServing()));
    const Comparison comparison = compareDesigns(std::move(designs), 0);
    for (const FigureComparison& row : comparison.figures)
        for (const FigureCell& cell : row.cells)
            for (const std::optional<double>& v : {cell.value, cell.delta, cell.relative})
                if (v && !std::isfinite(*v))
                    finding("compare: " + row.figure.key + " is " + std::to_string(*v));
    requireFiniteText(comparisonText(comparison), "compare --format text", userText);
    requireFiniteText(comparisonCsv(comparison), "compare -o OUT.csv", userText);

    // The what-if upgrades the studio offers (proposeUpgrade refuses one
    // that would not validate); fuzz_search analyses them.
    for (UpgradeKind kind : kUpgradeKinds)
        (void)proposeUpgrade(kind, design, catalog);

    // normalize, and normalize --embed-parts: the file opens on its own.
    requireRoundTrip(design, base);
    Design embedded = design;
    embedUsedParts(embedded, catalog);
    const DesignLoad withParts = readDesignText(writeDesignText(embedded), base);
    if (!withParts.ok())
        finding("normalize --embed-parts: the design does not read again: " + firstError(withParts));
}

void printDesignIfAsked(const Json& design)
{
    if (!std::getenv("FUZZ_PRINT_DESIGN"))
        return;
    std::printf("%s\n", design.dump(2, ' ', false, Json::error_handler_t::replace).c_str());
    std::fflush(stdout);  // before a finding aborts
}

std::string asUtf8Text(std::string_view bytes)
{
    static const std::string kReplacement = "\xEF\xBF\xBD";
    auto cont = [&](std::size_t i) {
        return i < bytes.size() && (static_cast<unsigned char>(bytes[i]) & 0xC0) == 0x80;
    };
    std::string out;
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == 0)
            break;  // an argument is a C string: it ends at the first NUL
        std::size_t len = 0;
        if (c < 0x80) {
            len = 1;
        } else if (c >= 0xC2 && c <= 0xDF) {
            len = cont(i + 1) ? 2 : 0;
        } else if (c >= 0xE0 && c <= 0xEF) {
            const auto c1 = i + 1 < bytes.size() ? static_cast<unsigned char>(bytes[i + 1]) : 0;
            const bool ok1 = c == 0xE0 ? (c1 >= 0xA0 && c1 <= 0xBF)
                : c == 0xED            ? (c1 >= 0x80 && c1 <= 0x9F)
                                       : cont(i + 1);
            len = ok1 && cont(i + 2) ? 3 : 0;
        } else if (c >= 0xF0 && c <= 0xF4) {
            const auto c1 = i + 1 < bytes.size() ? static_cast<unsigned char>(bytes[i + 1]) : 0;
            const bool ok1 = c == 0xF0 ? (c1 >= 0x90 && c1 <= 0xBF)
                : c == 0xF4            ? (c1 >= 0x80 && c1 <= 0x8F)
                                       : cont(i + 1);
            len = ok1 && cont(i + 2) && cont(i + 3) ? 4 : 0;
        }
        if (len == 0) {
            out += kReplacement;
            ++i;
        } else {
            out.append(bytes.substr(i, len));
            i += len;
        }
    }
    return out;
}

}  // namespace studio::fuzz
