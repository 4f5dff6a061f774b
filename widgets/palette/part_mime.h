#pragma once
// The drag-and-drop and clipboard formats of the studio: a catalog part
// dragged from the palette, and a fragment of a design (components and
// links as JSON) copied between windows.
#include <QMimeData>
#include <QString>

#include <memory>

namespace studio {

inline constexpr char kPartMimeType[] = "application/x-cluster-studio-part";
inline constexpr char kFragmentMimeType[] = "application/x-cluster-studio-fragment";

std::unique_ptr<QMimeData> makePartMime(const QString& partId);
QString partFromMime(const QMimeData* mime);  // "" when the data is not a part

}  // namespace studio
