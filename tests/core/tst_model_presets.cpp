// The workload dock's model presets: each shape gives the parameter count
// its paper reports, is a valid workload, is recognised again from its
// shape, and the layout check refuses what cannot run.
#include <QtTest>

#include "core/analysis/workload_shape.h"
#include "core/design/model_presets.h"
#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "tests/test_support.h"

using namespace studio;

namespace {

Workload workloadOf(const ModelPreset& p)
{
    Workload w;
    w.model = p.model;
    w.training.global_batch = p.globalBatch;
    w.training.tokens = p.tokens;
    return w;
}

bool hasCode(const std::vector<Problem>& problems, const std::string& code)
{
    return std::any_of(problems.begin(), problems.end(), [&](const Problem& p) { return p.code == code; });
}

}  // namespace

class TestModelPresets : public QObject {
    Q_OBJECT
private slots:
    void parameterCountsMatchThePapers_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("totalB");
        QTest::addColumn<double>("activeB");
        // Published totals: GPT-3 175B (Brown et al. 2020), Llama 3 8.03B /
        // 70.6B / 405B (Meta's model cards), Megatron 1T (1.008T in
        // Narayanan et al. 2021, Table 1), Mixtral 46.7B total and 12.9B
        // active (Jiang et al. 2024).
        QTest::newRow("GPT-3 175B") << "gpt3-175b" << 175.0 << 175.0;
        QTest::newRow("Llama 3 8B") << "llama3-8b" << 8.03 << 8.03;
        QTest::newRow("Llama 3 70B") << "llama3-70b" << 70.6 << 70.6;
        QTest::newRow("Llama 3 405B") << "llama3-405b" << 405.0 << 405.0;
        QTest::newRow("Megatron 1T") << "megatron-1t" << 1008.0 << 1008.0;
        QTest::newRow("Mixtral 8x7B") << "mixtral-8x7b" << 46.7 << 12.9;
    }

    void parameterCountsMatchThePapers()
    {
        QFETCH(QString, id);
        QFETCH(double, totalB);
        QFETCH(double, activeB);
        const ModelPreset* p = findModelPreset(id.toStdString());
        QVERIFY(p);
        std::vector<Problem> warnings;
        const WorkloadShape s = shapeWorkload(workloadOf(*p), 1024, warnings);
        // Norms and biases are not counted: within 1% of the papers.
        QVERIFY2(std::fabs(s.params / 1e9 / totalB - 1) < 0.01, qPrintable(QString::number(s.params / 1e9)));
        QVERIFY2(std::fabs(s.activeParamsPerToken / 1e9 / activeB - 1) < 0.01,
                 qPrintable(QString::number(s.activeParamsPerToken / 1e9)));
        QVERIFY(!p->source.empty());
    }

    void everyPresetIsAValidWorkloadAndRecognisedAgain()
    {
        DesignLoad l = loadDesignFile(test::sourcePath("presets/dgx-h100-superpod-4su.cluster.json").toStdString(),
                                      Catalog::builtin());
        QVERIFY(l.ok());
        QCOMPARE(int(modelPresets().size()), 6);
        for (const ModelPreset& p : modelPresets()) {
            Design d = *l.design;
            d.workload = workloadOf(p);
            QVERIFY2(!hasErrors(validateDesign(d, *l.catalog)), p.id.c_str());
            QCOMPARE(matchModelPreset(p.model), &p);
            // Defaults left implicit describe the same model.
            ModelSpec implicit = p.model;
            if (implicit.kv_heads == implicit.heads)
                implicit.kv_heads.reset();
            if (implicit.ffn_hidden == 4 * implicit.hidden)
                implicit.ffn_hidden.reset();
            implicit.name = "renamed";
            QCOMPARE(matchModelPreset(implicit), &p);
            ModelSpec other = p.model;
            other.layers += 1;
            QVERIFY(matchModelPreset(other) == nullptr);
        }
    }

    void layoutsThatCannotRunAreNamed()
    {
        Workload w = workloadOf(*findModelPreset("llama3-405b"));
        // 3 divides neither 1,024 GPUs nor 128 heads.
        w.parallelism.tp = 3;
        auto problems = unrunnableLayout(w, 1024);
        QVERIFY(hasCode(problems, "layout_mismatch"));
        QVERIFY(hasCode(problems, "heads_not_divisible"));
        // 126 layers over pp 5: uneven (neither 126 nor 128 with the
        // embedding and the loss splits in 5), but it runs.
        w.parallelism.tp = 8;
        w.parallelism.pp = 5;
        problems = unrunnableLayout(w, 1000);
        QVERIFY(problems.empty());
        std::vector<Problem> all;
        shapeWorkload(w, 1000, all);
        QVERIFY(hasCode(all, "uneven_pipeline"));
        // Over pp 16 x interleave 8, as Llama 3 ran it: 128 chunks of one
        // layer, the first and the last the embedding and the loss. Even,
        // as the layout search counts it.
        w.parallelism.pp = 16;
        w.parallelism.interleave = 8;
        all.clear();
        shapeWorkload(w, 1024, all);
        QVERIFY(!hasCode(all, "uneven_pipeline"));
        QVERIFY(pipelineSplitsEvenly(126, 16, 8) && !pipelineSplitsEvenly(126, 5, 1));
        w.parallelism.pp = 4;
        w.parallelism.interleave = 1;
        // A sequence cp does not split, and more ranks than the batch feeds.
        w.parallelism.cp = 3;
        QVERIFY(hasCode(unrunnableLayout(w, 1536), "sequence_not_divisible"));
        w.parallelism.cp = 1;
        w.training.global_batch = 16;
        QVERIFY(hasCode(unrunnableLayout(w, 1024), "batch_too_small"));
    }
};

QTEST_APPLESS_MAIN(TestModelPresets)
#include "tst_model_presets.moc"
