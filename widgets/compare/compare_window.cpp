#include "widgets/compare/compare_window.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableWidget>
#include <QTime>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <array>

#include "core/format/design_reader.h"
#include "core/format/design_validator.h"
#include "core/metrics/explanations.h"
#include "core/metrics/figure_names.h"
#include "core/text.h"
#include "widgets/analysis/background_job.h"
#include "widgets/analysis/run_progress_bar.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/explain_html.h"
#include "widgets/common/atomic_write.h"
#include "widgets/common/qt_string.h"
#include "widgets/common/settings_keys.h"
#include "widgets/compare/compare_run_tab.h"
#include "widgets/dialogs/preset_dialog.h"
#include "widgets/panels/background_registry.h"
#include "widgets/report/comparison_report.h"
#include "widgets/style/theme.h"

namespace studio {
namespace {

// A verdict's cell colour: the base colour with some of the hue mixed in,
// opaque, so the palette's text colour stays readable on it in either
// theme (more of the hue on the dark base, where a little does not show).
QColor tint(const QPalette& palette, const QColor& hue)
{
    const QColor base = palette.color(QPalette::Base);
    const double t = currentTheme() == Theme::Dark ? 0.38 : 0.24;
    auto mix = [t](int b, int h) { return int(std::lround(b * (1 - t) + h * t)); };
    return QColor(mix(base.red(), hue.red()), mix(base.green(), hue.green()), mix(base.blue(), hue.blue()));
}

QColor betterHue()
{
    return QColor(0x2f, 0xa3, 0x4f);
}

QColor worseHue()
{
    return sceneColors().error;
}

QIcon swatch(const QColor& color)
{
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(color.darker(130), 1));
    p.setBrush(color);
    p.drawRoundedRect(QRectF(1.5, 1.5, 11, 11), 2.5, 2.5);
    return QIcon(pm);
}

QString betterText(Better better)
{
    switch (better) {
    case Better::Higher: return QObject::tr("higher is better");
    case Better::Lower: return QObject::tr("lower is better");
    case Better::Neither: break;
    }
    return QObject::tr("neither better nor worse: a bigger cluster is not a worse one; what size costs shows in the "
                       "power, energy and cost rows");
}

QString verdictText(Verdict v)
{
    switch (v) {
    case Verdict::Better: return QObject::tr("better");
    case Verdict::Worse: return QObject::tr("worse");
    case Verdict::Changed: return QObject::tr("changed");
    case Verdict::Same: return QObject::tr("the same");
    case Verdict::Baseline: return QObject::tr("the baseline");
    case Verdict::DifferentWorkloads: return QObject::tr("not compared: another workload");
    }
    return {};
}

// A design's column heading, on two lines when long (before its bracketed
// details, else at the space nearest the middle) so four columns fit the
// window; the baseline says so underneath.
QString columnHeading(const std::string& label, bool baseline)
{
    QString text = q(label);
    if (text.size() > 22) {
        qsizetype at = text.indexOf(" (");
        if (at <= 0)
            for (qsizetype i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1))
                if (at <= 0 || std::abs(i - text.size() / 2) < std::abs(at - text.size() / 2))
                    at = i;
        if (at > 0)
            text = text.left(at) + "\n" + text.mid(at + 1);
    }
    return baseline ? text + QObject::tr("\n(baseline)") : text;
}

// Columns sized to their contents, with room between one column's
// right-aligned values and the next one's.
class PaddedDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        return QStyledItemDelegate::sizeHint(option, index) + QSize(18, 0);
    }
};

// Items no one types into, selectable to copy.
QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

void setupTable(QTableWidget* table)
{
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    table->setWordWrap(false);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 10);
    table->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    table->setItemDelegate(new PaddedDelegate(table));
}

// A key figure cell's tip: the figure's explanation for its design, then
// its difference from the baseline spelled out.
QString figureTip(const Comparison& c, std::size_t row, std::size_t column,
                  const std::vector<ExplainedMetric>& explained)
{
    const FigureComparison& fc = c.figures[row];
    const KeyFigure& f = fc.figure;
    const FigureCell& cellData = fc.cells[column];
    const ComparedDesign& d = c.designs[column];
    const QString value =
        cellData.value || !cellData.unavailable.empty() ? q(cellData.text(f)) : QObject::tr("not available");
    QString html = explainHtml(q(fc.label) + " \u2014 " + q(d.label), value, findExplanation(explained, f.key));
    const FigureCell& base = fc.cells[c.baseline];
    const QString baseLabel = q(c.designs[c.baseline].label).toHtmlEscaped();
    if (cellData.verdict == Verdict::DifferentWorkloads)
        return html + "<p>" +
            QObject::tr("Not compared with the baseline: this design runs %1, the baseline %2. Choose one "
                        "workload for all (the toolbar's Workload) to compare it.")
                .arg(q(describeRun(d.design.workload)).toHtmlEscaped(),
                     q(describeRun(c.designs[c.baseline].design.workload)).toHtmlEscaped()) +
            "</p>";
    if (cellData.verdict == Verdict::Baseline)
        return html + "<p>" +
            QObject::tr("The baseline: the other designs' differences are from this value; %1.")
                .arg(betterText(f.better)) +
            "</p>";
    if (!cellData.value || !base.value)
        return html + "<p>" +
            QObject::tr("No difference: the value is not available for this design or the baseline.") + "</p>";
    html += "<p>" + QObject::tr("Baseline %1: %2.").arg("<b>" + baseLabel + "</b>", q(formatFigure(f, *base.value))) +
        "<br>";
    if (cellData.verdict == Verdict::Same)
        return html + QObject::tr("The same as the baseline.") + "</p>";
    QString delta = q(formatDelta(f, cellData));
    // A percentage's difference is in points; its relative change says more
    // about a small value.
    if (cellData.relative && !delta.endsWith(" %"))
        delta += QObject::tr(", %1 relative").arg(q(relativeChangeText(*cellData.relative)));
    return html +
        QObject::tr("Difference: <b>%1</b>: %2, as %3.")
            .arg(delta.toHtmlEscaped(), "<b>" + verdictText(cellData.verdict) + "</b>", betterText(f.better)) +
        "</p>";
}

}  // namespace

