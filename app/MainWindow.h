#pragma once
// The main window: rearrangeable docks (Graph, Devices, Timeline, Metrics, Models, History,
// Log) over one Document; opening by menu, recent files or drag-drop (loads run off the GUI
// thread and can be cancelled), sessions with autosave and recovery, edits, and export.
#include "core/io/LoadOptions.h"

#include <QFutureWatcher>
#include <QMainWindow>

#include <vector>

class QDockWidget;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;
class QAction;
class QMenu;

namespace ps {

class Cluster;
class ClusterTable;
class Constraints;
class DeviceView;
class RunManager;
class SteeringController;
class SteeringPanel;
struct SessionData;
struct SteeringLogDoc;
class Document;
class FileLoader;
class GraphView;
class MetricsView;
class RunsPanel;
class TimelineView;
struct LoadResult;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Document *document() const { return m_document; }
    GraphView *graphView() const { return m_graphView; }
    DeviceView *deviceView() const { return m_deviceView; }
    TimelineView *timelineView() const { return m_timeline; }
    MetricsView *metricsView() const { return m_metrics; }
    ClusterTable *clusterTable() const { return m_clusterTable; }
    RunsPanel *runsPanel() const { return m_runs; }
    SteeringPanel *steeringPanel() const { return m_steering; }
    FileLoader *loader() const { return m_loader; }
    QDockWidget *dock(const QString &name) const;
    QString logText() const;
    // Errors shown since the window opened (files that failed to open, runs that failed), and
    // the last one's text: a scripted screenshot reports them in its exit status.
    int errorCount() const { return m_errorCount; }
    QString lastError() const { return m_lastError; }
    // The About box: version, LibTorch, the BLAS it uses and its threads.
    static QString aboutText();
    const std::vector<int> &selection() const { return m_selection; }
    // The graph view's menu for `nodes` (selected first): move, pin or prefer a device (in
    // submenus of 32-64 devices on a large cluster), unpin, keep together, mark as important.
    // The caller owns it.
    QMenu *contextMenu(const std::vector<int> &nodes);

    // Opens files of any kind (they go where they belong); a session replaces everything.
    void openFiles(const QStringList &paths, const LoadOptions &options = {});
    // The built-in example: Inception-V3 on the 4-GPU preset, placed by `human`.
    void openExample();
    // The last cluster used (a preset or a file), else the 4gpu preset; said in the Log.
    void openDefaultCluster();
    void usePresetCluster(const QString &why); // the 4gpu preset, logged after `why`
    // A built-in generator's graph at its defaults, generated and placed in the loader thread.
    void openGenerated(const QString &generator);
    // Writes the session on another thread from a copy of it (the window stays responsive);
    // `wait`: returns once it is written. False when it could not be (said in a message).
    bool saveSessionTo(const QString &path, bool wait = true);
    bool saving() const;
    void setSelection(const std::vector<int> &nodes);
    void assignSelection(int device);
    void cancelLoading();
    bool busy() const; // loading, laying out, running a model or saving

