#pragma once
// A shipped preset, loaded against the built-in catalog, for core tests.
#include <QString>

#include "core/format/design_reader.h"
#include "tests/test_support.h"

namespace studio::test {

inline Design loadPreset(const QString& name)
{
    const DesignLoad loaded = loadDesignFile(sourcePath("presets/" + name).toStdString(), Catalog::builtin());
    if (!loaded.ok())
        qFatal("cannot load preset %s", qPrintable(name));
    return *loaded.design;
}

}  // namespace studio::test