CompareWindow::CompareWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Compare Designs"));
    setWindowIcon(appIcon());

    designs_ = new QTableWidget(0, 5, this);
    designs_->setObjectName("designs");
    setupTable(designs_);
    designs_->setHorizontalHeaderLabels(
        {tr("Design"), tr("GPUs"), tr("Accelerator"), tr("Its own workload"), tr("Source")});
    designs_->verticalHeader()->hide();
    designs_->setSelectionMode(QAbstractItemView::SingleSelection);
    designs_->setSelectionBehavior(QAbstractItemView::SelectRows);
    designs_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    designs_->horizontalHeader()->setStretchLastSection(true);
    designs_->setFixedHeight(designs_->horizontalHeader()->sizeHint().height() +
                             int(kMaxCompared) * designs_->verticalHeader()->defaultSectionSize() + 4);
    designs_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(designs_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const int row = designs_->rowAt(pos.y());
        if (row < 0)
            return;
        QMenu menu(this);
        menu.addAction(tr("Make Baseline"), this, [this, row] { setBaseline(row); })->setEnabled(row != baseline_);
        menu.addAction(tr("Remove"), this, [this, row] { removeDesign(row); });
        menu.exec(designs_->viewport()->mapToGlobal(pos));
    });
    connect(designs_, &QTableWidget::itemSelectionChanged, this,
            [this] { removeAction_->setEnabled(!designs_->selectedItems().isEmpty()); });

    figures_ = new QTableWidget(this);
    figures_->setObjectName("key figures");
    setupTable(figures_);
    // Columns as wide as their text, not the window: a value stays near
    // its row's name.
    figures_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    figures_->horizontalHeader()->setMinimumSectionSize(200);
    figures_->horizontalHeader()->setStretchLastSection(false);
    figures_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    figures_->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    bom_ = new QTableWidget(this);
    bom_->setObjectName("bill of materials");
    setupTable(bom_);
    bom_->verticalHeader()->hide();
    bom_->horizontalHeader()->setMinimumSectionSize(90);

    auto* plots = new QWidget;
    auto* grid = new QGridLayout(plots);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setSpacing(10);
    // Two to a row in the registry's order; an analysis of several plots
    // takes a row of its own, and the last one the rest of its row.
    int row = 0, column = 0;
    const auto& entries = analysisRegistry();
    for (std::size_t e = 0; e < entries.size(); ++e) {
        auto* box = new QWidget(plots);
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        auto* title = new QLabel(entries[e].title, box);
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        auto* view = new ChartView(entries[e], false, box);
        // Several plots share a view: they get the height of a tall cell.
        view->setMinimumSize(560, view->plots().size() > 1 ? 600 : 440);
        layout->addWidget(title);
        layout->addWidget(view, 1);
        const bool wide = view->plots().size() > 1 || (e + 1 == entries.size() && column == 0);
        if (wide && column == 1)
            ++row, column = 0;
        grid->addWidget(box, row, column, 1, wide ? 2 : 1);
        if (wide || column == 1)
            ++row, column = 0;
        else
            ++column;
        charts_.push_back(view);
    }
    for (int r = 0; r <= row; ++r)
        grid->setRowStretch(r, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(plots);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    tabs_ = new QTabWidget(this);
    tabs_->addTab(figures_, tr("Key figures"));
    tabs_->addTab(scroll, tr("Plots"));
    for (const BackgroundEntry& entry : backgroundRegistry())
        if (entry.makeCompareTab) {
            runTabs_.push_back(entry.makeCompareTab(this));
            runTabs_.back()->setObjectName(entry.key);
            tabs_->addTab(runTabs_.back(), entry.title);
        }
    tabs_->addTab(bom_, tr("Bill of materials"));
    connect(tabs_, &QTabWidget::currentChanged, this, &CompareWindow::updateRunTabs);

    empty_ = new QLabel(this);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    empty_->setForegroundRole(QPalette::PlaceholderText);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(empty_);
    pages_->addWidget(tabs_);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(designs_);
    layout->addWidget(createSetupBar());
    layout->addWidget(pages_, 1);
    setCentralWidget(central);

    createActions();
    resize(1400, 900);
    recompute();
}

CompareWindow::~CompareWindow() = default;

