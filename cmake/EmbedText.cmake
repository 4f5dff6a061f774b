# Turns a text file into a C++ source defining `std::string_view NAME()`, so
# the Qt-free core carries its built-in data without a resource system.
# Invoked at build time: cmake -DIN=... -DOUT=... -DNAME=... -DNAMESPACE=... -P
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR bytes "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," body "${hex}")
string(REGEX REPLACE "(([^,]*,){24})" "\\1\n" body "${body}")
file(WRITE "${OUT}.tmp"
"// Generated from ${IN} by cmake/EmbedText.cmake; do not edit.\n"
"#include <string_view>\n"
"namespace ${NAMESPACE} {\n"
"static const char kData[] = {\n${body}'\\0'};\n"
"std::string_view ${NAME}() { return std::string_view(kData, ${bytes}); }\n"
"}\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
