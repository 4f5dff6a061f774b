// What a design costs (docs/model.md section 20): capex by kind with its
// band, a node's price covering what it holds, capital recovered with and
// without a cost of capital, the facility built or rented, a GPU-hour owned,
// a training run and a million tokens; a part without a price named and the
// totals marked incomplete; prices in the catalog read with their errors.
#include <QtTest>

#include <cmath>

#include "core/analysis/cost.h"
#include "core/catalog/catalog.h"
#include "core/format/design_reader.h"
#include "core/metrics/explanations.h"
#include "core/metrics/metrics.h"
#include "core/model/analysis.h"
#include "core/text.h"
#include "tests/core/hand_built.h"
#include "tests/test_support.h"

using namespace studio;
using namespace studio::test;
using Json = nlohmann::ordered_json;

namespace {

constexpr double kHoursPerYear = 365.25 * 24;

// The built-in catalog with these parts' prices replaced (null: no price).
Catalog pricedAs(const std::map<std::string, Json>& prices)
{
    Catalog c = Catalog::builtin();
    Json doc = {{"format", "cluster-studio.catalog"},
                {"format_version", "1.0"},
                {"sources", {{"hand", "worked by hand in tst_cost"}}},
                {"parts", Json::array()}};
    for (const auto& [id, price] : prices) {
        Json part = c.find(id)->json;
        part.erase("price");
        if (!price.is_null())
            part["price"] = price;
        doc["parts"].push_back(part);
    }
    const auto problems = c.merge(doc, "prices");
    if (hasErrors(problems))
        qFatal("%s", problems.front().message.c_str());
    return c;
}

Json price(double typical, double low, double high)
{
    return {{"typical", typical}, {"low", low},       {"high", high},
            {"currency", "USD"},  {"source", "hand"}, {"date", "2026-11"}};
}

// Two racks of four DGX H100 each (eight GPUs and NICs in each node), a
// facility with round inputs.
Design twoRacks()
{
    Design d = emptyDesign();
    d.components = {part("rack", "rack.air-42u", {}, 2), part("node", "node.dgx-h100", "rack", 4),
                    part("gpu", "gpu.h100-sxm", "node", 8), part("nic", "nic.connectx-7", "node", 8)};
    d.facility.capex_usd_per_mw = 10e6;
    d.facility.cost_of_capital = 0.1;
    d.facility.amortization_years_it = 4;
    d.facility.amortization_years_facility = 10;
    d.facility.utilization = 0.5;
    d.facility.operations_share = 0.02;
    d.facility.electricity_usd_per_kwh = 0.1;
    d.facility.cloud_usd_per_gpu_hour = 3;
    return d;
}

}  // namespace

class TestCost : public QObject {
    Q_OBJECT

private slots:
    void capitalRecoveryFactor()
    {
        // 1 / n with no cost of capital; r / (1 - (1 + r)^-n) with one.
        QCOMPARE(studio::capitalRecoveryFactor(0, 5), 0.2);
        COMPARE_REL(studio::capitalRecoveryFactor(0.1, 5), 0.1 / (1 - 1 / 1.61051), kExact);
        COMPARE_REL(studio::capitalRecoveryFactor(0.1, 5), 0.263797481, 1e-8);
        QCOMPARE(studio::capitalRecoveryFactor(0.1, 0), 0.0);
        // A rate too small for 1 + r to differ from 1 (a fuzzed 5e-324) tends
        // to the rate-free 1 / n, never a division by zero.
        COMPARE_REL(studio::capitalRecoveryFactor(1e-12, 5), 0.2, 1e-9);
        COMPARE_REL(studio::capitalRecoveryFactor(5e-324, 5), 0.2, 1e-9);
    }

