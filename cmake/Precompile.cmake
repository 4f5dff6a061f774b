# Precompiled headers (STUDIO_PCH): each kind of target parses the heavy
# headers once instead of once per translation unit. A kind's first target
# precompiles them; the others of that kind reuse its header (REUSE_FROM),
# which needs the same compiler flags and definitions: one kind is one set
# of libraries linked (docs/performance.md, "Build time").
#   core         the Qt-free core: the standard library and nlohmann_json
#   widgets      widgets and the app: those and Qt Widgets, QCustomPlot
#   core_test    a Qt Test executable on the core
#   widgets_test a Qt Test executable on widgets and the app
set(studio_pch_std <algorithm> <cmath> <cstdint> <functional> <map> <memory> <optional> <string>
    <string_view> <vector>)
set(studio_pch_core ${studio_pch_std} <nlohmann/json.hpp>)
set(studio_pch_widgets ${studio_pch_core} <QtWidgets/QtWidgets> <qcustomplot.h>)
set(studio_pch_core_test ${studio_pch_core} <QtTest/QtTest>)
set(studio_pch_widgets_test ${studio_pch_widgets} <QtTest/QtTest>)

function(studio_precompile target kind)
  if(NOT STUDIO_PCH)
    return()
  endif()
  if(NOT DEFINED studio_pch_${kind})
    message(FATAL_ERROR "studio_precompile: unknown kind '${kind}'")
  endif()
  get_property(first GLOBAL PROPERTY studio_pch_first_${kind})
  if(first)
    target_precompile_headers(${target} REUSE_FROM ${first})
  else()
    target_precompile_headers(${target} PRIVATE ${studio_pch_${kind}})
    set_property(GLOBAL PROPERTY studio_pch_first_${kind} ${target})
  endif()
endfunction()
