#include "widgets/panels/plot_panel.h"

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

#include <qcustomplot.h>

#include "widgets/analysis/analysis_service.h"
#include "widgets/panels/explain_html.h"
#include "widgets/panels/figure_table.h"
#include "widgets/style/theme.h"

namespace studio {

void setLogAxis(QCPAxis* axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->setNumberFormat("gb");  // 1, 10, 100, 1000, then 10 with a superscript power
    axis->setNumberPrecision(0);
}

void setLogLog(QCustomPlot* plot, const QString& xLabel, const QString& yLabel)
{
    setLogAxis(plot->xAxis);
    setLogAxis(plot->yAxis);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
}

QSharedPointer<QCPAxisTickerText> setCategoryAxis(QCPAxis* axis)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    axis->setTicker(ticker);
    axis->grid()->setVisible(false);
    axis->setSubTicks(false);
    axis->setTickLength(0, 3);
    return ticker;
}

std::size_t categoryOf(const QCPBars* bars, int dataIndex)
{
    return std::size_t(std::max(0L, std::lround(bars->data()->at(dataIndex)->key) - 1));
}

std::vector<QCPBars*> addStack(QCPAxis* keyAxis, QCPAxis* valueAxis, std::initializer_list<const char*> names)
{
    std::vector<QCPBars*> stack;
    for (const char* name : names) {
        auto* b = new QCPBars(keyAxis, valueAxis);
        b->setObjectName(name);
        b->setWidth(0.6);
        b->setStackingGap(0);
        if (!stack.empty())
            b->moveAbove(stack.back());
        stack.push_back(b);
    }
    return stack;
}

void stylePlot(QCustomPlot* plot, const QPalette& pal)
{
    const QColor bg = pal.color(QPalette::Base), fg = pal.color(QPalette::WindowText);
    // Solid, faint grid lines: a dotted log grid is thousands of dashes to
    // stroke on every replot.
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(70);
    QColor subGrid = grid;
    subGrid.setAlpha(28);
    plot->setBackground(bg);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(fg, 1));
            axis->setTickPen(QPen(fg, 1));
            axis->setSubTickPen(QPen(fg, 1));
            axis->setTickLabelColor(fg);
            axis->setLabelColor(fg);
            axis->grid()->setPen(QPen(grid, 1));
            axis->grid()->setSubGridPen(QPen(subGrid, 1));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    // Legends sit outside the axes (legendOutside), on the plot's own background.
    plot->legend->setBrush(QBrush(bg));
    plot->legend->setTextColor(fg);
    plot->legend->setBorderPen(Qt::NoPen);
}

QString twoLines(const QString& name, int maxOneLine)
{
    if (name.size() <= maxOneLine)
        return name;
    qsizetype best = -1;
    for (qsizetype i = name.indexOf(' '); i >= 0; i = name.indexOf(' ', i + 1))
        if (best < 0 || std::abs(i - name.size() / 2) < std::abs(best - name.size() / 2))
            best = i;
    return best < 0 ? name : name.left(best) + "\n" + name.mid(best + 1);
}

void legendOutside(QCustomPlot* plot, int columns, bool above)
{
    plot->legend->setVisible(true);
    // Wrap first: setting the fill order re-arranges items already in the
    // legend by the wrap it has then.
    plot->legend->setWrap(columns);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    if (above) {
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, plot->legend);
        plot->plotLayout()->setRowStretchFactor(0, 0.001);
    } else {
        plot->plotLayout()->addElement(1, 0, plot->legend);
        plot->plotLayout()->setRowStretchFactor(1, 0.001);
    }
}

PlotPanel::PlotPanel(const QString& title, AnalysisService* service, QWidget* parent)
    : QWidget(parent), title_(title), service_(service)
{
    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    message_->setVisible(false);
    grid_ = new QGridLayout(this);
    grid_->setContentsMargins(4, 4, 4, 4);
    grid_->setSpacing(6);
    grid_->addWidget(message_, 99, 0, 1, -1);
    connect(service_, &AnalysisService::updated, this, [this] {
        dirty_ = true;
        if (isOnScreen())
            refreshNow();
    });
}

