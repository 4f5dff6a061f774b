// The performance model against published runs (published-runs.md): each
// run within 10%, the set within 5% mean and 10% worst, and
// docs/validation.md regenerated from the current model.
#include <QtTest>

#include "core/metrics/validation_runs.h"
#include "tests/test_support.h"

using namespace studio;

namespace {
const std::string kRuns = "tests/data/published/runs.json";
const ValidationReport& report()
{
    static const ValidationReport r =
        runValidation(test::sourcePath(QString::fromStdString(kRuns)).toStdString(), Catalog::builtin());
    return r;
}
}  // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void runsLoad()
    {
        for (const auto& p : report().problems)
            qWarning("%s", formatProblem(kRuns, p).c_str());
        QVERIFY(report().problems.empty());
        const auto calibration = std::count_if(report().rows.begin(), report().rows.end(),
                                               [](const ValidationRow& r) { return r.role == "calibration"; });
        QCOMPARE(calibration, 10);  // K1, K2, K4 (x2 each), N1 (x3), L1
    }

    void eachRunWithinTenPercent_data()
    {
        QTest::addColumn<int>("row");
        for (std::size_t i = 0; i < report().rows.size(); ++i)
            QTest::newRow(report().rows[i].id.c_str()) << int(i);
    }
    void eachRunWithinTenPercent()
    {
        QFETCH(int, row);
        const ValidationRow& r = report().rows[std::size_t(row)];
        QVERIFY2(
            std::fabs(r.error()) <= 0.10,
            qPrintable(QString("%1: measured %2, predicted %3").arg(r.id.c_str()).arg(r.measured).arg(r.predicted)));
    }

    void setWithinTarget()
    {
        QVERIFY2(report().meanAbsError <= 0.05, qPrintable(QString::number(report().meanAbsError)));
        QVERIFY2(report().maxAbsError <= 0.10, qPrintable(QString::number(report().maxAbsError)));
    }

    void documentIsCurrent()
    {
        const std::string expected =
            validationMarkdown(report(), "cluster-studio validation-report " + kRuns + " > docs/validation.md");
        QVERIFY2(test::readBytes(test::sourcePath("docs/validation.md")) == expected,
                 "docs/validation.md is stale: regenerate it with the command at its top");
    }
};

QTEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