QWidget* CompareWindow::createSetupBar()
{
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    workloadBox_ = new QComboBox(bar);
    workloadBox_->setObjectName("workload");
    workloadBox_->addItem(tr("The baseline's workload"), int(WorkloadFrom::Baseline));
    workloadBox_->addItem(tr("Each design's own workload"), int(WorkloadFrom::Own));
    workloadBox_->addItem(tr("A design file's workload..."), int(WorkloadFrom::Other));
    workloadBox_->setToolTip(tr("The model and run (tokens, global batch, precision) every design runs: compare "
                                "clusters on one job, or each on its own"));
    layoutBox_ = new QComboBox(bar);
    layoutBox_->setObjectName("layout");
    layoutBox_->addItem(tr("at the best layout for each"), int(LayoutFrom::Best));
    layoutBox_->addItem(tr("at each design's own layout"), int(LayoutFrom::Own));
    layoutBox_->setToolTip(tr("Best: the layout search's first for each design and workload (the Layouts panel's "
                              "search). Own: the parallelism each design file sets."));
    objectiveBox_ = new QComboBox(bar);
    objectiveBox_->setObjectName("objective");
    for (Objective o : kObjectives)
        objectiveBox_->addItem(tr("by %1").arg(objectiveMeaning(o)), int(o));
    objectiveBox_->setToolTip(tr("What the best layout is best at"));
    budgetBox_ = new QComboBox(bar);
    budgetBox_->setObjectName("budget");
    for (Budget b : kBudgets)
        budgetBox_->addItem(b == Budget::AsDesigned ? tr("as designed") : tr("at equal %1").arg(budgetLabel(b)),
                            int(b));
    budgetBox_->setToolTip(tr("As designed: each design at its own size. At equal capex or facility power: every "
                              "design but the baseline resized along its growth unit, as the Scale panel resizes "
                              "it, to the largest size within the baseline's capex or power"));
    connect(budgetBox_, &QComboBox::activated, this, [this] {
        CompareSetup s = setup_;
        s.budget = Budget(budgetBox_->currentData().toInt());
        setSetup(s);
    });
    connect(workloadBox_, &QComboBox::activated, this, [this] {
        const auto from = WorkloadFrom(workloadBox_->currentData().toInt());
        if (from == WorkloadFrom::Other) {
            chooseWorkloadFile();
            return;
        }
        CompareSetup s = setup_;
        s.workload = from;
        setSetup(s);
    });
    connect(layoutBox_, &QComboBox::activated, this, [this] {
        CompareSetup s = setup_;
        s.layout = LayoutFrom(layoutBox_->currentData().toInt());
        setSetup(s);
    });
    connect(objectiveBox_, &QComboBox::activated, this, [this] {
        CompareSetup s = setup_;
        s.objective = Objective(objectiveBox_->currentData().toInt());
        setSetup(s);
    });
    prepareJob_ = new BackgroundJob(this);
    // A long search can be left for the designs' own layouts, which need none.
    ownLayoutsButton_ = new QToolButton(bar);
    ownLayoutsButton_->setText(tr("Use Own Layouts"));
    ownLayoutsButton_->setToolTip(tr("Stop searching layouts and compare each design at its own"));
    ownLayoutsButton_->hide();
    connect(ownLayoutsButton_, &QToolButton::clicked, this, [this] {
        CompareSetup s = setup_;
        s.layout = LayoutFrom::Own;
        setSetup(s);
    });
    connect(prepareJob_, &BackgroundJob::started, this, [this] {
        // What is shown is the previous setup's until the new one lands.
        tabs_->setEnabled(false);
        csvAction_->setEnabled(false);
        pdfAction_->setEnabled(false);
        QTimer::singleShot(400, ownLayoutsButton_, [this] { ownLayoutsButton_->setVisible(prepareJob_->running()); });
    });
    connect(prepareJob_, &BackgroundJob::finished, this, [this] { ownLayoutsButton_->hide(); });
    row->addWidget(new QLabel(tr("Compare on"), bar));
    row->addWidget(workloadBox_);
    row->addWidget(layoutBox_);
    row->addWidget(objectiveBox_);
    row->addWidget(budgetBox_);
    row->addWidget(new RunProgressBar(prepareJob_, bar));
    row->addWidget(ownLayoutsButton_);
    row->addStretch(1);

    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(bar);
    setupLabel_ = new QLabel(box);
    setupLabel_->setObjectName("setup");
    setupLabel_->setWordWrap(true);
    setupLabel_->setTextFormat(Qt::RichText);
    column->addWidget(setupLabel_);
    return box;
}

void CompareWindow::chooseWorkloadFile()
{
    const QString dir = QSettings().value(settings::kLastDir).toString();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Workload from a Design"), dir, tr("Cluster designs (*.cluster.json)"));
    if (path.isEmpty()) {
        describeSetup();  // the box goes back to what is in use
        return;
    }
    const DesignLoad loaded = loadDesignFile(QFile::encodeName(path).toStdString(), Catalog::builtin());
    if (!loaded.ok()) {
        QStringList lines;
        for (const Problem& p : loaded.problems)
            if (p.severity == Severity::Error)
                lines << q(formatProblem(QFileInfo(path).fileName().toStdString(), p));
        refuse(tr("Cannot use that workload"), tr("%1 could not be read:\n%2").arg(path, lines.join('\n')));
        describeSetup();
        return;
    }
    CompareSetup s = setup_;
    s.workload = WorkloadFrom::Other;
    s.other = loaded.design->workload;
    s.otherSource = QDir::toNativeSeparators(path).toStdString();
    setSetup(s);
}