QCustomPlot* PlotPanel::addPlot(const QString& name)
{
    auto* plot = new QCustomPlot(this);
    plot->setObjectName(name);
    plot->setMinimumSize(240, 170);
    // Grids and axes are straight pixel lines: antialiasing them only costs.
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    plot->setMouseTracking(true);
    connect(plot, &QWidget::customContextMenuRequested, this, [this, plot, name](const QPoint& pos) {
        QMenu menu(this);
        for (const char* suffix : {"png", "svg", "pdf"}) {
            menu.addAction(tr("Export as %1...").arg(QString(suffix).toUpper()), this, [this, plot, name, suffix] {
                const QString file = QFileDialog::getSaveFileName(
                    this, tr("Export Plot"), name + "." + suffix,
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
    restyle();
    return plot;
}

FigureTable* PlotPanel::addFigureTable()
{
    auto* table = new FigureTable(this);
    figureTable_ = table;
    table->setExplainer([this](const QString& name, const QString& value, const std::string& key) {
        return tip(name, value, key);
    });
    return table;
}

QCustomPlot* PlotPanel::addLogLogPlot(const QString& name, const QString& xLabel, const QString& yLabel)
{
    QCustomPlot* plot = addPlot(name);
    setLogLog(plot, xLabel, yLabel);
    return plot;
}

QCustomPlot* PlotPanel::plot(const QString& name) const
{
    for (QCustomPlot* p : plots_)
        if (p->objectName() == name)
            return p;
    return nullptr;
}

bool PlotPanel::exportPlot(QCustomPlot* plot, const QString& fileName) const
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
        svg.setTitle(title_);
        QCPPainter painter;
        if (!painter.begin(&svg))
            return false;
        plot->toPainter(&painter, w, h);
        return painter.end();
    }
    return false;
}

const Analysis* PlotPanel::analysis() const
{
    return service_->analysis();
}

const Explanation* PlotPanel::explanation(std::string_view key) const
{
    return service_->explanation(key);
}

QString PlotPanel::tip(const QString& title, const QString& value, std::string_view key) const
{
    return explainHtml(title, value, explanation(key));
}

void PlotPanel::refreshNow()
{
    if (!dirty_)
        return;
    dirty_ = false;
    ++refreshes_;
    const Analysis* a = analysis();
    if (!a) {
        showMessage(tr("The design has errors (see the Warnings dock): there is nothing to analyse until they are "
                       "fixed."));
        return;
    }
    if (message_->isVisible()) {
        message_->setVisible(false);
        for (int i = 0; i < grid_->count(); ++i)
            if (QWidget* w = grid_->itemAt(i)->widget(); w && w != message_)
                w->setVisible(true);
    }
    refresh(*a);
    for (QCustomPlot* p : plots_)
        p->replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::showMessage(const QString& text)
{
    for (int i = 0; i < grid_->count(); ++i)
        if (QWidget* w = grid_->itemAt(i)->widget(); w && w != message_)
            w->setVisible(false);
    message_->setText(text);
    message_->setVisible(true);
}

void PlotPanel::setTip(QCPAbstractPlottable* plottable, std::function<QString(int)> tip)
{
    tips_.insert(plottable, std::move(tip));
}

void PlotPanel::setTip(QCPAbstractItem* item, std::function<QString()> tip)
{
    tips_.insert(item, [tip = std::move(tip)](int) { return tip(); });
}

QString PlotPanel::tipAt(QCustomPlot* plot, const QPointF& pos) const
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

void PlotPanel::hover(QCustomPlot* plot, const QPointF& pos, const QPoint& globalPos)
{
    const QString text = tipAt(plot, pos);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, text, plot);
}

bool PlotPanel::isOnScreen() const
{
    // Shown, and not scrolled out of the grid's view or squeezed to nothing.
    return isVisible() && !visibleRegion().isEmpty();
}

void PlotPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refreshNow();
}

void PlotPanel::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    // Scrolled into view with an edit it has not drawn: draw it next.
    if (dirty_)
        QTimer::singleShot(0, this, &PlotPanel::refreshNow);
}

void PlotPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        restyle();
        dirty_ = true;
        if (isVisible())
            refreshNow();
    }
}

QColor PlotPanel::seriesColor(int i) const
{
    static const QColor light[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                   QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b),
                                   QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    static const QColor dark[] = {QColor(0x6c, 0xb4, 0xf0), QColor(0xff, 0x7a, 0x70), QColor(0x74, 0xd6, 0x80),
                                  QColor(0xc3, 0xa1, 0xf0), QColor(0xff, 0xb2, 0x57), QColor(0xd4, 0xa0, 0x86),
                                  QColor(0xf4, 0xa6, 0xd8), QColor(0x6e, 0xe0, 0xee)};
    return (currentTheme() == Theme::Dark ? dark : light)[i % 8];
}

QColor PlotPanel::textColor(bool muted) const
{
    return palette().color(muted ? QPalette::PlaceholderText : QPalette::WindowText);
}

void PlotPanel::restyle()
{
    // The panel's palette, not each plot's: a palette change reaches the
    // panel before its children have resolved theirs.
    for (QCustomPlot* p : plots_)
        stylePlot(p, palette());
}

QCPItemText* PlotPanel::label(QCustomPlot* plot, std::vector<QCPItemText*>& pool, std::size_t i)
{
    while (pool.size() <= i) {
        auto* t = new QCPItemText(plot);
        t->setClipToAxisRect(false);
        t->setPadding(QMargins(2, 1, 2, 1));
        pool.push_back(t);
    }
    pool[i]->setVisible(true);
    pool[i]->setColor(textColor());
    return pool[i];
}

void PlotPanel::hideFrom(std::vector<QCPItemText*>& pool, std::size_t used)
{
    for (std::size_t i = used; i < pool.size(); ++i)
        pool[i]->setVisible(false);
}

}  // namespace studio
