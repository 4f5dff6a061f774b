// Other tools' files read as the studio's (core/import): Calculon's
// inputs as a design, the round trip design -> Calculon -> design, and bad
// input refused whole with the file and JSON pointer named.
#include <QtTest>

#include "core/catalog/catalog.h"
#include "core/export/calculon_files.h"
#include "core/export/netbox_csv.h"
#include "core/format/design_reader.h"
#include "core/import/calculon_import.h"
#include "core/import/netbox_device_type.h"
#include "core/import/yaml_subset.h"
#include "core/model/analysis.h"
#include "tests/core/presets.h"

using namespace studio;
using studio::test::loadPreset;

namespace {

Json published(const char* name)
{
    return Json::parse(test::readBytes(test::sourcePath(QString("tests/data/calculon/") + name)));
}

// Calculon's own GPT-3 175B on 3,072 A100s (its examples/ and systems/).
std::vector<CalculonSource> calculonsExample()
{
    return {{"a100_80g.json", published("a100_80g.json")},
            {"gpt3-175B.json", published("gpt3-175B.json")},
            {"3072_t4_p64_d12_mbs4_full.json", published("3072_t4_p64_d12_mbs4_full.json")}};
}

Analysis analyseImport(const CalculonImport& imported)
{
    const DesignLoad loaded = readDesignJson(*imported.design, Catalog::builtin());
    if (!loaded.ok())
        qFatal("the import does not load");
    return analyzeDesign(*loaded.design, *loaded.catalog);
}

DeviceTypeSource deviceType(const char* name)
{
    const QString path = test::sourcePath(QString("tests/data/netbox/") + name);
    return {name, test::readBytes(path)};
}

bool hasLine(const std::vector<std::string>& lines, const std::string& line)
{
    const bool found = std::find(lines.begin(), lines.end(), line) != lines.end();
    if (!found)
        for (const auto& l : lines)
            qWarning("got: %s", l.c_str());
    return found;
}

}  // namespace

