// The hardware catalog: every part of hardware.md, every figure sourced,
// user catalogs merged safely, parts embeddable into designs.
#include <QtTest>

#include "core/catalog/builtin_catalog.h"
#include "core/catalog/catalog.h"
#include "core/json/json_text.h"

using namespace studio;
using Json = nlohmann::ordered_json;

class TestCatalog : public QObject {
    Q_OBJECT
private slots:
    void builtinLoadsWithoutAnyProblem()
    {
        Catalog c;
        const ParsedJson parsed = parseJsonText(builtinCatalogJson());
        QVERIFY(!parsed.error);
        const auto problems = c.merge(parsed.doc, "built-in catalog");
        for (const auto& p : problems)
            qWarning("%s", formatProblem("catalog.json", p).c_str());
        QCOMPARE(problems.size(), std::size_t(0));
        QVERIFY(c.parts().size() >= 45);
    }

    void everyFigureHasASource()
    {
        const Catalog& c = Catalog::builtin();
        int figures = 0;
        for (const Part& p : c.parts()) {
            for (const auto& [key, f] : p.figures) {
                ++figures;
                QVERIFY2(!f.source.empty(), (p.id + "/" + key).c_str());
                QCOMPARE(c.sourceText(f.source_key), f.source);
            }
        }
        QVERIFY(figures > 200);
    }