void CompareWindow::setSetup(const CompareSetup& setup)
{
    setup_ = setup;
    if (setup_.workload == WorkloadFrom::Other && !setup_.other)
        setup_.workload = WorkloadFrom::Baseline;  // no file given: nothing else to run
    recompute();
}

void CompareWindow::waitForComparison()
{
    prepareJob_->waitForIdle();
}

void CompareWindow::describeSetup()
{
    workloadBox_->setCurrentIndex(workloadBox_->findData(int(setup_.workload)));
    layoutBox_->setCurrentIndex(layoutBox_->findData(int(setup_.layout)));
    objectiveBox_->setCurrentIndex(objectiveBox_->findData(int(setup_.objective)));
    budgetBox_->setCurrentIndex(budgetBox_->findData(int(setup_.budget)));
    objectiveBox_->setEnabled(setup_.layout == LayoutFrom::Best);
    if (!comparison_) {
        setupLabel_->clear();
        return;
    }
    const Comparison& c = *comparison_;
    const QString layouts = setup_.layout == LayoutFrom::Best
        ? tr("each at the best layout the search finds for it (%1)").arg(objectiveBox_->currentText())
        : tr("each at its own layout");
    QString text;
    if (setup_.workload == WorkloadFrom::Own) {
        text = c.sameWorkload
            ? tr("Every design runs its own workload, and they are the same: <b>%1</b>, %2.")
                  .arg(q(describeRun(c.designs[c.baseline].design.workload)).toHtmlEscaped(), layouts)
            : tr("<b>The designs run different workloads</b> (see the Workload row), %1: throughput, days and the "
                 "run's energy say \"different workloads\" instead of a difference. Choose one workload for all "
                 "to compare them.")
                  .arg(layouts);
    } else {
        const QString from = setup_.workload == WorkloadFrom::Baseline
            ? tr("the baseline's workload")
            : tr("the workload of %1").arg(q(setup_.otherSource).toHtmlEscaped());
        text = tr("Every design runs <b>%1</b> (%2), %3.")
                   .arg(q(describeRun(c.designs[c.baseline].design.workload)).toHtmlEscaped(), from, layouts);
    }
    if (const std::string budgets = describeBudgets(c); !budgets.empty())
        text += "<br>" + q(budgets).toHtmlEscaped();
    setupLabel_->setText(text);
}

void CompareWindow::updateRunTabs()
{
    for (CompareRunTab* tab : runTabs_) {
        tab->setDesigns(runs_);
        tab->setShown(tabs_->currentWidget() == tab);
    }
}

CompareRunTab* CompareWindow::runTab(const QString& key) const
{
    for (CompareRunTab* tab : runTabs_)
        if (tab->objectName() == key)
            return tab;
    return nullptr;
}

void CompareWindow::createActions()
{
    addOpenAction_ = new QAction(tr("Add Open Document"), this);
    addOpenAction_->setToolTip(tr("Compare the design open in the studio, as it is now"));
    addOpenAction_->setVisible(false);
    connect(addOpenAction_, &QAction::triggered, this, &CompareWindow::addOpenDocument);

    auto* addFileAction = new QAction(tr("Add File..."), this);
    addFileAction->setShortcut(QKeySequence::Open);
    addFileAction->setToolTip(tr("Compare a design file (*.cluster.json)"));
    connect(addFileAction, &QAction::triggered, this, &CompareWindow::addFromDialog);

    presetMenu_ = new QMenu(tr("Add Preset"), this);
    // Listed on first opening: reading every preset costs a few milliseconds
    // the window need not spend until asked.
    connect(presetMenu_, &QMenu::aboutToShow, this, [this] {
        if (!presetMenu_->isEmpty())
            return;
        for (const QString& path : PresetDialog::presetPaths()) {
            const DesignLoad loaded = loadPreset(path);
            const QString name = loaded.ok() ? q(loaded.design->name) : QFileInfo(path).fileName();
            QAction* a = presetMenu_->addAction(name, this, [this, path] { addPreset(path); });
            a->setToolTip(QFileInfo(path).fileName());
        }
    });

    removeAction_ = new QAction(tr("Remove"), this);
    removeAction_->setShortcut(QKeySequence::Delete);
    removeAction_->setToolTip(tr("Remove the selected design from the comparison"));
    removeAction_->setEnabled(false);
    connect(removeAction_, &QAction::triggered, this, &CompareWindow::removeSelected);

    csvAction_ = new QAction(tr("Export CSV..."), this);
    csvAction_->setToolTip(tr("The key figures, differences and bills of materials as one CSV table"));
    connect(csvAction_, &QAction::triggered, this, [this] {
        exportFromDialog(tr("Export Comparison as CSV"), "csv", tr("CSV files (*.csv)"), &CompareWindow::exportCsv);
    });
    pdfAction_ = new QAction(tr("Export PDF..."), this);
    pdfAction_->setToolTip(tr("A report of the comparison: key figures, charts and bills of materials"));
    connect(pdfAction_, &QAction::triggered, this, [this] {
        exportFromDialog(tr("Export Comparison as PDF"), "pdf", tr("PDF files (*.pdf)"), &CompareWindow::exportPdf);
    });

    baselineBox_ = new QComboBox(this);
    baselineBox_->setObjectName("baseline");
    baselineBox_->setToolTip(tr("The design the others' differences are measured from"));
    baselineBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    baselineBox_->setMinimumContentsLength(18);
    connect(baselineBox_, &QComboBox::activated, this, &CompareWindow::setBaseline);

    QMenu* file = menuBar()->addMenu(tr("&Compare"));
    file->addAction(addOpenAction_);
    file->addAction(addFileAction);
    file->addMenu(presetMenu_);
    file->addAction(removeAction_);
    file->addSeparator();
    file->addAction(csvAction_);
    file->addAction(pdfAction_);
    file->addSeparator();
    QAction* close = file->addAction(tr("Close"));
    close->setShortcut(QKeySequence::Close);
    connect(close, &QAction::triggered, this, &QWidget::close);

    QToolBar* bar = addToolBar(tr("Compare"));
    bar->setObjectName("compare toolbar");
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(addOpenAction_);
    bar->addAction(addFileAction);
    auto* presetButton = new QToolButton(bar);
    presetButton->setText(tr("Add Preset"));
    presetButton->setMenu(presetMenu_);
    presetButton->setPopupMode(QToolButton::InstantPopup);
    bar->addWidget(presetButton);
    bar->addAction(removeAction_);
    bar->addSeparator();
    auto* baselineLabel = new QLabel(tr(" Baseline: "), bar);
    bar->addWidget(baselineLabel);
    bar->addWidget(baselineBox_);
    bar->addSeparator();
    bar->addAction(csvAction_);
    bar->addAction(pdfAction_);
}