    // Edits since the session was saved, or results (model runs, steering rounds) it does not hold.
    bool unsaved() const;
    // Export ▸ Cluster as JSON. With no graph open the cluster is all the work there is (no session
    // holds it), so writing it leaves nothing unsaved.
    bool exportCluster(const QString &path);
    // Autosave: every 30 s while there is unsaved work, written on another thread from a copy of
    // the session (the window does not wait for it); removed on a clean exit.
    static QString autosavePath();
    void autosaveNow();
    bool autosaving() const;
    bool recoverAutosave(); // loads it if present; true when it did

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createDocks();
    void createMenus();
    void loaded(const LoadResult &result);
    void apply(const LoadResult &result);
    // Opens clusters first, one at a time off the GUI thread, then the rest on the last of them.
    void openInOrder(const QStringList &paths, const LoadOptions &options);
    void refreshPlacement();
    void refreshGraph();
    void refreshCluster();
    // A warning in the Log when no placement on the cluster can hold the graph and its pins in
    // memory (said once per reason: a graph or cluster opened, a memory edited or a pin set that
    // changes it).
    void sayWhenNothingFits(const Constraints &constraints); // the document's, built once by the caller
    void refreshAssignMenu();
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    void log(const QString &text);
    void showError(const QString &text);
    // An error that needs no dialog (a run that failed says why in its own row): logged, in the
    // status bar, and counted (the exit status of --screenshot).
    void noteError(const QString &text);
    using ExportFunction = void (*)(const QString &, const Document &);
    // A file of `kind` named *`extension` (added when the name has none), asked for; empty when
    // the dialog was cancelled.
    QString askExportPath(const QString &title, const QString &kind, const QString &extension);
    // Writes `path` (logged, or an error shown): whether it was written. `note`, where given, says
    // in the Log what the file written leaves out of the placement.
    using ExportNote = QString (*)(const Document &);
    bool exportTo(const QString &path, ExportFunction write, ExportNote note = nullptr);
    void exportImage();
    void openDialog();
    void saveSession(bool ask, bool wait);
    bool finishSave(); // the save's outcome: logged, or shown as an error
    void runSearch();
    void updateTitle();
    void showContextMenu(const std::vector<int> &nodes, const QPoint &globalPos);
    void restoreSession(const SessionData &session);
    // A steering log (placement-cli steer --log) of the open graph and cluster, into the Steering dock.
    void openSteeringLog(const QString &path, const SteeringLogDoc &steering);
    // A cluster for the document; with a graph open it is placed there in the worker pool first.
    void switchCluster(const Cluster &cluster, const QString &path);
    SessionData sessionSnapshot() const;
    void markSaved();
    // Work on the open graph that no session file holds (edits, runs, steering) would go with it
    // when another graph or a session replaces it: it is written first to a session file of its
    // own (the newest five kept), which the log names and Open Recent lists.
    void keepUnsavedWork();
    // An autosave of work that a saved session or a kept file now holds would bring back, after a
    // crash, older work than the person has: removed once nothing is unsaved.
    void dropStaleAutosave();

    Document *m_document;
    FileLoader *m_loader;
    GraphView *m_graphView;
    DeviceView *m_deviceView;
    ClusterTable *m_clusterTable;
    TimelineView *m_timeline;
    MetricsView *m_metrics;
    RunManager *m_runManager;
    RunsPanel *m_runs;
    SteeringController *m_steeringController;
    SteeringPanel *m_steering;
    QPlainTextEdit *m_log;
    QLineEdit *m_search;
    QProgressBar *m_progress;
    QPushButton *m_cancelLoad;
    QLabel *m_status;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_assignMenu = nullptr;       // Edit ▸ Assign Selection to Device
    std::vector<QAction *> m_assignKeys; // its number keys 1-9, for the first nine devices
    QTimer *m_autosave;
    std::vector<QDockWidget *> m_docks;
    std::vector<int> m_selection, m_searchHits;
    size_t m_searchIndex = 0;
    QString m_lastSearch;
    int m_autosavedIndex = -1;
    quint64 m_work = 0, m_savedWork = 0, m_autosavedWork = 0; // results that ended: runs, steering work
    QFutureWatcher<QString> *m_saving, *m_autosaving, *m_keeping;
    QString m_keepingPath; // of the work being kept
    QString m_savingPath;  // of the save in flight
    int m_errorCount = 0;
    QString m_lastError;
    QString m_nothingFits; // the reason last said by sayWhenNothingFits (empty: everything fits)
    // A model file picked in the Open dialog: import options (batch size, input shapes).
    LoadOptions askImportOptions(const QString &path, bool *ok);
    // Files the person picked (the Open dialog, a drop, the Recent menu): a model file among them
    // asks for its import options first (before, only the Open dialog asked, so a dropped ONNX
    // model with a symbolic batch opened with 0 FLOPs); Cancel opens none of them.
    void openPicked(const QStringList &paths);
};

} // namespace ps
