// Properties over thousands of random valid designs and workloads: no NaN or
// Inf anywhere in the metrics; more GPUs never raise MTBF; more NIC
// bandwidth never raises step time; a higher PUE never lowers facility power.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/format/design_validator.h"
#include "core/metrics/metrics.h"
#include "core/model/analysis.h"

using namespace studio;

namespace {

struct Generator {
    std::mt19937_64 rng;
    explicit Generator(std::uint64_t seed) : rng(seed) {}

    std::int64_t pick(std::int64_t lo, std::int64_t hi)
    {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    }
    template <typename T>
    const T& oneOf(const std::vector<T>& v)
    {
        return v[std::size_t(pick(0, std::int64_t(v.size()) - 1))];
    }
    std::int64_t divisorOf(std::int64_t n)
    {
        std::vector<std::int64_t> d;
        for (std::int64_t i = 1; i <= n; ++i)
            if (n % i == 0)
                d.push_back(i);
        return oneOf(d);
    }

    // A cluster of one node platform, replicated in racks, on one fabric,
    // with storage, fast cables and switches so the NIC is the bottleneck.
    Design design()
    {
        const Catalog& cat = Catalog::builtin();
        const std::vector<std::string> nodes = {"node.dgx-a100", "node.dgx-h100",    "node.hgx-h200",
                                                "node.dgx-b200", "node.gb200-nvl72", "node.mi300x-platform",
                                                "node.hgx-a100"};
        const std::string node = oneOf(nodes);
        const Part* platform = cat.find(node);
        const std::int64_t gpn = std::int64_t(platform->figure("gpus")->value);
        Design d;
        d.name = "random";
        d.components.push_back({"hall", "group.data-hall", "", "", 1});
        const std::int64_t racks = pick(1, 600), perRack = gpn > 8 ? 1 : pick(1, 4);
        d.components.push_back(
            {"rack", gpn > 8 ? "rack.nvl72" : oneOf(std::vector<std::string>{"rack.air-42u", "rack.liquid-48u"}), "",
             "hall", racks});
        d.components.push_back({"node", node, "", "rack", perRack});
        d.components.push_back({"gpu", platform->attribute("accelerator"), "", "node", gpn});
        const std::string nic =
            oneOf(std::vector<std::string>{"nic.eth-100g", "nic.eth-200g", "nic.eth-400g", "nic.connectx-7"});
        d.components.push_back({"nic", nic, "", "node", pick(1, gpn)});
        d.components.push_back({"storage", "storage.pfs-appliance", "", "hall", pick(1, 20)});
        Component fabric{"fabric", oneOf(std::vector<std::string>{"fabric.rail-optimized", "fabric.fat-tree"}), "",
                         "hall", 1};
        fabric.props["switch"] = oneOf(std::vector<std::string>{"switch.q3400", "switch.sn5600"});
        fabric.props["cable"] = "link.eth-800g-optical";
        fabric.props["oversubscription"] = double(pick(1, 4));
        d.components.push_back(fabric);
        d.links.push_back({"nic-fabric", "nic", "fabric", "link.eth-800g-optical", 1});
        d.links.push_back({"storage-fabric", "storage", "fabric", "link.eth-800g-optical", pick(1, 8)});
        const std::int64_t gpus = racks * perRack * gpn;

        auto& m = d.workload.model;
        m.name = "random model";  // required, as in a file
        const std::int64_t headDim = oneOf(std::vector<std::int64_t>{64, 128});
        m.heads = oneOf(std::vector<std::int64_t>{8, 16, 32, 64, 96, 128});
        m.hidden = m.heads * headDim;
        m.kv_heads = divisorOf(m.heads);
        m.layers = pick(2, 128);
        m.ffn_type = oneOf(std::vector<std::string>{"gelu", "swiglu"});
        m.ffn_hidden = m.hidden * pick(2, 4);
        m.vocab = pick(1000, 256000);
        m.seq_len = oneOf(std::vector<std::int64_t>{512, 2048, 4096, 8192, 32768});
        m.dropout = pick(0, 1) ? 0.1 : 0.0;
        if (pick(0, 3) == 0) {
            m.experts = oneOf(std::vector<std::int64_t>{8, 16, 64});
            m.experts_per_token = pick(1, 2);
        }
        auto& t = d.workload.training;
        t.micro_batch = pick(1, 4);
        t.global_batch = t.micro_batch.value() * pick(1, 4096);
        t.tokens = 1e9 * double(pick(1, 20000));
        t.precision = oneOf(std::vector<std::string>{"bf16", "fp16", "fp8"});
        t.attention_kernel = oneOf(std::vector<std::string>{"flash", "unfused"});
        auto& p = d.workload.parallelism;
        p.tp = divisorOf(std::min<std::int64_t>(gpn, m.heads));
        p.pp = oneOf(std::vector<std::int64_t>{1, 1, 2, 4, 8, 16});
        p.cp = oneOf(std::vector<std::int64_t>{1, 1, 1, 2, 4});
        p.ep = m.experts ? divisorOf(m.experts.value()) : 1;
        p.interleave = oneOf(std::vector<std::int64_t>{1, 1, 2, 4});
        p.zero = pick(0, 3);
        p.sequence_parallel = pick(0, 1) == 1;
        p.recompute = oneOf(std::vector<std::string>{"none", "selective", "full"});
        p.dp = pick(0, 3) == 0 ? pick(1, std::max<std::int64_t>(1, gpus)) : 0;  // sometimes a mismatched layout
        d.facility.pue = 1 + double(pick(0, 80)) / 100;
        d.operations.checkpoint.async = pick(0, 1) == 1;
        d.operations.checkpoint.interval_min = pick(0, 1) ? 0.0 : double(pick(1, 600));
        d.operations.straggler_cv = double(pick(0, 10)) / 100;
        return d;
    }
};

// Every number in the metrics object is finite.
void requireFinite(const Json& j, const std::string& path)
{
    if (j.is_number_float()) {
        if (!std::isfinite(j.get<double>()))
            QFAIL(qPrintable(QString::fromStdString("not finite at " + path)));
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            requireFinite(it.value(), path + "/" + it.key());
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            requireFinite(j[i], path + "/" + std::to_string(i));
    }
}

bool validDesign(const Design& d)
{
    return !hasErrors(validateDesign(d, Catalog::builtin()));
}

}  // namespace

