#include "widgets/document/design_document.h"

#include <QSaveFile>

#include "core/format/design_reader.h"
#include "core/format/design_writer.h"

namespace studio {

DesignDocument::DesignDocument(QObject* parent)
    : QObject(parent), catalog_(std::make_shared<Catalog>(Catalog::builtin()))
{
}

bool DesignDocument::load(const QString& path, const Catalog& base, std::vector<Problem>* problems)
{
    DesignLoad loaded = loadDesignFile(path.toStdString(), base);
    if (problems)
        *problems = loaded.problems;
    if (!loaded.ok())
        return false;
    design_ = std::move(*loaded.design);
    catalog_ = std::move(loaded.catalog);
    filePath_ = path;
    undoStack_.clear();
    emit reset();
    emit filePathChanged(filePath_);
    return true;
}

bool DesignDocument::saveAs(const QString& path, QString* error)
{
    const std::string text = writeDesignText(design_);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(text.data(), static_cast<qint64>(text.size()));
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    undoStack_.setClean();
    if (filePath_ != path) {
        filePath_ = path;
        emit filePathChanged(filePath_);
    }
    return true;
}

}  // namespace studio
