#pragma once
// Light and dark themes (Fusion with a palette of our own: Qt 6.4 has no
// QStyleHints::colorScheme), part icons, and the canvas's colours, derived
// from the palette so both themes read well.
#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

#include "core/catalog/part_kind.h"

namespace studio {

enum class Theme { Light, Dark };

void applyTheme(Theme theme);
// Latin text drawn without ligatures ("fi", "fl" as one glyph): a PDF's
// words, charts included, are then searchable and copy as typed. Latin
// needs no shaping to be legible. Called once the application exists.
void preferUnshapedText();
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

// Paper colours while a report draws: the light scene and series colours
// and a light palette for the widgets it renders, whatever the studio's
// theme is on screen. Restores the theme when it goes out of scope.
class PrintColors {
public:
    PrintColors();
    ~PrintColors();
    PrintColors(const PrintColors&) = delete;
    PrintColors& operator=(const PrintColors&) = delete;
    static QPalette palette();

private:
    Theme saved_;
};

}  // namespace studio
