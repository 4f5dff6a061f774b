#include "widgets/panels/analysis_area.h"

#include <QButtonGroup>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/analysis/analysis_service.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_view.h"
#include "widgets/common/settings_keys.h"

namespace studio {

AnalysisArea::AnalysisArea(AnalysisService* service, QWidget* parent) : QWidget(parent), service_(service)
{
    for (const AnalysisEntry& entry : analysisRegistry()) {
        panels_ << new ChartView(entry, true);
        keys_ << entry.key;
    }
    connect(service_, &AnalysisService::updated, this, &AnalysisArea::feed);
    feed();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    stack_ = new QStackedWidget(this);
    layout->addWidget(stack_);
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    stack_->addWidget(tabs_);
    // The grid page owns its scroll area from the start: tabs mode never
    // lays it out, and it must not outlive the area unowned.
    auto* gridPage = new QWidget;
    gridScroll_ = new QScrollArea(gridPage);
    gridScroll_->setWidgetResizable(true);
    gridScroll_->setFrameShape(QFrame::NoFrame);
    gridBody_ = new QWidget;
    gridScroll_->setWidget(gridBody_);
    gridScroll_->viewport()->installEventFilter(this);
    auto* gridLayout = new QVBoxLayout(gridPage);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    gridLayout->setSpacing(0);
    stack_->addWidget(gridPage);

    // Tabs | Grid, in the tab bar's corner or above the grid.
    switcher_ = new QWidget;
    auto* sw = new QHBoxLayout(switcher_);
    sw->setContentsMargins(4, 0, 4, 0);
    sw->setSpacing(0);
    buttons_ = new QButtonGroup(this);
    for (const auto& [text, m] : {std::pair{tr("Tabs"), Mode::Tabs}, std::pair{tr("Grid"), Mode::Grid}}) {
        auto* b = new QToolButton(switcher_);
        b->setText(text);
        b->setCheckable(true);
        b->setAutoRaise(true);
        b->setToolTip(m == Mode::Tabs ? tr("One panel at a time (only it redraws on an edit)")
                                      : tr("Every panel at once"));
        buttons_->addButton(b, int(m));
        sw->addWidget(b);
    }
    connect(buttons_, &QButtonGroup::idClicked, this, [this](int id) { setMode(Mode(id)); });
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) {
        if (mode_ == Mode::Tabs && i >= 0)
            QSettings().setValue(settings::kAnalysisTab, keys_.value(i));
    });

    QSettings stored;
    mode_ = stored.value(settings::kAnalysisLayout).toString() == "grid" ? Mode::Grid : Mode::Tabs;
    arrange();
    showPanel(stored.value(settings::kAnalysisTab, "roofline").toString());
}

void AnalysisArea::feed()
{
    const Analysis* a = service_->analysis();
    for (int i = 0; i < panels_.size(); ++i) {
        ChartView* view = panels_[i];
        const AnalysisEntry& entry = analysisRegistry()[std::size_t(i)];
        if (!a)
            view->setMessage(tr("The design has errors (see the Warnings dock): there is nothing to analyse until "
                                "they are fixed."));
        else if (a->inventory.gpus == 0)
            view->setMessage(tr("No GPUs yet: drag an accelerator or a node platform from the Parts palette onto "
                                "the canvas, or open a preset (File > Open). The analyses appear here."));
        else if (!entry.appliesTo(a->workloadKind()))
            // Kept in its place, so the tabs do not move between designs.
            view->setMessage(tr("The %1 is a training run's, and this design's workload is serving: its figures "
                                "are in the Serving panel.")
                                 .arg(entry.title));
        else
            view->setDesigns({{a, QString()}});
    }
}

ChartView* AnalysisArea::panel(const QString& key) const
{
    const int i = int(keys_.indexOf(key));
    return i >= 0 ? panels_[i] : nullptr;
}

void AnalysisArea::showPanel(const QString& key)
{
    if (ChartView* p = panel(key); p && mode_ == Mode::Tabs)
        tabs_->setCurrentWidget(p);
}

QString AnalysisArea::currentKey() const
{
    return mode_ == Mode::Tabs ? keys_.value(tabs_->currentIndex()) : QString();
}

void AnalysisArea::setMode(Mode mode)
{
    if (mode == mode_)
        return;
    const QString current = currentKey();
    mode_ = mode;
    QSettings().setValue(settings::kAnalysisLayout, mode == Mode::Grid ? "grid" : "tabs");
    arrange();
    if (!current.isEmpty())
        showPanel(current);
    emit modeChanged(mode);
}

void AnalysisArea::arrange()
{
    buttons_->button(int(mode_))->setChecked(true);
    if (mode_ == Mode::Tabs) {
        {
            const QSignalBlocker block(tabs_);
            for (ChartView* p : std::as_const(panels_)) {
                tabs_->addTab(p, p->title());  // takes it out of its grid frame
                p->setMinimumSize(0, 0);
            }
        }
        qDeleteAll(frames_);
        frames_.clear();
        delete gridBody_->layout();
        tabs_->setCornerWidget(switcher_, Qt::TopRightCorner);
        switcher_->show();
        stack_->setCurrentIndex(0);
        return;
    }
    // Grid: each panel in a titled frame with a readable minimum; reflow()
    // sets as many columns as fit and the area scrolls below that.
    {
        const QSignalBlocker block(tabs_);
        while (tabs_->count())
            tabs_->removeTab(0);
    }
    tabs_->setCornerWidget(nullptr, Qt::TopRightCorner);
    auto* page = stack_->widget(1);
    auto* pageLayout = static_cast<QVBoxLayout*>(page->layout());
    if (pageLayout->count() == 0) {
        auto* header = new QHBoxLayout;
        header->addStretch(1);
        pageLayout->addLayout(header);
        pageLayout->addWidget(gridScroll_);
    }
    static_cast<QHBoxLayout*>(pageLayout->itemAt(0)->layout())->addWidget(switcher_);
    switcher_->show();
    for (int i = 0; i < panels_.size(); ++i) {
        auto* frame = new QWidget(gridBody_);
        frames_ << frame;
        auto* v = new QVBoxLayout(frame);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(2);
        auto* title = new QLabel("<b>" + panels_[i]->title().toHtmlEscaped() + "</b>", frame);
        v->addWidget(title);
        v->addWidget(panels_[i]);
        panels_[i]->setMinimumSize(kGridCellWidth - 20, 340);
        panels_[i]->show();
    }
    columns_ = 0;
    reflow();
    stack_->setCurrentIndex(1);
}

void AnalysisArea::reflow()
{
    // As many columns as fit at a readable width: a panel squeezed below it
    // overlaps its own labels.
    const int columns = std::clamp(gridScroll_->viewport()->width() / kGridCellWidth, 1, 3);
    if (mode_ != Mode::Grid || columns == columns_)
        return;
    columns_ = columns;
    delete gridBody_->layout();
    auto* grid = new QGridLayout(gridBody_);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setSpacing(8);
    const int n = int(frames_.size());
    for (int i = 0; i < n; ++i) {
        const int row = i / columns, column = i % columns;
        // The last panel takes what its row leaves.
        const int span = i == n - 1 ? columns - column : 1;
        grid->addWidget(frames_[i], row, column, 1, span);
    }
}

bool AnalysisArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == gridScroll_->viewport() && event->type() == QEvent::Resize)
        reflow();
    return QWidget::eventFilter(watched, event);
}

}  // namespace studio
