#pragma once
// The workload dock: training or serving, the model (from a preset or by
// hand), training sizes, the serving load and targets, the parallel layout
// and the data pipeline, every `workload` field of the file format. Each change goes through the DesignEditor like a canvas
// edit. Values that cannot run are refused with the reason (tp x pp x cp
// does not divide the GPUs, heads do not split over tp, ...), and the
// layout fields' arrows step over them.
#include <QHash>
#include <QWidget>

#include <functional>
#include <string_view>
#include <vector>

#include "core/design/design.h"
#include "core/format/design_fields.h"
#include "widgets/document/design_editor.h"

class QComboBox;
class QFormLayout;
class QLabel;

namespace studio {

class AnalysisService;
class DesignDocument;
class LayoutSearchService;

class WorkloadPanel : public QWidget {
    Q_OBJECT
public:
    WorkloadPanel(DesignDocument* document, AnalysisService* service, QWidget* parent = nullptr);

    // The field that edits a file-format pointer ("/workload/parallelism/tp").
    QWidget* field(const QString& pointer) const { return fields_.value(pointer); }
    QComboBox* presetBox() const { return preset_; }
    // Why the last edit was refused ("" when it was applied).
    QString lastRefusal() const { return refusal_; }
    // The model and layout in a sentence, as shown (rich text).
    QString summary() const;
    // "" when `proposed` may replace the design's workload, else why not.
    QString refusalOf(const Workload& proposed) const;
    // Shows how the current layout ranks in the layout search, updated with
    // every search (so after every edit).
    void setLayoutSearch(LayoutSearchService* search);
    QString layoutRank() const;

signals:
    void message(const QString& text);
    void layoutsRequested();  // the rank's link: show the Layouts panel

protected:
    void showEvent(QShowEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    // Applies `edit` to a copy of the workload; pushes it unless refused.
    bool apply(const QString& undoText, int mergeKey, const std::function<void(Workload&)>& edit);
    void usePreset(int index);
    // Makes the workload `kind`, giving it the section it lacks.
    void switchKind(Workload& w, WorkloadKind kind);
    static ServingSpec defaultServing();
    void refreshValues();
    void refreshSummary();
    void refreshRank();
    void showRefusal(const QString& why);
    void addSection(const QString& title);
    void addRow(const QString& label, const QString& pointer, QWidget* field, const QString& help);
    void intField(const QString& label, const QString& pointer, std::int64_t min, std::int64_t max,
                  std::function<std::int64_t(const Workload&)> get, std::function<void(Workload&, std::int64_t)> set,
                  const QString& help, const QString& special = {});
    void doubleField(const QString& label, const QString& pointer, double min, double max, int decimals, double scale,
                     const QString& suffix, std::function<double(const Workload&)> get,
                     std::function<void(Workload&, double)> set, const QString& help, const QString& special = {});
    // One choice of a combo box: the value the file writes, what it shows,
    // and its tooltip.
    struct Choice {
        QString value, text, tip;
    };
    void choiceField(const QString& label, const QString& pointer, std::function<std::vector<Choice>()> options,
                     std::function<QString(const Workload&)> get, std::function<void(Workload&, const QString&)> set,
                     const QString& help);
    void choiceField(const QString& label, const QString& pointer,
                     const std::vector<std::pair<QString, QString>>& options,
                     std::function<QString(const Workload&)> get, std::function<void(Workload&, const QString&)> set,
                     const QString& help);
    // How a design-file field shows in the dock; all else about it (its
    // pointer, range, choices and a choice's default) is its row of the
    // file's tables (core/format/design_fields.h).
    struct Look {
        QString special;  // what the range's lowest value shows ("auto", "dense", "engine default")
        // An unset optional number's or flag's value (a flag: 0 off); none: 0.
        std::function<double(const Workload&)> fallback;
        bool zeroUnsets = false;  // 0 leaves an optional number out (no target, the engine's default)
        double scale = 1;         // a number shows value / scale (tokens in billions, seconds in ms)
        int decimals = 0;
        QString suffix;
        // What each choice shows, by its value; a whole number with labels
        // is offered as a choice of them.
        std::vector<std::pair<QString, QString>> labels;
    };
    // A section of the workload: where it is in the file, its table, and
    // how to read it from a workload and to edit it in one (creating it).
    template <typename S>
    struct WorkloadPart {
        QString pointer;
        const fields::Table<S>& table;
        std::function<S(const Workload&)> get;
        std::function<S&(Workload&)> edit;
    };
    // The row of `part`'s field `key`: a spin box, a choice or an on/off
    // switch, as its type in the table says.
    template <typename S>
    void tableField(const WorkloadPart<S>& part, std::string_view key, const QString& label, const QString& help,
                    const Look& look = {});

    // The form's rows of each section (its heading first, `end` past its last).
    struct Section {
        QString title;
        int first = 0, end = 0;
    };
    std::vector<Section> sections_;
    DesignDocument* doc_;
    DesignEditor editor_;
    AnalysisService* service_;
    QFormLayout* form_;
    QComboBox* preset_;
    QLabel *summary_, *refusalLabel_, *rank_;
    LayoutSearchService* search_ = nullptr;
    bool summaryStale_ = false;
    QHash<QString, QWidget*> fields_;
    std::vector<std::function<void()>> refreshers_;
    QString refusal_;
};

}  // namespace studio
