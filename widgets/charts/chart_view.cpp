#include "widgets/charts/chart_view.h"

#include "widgets/charts/chart_plot.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolTip>

#include <cstring>

#include <qcustomplot.h>

#include "core/model/analysis.h"
#include "widgets/charts/analysis_registry.h"
#include "widgets/charts/chart_plot.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/chart_text.h"
#include "widgets/charts/explain_html.h"
#include "widgets/charts/figure_table.h"
#include "widgets/charts/plot_fingerprint.h"

namespace studio {

ChartView::ChartView(const AnalysisEntry& entry, bool withFigures, QWidget* parent)
    : QWidget(parent), entry_(entry), renderer_(entry.makeRenderer())
{
    setObjectName(entry.key);
    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    message_->setVisible(false);
    grid_ = new QGridLayout(this);
    grid_->setContentsMargins(4, 4, 4, 4);
    grid_->setSpacing(6);
    grid_->addWidget(message_, 99, 0, 1, -1);
    if (withFigures) {
        figureTable_ = new FigureTable(this);
        figureTable_->setExplainer([this](const QString& name, const QString& value, const std::string& key) {
            return tip(0, name, value, key);
        });
    }
    renderer_->setUp(*this);
    if (figureTable_ && grid_->indexOf(figureTable_) < 0)
        grid_->addWidget(figureTable_, 0, grid_->columnCount(), -1, 1);
}

ChartView::~ChartView()
{
    // The plots go while the tips that watch their plottables still exist
    // (QWidget would delete them after this object's members).
    const QList<QCustomPlot*> plots = std::exchange(plots_, {});
    qDeleteAll(plots);
}

QString ChartView::key() const
{
    return entry_.key;
}

QString ChartView::title() const
{
    return entry_.title;
}

void ChartView::setDesigns(std::vector<ChartDesign> designs)
{
    designs_ = std::move(designs);
    explained_.assign(designs_.size(), std::nullopt);
    message_->clear();
    dirty_ = true;
    if (isOnScreen())
        refreshNow();
}

void ChartView::setMessage(const QString& text)
{
    designs_.clear();
    explained_.clear();
    message_->setText(text);
    dirty_ = true;
    if (isOnScreen())
        refreshNow();
}

QCustomPlot* ChartView::addPlot(const QString& name)
{
    auto* plot = new ChartPlot(this);
    plot->setObjectName(name);
    // Two plots stacked must fit the Analysis dock of a window on a
    // 1,366 x 768 laptop screen (the window's minimum height is the left
    // column's docks plus this dock); a taller window gives them more.
    plot->setMinimumSize(240, 140);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    plot->setMouseTracking(true);
    connect(plot, &QWidget::customContextMenuRequested, this, [this, plot, name](const QPoint& pos) {
        QMenu menu(this);
        for (const char* suffix : {"png", "svg", "pdf"}) {
            menu.addAction(tr("Export as %1...").arg(QString(suffix).toUpper()), this, [this, plot, name, suffix] {
                const QString file =
                    QFileDialog::getSaveFileName(this, tr("Export Plot"), name + "." + suffix,
                                                 tr("%1 files (*.%2)").arg(QString(suffix).toUpper(), suffix));
                if (!file.isEmpty() && !exportPlot(plot, file))
                    QToolTip::showText(QCursor::pos(), tr("Could not write %1").arg(file), plot);
            });
        }
        menu.exec(plot->mapToGlobal(pos));
    });
    connect(plot, &QCustomPlot::mouseMove, this,
            [this, plot](QMouseEvent* e) { hover(plot, e->position(), e->globalPosition().toPoint()); });
    plots_ << plot;
    drawn_.push_back(0);
    stylePlot(plot, palette());
    return plot;
}

QCustomPlot* ChartView::plot(const QString& name) const
{
    for (QCustomPlot* p : plots_)
        if (p->objectName() == name)
            return p;
    return nullptr;
}

bool ChartView::exportPlot(QCustomPlot* plot, const QString& fileName) const
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    const int w = std::max(plot->width(), 800), h = std::max(plot->height(), 500);
    if (suffix == "png")
        return plot->savePng(fileName, w, h, 2.0);
    if (suffix == "pdf")
        return plot->savePdf(fileName, w, h);
    if (suffix == "svg") {
        // Vector output through the plot's own painter path.
        QSvgGenerator svg;
        svg.setFileName(fileName);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        svg.setTitle(title());
        QCPPainter painter;
        if (!painter.begin(&svg))
            return false;
        plot->toPainter(&painter, w, h);
        return painter.end();
    }
    return false;
}

void ChartView::showPlots(bool shown)
{
    for (int i = 0; i < grid_->count(); ++i)
        if (QWidget* w = grid_->itemAt(i)->widget(); w && w != message_)
            w->setVisible(shown);
    message_->setVisible(!shown);
}

