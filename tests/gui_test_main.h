#pragma once
// The main() of every test that opens widgets: Qt's test mode for standard
// paths is on before the application exists, so settings, autosave and
// recovery files go to a test location (~/.qttest) and never touch the
// user's own. The application class is a parameter so a test can run under
// the studio's own (StudioApplication).
#include <QApplication>
#include <QStandardPaths>
#include <QtTest>

#include "widgets/style/theme.h"

#define STUDIO_TEST_MAIN_WITH(TestObject, Application)                                                                 \
    int main(int argc, char** argv)                                                                                    \
    {                                                                                                                  \
        QStandardPaths::setTestModeEnabled(true);                                                                      \
        Application app(argc, argv);                                                                                   \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                                       \
        studio::preferUnshapedText();                                                                                  \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }

#define STUDIO_TEST_MAIN(TestObject) STUDIO_TEST_MAIN_WITH(TestObject, QApplication)
