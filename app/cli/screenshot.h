#pragma once
#include <QStringList>

namespace studio {

// `cluster-studio screenshot FILE -o OUT.png [--size WxH]`: renders the main
// window with FILE open, offscreen, into a PNG. Needs a QApplication.
int runScreenshot(const QStringList& args);

}  // namespace studio
