#pragma once
// Paths and file helpers shared by the test executables.
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <string>

namespace studio::test {

inline QString sourcePath(const QString& relative)
{
    return QDir(QStringLiteral(STUDIO_SOURCE_DIR)).filePath(relative);
}

inline QStringList presetFiles()
{
    QStringList files;
    const QDir dir(sourcePath("presets"));
    for (const QString& name : dir.entryList({"*.cluster.json"}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

inline std::string readBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

}  // namespace studio::test