bool CompareWindow::full(QString* error) const
{
    if (entries_.size() < kMaxCompared)
        return false;
    if (error)
        *error = tr("At most %1 designs can be compared: remove one before adding another.").arg(kMaxCompared);
    return true;
}

bool CompareWindow::addDesign(const Design& design, std::shared_ptr<const Catalog> catalog, const QString& source,
                              QString* error)
{
    QString why;
    if (!full(&why)) {
        QStringList lines;
        for (const Problem& p : validateDesign(design, *catalog))
            if (p.severity == Severity::Error)
                lines << q(formatProblem(source.toStdString(), p));
        if (lines.isEmpty()) {
            entries_.push_back({compareEntry(design, *catalog, source.toStdString()), design, std::move(catalog)});
            recompute();
            statusBar()->showMessage(tr("Added %1").arg(q(design.name)), 4000);
            return true;
        }
        why = tr("'%1' has errors and cannot be analysed:\n%2").arg(q(design.name), lines.join('\n'));
    }
    if (error)
        *error = why;
    statusBar()->showMessage(why.section('\n', 0, 0), 6000);
    return false;
}

QString CompareWindow::liveSource()
{
    return tr("open document (follows edits)");
}

bool CompareWindow::updateOpenDocument(const Design& design, std::shared_ptr<const Catalog> catalog)
{
    const std::string live = liveSource().toStdString();
    auto isLive = [&](const Entry& e) { return e.compared.source == live; };
    if (std::none_of(entries_.begin(), entries_.end(), isLive))
        return false;
    if (hasErrors(validateDesign(design, *catalog))) {
        statusBar()->showMessage(tr("The open document has errors: compared as it was when last valid"), 4000);
        return true;
    }
    const ComparedDesign now = compareEntry(design, *catalog, live);
    for (Entry& e : entries_)
        if (isLive(e))
            e = {now, design, catalog};
    recompute();
    return true;
}

bool CompareWindow::addFile(const QString& path, QString* error)
{
    if (full(error))
        return false;
    const QString name = QFileInfo(path).fileName();
    DesignLoad loaded;
    if (path.startsWith(':')) {
        // Qt resources are out of the core's reach: read here, parse there.
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            if (error)
                *error = tr("%1: cannot be read: %2").arg(path, f.errorString());
            return false;
        }
        const QByteArray bytes = f.readAll();
        loaded = readDesignText(std::string_view(bytes.constData(), std::size_t(bytes.size())), Catalog::builtin());
    } else {
        loaded = loadDesignFile(QFile::encodeName(path).toStdString(), Catalog::builtin());
    }
    if (!loaded.ok()) {
        QStringList lines;
        for (const Problem& p : loaded.problems)
            if (p.severity == Severity::Error)
                lines << q(formatProblem(name.toStdString(), p));
        if (error)
            *error = tr("%1 could not be added:\n%2").arg(QDir::toNativeSeparators(path), lines.join('\n'));
        return false;
    }
    const QString source = path.startsWith(":/presets/") ? tr("preset %1").arg(name) : QDir::toNativeSeparators(path);
    return addDesign(*loaded.design, loaded.catalog, source, error);
}

void CompareWindow::removeDesign(int index)
{
    if (index < 0 || index >= designCount())
        return;
    entries_.erase(entries_.begin() + index);
    // The baseline stays the same design when another goes; when it goes
    // itself, the first design takes over.
    if (index < baseline_)
        --baseline_;
    else if (index == baseline_)
        baseline_ = 0;
    recompute();
}

void CompareWindow::setBaseline(int index)
{
    if (index < 0 || index >= designCount() || index == baseline_)
        return;
    baseline_ = index;
    recompute();
}

void CompareWindow::setOpenDocumentProvider(std::function<std::optional<OpenDocument>()> provider)
{
    openDocument_ = std::move(provider);
    addOpenAction_->setVisible(bool(openDocument_));
}

