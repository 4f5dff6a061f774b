#pragma once
// Looking into charts from the tests: plottables and items by object name,
// the data a series holds, the legend's series, and colours on an image.
#include <QColor>
#include <QImage>
#include <QStringList>
#include <QVector>

#include <qcustomplot.h>

namespace studio::test {

// The plottable or item of `plot` with that object name (nullptr if none).
template <typename T>
T* named(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* p = qobject_cast<T*>(plot->plottable(i)); p && p->objectName() == name)
            return p;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* p = qobject_cast<T*>(plot->item(i)); p && p->objectName() == name)
            return p;
    return nullptr;
}

// The values (or keys) a plottable holds, in order.
template <typename Container>
QVector<double> values(const Container& data, bool keys = false)
{
    QVector<double> out;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it)
        out << (keys ? it->key : it->value);
    return out;
}

template <typename Container>
QVector<double> keys(const Container& data)
{
    return values(data, true);
}

// The names of the plottables a plot's legend lists, in its order.
inline QStringList legendNames(QCustomPlot* plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// The legend's series named `label` (a design's, when designs are overlaid).
inline QCPAbstractPlottable* legendSeries(QCustomPlot* plot, const QString& label)
{
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
            item && item->plottable()->name() == label)
            return item->plottable();
    return nullptr;
}

// Pixels near a colour (antialiased edges blend into the background).
inline int pixelsLike(const QImage& image, const QColor& color)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            if (std::abs(p.red() - color.red()) + std::abs(p.green() - color.green()) +
                    std::abs(p.blue() - color.blue()) <
                40)
                ++n;
        }
    return n;
}

}  // namespace studio::test
