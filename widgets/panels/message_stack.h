#pragma once
// A panel's content, or in its place one centred sentence saying why there
// is nothing to show ("the workload is serving: the layout search lays out
// a training run", "the design has errors"): empty axes and an empty table
// under a one-line excuse tell a user less than the excuse alone.
#include <QStackedWidget>

class QLabel;

namespace studio {

class MessageStack : public QStackedWidget {
    Q_OBJECT
public:
    // Takes `content` (the summary, charts and tables of the panel), built
    // whole, as its first page. A page filled after it joined the stack is
    // not laid out when the design review draws a panel that was never
    // shown (its plots stayed 320 x 30 px).
    explicit MessageStack(QWidget* content, QWidget* parent = nullptr);
    void showContent();
    // Rich text; a second paragraph, muted, says where to go instead.
    void showMessage(const QString& html, const QString& hint = {});
    bool showsMessage() const { return currentIndex() == 1; }
    // The sentence shown (rich text), empty while the content shows.
    QString message() const;

private:
    QLabel* message_;
    QLabel* hint_;
};

}  // namespace studio