ChartView* CompareWindow::chart(const QString& key) const
{
    for (ChartView* view : charts_)
        if (view->key() == key)
            return view;
    return nullptr;
}

void CompareWindow::recompute()
{
    fillDesigns();
    if (entries_.size() < kMinCompared) {
        prepareJob_->cancel();
        showComparison({}, {}, 0);
        return;
    }
    // The worker owns copies of everything it reads.
    struct Input {
        Design design;
        std::shared_ptr<const Catalog> catalog;
        std::string source;
    };
    std::vector<Input> inputs;
    for (const Entry& e : entries_)
        inputs.push_back({e.design, e.catalog, e.compared.source});
    const std::size_t baseline = std::size_t(baseline_);
    prepareJob_->start([this, inputs = std::move(inputs), setup = setup_,
                        baseline](const BackgroundJob::Context& context) -> BackgroundJob::Publish {
        std::vector<CompareInput> in;
        std::vector<std::shared_ptr<const Catalog>> catalogs;
        for (const Input& i : inputs) {
            in.push_back({&i.design, i.catalog.get(), i.source});
            catalogs.push_back(i.catalog);
        }
        auto prepared = prepareComparison(in, baseline, setup, context.cancel, context.progress);
        if (!prepared)
            return {};
        return [this, prepared = std::move(*prepared), catalogs = std::move(catalogs), baseline]() mutable {
            showComparison(std::move(prepared), std::move(catalogs), baseline);
        };
    });
}

void CompareWindow::showComparison(std::vector<ComparedDesign> prepared,
                                   std::vector<std::shared_ptr<const Catalog>> catalogs, std::size_t baseline)
{
    comparison_.reset();
    runs_.clear();
    if (prepared.size() >= kMinCompared) {
        for (std::size_t i = 0; i < prepared.size(); ++i)
            runs_.push_back({q(prepared[i].label), prepared[i].design, std::move(catalogs[i])});
        comparison_ = compareDesigns(std::move(prepared), baseline);
    }
    tabs_->setEnabled(true);
    describeSetup();
    fillFigures();
    fillBom();
    drawCharts();
    updateRunTabs();
    if (comparison_) {
        pages_->setCurrentWidget(tabs_);
    } else {
        empty_->setText(
            entries_.empty()
                ? tr("Add two to four designs to compare: the open document, design files, or the "
                     "presets that ship with the studio.")
                : tr("Add at least one more design to compare with %1.").arg(q(entries_.front().compared.label)));
        pages_->setCurrentWidget(empty_);
    }
    csvAction_->setEnabled(comparison_.has_value());
    pdfAction_->setEnabled(comparison_.has_value());
    removeAction_->setEnabled(!designs_->selectedItems().isEmpty());
    emit comparisonChanged();
}

void CompareWindow::fillDesigns()
{
    const int n = designCount();
    designs_->clearContents();
    designs_->setRowCount(n);
    baselineBox_->clear();
    for (int i = 0; i < n; ++i) {
        // As added: the comparison, prepared off the GUI thread, may still
        // be the previous set's.
        const ComparedDesign& d = entries_[std::size_t(i)].compared;
        const Analysis& a = d.analysis;
        const bool base = i == baseline_ && n >= int(kMinCompared);
        auto* name = cell(q(d.label) + (base ? tr("  (baseline)") : QString()), Qt::AlignLeft | Qt::AlignVCenter);
        name->setIcon(swatch(designColor(i)));
        QFont f = designs_->font();
        f.setBold(base);
        name->setFont(f);
        designs_->setItem(i, 0, name);
        designs_->setItem(i, 1, cell(q(formatCount(a.inventory.gpus))));
        designs_->setItem(i, 2, cell(q(a.hardware.gpu.name), Qt::AlignLeft | Qt::AlignVCenter));
        designs_->setItem(i, 3, cell(q(a.workload.name), Qt::AlignLeft | Qt::AlignVCenter));
        auto* source = cell(q(d.source), Qt::AlignLeft | Qt::AlignVCenter);
        source->setToolTip(q(d.source));
        designs_->setItem(i, 4, source);
        baselineBox_->addItem(swatch(designColor(i)), q(d.label));
    }
    baselineBox_->setCurrentIndex(n > 0 ? baseline_ : -1);
    baselineBox_->setEnabled(n >= int(kMinCompared));
}

