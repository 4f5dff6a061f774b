#include "widgets/palette/part_mime.h"

namespace studio {

std::unique_ptr<QMimeData> makePartMime(const QString& partId)
{
    auto mime = std::make_unique<QMimeData>();
    mime->setData(kPartMimeType, partId.toUtf8());
    mime->setText(partId);
    return mime;
}

QString partFromMime(const QMimeData* mime)
{
    if (!mime || !mime->hasFormat(kPartMimeType))
        return {};
    return QString::fromUtf8(mime->data(kPartMimeType));
}

}  // namespace studio