class TestProperties : public QObject {
    Q_OBJECT
private slots:
    void noNanOrInfinityAnywhere()
    {
        Generator g(20261122);
        int checked = 0;
        for (int i = 0; i < 3000; ++i) {
            const Design d = g.design();
            if (!validDesign(d))
                continue;
            const Analysis a = analyzeDesign(d, Catalog::builtin());
            // Checked on the analysis, before the metrics' last-resort guard.
            for (const double v :
                 {a.step.stepS, a.step.mfu, a.step.hfu, a.step.tokensPerS, a.step.daysToTrain, a.memory.totalGb,
                  a.power.itKw, a.power.facilityKw, a.reliability.clusterMtbfH, a.reliability.goodput,
                  a.reliability.intervalMin, a.reliability.expectedInterruptions, a.data.checkpointGb,
                  a.data.writeAtNicsS, a.roofline.ridgeFlopPerByte, a.utilization.delivered, a.trainingRunMwh})
                QVERIFY2(std::isfinite(v), qPrintable(QString("design %1").arg(i)));
            for (const auto& p : a.step.breakdown)
                QVERIFY2(std::isfinite(p.seconds) && p.seconds >= 0, std::string(p.name()).c_str());
            for (const auto& t : a.hierarchy.tiers)
                QVERIFY(std::isfinite(t.gbPerSPerGpu) && std::isfinite(t.ratioToAbove));
            requireFinite(metricsJson(d, a), "");
            ++checked;
        }
        QVERIFY2(checked > 2000, qPrintable(QString::number(checked)));
    }

    void moreGpusNeverRaiseMtbf()
    {
        Generator g(7);
        int checked = 0;
        for (int i = 0; i < 1500; ++i) {
            Design d = g.design();
            if (!validDesign(d))
                continue;
            const double before = analyzeDesign(d, Catalog::builtin()).reliability.clusterMtbfH;
            d.component("rack")->count += g.pick(1, 100);
            if (!validDesign(d))
                continue;
            const double after = analyzeDesign(d, Catalog::builtin()).reliability.clusterMtbfH;
            QVERIFY2(after <= before, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
            ++checked;
        }
        QVERIFY(checked > 1000);
    }

    void moreNicBandwidthNeverRaisesStepTime()
    {
        Generator g(11);
        int checked = 0, faster = 0;
        for (int i = 0; i < 1500; ++i) {
            Design d = g.design();
            if (!validDesign(d))
                continue;
            const Analysis before = analyzeDesign(d, Catalog::builtin());
            if (!before.step.valid)
                continue;
            // Faster NICs (cables and switches run at 800G, so the NIC is the limit).
            d.component("nic")->props["port_gbps"] = 800.0;
            const Analysis after = analyzeDesign(d, Catalog::builtin());
            QVERIFY2(after.step.stepS <= before.step.stepS * (1 + 1e-12),
                     qPrintable(QString("%1 -> %2").arg(before.step.stepS).arg(after.step.stepS)));
            faster += after.step.stepS < before.step.stepS;
            ++checked;
        }
        QVERIFY(checked > 1000);
        QVERIFY(faster > checked / 4);  // it does help where the network binds
    }

    void higherPueNeverLowersFacilityPower()
    {
        Generator g(13);
        int checked = 0;
        for (int i = 0; i < 1500; ++i) {
            Design d = g.design();
            if (!validDesign(d))
                continue;
            const double before = analyzeDesign(d, Catalog::builtin()).power.facilityKw;
            d.facility.pue = d.facility.pue.value() + 0.01 * double(g.pick(1, 50));
            const double after = analyzeDesign(d, Catalog::builtin()).power.facilityKw;
            QVERIFY(after >= before);
            ++checked;
        }
        QVERIFY(checked > 1000);
    }
};

QTEST_APPLESS_MAIN(TestProperties)
#include "tst_properties.moc"
