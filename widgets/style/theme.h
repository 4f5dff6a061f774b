#pragma once
// Light and dark themes (Fusion with a palette set by hand: Qt 6.4 has no
// QStyleHints::colorScheme), part icons, and the canvas's colours, derived
// from the palette so both themes read well.
#include <QColor>
#include <QIcon>
#include <QString>

#include "core/catalog/part_kind.h"

namespace studio {

enum class Theme { Light, Dark };

void applyTheme(Theme theme);
Theme currentTheme();
Theme themeFromName(const QString& name);  // "dark" or anything else (light)
QString themeName(Theme theme);

QIcon partIcon(PartKind kind);
QIcon appIcon();

struct SceneColors {
    QColor background, grid, gridMajor;
    QColor containerFill, containerHeader, tileFill, border, text, mutedText;
    QColor selection, dropTarget, link, linkLabelFill, warning, error;
    QColor accent(PartKind kind) const;
};
SceneColors sceneColors();

}  // namespace studio