    void aTwoPartDesignCostsWhatItsPricesSay()
    {
        const Catalog c = pricedAs(
            {{"rack.air-42u", price(2'000, 1'500, 2'500)}, {"node.dgx-h100", price(300'000, 250'000, 350'000)}});
        const Design d = twoRacks();
        REQUIRE_VALID(d);
        const Analysis a = analyzeDesign(d, c);
        const Cost& cost = a.cost;
        QVERIFY(cost.complete());
        // The nodes' price covers their 64 GPUs and 64 NICs.
        QCOMPARE(cost.coveredByNodes, std::int64_t(128));
        QCOMPARE(cost.lines.size(), std::size_t(2));
        QCOMPARE(cost.capexByKind[std::size_t(CapexKind::Compute)], (UsdBand{2'000'000, 2'400'000, 2'800'000}));
        QCOMPARE(cost.capexByKind[std::size_t(CapexKind::Racks)], (UsdBand{3'000, 4'000, 5'000}));
        QCOMPARE(cost.capexByKind[std::size_t(CapexKind::Network)], UsdBand{});
        QCOMPARE(cost.itCapex, (UsdBand{2'003'000, 2'404'000, 2'805'000}));
        // The facility built for the IT load: $10M per MW.
        const double facility = 10e6 * a.power.itKw / 1000;
        QVERIFY(a.power.itKw > 0);
        COMPARE_REL(cost.facilityCapex.typical, facility, kExact);
        COMPARE_REL(cost.capex.typical, 2'404'000 + facility, kExact);
        COMPARE_REL(cost.capex.low, 2'003'000 + facility, kExact);
        // A year: IT over 4 years and the building over 10 at 10%, 2% of the
        // capex for operations, electricity for half the hours at $0.10.
        const double crfIt = 0.1 / (1 - std::pow(1.1, -4)), crfFacility = 0.1 / (1 - std::pow(1.1, -10));
        COMPARE_REL(crfIt, 0.315470804, 1e-8);
        const double electricity = a.power.facilityKw * kHoursPerYear * 0.5 * 0.1;
        const double annual = 2'404'000 * crfIt + facility * crfFacility + 0.02 * (2'404'000 + facility) + electricity;
        COMPARE_REL(cost.annualTco.typical, annual, kExact);
        COMPARE_REL(cost.annualTco.high - cost.annualTco.typical, 401'000 * (crfIt + 0.02), kExact);
        const double perGpuHour = annual / (64 * kHoursPerYear * 0.5);
        COMPARE_REL(cost.usdPerGpuHour.typical, perGpuHour, kExact);
        QCOMPARE(cost.cloudUsdPerGpuHour->typical, 3.0);
        // The run: its wall-clock hours of the fixed cost per working hour,
        // plus its energy.
        QVERIFY(a.completes());
        const double fixed = annual - electricity;
        const double run = a.reliability.wallDays * 24 * fixed / (kHoursPerYear * 0.5) + a.trainingRunMwh * 1000 * 0.1;
        COMPARE_REL(cost.runCost->typical, run, 1e-12);
        COMPARE_REL(cost.usdPerMillionTokens->typical, run / (d.workload.training.tokens / 1e6), 1e-12);
        // Rented instead: 64 GPUs at $3 an hour for the same wall-clock hours.
        COMPARE_REL(cost.cloudRunCost->typical, 3.0 * 64 * a.reliability.wallDays * 24, kExact);
        // The metrics: every figure a band, each explaining itself.
        const Json m = metricsJson(d, a);
        QCOMPARE(m["cost"]["complete"].get<bool>(), true);
        COMPARE_REL(m["cost"]["capex_usd"]["typical"].get<double>(), 2'404'000 + facility, kExact);
        QCOMPARE(m["cost"]["capex_by_kind"]["racks"]["high"].get<double>(), 5'000.0);
        COMPARE_REL(m["cost"]["usd_per_gpu_hour"]["typical"].get<double>(), perGpuHour, kExact);
        QCOMPARE(m["cost"]["cloud_usd_per_gpu_hour"]["typical"].get<double>(), 3.0);
        QCOMPARE(m["cost"]["facility"].get<std::string>(), std::string("built"));
        COMPARE_REL(m["cost"]["cloud_run_cost_usd"]["typical"].get<double>(), cost.cloudRunCost->typical, kExact);
        for (const char* key : {"capex_usd", "annual_tco_usd", "usd_per_gpu_hour", "run_cost_usd", "cloud_run_cost_usd",
                                "usd_per_million_tokens", "capex_by_kind.compute"}) {
            const Json& e = m["explain"][std::string("cost.") + key];
            QVERIFY2(e.contains("formula") && !e["inputs"].empty(), key);
            QVERIFY2(e["band"]["low"].get<double>() <= e["band"]["high"].get<double>(), key);
        }
        const Json& capexInputs = m["explain"]["cost.capex_usd"]["inputs"];
        QCOMPARE(capexInputs[0]["name"].get<std::string>(), std::string("DGX H100 x 8"));
        QCOMPARE(capexInputs[0]["source"].get<std::string>(), std::string("worked by hand in tst_cost (2026-11)"));
    }

    void noCostOfCapitalRecoversTheCapexEvenly()
    {
        const Catalog c = pricedAs(
            {{"rack.air-42u", price(2'000, 2'000, 2'000)}, {"node.dgx-h100", price(300'000, 300'000, 300'000)}});
        Design d = twoRacks();
        d.facility.cost_of_capital = 0;
        const Analysis a = analyzeDesign(d, c);
        const double facility = 10e6 * a.power.itKw / 1000;
        COMPARE_REL(a.cost.capitalPerYear.typical, 2'404'000 / 4.0 + facility / 10, kExact);
        QCOMPARE(a.cost.recoveryIt, 0.25);
    }

    void aRentedFacilityCostsItsColocationAYear()
    {
        const Catalog c = pricedAs(
            {{"rack.air-42u", price(2'000, 2'000, 2'000)}, {"node.dgx-h100", price(300'000, 300'000, 300'000)}});
        Design d = twoRacks();
        d.facility.capex_usd_per_mw.reset();
        d.facility.colocation_usd_per_kw_month = 150;
        REQUIRE_VALID(d);
        const Analysis a = analyzeDesign(d, c);
        QVERIFY(a.cost.colocated);
        QCOMPARE(a.cost.facilityCapex, UsdBand{});
        QCOMPARE(a.cost.capex.typical, 2'404'000.0);
        COMPARE_REL(a.cost.colocationPerYear, 150 * a.power.itKw * 12, kExact);
        COMPARE_REL(a.cost.fixedPerYear.typical,
                    2'404'000 * (0.1 / (1 - std::pow(1.1, -4))) + 0.02 * 2'404'000 + 150 * a.power.itKw * 12, kExact);
        // Both at once is refused, naming the field.
        d.facility.capex_usd_per_mw = 10e6;
        const std::vector<Problem> problems = validateDesign(d, c);
        const Problem* both = findProblem(problems, "capex_and_colocation");
        QVERIFY(both);
        QCOMPARE(both->pointer, std::string("/facility/colocation_usd_per_kw_month"));
    }

    void anUnpricedPartIsNamedAndTheTotalIncomplete()
    {
        const Catalog c =
            pricedAs({{"rack.air-42u", Json(nullptr)}, {"node.dgx-h100", price(300'000, 300'000, 300'000)}});
        const Design d = twoRacks();
        const Analysis a = analyzeDesign(d, c);
        QVERIFY(!a.cost.complete());
        QCOMPARE(a.cost.unpriced.size(), std::size_t(1));
        QCOMPARE(a.cost.unpriced[0].part, std::string("rack.air-42u"));
        QCOMPARE(a.cost.unpriced[0].count, std::int64_t(2));
        // The total is over what has a price; it says so.
        QCOMPARE(a.cost.itCapex.typical, 2'400'000.0);
        const Json m = metricsJson(d, a);
        QVERIFY(m["explain"]["cost.capex_usd"]["formula"].get<std::string>().find(
                    "incomplete: 1 part without a price") != std::string::npos);
        QCOMPARE(m["cost"]["complete"].get<bool>(), false);
        QCOMPARE(m["cost"]["unpriced"][0]["part"].get<std::string>(), std::string("rack.air-42u"));
        QCOMPARE(m["cost"]["unpriced"][0]["count"].get<int>(), 2);
        // An unpriced node leaves its GPUs and NICs to their own prices.
        const Catalog bare = pricedAs({{"node.dgx-h100", Json(nullptr)}, {"rack.air-42u", Json(nullptr)}});
        const Analysis b = analyzeDesign(d, bare);
        QCOMPARE(b.cost.coveredByNodes, std::int64_t(0));
        const Part& gpu = *bare.find("gpu.h100-sxm");
        QVERIFY(gpu.price);
        QCOMPARE(b.cost.capexByKind[std::size_t(CapexKind::Compute)].typical, 64 * gpu.price->typical);
    }

    void aServingDesignCostsItsTokens()
    {
        DesignLoad l = loadDesignFile(
            test::sourcePath("presets/serving-llama3-70b-dgx-h100.cluster.json").toStdString(), Catalog::builtin());
        QVERIFY(l.ok());
        const Analysis a = analyzeDesign(*l.design, *l.catalog);
        QVERIFY(a.served && a.served->ok());
        QVERIFY(!a.cost.runCost);
        const double perToken = a.cost.usdPerGpuHour.typical / (a.served->decode.tokensPerSPerGpu * 3600) * 1e6;
        COMPARE_REL(a.cost.servingUsdPerMillionTokens->typical, perToken, kExact);
        const Json m = metricsJson(*l.design, a);
        COMPARE_REL(m["cost"]["usd_per_million_tokens"]["typical"].get<double>(), perToken, kExact);
        QVERIFY(m["cost"]["run_cost_usd"].is_null());
        QVERIFY(m["cost"]["cloud_run_cost_usd"].is_null());
    }

    void pricesAreReadWithTheirErrors_data()
    {
        QTest::addColumn<QString>("price");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative") << R"({"typical": -5, "currency": "USD", "source": "hand", "date": "2026"})"
                                  << "/parts/0/price/typical"
                                  << "must be at least 0, got -5";
        QTest::newRow("band out of order")
            << R"({"typical": 10, "low": 20, "high": 5, "currency": "USD", "source": "hand", "date": "2026"})"
            << "/parts/0/price/low"
            << "the band's low (20) is above its typical (10)";
        QTest::newRow("currency") << R"({"typical": 10, "currency": "EUR", "source": "hand", "date": "2026"})"
                                  << "/parts/0/price/currency"
                                  << "prices are in USD, got 'EUR'";
        QTest::newRow("no source") << R"({"typical": 10, "currency": "USD", "source": "nowhere", "date": "2026"})"
                                   << "/parts/0/price/source"
                                   << "source 'nowhere' is not in the catalog's sources table";
    }

    void pricesAreReadWithTheirErrors()
    {
        QFETCH(QString, price);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        Catalog c = Catalog::builtin();
        Json part = c.find("rack.air-42u")->json;
        part["price"] = Json::parse(price.toStdString());
        const Json doc = {{"format", "cluster-studio.catalog"},
                          {"format_version", "1.0"},
                          {"sources", {{"hand", "by hand"}}},
                          {"parts", Json::array({part})}};
        const auto problems = c.merge(doc, "prices.json");
        QVERIFY(hasErrors(problems));
        QCOMPARE(QString::fromStdString(problems.front().pointer), pointer);
        QCOMPARE(QString::fromStdString(problems.front().message), message);
        // Nothing changed.
        QCOMPARE(c.find("rack.air-42u")->price->typical, Catalog::builtin().find("rack.air-42u")->price->typical);
        QCOMPARE(c.find("rack.air-42u")->price->source, Catalog::builtin().find("rack.air-42u")->price->source);
    }

    void aCloudPriceIsAnAcceleratorsOnly()
    {
        Catalog c = Catalog::builtin();
        Json part = c.find("switch.qm9700")->json;
        part["cloud_price"] = price(3, 3, 3);
        const Json doc = {{"format", "cluster-studio.catalog"},
                          {"format_version", "1.0"},
                          {"sources", {{"hand", "by hand"}}},
                          {"parts", Json::array({part})}};
        const auto problems = c.merge(doc, "cloud.json");
        QCOMPARE(onlyProblem(problems),
                 QString("invalid /parts/0/cloud_price: a cloud price per GPU-hour is an accelerator's; this part is "
                         "a switch"));
    }

    void everyShippedPriceHasASourceADateAndAnOrderedBand()
    {
        int priced = 0;
        for (const Part& p : Catalog::builtin().parts())
            for (const std::optional<Price>* pr : {&p.price, &p.cloudPrice})
                if (*pr) {
                    const Price& x = **pr;
                    QVERIFY2(!x.source.empty() && !x.date.empty(), p.id.c_str());
                    QVERIFY2(x.low <= x.typical && x.typical <= x.high, p.id.c_str());
                    ++priced;
                }
        QVERIFY(priced >= 30);
        // docs/evidence/prices.md lists each at its price.
        QFile doc(test::sourcePath("docs/evidence/prices.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(doc.readAll()).split('\n');
        const auto shown = [](double v) {
            return v >= 100 || v == std::floor(v) ? QString::fromStdString(formatCount(std::llround(v)))
                                                  : QString::number(v, 'g', 3);
        };
        for (const Part& p : Catalog::builtin().parts())
            for (const auto& [pr, section] :
                 {std::pair{&p.price, QString("## Parts")}, std::pair{&p.cloudPrice, QString("## Cloud prices")}})
                if (*pr) {
                    const qsizetype from = rows.indexOf(QRegularExpression("^" + section + ".*"));
                    QVERIFY(from >= 0);
                    const QString head = "| `" + QString::fromStdString(p.id) + "` |";
                    const auto row = std::find_if(rows.begin() + from, rows.end(),
                                                  [&](const QString& r) { return r.startsWith(head); });
                    QVERIFY2(row != rows.end(), qPrintable(head + " under " + section));
                    QVERIFY2(row->contains("| " + shown((*pr)->typical) + " |"), qPrintable(*row));
                }
        // Every preset's GPUs and nodes are priced.
        for (const char* id : {"node.dgx-h100", "node.dgx-b200", "node.gb200-nvl72", "node.dgx-a100",
                               "node.mi300x-platform", "gpu.h100-sxm", "switch.qm9700"})
            QVERIFY2(Catalog::builtin().find(id)->price, id);
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
