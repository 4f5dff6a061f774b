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

// The presets whose workload is a training run: the analyses that size a
// run (layout search, scale sweep) refuse the serving ones, which their own
// tests check. The presets are saved normalized, so the key reads one way.
inline QStringList trainingPresetFiles()
{
    QStringList files;
    for (const QString& f : presetFiles())
        if (readBytes(f).find("\"kind\": \"serving\"") == std::string::npos)
            files << f;
    return files;
}

// RFC 4180 CSV: quoted fields may hold commas, newlines and doubled quotes.
inline QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row << field;
            field.clear();
        } else if (c == '\n') {
            row << field;
            rows << row;
            row.clear();
            field.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

}  // namespace studio::test