void CompareWindow::fillFigures()
{
    figures_->clear();
    if (!comparison_) {
        figures_->setRowCount(0);
        figures_->setColumnCount(0);
        return;
    }
    const Comparison& c = *comparison_;
    const QPalette pal = figures_->palette();
    figures_->setColumnCount(int(c.designs.size()));
    // What each design runs comes first: the figures below are of that.
    constexpr int kTextRows = 2;
    figures_->setRowCount(kTextRows + int(c.figures.size()));
    std::vector<std::vector<ExplainedMetric>> explained;
    for (const auto& d : c.designs)
        explained.push_back(explainCompared(d));
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        auto* head =
            new QTableWidgetItem(swatch(designColor(int(i))), columnHeading(c.designs[i].label, i == c.baseline));
        head->setToolTip(q(c.designs[i].source));
        QFont f = figures_->font();
        f.setBold(i == c.baseline);
        head->setFont(f);
        figures_->setHorizontalHeaderItem(int(i), head);
    }
    // Headers carry their metrics key (Qt::UserRole): a row's name may
    // name a precision too.
    auto* runHead = new QTableWidgetItem(tr("Workload"));
    runHead->setData(Qt::UserRole, QStringLiteral("run"));
    runHead->setToolTip(tr("The model and run each design runs here: its own, or the one chosen for all"));
    figures_->setVerticalHeaderItem(0, runHead);
    auto* layoutHead = new QTableWidgetItem(q(figureName("training.layout")));
    layoutHead->setData(Qt::UserRole, QStringLiteral("training.layout"));
    layoutHead->setToolTip(tr("The parallelism each design runs the workload at (metrics key training.layout)"));
    figures_->setVerticalHeaderItem(1, layoutHead);
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const ComparedDesign& d = c.designs[i];
        auto* run = cell(q(describeRun(d.design.workload)), Qt::AlignLeft | Qt::AlignVCenter);
        run->setToolTip(d.workloadFrom == WorkloadFrom::Own ? tr("%1's own workload").arg(q(d.label))
                            : d.workloadFrom == WorkloadFrom::Baseline
                            ? tr("The baseline's workload, run on %1").arg(q(d.label))
                            : tr("The workload of %1, run on %2").arg(q(d.workloadFile), q(d.label)));
        figures_->setItem(0, int(i), run);
        // How it was chosen is said once, above the table.
        auto* layout = cell(q(layoutText(d, false)), Qt::AlignLeft | Qt::AlignVCenter);
        layout->setToolTip(d.layoutFrom == LayoutFrom::Best
                               ? tr("The layout search's first for this workload on %1 (the Layouts panel finds the "
                                    "same), by %2")
                                     .arg(q(d.label), q(objectiveName(setup_.objective)))
                               : tr("The parallelism %1's file sets").arg(q(d.label)));
        if (!d.analysis.runnable())
            layout->setForeground(worseHue());
        figures_->setItem(1, int(i), layout);
    }
    for (std::size_t r = 0; r < c.figures.size(); ++r) {
        const FigureComparison& fc = c.figures[r];
        auto* head = new QTableWidgetItem(q(fc.label));
        head->setData(Qt::UserRole, q(fc.figure.key));
        head->setToolTip(
            tr("%1 (metrics key %2): %3").arg(q(fc.label), q(fc.figure.key), betterText(fc.figure.better)));
        figures_->setVerticalHeaderItem(kTextRows + int(r), head);
        for (std::size_t i = 0; i < fc.cells.size(); ++i) {
            const FigureCell& fcell = fc.cells[i];
            QString text =
                fcell.value || !fcell.unavailable.empty() ? q(fcell.text(fc.figure)) : QString::fromUtf8("\u2014");
            if (const std::string delta = formatDelta(fc.figure, fcell); !delta.empty())
                text += "  (" + q(delta) + ")";
            auto* item = cell(text);
            item->setData(Qt::UserRole, verdictName(fcell.verdict));
            if (fcell.verdict == Verdict::Better || fcell.verdict == Verdict::Worse) {
                item->setBackground(tint(pal, fcell.verdict == Verdict::Better ? betterHue() : worseHue()));
                item->setForeground(pal.brush(QPalette::Text));
            } else if (fcell.verdict == Verdict::DifferentWorkloads) {
                item->setForeground(pal.brush(QPalette::PlaceholderText));
            }
            if (fcell.verdict == Verdict::Baseline) {
                QFont f = figures_->font();
                f.setBold(true);
                item->setFont(f);
            }
            item->setToolTip(figureTip(c, r, i, explained[i]));
            figures_->setItem(kTextRows + int(r), int(i), item);
        }
    }
}

void CompareWindow::fillBom()
{
    bom_->clear();
    if (!comparison_) {
        bom_->setRowCount(0);
        bom_->setColumnCount(0);
        return;
    }
    const Comparison& c = *comparison_;
    const std::size_t n = c.designs.size();
    const QPalette pal = bom_->palette();
    const QColor changed = tint(pal, pal.color(QPalette::Highlight));
    bom_->setColumnCount(int(n) + 2);
    bom_->setRowCount(int(c.bom.size()));
    bom_->setHorizontalHeaderItem(0, new QTableWidgetItem(tr("Part")));
    bom_->setHorizontalHeaderItem(1, new QTableWidgetItem(tr("Kind")));
    for (std::size_t i = 0; i < n; ++i) {
        auto* head =
            new QTableWidgetItem(swatch(designColor(int(i))), columnHeading(c.designs[i].label, i == c.baseline));
        head->setToolTip(q(c.designs[i].source));
        bom_->setHorizontalHeaderItem(int(i) + 2, head);
    }
    QFont bold = bom_->font();
    bold.setBold(true);
    for (std::size_t r = 0; r < c.bom.size(); ++r) {
        const BomComparison& b = c.bom[r];
        const std::int64_t base = b.counts[c.baseline];
        bool differs = false;
        auto* part = cell(q(b.name), Qt::AlignLeft | Qt::AlignVCenter);
        part->setToolTip(tr("Catalog part %1").arg(q(b.part)));
        bom_->setItem(int(r), 0, part);
        bom_->setItem(int(r), 1, cell(q(b.kind), Qt::AlignLeft | Qt::AlignVCenter));
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t count = b.counts[i];
            const std::int64_t delta = count - base;
            QString text = q(formatCount(count));
            auto* item = cell(text);
            item->setData(Qt::UserRole, qlonglong(count));
            if (i != c.baseline && delta != 0) {
                differs = true;
                item->setText(text + "  (" + (delta > 0 ? "+" : "") + q(formatCount(delta)) + ")");
                item->setBackground(changed);
                item->setForeground(pal.brush(QPalette::Text));
                item->setFont(bold);
                item->setToolTip(tr("%1 in %2 against %3 in the baseline %4")
                                     .arg(q(formatCount(count)), q(c.designs[i].label), q(formatCount(base)),
                                          q(c.designs[c.baseline].label)));
            } else if (count == 0) {
                // A part this design lacks: muted, so the parts it has stand out.
                item->setForeground(pal.brush(QPalette::PlaceholderText));
            }
            bom_->setItem(int(r), int(i) + 2, item);
        }
        if (differs)
            part->setFont(bold);
    }
    bom_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    bom_->horizontalHeader()->setStretchLastSection(false);
}