void ChartView::refreshNow()
{
    if (!dirty_)
        return;
    ++refreshes_;
    if (designs_.empty() || !designs_.front().analysis) {
        dirty_ = false;
        if (message_->text().isEmpty())
            message_->setText(tr("Nothing to draw yet."));
        showPlots(false);
        return;
    }
    // Shown plots lay themselves out at once, and what places labels after
    // a layout (RooflineChart::placeLabels) reads the designs: the view
    // stays dirty until they are drawn, so nothing reads new designs with
    // what was drawn for old ones (a roofline with fewer points read past
    // its end, found by the soak session under AddressSanitizer).
    if (message_->isVisible()) {
        showPlots(true);
        restyled_ = true;  // laid out before the draw: all of them replot
    }
    renderer_->draw(*this, designs_);
    dirty_ = false;
    if (figureTable_)
        figureTable_->setFigures(entry_.figures(*designs_.front().analysis));
    // Only the plots whose content changed are drawn again.
    for (int i = 0; i < plots_.size(); ++i) {
        const PlotFingerprint now = plotFingerprint(*plots_[i]);
        if (!restyled_ && now.complete && now.value == drawn_[std::size_t(i)])
            continue;
        drawn_[std::size_t(i)] = now.value;
        ++replots_;
        plots_[i]->replot(QCustomPlot::rpQueuedReplot);
    }
    restyled_ = false;
}

void ChartView::setTip(QCPAbstractPlottable* plottable, std::function<QString(int)> tip)
{
    if (!tips_.contains(plottable))
        connect(plottable, &QObject::destroyed, this, [this](QObject* o) { tips_.remove(o); });
    tips_.insert(plottable, std::move(tip));
}

void ChartView::setTip(QCPAbstractItem* item, std::function<QString()> tip)
{
    if (!tips_.contains(item))
        connect(item, &QObject::destroyed, this, [this](QObject* o) { tips_.remove(o); });
    tips_.insert(item, [tip = std::move(tip)](int) { return tip(); });
}

const Explanation* ChartView::explanation(std::size_t design, std::string_view key) const
{
    if (design >= designs_.size() || !designs_[design].analysis)
        return nullptr;
    auto& cached = explained_[design];
    if (!cached)
        cached = explainMetrics(*designs_[design].analysis);
    return findExplanation(*cached, key);
}

QString ChartView::tip(std::size_t design, const QString& title, const QString& value, std::string_view key) const
{
    const QString who = design < designs_.size() && designs_.size() > 1 ? designs_[design].label + ": " : QString();
    return explainHtml(who + title, value, explanation(design, key));
}

QString ChartView::tipAt(QCustomPlot* plot, const QPointF& pos) const
{
    // The nearest plottable data point within a few pixels, else an item.
    constexpr double kReach = 8;
    double best = kReach;
    QString text;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        const auto it = tips_.find(p);
        if (it == tips_.end() || !p->visible())
            continue;
        QVariant details;
        double d = p->selectTest(pos, false, &details);
        // A marker on a line wins over the line.
        if (auto* g = qobject_cast<QCPGraph*>(p); g && g->lineStyle() != QCPGraph::lsNone && d >= 0)
            d += 4;
        if (d < 0 || d > best)
            continue;
        const QCPDataSelection sel = details.value<QCPDataSelection>();
        if (sel.isEmpty())
            continue;
        best = d;
        text = (*it)(sel.dataRange().begin());
    }
    if (!text.isEmpty())
        return text;
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem* item = plot->item(i);
        const auto it = tips_.find(item);
        if (it == tips_.end() || !item->visible())
            continue;
        const double d = item->selectTest(pos, false);
        if (d >= 0 && d <= best) {
            best = d;
            text = (*it)(0);
        }
    }
    return text;
}

void ChartView::hover(QCustomPlot* plot, const QPointF& pos, const QPoint& globalPos)
{
    const QString text = tipAt(plot, pos);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, text, plot);
}

bool ChartView::isOnScreen() const
{
    // Shown, and not scrolled out of the grid's view or squeezed to nothing.
    return isVisible() && !visibleRegion().isEmpty();
}

void ChartView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refreshNow();
}

void ChartView::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    // Scrolled into view with an update it has not drawn: draw it next.
    if (dirty_)
        QTimer::singleShot(0, this, &ChartView::refreshNow);
}

void ChartView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        dirty_ = true;
        if (isVisible())
            refreshNow();
    }
}

QColor ChartView::textColor(bool muted) const
{
    return palette().color(muted ? QPalette::PlaceholderText : QPalette::WindowText);
}

void ChartView::restyle()
{
    // The view's palette, not each plot's: a palette change reaches the
    // view before its children have resolved theirs.
    for (QCustomPlot* p : plots_)
        stylePlot(p, palette());
    restyled_ = true;
}

QCPItemText* ChartView::label(QCustomPlot* plot, std::vector<QCPItemText*>& pool, std::size_t i)
{
    while (pool.size() <= i) {
        auto* t = new ChartText(plot);
        // Above every curve and line, whichever was made first.
        t->setLayer(QStringLiteral("legend"));
        t->setClipToAxisRect(false);
        t->setPadding(QMargins(2, 1, 2, 1));
        pool.push_back(t);
    }
    pool[i]->setVisible(true);
    pool[i]->setColor(textColor());
    pool[i]->setBrush(labelHalo(palette()));
    return pool[i];
}

void ChartView::hideFrom(std::vector<QCPItemText*>& pool, std::size_t used)
{
    for (std::size_t i = used; i < pool.size(); ++i)
        pool[i]->setVisible(false);
}

}  // namespace studio
