#include "widgets/style/theme.h"

#include <QApplication>
#include <QFont>
#include <QHash>
#include <QPalette>
#include <QProxyStyle>
#include <QStyle>
#include <QStyleFactory>

namespace studio {
namespace {

Theme g_theme = Theme::Light;

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2f, 0x36), base(0x1f, 0x23, 0x29), text(0xe3, 0xe7, 0xed);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x2c, 0x33));
    p.setColor(QPalette::ToolTipBase, QColor(0x33, 0x38, 0x40));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8b, 0x95, 0xa3));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x33, 0x38, 0x40));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x7b, 0xb7, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x4a, 0x50, 0x5a));
    p.setColor(QPalette::Dark, QColor(0x18, 0x1b, 0x20));
    p.setColor(QPalette::Light, QColor(0x45, 0x4b, 0x55));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x78, 0x80, 0x8c));
    return p;
}

// Fusion, whose palette is the theme's. The style gives it (polish) rather
// than QApplication::setPalette: under a palette set on the application,
// Qt 6.4 gives every widget a palette of its own; Fusion names the pixmaps
// it caches by the palette among other things, and Qt 6.4 never drops a
// name from QPixmapCache, so every spin box or combo box ever made left
// about 2 KB behind for good (docs/reliability.md).
class ThemeStyle : public QProxyStyle {
public:
    explicit ThemeStyle(Theme theme) : QProxyStyle(QStyleFactory::create("Fusion")), theme_(theme) {}

    void polish(QPalette& palette) override
    {
        QProxyStyle::polish(palette);
        // What setPalette did: the theme's roles over the platform's.
        QPalette themed = (theme_ == Theme::Dark ? darkPalette() : baseStyle()->standardPalette()).resolve(palette);
        themed.setResolveMask(0);
        palette = themed;
    }
    using QProxyStyle::polish;

private:
    Theme theme_;
};

}  // namespace

void applyTheme(Theme theme)
{
    g_theme = theme;
    QApplication::setStyle(new ThemeStyle(theme));
    // Widgets take the new palette from posted events: now, as setPalette did.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationPaletteChange);
}

Theme currentTheme()
{
    return g_theme;
}

Theme themeFromName(const QString& name)
{
    return name == QLatin1String("dark") ? Theme::Dark : Theme::Light;
}

QString themeName(Theme theme)
{
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

PrintColors::PrintColors() : saved_(g_theme)
{
    g_theme = Theme::Light;
}

PrintColors::~PrintColors()
{
    g_theme = saved_;
}

QPalette PrintColors::palette()
{
    QPalette p = QApplication::style()->standardPalette();
    p.setColor(QPalette::Base, Qt::white);
    return p;
}

QIcon partIcon(PartKind kind)
{
    // One icon per kind: an icon made from the SVG parses it, and canvas items
    // paint theirs on every repaint. The icon keeps the pixmaps it renders.
    static QHash<int, QIcon> icons;
    auto it = icons.find(int(kind));
    if (it == icons.end())
        it = icons.insert(
            int(kind),
            QIcon(QStringLiteral(":/resources/icons/%1.svg").arg(QString::fromUtf8(partKindName(kind).data()))));
    return *it;
}

QIcon appIcon()
{
    return QIcon(QStringLiteral(":/resources/icons/app.svg"));
}

SceneColors sceneColors()
{
    SceneColors c;
    if (g_theme == Theme::Dark) {
        c.background = QColor(0x1b, 0x1e, 0x23);
        c.grid = QColor(0x25, 0x29, 0x30);
        c.gridMajor = QColor(0x2e, 0x33, 0x3b);
        c.containerFill = QColor(0x24, 0x29, 0x31, 235);
        c.containerHeader = QColor(0x30, 0x36, 0x40);
        c.tileFill = QColor(0x2c, 0x32, 0x3b);
        c.border = QColor(0x55, 0x5e, 0x6b);
        c.text = QColor(0xe3, 0xe7, 0xed);
        c.mutedText = QColor(0x9a, 0xa4, 0xb1);
        c.linkLabelFill = QColor(0x2b, 0x2f, 0x36);
    } else {
        c.background = QColor(0xf6, 0xf7, 0xf9);
        c.grid = QColor(0xea, 0xec, 0xf0);
        c.gridMajor = QColor(0xdc, 0xdf, 0xe5);
        c.containerFill = QColor(0xff, 0xff, 0xff, 235);
        c.containerHeader = QColor(0xe9, 0xed, 0xf2);
        c.tileFill = QColor(0xff, 0xff, 0xff);
        c.border = QColor(0xb4, 0xbc, 0xc8);
        c.text = QColor(0x1f, 0x25, 0x2d);
        c.mutedText = QColor(0x5f, 0x6b, 0x7a);
        c.linkLabelFill = QColor(0xff, 0xff, 0xff);
    }
    c.selection = QColor(0x3d, 0x7a, 0xd6);
    c.dropTarget = QColor(0x2f, 0xa3, 0x6b);
    c.link = g_theme == Theme::Dark ? QColor(0xd9, 0x82, 0x6c) : QColor(0xc0, 0x4a, 0x33);
    c.warning = QColor(0xe0, 0x9a, 0x1b);
    c.error = QColor(0xd6, 0x3a, 0x3a);
    return c;
}

QColor SceneColors::accent(PartKind kind) const
{
    switch (kind) {
    case PartKind::Accelerator: return QColor(0x3f, 0xae, 0x72);
    case PartKind::Nic: return QColor(0x4a, 0x86, 0xc5);
    case PartKind::Switch: return QColor(0x7b, 0x5c, 0xc4);
    case PartKind::Node: return QColor(0x5b, 0x7a, 0x9f);
    case PartKind::Rack: return QColor(0x6a, 0x78, 0x8a);
    case PartKind::Storage: return QColor(0xc9, 0x8a, 0x2e);
    case PartKind::Link: return link;
    case PartKind::Group: return QColor(0x7f, 0x8e, 0xa3);
    case PartKind::Fabric: return QColor(0x7b, 0x5c, 0xc4);
    }
    return border;
}

void preferUnshapedText()
{
    QFont font = QApplication::font();
    font.setStyleStrategy(QFont::PreferNoShaping);
    QApplication::setFont(font);
}

}  // namespace studio