void CompareWindow::drawCharts()
{
    std::vector<ChartDesign> designs;
    if (comparison_)
        for (const auto& d : comparison_->designs)
            designs.push_back({&d.analysis, q(d.label)});
    const auto& entries = analysisRegistry();
    for (std::size_t i = 0; i < charts_.size(); ++i) {
        ChartView* view = charts_[i];
        std::vector<ChartDesign> shown = designsFor(entries[i], designs);
        if (designs.empty())
            view->setMessage(tr("Add two to four designs to compare."));
        else if (shown.empty())
            view->setMessage(tr("The %1 is a training run's, and every design compared serves: see the key "
                                "figures.")
                                 .arg(entries[i].title));
        else
            view->setDesigns(std::move(shown));
    }
}

void CompareWindow::refuse(const QString& title, const QString& error)
{
    QMessageBox box(QMessageBox::Warning, title, error.section('\n', 0, 0), QMessageBox::Ok, this);
    if (error.contains('\n'))
        box.setInformativeText(error.section('\n', 1));
    box.exec();
}

void CompareWindow::addFromDialog()
{
    QString error;
    if (full(&error))
        return refuse(tr("Cannot add a design"), error);
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Add Designs to Compare"), QString(),
                                                            tr("Cluster designs (*.cluster.json);;All files (*)"));
    for (const QString& path : paths)
        if (!addFile(path, &error)) {
            refuse(tr("Cannot add a design"), error);
            return;
        }
}

void CompareWindow::addPreset(const QString& resourcePath)
{
    QString error;
    if (!addFile(resourcePath, &error))
        refuse(tr("Cannot add a design"), error);
}

void CompareWindow::addOpenDocument()
{
    if (!openDocument_)
        return;
    QString error;
    if (full(&error))
        return refuse(tr("Cannot add a design"), error);
    const std::optional<OpenDocument> doc = openDocument_();
    if (!doc)
        return refuse(
            tr("Cannot add a design"),
            tr("The open document cannot be compared as it is: it has errors (the Warnings dock lists them)."));
    const QString snapshot = tr("open document as of %1").arg(QTime::currentTime().toString("HH:mm:ss"));
    if (!addDesign(doc->design, doc->catalog, snapshot, &error))
        refuse(tr("Cannot add a design"), error);
}

void CompareWindow::removeSelected()
{
    const QList<QTableWidgetItem*> selected = designs_->selectedItems();
    if (!selected.isEmpty())
        removeDesign(selected.front()->row());
}

bool CompareWindow::exportCsv(const QString& path, QString* error) const
{
    if (!comparison_) {
        if (error)
            *error = tr("There is nothing to export: add at least two designs.");
        return false;
    }
    const std::string csv = comparisonCsv(*comparison_);
    return writeAtomically(path, QByteArrayView(csv.data(), qsizetype(csv.size())), error);
}

bool CompareWindow::exportPdf(const QString& path, QString* error) const
{
    if (!comparison_) {
        if (error)
            *error = tr("There is nothing to export: add at least two designs.");
        return false;
    }
    ReportOptions options;
    options.pageSize = preferredPageSize();
    return writeComparisonReport(*comparison_, path, options, error);
}

void CompareWindow::exportFromDialog(const QString& title, const QString& suffix, const QString& filter,
                                     bool (CompareWindow::*write)(const QString&, QString*) const)
{
    QSettings stored;
    const QString dir = stored.value(settings::kLastReportDir, stored.value(settings::kLastDir)).toString();
    QString path = QFileDialog::getSaveFileName(this, title, QDir(dir).filePath("comparison." + suffix), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith("." + suffix, Qt::CaseInsensitive))
        path += "." + suffix;
    stored.setValue(settings::kLastReportDir, QFileInfo(path).absolutePath());
    QString error;
    if ((this->*write)(path, &error))
        statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
    else
        QMessageBox::critical(this, tr("Cannot export"), error);
}

void CompareWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    // Tints and plot colours follow the theme, once the tables and plots
    // (told after their window) have the new palette too.
    if (event->type() == QEvent::PaletteChange && !restylePending_) {
        restylePending_ = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                restylePending_ = false;
                fillFigures();
                fillBom();
                drawCharts();
            },
            Qt::QueuedConnection);
    }
}

}  // namespace studio
