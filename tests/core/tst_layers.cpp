// The house's layers as ARCHITECTURE.md draws them: core/ includes no Qt,
// widgets/ or app/; widgets/ never app/; and inside core/ each folder
// includes only the folders ARCHITECTURE.md's "Folder order" puts before
// it. The order is read from the document, so the map and the code cannot
// drift apart: a new folder must be placed there first.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <sstream>

#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path root()
{
    return fs::path(studio::test::sourcePath("").toStdString());
}

// Every .h and .cpp under `dir`, with the project includes each names.
std::vector<std::pair<fs::path, std::vector<std::string>>> includesUnder(const fs::path& dir)
{
    // (A raw string here would hide the class from moc.)
    static const std::regex include("#\\s*include\\s*[\"<]([^\">]+)[\">]");
    std::vector<std::pair<fs::path, std::vector<std::string>>> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const auto ext = e.path().extension();
        if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp"))
            continue;
        const std::string text = readAll(e.path());
        std::vector<std::string> names;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), include); it != std::sregex_iterator(); ++it)
            names.push_back((*it)[1]);
        out.emplace_back(e.path(), std::move(names));
    }
    return out;
}

}  // namespace

class TestLayers : public QObject {
    Q_OBJECT

private slots:
    void coreFoldersIncludeOnlyThoseBeforeThem()
    {
        // "Folder order (...): `json` → `kernels` → ..." in ARCHITECTURE.md.
        const std::string doc = readAll(root() / "ARCHITECTURE.md");
        const auto line = doc.find("Folder order");
        QVERIFY2(line != std::string::npos, "ARCHITECTURE.md states no folder order");
        const std::string stated = doc.substr(line, doc.find('\n', line) - line);
        std::vector<std::string> order;
        static const std::regex quoted("`([a-z_]+)`");
        for (auto it = std::sregex_iterator(stated.begin(), stated.end(), quoted); it != std::sregex_iterator(); ++it)
            order.push_back((*it)[1]);
        QVERIFY(order.size() >= 10);
        const auto rank = [&](const std::string& folder) {
            return std::find(order.begin(), order.end(), folder) - order.begin();
        };

        std::vector<std::string> backward;
        for (const auto& entry : fs::directory_iterator(root() / "core")) {
            if (!entry.is_directory())
                continue;
            const std::string folder = entry.path().filename().string();
            QVERIFY2(rank(folder) < std::ssize(order),
                     qPrintable(QString("core/%1 is not in ARCHITECTURE.md's folder order").arg(folder.c_str())));
            for (const auto& [file, names] : includesUnder(entry.path()))
                for (const std::string& name : names) {
                    static const std::regex coreFolder("^core/([a-z_]+)/");
                    std::smatch m;
                    if (std::regex_search(name, m, coreFolder) && rank(m[1]) > rank(folder))
                        backward.push_back(fs::relative(file, root()).string() + " -> " + name);
                }
        }
        QVERIFY2(backward.empty(),
                 qPrintable(QString::fromStdString(
                     "includes against the folder order: " +
                     std::accumulate(backward.begin(), backward.end(), std::string(),
                                     [](std::string a, const std::string& b) { return a + "\n  " + b; }))));
    }

    void theLayersPointDown()
    {
        std::vector<std::string> wrong;
        for (const auto& [file, names] : includesUnder(root() / "core"))
            for (const std::string& name : names)
                if (name.starts_with("Q") || name.starts_with("widgets/") || name.starts_with("app/"))
                    wrong.push_back(fs::relative(file, root()).string() + " -> " + name);
        for (const auto& [file, names] : includesUnder(root() / "widgets"))
            for (const std::string& name : names)
                if (name.starts_with("app/"))
                    wrong.push_back(fs::relative(file, root()).string() + " -> " + name);
        QVERIFY2(wrong.empty(), qPrintable(QString::fromStdString(wrong.empty() ? "" : wrong.front())));
    }
};

QTEST_APPLESS_MAIN(TestLayers)
#include "tst_layers.moc"