    void referencePartsPresent_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("kind");
        const char* rows[][2] = {
            {"gpu.a100-sxm-80gb", "accelerator"},
            {"gpu.h100-sxm", "accelerator"},
            {"gpu.h200-sxm", "accelerator"},
            {"gpu.b200", "accelerator"},
            {"gpu.gb200", "accelerator"},
            {"gpu.mi300x", "accelerator"},
            {"gpu.mi325x", "accelerator"},
            {"tpu.v5p", "accelerator"},
            {"tpu.v6e", "accelerator"},
            {"gaudi.3", "accelerator"},
            {"nic.connectx-7", "nic"},
            {"nic.connectx-8", "nic"},
            {"nic.eth-100g", "nic"},
            {"nic.eth-200g", "nic"},
            {"nic.eth-400g", "nic"},
            {"nic.eth-800g", "nic"},
            {"switch.qm9700", "switch"},
            {"switch.q3400", "switch"},
            {"switch.sn5600", "switch"},
            {"switch.generic-eth", "switch"},
            {"node.dgx-a100", "node"},
            {"node.dgx-h100", "node"},
            {"node.hgx-h200", "node"},
            {"node.dgx-b200", "node"},
            {"node.gb200-nvl72", "node"},
            {"node.mi300x-platform", "node"},
            {"storage.pfs-appliance", "storage"},
            {"storage.object-server", "storage"},
            {"storage.local-nvme", "storage"},
            {"rack.air-42u", "rack"},
            {"rack.liquid-48u", "rack"},
            {"link.ib-ndr-optical", "link"},
            {"link.eth-400g-optical", "link"},
        };
        for (const auto& r : rows)
            QTest::newRow(r[0]) << r[0] << r[1];
    }
    void referencePartsPresent()
    {
        QFETCH(QString, id);
        QFETCH(QString, kind);
        const Part* p = Catalog::builtin().find(id.toStdString());
        QVERIFY2(p, qPrintable(id));
        QCOMPARE(QString::fromUtf8(partKindName(p->kind).data()), kind);
    }

    // Figures as hardware.md gives them (dense peaks).
    void figuresMatchReference_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        const struct {
            const char* id;
            const char* key;
            double v;
        } rows[] = {
            {"gpu.a100-sxm-80gb", "bf16_tflops", 312},
            {"gpu.a100-sxm-80gb", "hbm_tb_per_s", 2.039},
            {"gpu.a100-sxm-80gb", "scaleup_gb_per_s", 600},
            {"gpu.h100-sxm", "bf16_tflops", 989.4},
            {"gpu.h100-sxm", "fp8_tflops", 1978.9},
            {"gpu.h100-sxm", "hbm_tb_per_s", 3.35},
            {"gpu.h100-sxm", "tdp_w", 700},
            {"gpu.h200-sxm", "hbm_gb", 141},
            {"gpu.b200", "fp4_tflops", 9000},
            {"gpu.b200", "hbm_tb_per_s", 8},
            {"gpu.gb200", "bf16_tflops", 2500},
            {"gpu.gb200", "scaleup_domain_gpus", 72},
            {"gpu.gb200", "tdp_w", 1200},
            {"gpu.mi300x", "bf16_tflops", 1307.4},
            {"gpu.mi300x", "hbm_gb", 192},
            {"gpu.mi325x", "hbm_gb", 256},
            {"tpu.v5p", "hbm_tb_per_s", 2.765},
            {"tpu.v5p", "scaleup_gb_per_s", 1200},
            {"tpu.v6e", "bf16_tflops", 918},
            {"tpu.v6e", "hbm_gb", 32},
            {"gaudi.3", "bf16_tflops", 1835},
            {"gaudi.3", "scaleup_gb_per_s", 1200},
            {"switch.qm9700", "ports", 64},
            {"switch.qm9700", "switching_tbps", 51.2},
            {"switch.q3400", "ports", 144},
            {"switch.q3400", "port_gbps", 800},
            {"switch.sn5600", "port_gbps", 800},
            {"nic.connectx-8", "port_gbps", 800},
            {"node.dgx-h100", "max_power_kw", 10.2},
            {"node.gb200-nvl72", "gpus", 72},
            {"rack.air-42u", "max_kw", 30},
            {"storage.object-server", "capacity_pb", 0.032},
        };
        for (const auto& r : rows)
            QTest::newRow((std::string(r.id) + " " + r.key).c_str()) << r.id << r.key << r.v;
    }
    void figuresMatchReference()
    {
        QFETCH(QString, id);
        QFETCH(QString, key);
        QFETCH(double, value);
        const Part* p = Catalog::builtin().find(id.toStdString());
        QVERIFY(p);
        const Figure* f = p->figure(key.toStdString());
        QVERIFY2(f, qPrintable(id + " " + key));
        QCOMPARE(f->value, value);
    }

    void uncertainValuesAreFlagged()
    {
        const Catalog& c = Catalog::builtin();
        QVERIFY(c.find("gpu.b200")->figure("hbm_gb")->uncertain);
        QVERIFY(c.find("gpu.mi325x")->figure("tdp_w")->uncertain);
        QVERIFY(c.find("switch.qm9700")->figure("power_w")->uncertain);  // no public figure
        QVERIFY(!c.find("gpu.h100-sxm")->figure("bf16_tflops")->uncertain);
        // TPU v5p's TDP is not published: absent rather than invented.
        QVERIFY(!c.find("tpu.v5p")->figure("tdp_w"));
    }

    void userCatalogOverridesAndAdds()
    {
        Catalog c = Catalog::builtin();
        const Json doc = Json::parse(R"json({
          "format": "cluster-studio.catalog", "format_version": "1.0",
          "sources": {"lab": "measured in our lab, 2026"},
          "parts": [
            {"id": "gpu.h100-sxm", "kind": "accelerator", "name": "H100 (derated)", "figures": {
              "bf16_tflops": {"value": 900, "source": "lab"}, "hbm_gb": {"value": 80, "source": "nv-h100-ds"},
              "hbm_tb_per_s": {"value": 3.35, "source": "nv-h100-ds"},
              "scaleup_gb_per_s": {"value": 900, "source": "nv-h100-ds"},
              "scaleup_domain_gpus": {"value": 8, "source": "nv-h100-ds"}}},
            {"id": "switch.lab-64", "kind": "switch", "name": "Lab switch", "attributes": {"protocol": "ethernet"},
             "figures": {"ports": {"value": 64, "source": "lab"}, "port_gbps": {"value": 400, "source": "lab"}}}
          ]})json");
        const auto problems = c.merge(doc, "lab.catalog.json");
        QCOMPARE(problems.size(), std::size_t(0));
        QCOMPARE(c.find("gpu.h100-sxm")->figure("bf16_tflops")->value, 900.0);
        QCOMPARE(c.find("gpu.h100-sxm")->figure("bf16_tflops")->source, std::string("measured in our lab, 2026"));
        QCOMPARE(c.find("gpu.h100-sxm")->origin, std::string("lab.catalog.json"));
        QVERIFY(c.find("switch.lab-64"));
        QCOMPARE(c.parts().size(), Catalog::builtin().parts().size() + 1);
        // The built-in catalog itself is untouched.
        QCOMPARE(Catalog::builtin().find("gpu.h100-sxm")->figure("bf16_tflops")->value, 989.4);
    }

    void userCatalogWithErrorsMergesNothing()
    {
        Catalog c = Catalog::builtin();
        const Json doc = Json::parse(R"json({
          "format": "cluster-studio.catalog", "format_version": "1.0", "sources": {"s": "somewhere"},
          "parts": [
            {"id": "switch.ok", "kind": "switch", "name": "Fine", "attributes": {"protocol": "ethernet"},
             "figures": {"ports": {"value": 64, "source": "s"}, "port_gbps": {"value": 400, "source": "s"}}},
            {"id": "switch.bad", "kind": "switch", "name": "Bad", "attributes": {"protocol": "ethernet"},
             "figures": {"ports": {"value": 12.5, "source": "s"}, "port_gbps": {"value": -1, "source": "s"}}}
          ]})json");
        const auto problems = c.merge(doc, "bad.json");
        QVERIFY(hasErrors(problems));
        QCOMPARE(problems[0].pointer, std::string("/parts/1/figures/ports/value"));
        QCOMPARE(problems[0].message, std::string("must be a whole number of ports, got 12.5"));
        QCOMPARE(problems[1].pointer, std::string("/parts/1/figures/port_gbps/value"));
        QCOMPARE(problems[1].message, std::string("must be at least 0.001, got -1"));
        QVERIFY(!c.find("switch.ok"));  // all or nothing
    }

    // A figure that must be positive has a floor far below any real part:
    // "greater than 0" let 5e-324 through, and the model's quotients by it
    // overflowed to infinity (fuzz_set).
    void positiveFiguresHaveAFloor()
    {
        Catalog c = Catalog::builtin();
        const Json doc = Json::parse(R"json({
          "format": "cluster-studio.catalog", "format_version": "1.0", "sources": {"s": "somewhere"},
          "parts": [
            {"id": "storage.tiny", "kind": "storage", "name": "Tiny",
             "figures": {"read_gb_per_s": {"value": 5e-324, "source": "s"},
                         "write_gb_per_s": {"value": 0.001, "source": "s"},
                         "metadata_kiops": {"value": 1, "source": "s"}}}
          ]})json");
        const auto problems = c.merge(doc, "tiny.json");
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0].pointer, std::string("/parts/0/figures/read_gb_per_s/value"));
        QCOMPARE(problems[0].message, std::string("must be at least 0.001, got 4.94066e-324"));
    }

    void aPeakThatMayBeNoneIsZeroOrAboveTheFloor()
    {
        // 0: the part has no FP8 (or no scale-up link); 5e-324 divides to
        // infinity (fuzz_serving).
        const auto merged = [](const char* fp8, const char* scaleup) {
            Catalog c = Catalog::builtin();
            const std::string text = std::string(R"json({"format": "cluster-studio.catalog", "format_version": "1.0",
              "parts": [{"id": "gpu.h100-sxm", "kind": "accelerator", "name": "H100, edited", "figures": {
                "bf16_tflops": {"value": 989.4, "source": "nv-h100-ds"}, "hbm_gb": {"value": 80, "source": "nv-h100-ds"},
                "hbm_tb_per_s": {"value": 3.35, "source": "nv-h100-ds"},
                "scaleup_domain_gpus": {"value": 8, "source": "nv-h100-ds"},
                "fp8_tflops": {"value": )json") + fp8 + R"json(, "source": "nv-h100-ds"},
                "scaleup_gb_per_s": {"value": )json" + scaleup + R"json(, "source": "nv-h100-ds"}}}]})json";
            return c.merge(Json::parse(text), "gpu.json");
        };
        for (const Problem& p : merged("0", "0"))
            QVERIFY2(p.severity != Severity::Error, formatProblem("gpu.json", p).c_str());
        const auto tiny = merged("5e-324", "900");
        QCOMPARE(tiny.size(), std::size_t(1));
        QCOMPARE(formatProblem("gpu.json", tiny[0]),
                 std::string("gpu.json: /parts/0/figures/fp8_tflops/value: must be 0 (none) or at least 0.001, got "
                             "4.94066e-324"));
        QVERIFY(!merged("1979", "-1").empty());  // below 0 is still out of range
    }

    void referencesBetweenPartsAreChecked()
    {
        Catalog c = Catalog::builtin();
        const Json doc = Json::parse(R"json({"format": "cluster-studio.catalog", "format_version": "1.0", "parts": [
            {"id": "node.x", "kind": "node", "name": "X", "attributes": {"accelerator": "gpu.nope", "nic": "switch.qm9700"},
             "figures": {"gpus": {"value": 8, "source": "nv-dgx-h100"}, "compute_nics": {"value": 8, "source": "nv-dgx-h100"},
                         "max_power_kw": {"value": 10, "source": "nv-dgx-h100"}}}]})json");
        const auto problems = c.merge(doc, "x.json");
        QCOMPARE(problems.size(), std::size_t(2));
        QCOMPARE(formatProblem("x.json", problems[0]),
                 std::string("x.json: /parts/0/attributes/accelerator: no part 'gpu.nope' in the catalog"));
        QCOMPARE(formatProblem("x.json", problems[1]),
                 std::string("x.json: /parts/0/attributes/nic: 'switch.qm9700' is a switch, not a NIC"));
    }

    void aReplacedPartKeepsTheKindOthersReferTo()
    {
        // fuzz_catalog: a catalog that turned the built-in BlueField-3 into
        // a group was accepted, and a DGX design with its parts embedded
        // then did not read again (its node's DPU was a group).
        Catalog c = Catalog::builtin();
        const Json doc = Json::parse(R"json({"format": "cluster-studio.catalog", "format_version": "1.0", "parts": [
            {"id": "nic.bluefield-3", "kind": "group", "name": "Not a DPU", "attributes": {"role": "pod"},
             "figures": {}}]})json");
        const auto problems = c.merge(doc, "x.json");
        QCOMPARE(problems.size(), std::size_t(3));  // the three built-in nodes with a BlueField-3 DPU
        QCOMPARE(formatProblem("x.json", problems[0]),
                 std::string("x.json: /parts/0/kind: 'nic.bluefield-3' is a group here, but 'node.dgx-h100' refers "
                             "to it as its dpu, which must be a NIC"));
        QCOMPARE(c.find("nic.bluefield-3")->kind, PartKind::Nic);  // refused whole: the catalog is as it was
        // Replaced by a part of the same kind, it is taken.
        const Json same = Json::parse(R"json({"format": "cluster-studio.catalog", "format_version": "1.0", "parts": [
            {"id": "nic.bluefield-3", "kind": "nic", "name": "BlueField-3, derated", "attributes": {"protocol": "ethernet"},
             "figures": {"port_gbps": {"value": 200, "source": "nv-bf3"}, "ports": {"value": 1, "source": "nv-bf3"},
                         "latency_us": {"value": 10, "source": "nv-bf3"}}}]})json");
        Catalog d = Catalog::builtin();
        const auto ok = d.merge(same, "y.json");
        for (const Problem& p : ok)
            QVERIFY2(p.severity != Severity::Error, formatProblem("y.json", p).c_str());
    }

    void missingCatalogFileIsReported()
    {
        Catalog c;
        const auto problems = c.mergeFile("/nonexistent/catalog.json");
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0].message, std::string("cannot open: No such file or directory"));
    }

    // What each training framework runs (issue 38): the built-in profiles
    // read with their sources; a user's catalog adds one and replaces
    // another by id; a profile whose axes or values cannot be read is an
    // error at its pointer and merges nothing.
    void softwareProfilesReadCheckedAndReplaced()
    {
        const Catalog& builtin = Catalog::builtin();
        QVERIFY(builtin.software("anything") && builtin.software("anything")->allowed.empty());
        const SoftwareProfile* old = builtin.software("megatron-lm-2021");
        QVERIFY(old);
        QCOMPARE(old->name, std::string("Megatron-LM (2021)"));
        QVERIFY(old->source.starts_with("Narayanan et al. 2021"));
        QCOMPARE(describeAllowed(old->allowed),
                 std::string("cp 1; ep 1; recompute none, full; sequence_parallel false; zero 0"));
        for (const SoftwareProfile& p : builtin.softwareProfiles())
            QVERIFY2(!p.source.empty() && !p.note.empty(), p.id.c_str());

        Catalog c = builtin;
        const Json doc = Json::parse(R"json({
          "format": "cluster-studio.catalog", "format_version": "1.0", "sources": {"lab": "our fork, 2026"},
          "parts": [],
          "software": [
            {"id": "our-fork", "name": "Our fork", "source": "lab", "allowed": {"tp": [1, 2], "zero": [3]}},
            {"id": "megatron-lm", "name": "Megatron-LM with FSDP", "source": "lab", "allowed": {}}
          ]})json");
        QCOMPARE(c.merge(doc, "lab.catalog.json").size(), std::size_t(0));
        QCOMPARE(c.softwareProfiles().size(), builtin.softwareProfiles().size() + 1);
        QCOMPARE(describeAllowed(c.software("our-fork")->allowed), std::string("tp 1, 2; zero 3"));
        QCOMPARE(c.software("our-fork")->source, std::string("our fork, 2026"));
        QVERIFY(c.software("megatron-lm")->allowed.empty());
        QVERIFY(!builtin.software("megatron-lm")->allowed.empty());

        Catalog bad = builtin;
        const auto problems = bad.merge(Json::parse(R"json({
          "format": "cluster-studio.catalog", "format_version": "1.0", "parts": [],
          "software": [
            {"id": "x", "name": "X", "source": "nowhere", "allowed": {"pipeline": [2]}},
            {"id": "y", "name": "Y", "source": "nv-h100-ds", "allowed": {"zero": [4], "sequence_parallel": "yes"}},
            {"id": "y", "name": "Y again", "source": "nv-h100-ds"}
          ]})json"),
                                        "bad.json");
        QCOMPARE(problems.size(), std::size_t(5));
        QCOMPARE(problems[0].pointer, std::string("/software/0/source"));
        QCOMPARE(problems[0].message, std::string("source 'nowhere' is not in the catalog's sources table"));
        QCOMPARE(problems[1].pointer, std::string("/software/0/allowed/pipeline"));
        QVERIFY(problems[1].message.starts_with("no layout axis 'pipeline' to constrain"));
        QCOMPARE(problems[2].pointer, std::string("/software/1/allowed/zero"));
        QCOMPARE(problems[2].message, std::string("zero=4: expected a ZeRO stage, 0 to 3"));
        QCOMPARE(problems[3].pointer, std::string("/software/1/allowed/sequence_parallel"));
        QCOMPARE(problems[4].pointer, std::string("/software/2/id"));
        QCOMPARE(problems[4].message, std::string("duplicate software profile 'y'"));
        QVERIFY(!bad.software("y"));
    }

    void subsetCarriesPartsAndTheirSources()
    {
        const Json doc = Catalog::builtin().subset({"gpu.h100-sxm", "node.dgx-h100"});
        QCOMPARE(doc["parts"].size(), std::size_t(2));
        QVERIFY(doc["sources"].contains("nv-h100-ds"));
        QVERIFY(doc["sources"].contains("nv-dgx-h100"));
        // A subset stands on its own: it merges into an empty catalog except
        // for references to parts it does not carry.
        Catalog alone;
        const auto problems = alone.merge(doc, "embedded", false);
        QCOMPARE(problems.size(), std::size_t(2));  // node.dgx-h100 names its NIC and DPU, not carried
        QCOMPARE(problems[0].pointer, std::string("/parts/1/attributes/nic"));
        QCOMPARE(problems[1].pointer, std::string("/parts/1/attributes/dpu"));
        const Json full =
            Catalog::builtin().subset({"gpu.h100-sxm", "node.dgx-h100", "nic.connectx-7", "nic.bluefield-3"});
        Catalog alone2;
        QCOMPARE(alone2.merge(full, "embedded", false).size(), std::size_t(0));
        QCOMPARE(alone2.find("gpu.h100-sxm")->figure("bf16_tflops")->value, 989.4);
        // A design's software profile travels with its parts, and its source.
        const Json withSoftware = Catalog::builtin().subset({"gpu.h100-sxm"}, {"megatron-lm-2021"});
        QCOMPARE(withSoftware["software"].size(), std::size_t(1));
        QVERIFY(withSoftware["sources"].contains("megatron-lm-2021"));
        Catalog alone3;
        QCOMPARE(alone3.merge(withSoftware, "embedded", false).size(), std::size_t(0));
        QCOMPARE(alone3.software("megatron-lm-2021")->allowed,
                 Catalog::builtin().software("megatron-lm-2021")->allowed);
    }
};

QTEST_APPLESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