class TestImport : public QObject {
    Q_OBJECT

private slots:
    void roundTripKeepsGpusTiersAndBandwidths_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char* p :
             {"dgx-h100-superpod-4su.cluster.json", "dgx-a100-superpod.cluster.json", "gb200-nvl72-8rack.cluster.json",
              "mi300x-roce-128node.cluster.json", "budget-8node-100gbe.cluster.json",
              "dgx-b200-superpod-8su.cluster.json", "h100-16k-roce-llama3.cluster.json"})
            QTest::newRow(p) << p;
    }
    // design -> Calculon -> design: the same GPUs, the same tiers with the
    // same bandwidth and reach, the same layout and model shape.
    void roundTripKeepsGpusTiersAndBandwidths()
    {
        QFETCH(QString, preset);
        const Design original = loadPreset(preset);
        const CalculonFiles files = calculonFiles(original, Catalog::builtin());
        QVERIFY(files.error.empty());
        const CalculonImport back = importCalculon(
            {{"execution.json", files.execution}, {"model.json", files.model}, {"system.json", files.system}});
        for (const auto& e : back.errors)
            qWarning("%s", e.c_str());
        QVERIFY(back.ok());
        const Analysis a = analyzeDesign(original, Catalog::builtin());
        const Analysis b = analyseImport(back);
        QCOMPARE(b.hardware.gpus, a.hardware.gpus);
        QCOMPARE(b.hardware.scaleupDomainGpus, a.hardware.scaleupDomainGpus);
        QCOMPARE(b.hardware.gpu.trainingPeakTflops.value, a.hardware.gpu.trainingPeakTflops.value);
        QCOMPARE(b.hardware.gpu.hbmGb.value, a.hardware.gpu.hbmGb.value);
        auto collectiveTiers = [](const Analysis& x) {
            std::vector<std::tuple<std::string, double, std::int64_t>> t;
            for (const Tier& tier : x.hierarchy.tiers)
                if (tier.carriesCollectives || tier.key == "hbm")
                    t.emplace_back(tier.key, tier.gbPerSPerGpu, tier.scopeGpus);
            return t;
        };
        QCOMPARE(collectiveTiers(b), collectiveTiers(a));
        QCOMPARE(b.workload.tp, a.workload.tp);
        QCOMPARE(b.workload.pp, a.workload.pp);
        QCOMPARE(b.workload.dp, a.workload.dp);
        QCOMPARE(b.workload.layers, a.workload.layers);
        QCOMPARE(b.workload.hidden, a.workload.hidden);
        QCOMPARE(b.workload.globalBatch, a.workload.globalBatch);
        QCOMPARE(b.workload.precision, a.workload.precision);
    }

    // Calculon's published example as a design: 3,072 A100s in nodes of 8,
    // NVLink at 2 x 300 GB/s, one 25 GB/s NIC per GPU, GPT-3 175B.
    void calculonsOwnExampleIsADesign()
    {
        const CalculonImport imported = importCalculon(calculonsExample());
        QVERIFY(imported.errors.empty());
        const Analysis a = analyseImport(imported);
        QCOMPARE(a.hardware.gpus, std::int64_t(3072));
        QCOMPARE(a.hardware.gpusPerNode, std::int64_t(8));
        QCOMPARE(a.hardware.gpu.scaleupGbPerS.value, 600.0);
        QCOMPARE(a.hardware.gpu.peaksTflops.at("fp16").value, 312.0);
        QCOMPARE(a.hardware.gpu.gemmEfficiency.value, 0.95);  // its table's first row
        QCOMPARE(a.hardware.scaleOut.nicGbPerSPerGpu.value, 25.0);
        QCOMPARE(a.workload.hidden, std::int64_t(12288));
        QCOMPARE(a.workload.layers, std::int64_t(96));
        QCOMPARE(a.workload.tp, std::int64_t(4));
        QCOMPARE(a.workload.pp, std::int64_t(64));
        QCOMPARE(a.workload.dp, std::int64_t(12));
        QCOMPARE(a.workload.recompute, std::string("full"));
        QVERIFY(a.workload.sequenceParallel);  // rs_ag
        QCOMPARE(a.workload.precision, std::string("fp16"));
        const Json& model = imported.design->at("workload").at("model");
        QCOMPARE(model.at("name").get<std::string>(), std::string("gpt3-175B"));
        QCOMPARE(model.at("vocab").get<std::int64_t>(), std::int64_t(51200));
        // What it left out, said.
        QVERIFY(hasLine(imported.notes,
                        "mem2 (512 GiB at 32 GB/s), Calculon's offload tier, is left out: the "
                        "studio does not offload"));
        QVERIFY(hasLine(imported.notes,
                        "fused_activation is left out: the studio times the activation as its own "
                        "kernel"));
        QVERIFY(hasLine(imported.notes,
                        "processing_mode no_overlap is left out: a kernel in the studio takes the "
                        "slower of its FLOPs and its bytes (roofline), not their sum"));
    }

    void badFilesAreRefusedWhole_data()
    {
        QTest::addColumn<QString>("file");  // which file the edit is in
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");  // JSON; "" removes the key
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown network key")
            << "a100_80g.json"
            << "/networks/1/in_network_reduction"
            << "true"
            << "a100_80g.json: /networks/1/in_network_reduction: unknown key: Calculon's network has bandwidth, "
               "efficiency, size, latency, ops, must_be_filled, processor_usage";
        QTest::newRow("negative bandwidth") << "a100_80g.json"
                                            << "/networks/0/bandwidth"
                                            << "-5"
                                            << "a100_80g.json: /networks/0/bandwidth: must be greater than 0, got -5";
        QTest::newRow("rising thresholds")
            << "a100_80g.json"
            << "/mem1/MB_efficiency/1/0"
            << "1000"
            << "a100_80g.json: /mem1/MB_efficiency/1/0: thresholds must fall row by row (Calculon takes the first "
               "row at or below an operation's size)";
        QTest::newRow("p2p offset") << "a100_80g.json"
                                    << "/networks/0/ops/p2p/1"
                                    << "0"
                                    << "a100_80g.json: /networks/0/ops/p2p/1: p2p's offset must be null";
        QTest::newRow("missing model key") << "gpt3-175B.json"
                                           << "/attn_heads"
                                           << ""
                                           << "gpt3-175B.json: /attn_heads: missing: Calculon's model needs it";
        QTest::newRow("extra execution key")
            << "3072_t4_p64_d12_mbs4_full.json"
            << "/sequence_parallel"
            << "true"
            << "3072_t4_p64_d12_mbs4_full.json: /sequence_parallel: unknown key: Calculon's execution has "
               "num_procs, tensor_par, pipeline_par, data_par, tensor_par_net, pipeline_par_net, data_par_net, "
               "batch_size, microbatch_size, datatype, fused_activation, attention_type, activation_recompute, "
               "pipeline_interleaving, optimizer_sharding, tensor_par_comm_type, tensor_par_overlap, "
               "seq_par_ag_redo, data_par_overlap, weight_offload, activations_offload, optimizer_offload, training";
        QTest::newRow("procs not the product")
            << "3072_t4_p64_d12_mbs4_full.json"
            << "/num_procs"
            << "3000"
            << "3072_t4_p64_d12_mbs4_full.json: /num_procs: is 3,000, not tensor_par x pipeline_par x data_par = "
               "3,072";
        QTest::newRow("datatype the system lacks")
            << "3072_t4_p64_d12_mbs4_full.json"
            << "/datatype"
            << "\"float8\""
            << "3072_t4_p64_d12_mbs4_full.json: /datatype: float8 has no matrix peak in a100_80g.json";
    }
    void badFilesAreRefusedWhole()
    {
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        std::vector<CalculonSource> files = calculonsExample();
        for (CalculonSource& f : files)
            if (f.path == file.toStdString()) {
                const Json::json_pointer at(pointer.toStdString());
                if (value.isEmpty())
                    f.doc[at.parent_pointer()].erase(at.back());
                else
                    f.doc[at] = Json::parse(value.toStdString());
            }
        const CalculonImport imported = importCalculon(files);
        QVERIFY(!imported.ok());  // nothing imported
        QVERIFY(hasLine(imported.errors, expected.toStdString()));
    }

    void theFilesAreKnownByTheirKeys()
    {
        CalculonImport i = importCalculon({{"gpt3-175B.json", published("gpt3-175B.json")}});
        QVERIFY(!i.ok());
        QVERIFY(hasLine(i.errors,
                        "calculon: a system file (matrix, vector, mem1, mem2, processing_mode, networks) is "
                        "needed"));
        i = importCalculon({{"a.json", published("a100_80g.json")},
                            {"b.json", published("h100_80g_nvl8.json")},
                            {"gpt3-175B.json", published("gpt3-175B.json")}},
                           8);
        QVERIFY(hasLine(i.errors, "b.json: /: a second Calculon system (the first is a.json)"));
        i = importCalculon({{"notes.json", Json{{"title", "x"}}}});
        QVERIFY(hasLine(i.errors,
                        "notes.json: /: not a Calculon system (\"networks\"), model (\"num_blocks\") or "
                        "execution (\"num_procs\")"));
        // Without an execution, --gpus gives the count: one H100 node.
        i = importCalculon(
            {{"h100_80g_nvl8.json", published("h100_80g_nvl8.json")}, {"gpt3-175B.json", published("gpt3-175B.json")}},
            8);
        QVERIFY(i.ok());
        QCOMPARE(analyseImport(i).hardware.gpus, std::int64_t(8));
    }

    // The library's YAML shape as JSON, and everything outside it refused
    // with its line.
    void yamlReadsTheDeviceTypeLibrarysShape()
    {
        const YamlDocuments y = readYamlSubset("# a comment\n"
                                               "---\n"
                                               "manufacturer: \"Acme, Inc.\"   # trailing comment\n"
                                               "model: 'X''s box'\n"
                                               "u_height: 1.5\n"
                                               "is_full_depth: false\n"
                                               "weight:\n"
                                               "comments: |\n"
                                               "  line one\n"
                                               "\n"
                                               "  line # three\n"
                                               "description: >-\n"
                                               "  folded\n"
                                               "  text\n"
                                               "\n"
                                               "  again\n"
                                               "interfaces:\n"
                                               "- name: eth0\n"
                                               "  mgmt_only: true\n"
                                               "- name: \"p1\"\n"
                                               "  type: 400gbase-x-osfp\n"
                                               "nested:\n"
                                               "  - - a\n"
                                               "    - -5\n"
                                               "url: https://example.com/a#b\n"
                                               "---\n"
                                               "model: two\n");
        QVERIFY2(y.error.empty(), y.error.c_str());
        QCOMPARE(y.documents.size(), std::size_t(2));
        const Json& d = y.documents[0];
        QCOMPARE(d["manufacturer"], Json("Acme, Inc."));
        QCOMPARE(d["model"], Json("X's box"));
        QCOMPARE(d["u_height"].get<double>(), 1.5);
        QCOMPARE(d["is_full_depth"], Json(false));
        QVERIFY(d["weight"].is_null());
        QCOMPARE(d["comments"], Json("line one\n\nline # three\n"));
        QCOMPARE(d["description"], Json("folded text\nagain"));
        QCOMPARE(d["interfaces"].size(), std::size_t(2));
        QCOMPARE(d["interfaces"][0]["mgmt_only"], Json(true));
        QCOMPARE(d["interfaces"][1]["type"], Json("400gbase-x-osfp"));
        QCOMPARE(d["nested"][0][1].get<int>(), -5);
        QCOMPARE(d["url"], Json("https://example.com/a#b"));
        QCOMPARE(y.documents[1]["model"], Json("two"));

        const std::pair<const char*, const char*> refused[] = {
            {"a: [1, 2]\n",
             "line 1: flow collections ([...], {...}) are not read: write the list or mapping in "
             "block style"},
            {"a: &x 1\n", "line 1: anchors and aliases are not read: write the value out"},
            {"a: one\n  two\n", "line 2: a plain value runs over several lines: quote it or use a block scalar (|)"},
            {"a: 1\na: 2\n", "line 2: the key 'a' appears twice"},
            {"a:\n\t- 1\n", "line 2: a tab in the indent (YAML indents with spaces)"},
            {"a: b: c\n", "line 1: a plain value holds ': ': quote it"},
        };
        for (auto [text, why] : refused) {
            const YamlDocuments bad = readYamlSubset(text);
            QCOMPARE(bad.error, std::string(why));
            QVERIFY(bad.documents.empty());
        }
        // A hostile depth stops at a limit, not the stack's.
        std::string deep;
        for (int i = 0; i < 100'000; ++i)
            deep += "- ";
        deep += "x\n";
        QCOMPARE(readYamlSubset(deep).error, std::string("line 1: nested deeper than 64 levels"));
    }

    void interfaceTypesGiveTheirSpeed()
    {
        QCOMPARE(netBoxInterfaceSpeed("infiniband-ndr").gbps, 400.0);
        QCOMPARE(netBoxInterfaceSpeed("infiniband-edr").gbps, 100.0);
        QCOMPARE(netBoxInterfaceSpeed("infiniband-xdr").protocol, std::string("infiniband"));
        QCOMPARE(netBoxInterfaceSpeed("400gbase-x-osfp").gbps, 400.0);
        QCOMPARE(netBoxInterfaceSpeed("1.6tbase-x-osfp1600").gbps, 1600.0);
        QCOMPARE(netBoxInterfaceSpeed("1000base-t").gbps, 1.0);
        QCOMPARE(netBoxInterfaceSpeed("virtual").gbps, 0.0);
        // The export names a port by the same table it is read back from.
        for (int g : {100, 200, 400, 800})
            for (const char* protocol : {"infiniband", "ethernet"}) {
                const InterfaceSpeed back = netBoxInterfaceSpeed(netBoxInterfaceType(protocol, g));
                QCOMPARE(back.gbps, double(g));
                QCOMPARE(back.protocol, std::string(protocol));
            }
    }

    void aSwitchDeviceTypeIsASwitchPart()
    {
        const DeviceTypeImport i =
            importNetBoxDeviceTypes({deviceType("example-xs-64-ndr.yaml")}, Catalog::builtin(), {});
        QVERIFY(i.ok());
        const Json& part = (*i.catalog)["parts"][0];
        QCOMPARE(part["id"], Json("netbox.example-networks-xs-64-ndr"));
        QCOMPARE(part["kind"], Json("switch"));
        QCOMPARE(part["attributes"]["protocol"], Json("infiniband"));
        // The 64 NDR ports; the management and in-band management ports are not the fabric's.
        QCOMPARE(part["figures"]["ports"]["value"].get<double>(), 64.0);
        QCOMPARE(part["figures"]["port_gbps"]["value"].get<double>(), 400.0);
        QVERIFY(!part["figures"].contains("power_w"));
        QVERIFY(hasLine(i.notes,
                        "example-xs-64-ndr.yaml: Example Networks XS-64 NDR: power is left unset: its 2 "
                        "supplies' maximum draw (2,200 W in all) counts redundant supplies, no measure of "
                        "what it draws"));
        // It enters a catalog, and a fabric built of it sizes by its radix.
        Catalog c = Catalog::builtin();
        QVERIFY(!hasErrors(c.merge(*i.catalog, "import")));
        QCOMPARE(c.find("netbox.example-networks-xs-64-ndr")->figure("ports")->value, 64.0);
        Design d = loadPreset("dgx-h100-superpod-4su.cluster.json");
        for (Component& x : d.components)
            if (x.id == "fabric")
                x.props["switch"] = "netbox.example-networks-xs-64-ndr";
        const Analysis a = analyzeDesign(d, c);
        const Analysis b = analyzeDesign(loadPreset("dgx-h100-superpod-4su.cluster.json"), Catalog::builtin());
        QCOMPARE(a.inventory.switches, b.inventory.switches);  // 64 ports at 400 Gb/s, as the QM9700
    }

    void aServerDeviceTypeIsANodeOfTheNamedGpu()
    {
        const DeviceTypeImport i =
            importNetBoxDeviceTypes({deviceType("example-gx-8-h100.yaml")}, Catalog::builtin(), {"gpu.h100-sxm", ""});
        QVERIFY(i.ok());
        const Json& part = (*i.catalog)["parts"][0];
        QCOMPARE(part["kind"], Json("node"));
        QCOMPARE(part["attributes"]["accelerator"], Json("gpu.h100-sxm"));
        QCOMPARE(part["attributes"]["nic"], Json("nic.eth-400g"));  // 400 GbE, not a DPU
        QCOMPARE(part["figures"]["gpus"]["value"].get<double>(), 8.0);
        QCOMPARE(part["figures"]["compute_nics"]["value"].get<double>(), 8.0);
        QCOMPARE(part["figures"]["max_power_kw"]["value"].get<double>(), 6.0);  // 4 x 3,000 W, N+N
        QVERIFY(part["figures"]["max_power_kw"]["uncertain"].get<bool>());
        QCOMPARE(part["figures"]["rack_units"]["value"].get<double>(), 8.0);
    }

    void badDeviceTypesAreRefusedWhole_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("accelerator");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no model") << "model: XS-64 NDR\n"
                                  << ""
                                  << ""
                                  << "example-xs-64-ndr.yaml: /model: missing (required)";
        QTest::newRow("unknown key") << "u_height: 1\n"
                                     << "u_height: 1\ncolour: blue\n"
                                     << ""
                                     << "example-xs-64-ndr.yaml: /colour: unknown key: not in the device-type "
                                        "library's device type schema";
        QTest::newRow("bad slug") << "slug: example-networks-xs-64-ndr"
                                  << "slug: Example Networks"
                                  << ""
                                  << "example-xs-64-ndr.yaml: /slug: must be lower-case letters, digits, '-' and "
                                     "'_', got 'Example Networks'";
        QTest::newRow("half a U") << "u_height: 1\n"
                                  << "u_height: 1.25\n"
                                  << ""
                                  << "example-xs-64-ndr.yaml: /u_height: must be a multiple of 0.5, got 1.25";
        QTest::newRow("no fast port") << "infiniband-ndr"
                                      << "1000base-t"
                                      << ""
                                      << "example-xs-64-ndr.yaml: /interfaces: no interface of 100 Gb/s or more: "
                                         "nothing to wire into a fabric";
        QTest::newRow("interface without a type") << "  - name: p7\n    type: infiniband-ndr\n"
                                                  << "  - name: p7\n"
                                                  << ""
                                                  << "example-xs-64-ndr.yaml: /interfaces/8/type: missing (required)";
        QTest::newRow("server without GPU bays") << ""
                                                 << ""
                                                 << "gpu.h100-sxm"
                                                 << "example-xs-64-ndr.yaml: /module-bays: no module bay named GPU...: "
                                                    "the device type does not say how many H100 SXM 80GB it holds";
        QTest::newRow("unknown accelerator") << ""
                                             << ""
                                             << "gpu.h1000"
                                             << "--accelerator gpu.h1000: no accelerator part of that id";
        QTest::newRow("YAML outside the subset") << "u_height: 1\n"
                                                 << "u_height: [1]\n"
                                                 << ""
                                                 << "example-xs-64-ndr.yaml: line 6: flow collections ([...], {...}) "
                                                    "are not read: write the list or mapping in block style";
    }
    void badDeviceTypesAreRefusedWhole()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, accelerator);
        QFETCH(QString, expected);
        DeviceTypeSource f = deviceType("example-xs-64-ndr.yaml");
        if (!from.isEmpty()) {
            QVERIFY(f.text.find(from.toStdString()) != std::string::npos);
            f.text = QString::fromStdString(f.text).replace(from, to).toStdString();  // every one
        }
        const DeviceTypeImport i = importNetBoxDeviceTypes({f, deviceType("example-gx-8-h100.yaml")},
                                                           Catalog::builtin(), {accelerator.toStdString(), ""});
        QVERIFY(!i.ok());  // nothing imported, the good file neither
        QVERIFY(hasLine(i.errors, expected.toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestImport)
#include "tst_import.moc"
