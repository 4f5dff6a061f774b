#include "app/main_window.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QTextBrowser>

#include "core/metrics/metrics.h"
#include "core/text.h"
#include "widgets/document/design_document.h"

namespace studio {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), document_(new DesignDocument(this)), summary_(new QTextBrowser(this))
{
    setCentralWidget(summary_);
    summary_->setOpenLinks(false);
    resize(1280, 800);
    connect(document_, &DesignDocument::reset, this, &MainWindow::refresh);
    connect(document_, &DesignDocument::filePathChanged, this, &MainWindow::updateTitle);
    refresh();
    updateTitle();
}

bool MainWindow::openFile(const QString& path)
{
    std::vector<Problem> problems;
    if (document_->load(path, Catalog::builtin(), &problems))
        return true;
    QStringList lines;
    for (const auto& p : problems)
        lines << QString::fromStdString(formatProblem(QFileInfo(path).fileName().toStdString(), p));
    QMessageBox::warning(this, tr("Cannot open design"),
                         tr("%1 could not be opened:\n\n%2").arg(path, lines.join('\n')));
    return false;
}

void MainWindow::refresh()
{
    if (document_->filePath().isEmpty()) {
        summary_->setHtml(tr("<h2>Cluster Studio</h2><p>Open a design (a <code>*.cluster.json</code> file) "
                             "to see its inventory.</p>"));
        return;
    }
    const Json m = computeMetrics(document_->design(), document_->catalog());
    const Json& inv = m["inventory"];
    auto count = [&inv](const char* key) { return QString::fromStdString(formatCount(inv[key].get<std::int64_t>())); };
    QString html = tr("<h2>%1</h2>").arg(QString::fromStdString(document_->design().name).toHtmlEscaped());
    html += "<table cellpadding='4'>";
    const std::pair<QString, QString> rows[] = {
        {tr("GPUs"), count("gpus") + " x " + QString::fromStdString(inv["gpu_name"].get<std::string>()).toHtmlEscaped()},
        {tr("Nodes"), count("nodes")},
        {tr("Racks"), count("racks")},
        {tr("NICs"), count("nics")},
        {tr("Switches"), QString::fromStdString(formatCount(inv["switches"]["total"].get<std::int64_t>()))},
        {tr("Storage systems"), count("storage_systems")},
        {tr("Cables"), QString::fromStdString(formatCount(inv["cables"]["total"].get<std::int64_t>()))},
    };
    for (const auto& [label, value] : rows)
        html += "<tr><td><b>" + label + "</b></td><td>" + value + "</td></tr>";
    html += "</table>";
    summary_->setHtml(html);
}

void MainWindow::updateTitle()
{
    const QString path = document_->filePath();
    setWindowTitle(path.isEmpty() ? tr("Cluster Studio")
                                  : tr("%1 - Cluster Studio").arg(QFileInfo(path).fileName()));
}

}  // namespace studio
