#include "app/MainWindow.h"

#include "app/Document.h"
#include "app/Exporter.h"
#include "app/FileLoader.h"
#include "app/RunManager.h"
#include "app/RunsPanel.h"
#include "app/Session.h"
#include "app/SteeringController.h"
#include "app/SteeringPanel.h"
#include "core/InputError.h"
#include "core/generators/Generators.h"
#include "core/io/ClusterJson.h"
#include "core/io/FileKind.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/steering/SteeringLog.h"
#include "models/ModelImporters.h"
#include "views/ClusterTable.h"
#include "views/DeviceView.h"
#include "views/Format.h"
#include "views/GraphView.h"
#include "views/MetricsView.h"
#include "views/TimelineView.h"
#include "views/WorkerPool.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTime>
#include <QTimer>
#include <QToolBar>
#include <QUndoView>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <utility>

namespace ps {

namespace {
constexpr int kMaxRecent = 10;
constexpr int kAutosaveMs = 30000;

bool isGraphFile(const QString &path)
{
    try {
        return !FileLoader::isSession(path) && kindOf(formatFromName(path.toStdString())) == FileKind::Graph;
    } catch (const InputError &) {
        return false;
    }
}

QByteArray resourceBytes(const QString &name)
{
    QFile f(name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A built-in cluster preset by its file name ("4gpu.cluster.json").
Cluster presetCluster(const QString &file)
{
    return parseClusterJson(resourceBytes(":/clusters/" + file).toStdString(), file.toStdString());
}

// The first model file (.onnx, .pt) among paths, which asks for its import options; end() if none.
QStringList::const_iterator firstModelFile(const QStringList &paths)
{
    return std::find_if(paths.begin(), paths.end(), [](const QString &p) { return isModelFile(p.toStdString()); });
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_document(new Document(this)), m_loader(new FileLoader(this))
{
    setWindowTitle(tr("Placement Studio"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    // The right-hand docks run the window's full height and the Timeline sits under the graph:
    // the Steering and Models docks get room, and the Timeline its rows.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resize(1400, 900);
    createDocks();
    createMenus();

    m_status = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    m_cancelLoad = new QPushButton(tr("Cancel"), this);
    m_cancelLoad->hide();
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelLoad);
    connect(m_cancelLoad, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    connect(m_loader, &FileLoader::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_cancelLoad->setVisible(busy);
        if (busy)
            m_status->setText(tr("Loading…"));
    });
    connect(m_loader, &FileLoader::finished, this, &MainWindow::loaded);

    connect(m_document, &Document::graphChanged, this, &MainWindow::refreshGraph);
    connect(m_document, &Document::clusterChanged, this, &MainWindow::refreshCluster);
    connect(m_document, &Document::placementChanged, this, &MainWindow::refreshPlacement);
    connect(m_document, &Document::message, this, &MainWindow::log);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_document->undoStack(), &QUndoStack::indexChanged, this, &MainWindow::updateTitle);

    // A finished run, steering round or ensemble is work the saved session does not hold (the
    // autosave writes each round of an Auto-steer as it ends).
    auto workEnded = [this] {
        ++m_work;
        updateTitle();
    };
    connect(m_runManager, &RunManager::runFinished, this, workEnded);
    connect(m_steeringController, &SteeringController::roundEnded, this, workEnded);
    connect(m_steeringController, &SteeringController::finished, this, workEnded);
    m_saving = new QFutureWatcher<QString>(this);
    connect(m_saving, &QFutureWatcher<QString>::finished, this, &MainWindow::finishSave);
    m_autosaving = new QFutureWatcher<QString>(this);
    connect(m_autosaving, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = m_autosaving->result();
        if (error.isEmpty())
            return;
        log(tr("Autosave failed: %1").arg(error));
        m_autosavedIndex = -1; // try again at the next tick
    });
    m_keeping = new QFutureWatcher<QString>(this);
    connect(m_keeping, &QFutureWatcher<QString>::finished, this, [this] {
        if (const QString error = m_keeping->result(); !error.isEmpty()) {
            showError(tr("The unsaved work could not be kept: %1").arg(error));
        } else {
            addRecent(m_keepingPath);
            dropStaleAutosave();
        }
    });
    m_autosave = new QTimer(this);
    m_autosave->setInterval(kAutosaveMs);
    connect(m_autosave, &QTimer::timeout, this, &MainWindow::autosaveNow);
    m_autosave->start();

    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    rebuildRecentMenu();
    updateTitle();
}

MainWindow::~MainWindow()
{
    // Steering works on the run manager's pool, which waits for its tasks when it goes (before the
    // steering controller, which would cancel them): cancel them first.
    m_steeringController->cancel();
    m_saving->waitForFinished();
    m_autosaving->waitForFinished();
    m_keeping->waitForFinished();
}

void MainWindow::createDocks()
{
    auto makeDock = [this](const QString &name, const QString &title, QWidget *widget, Qt::DockWidgetArea area) {
        auto *dock = new QDockWidget(title, this);
        dock->setObjectName(name); // saveState() needs it
        dock->setWidget(widget);
        addDockWidget(area, dock);
        m_docks.push_back(dock);
        return dock;
    };
    // Graph: the search field above the view.
    auto *graphBox = new QWidget;
    m_search = new QLineEdit(graphBox);
    m_search->setPlaceholderText(tr("Find ops by id, op type or scope (Enter: next)"));
    m_search->setClearButtonEnabled(true);
    m_graphView = new GraphView(graphBox);
    auto *graphLayout = new QVBoxLayout(graphBox);
    graphLayout->setContentsMargins(0, 0, 0, 0);
    graphLayout->setSpacing(2);
    graphLayout->addWidget(m_search);
    graphLayout->addWidget(m_graphView);
    connect(m_search, &QLineEdit::returnPressed, this, &MainWindow::runSearch);
    connect(m_graphView, &GraphView::selectionChangedByUser, this, &MainWindow::setSelection);
    connect(m_graphView, &GraphView::contextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_graphView, &GraphView::layoutFinished, this,
            [this](qint64 ms, int items) { log(tr("Layout of %1 visible items in %2 ms").arg(items).arg(ms)); });

    auto *devicesTabs = new QTabWidget;
    m_deviceView = new DeviceView;
    m_clusterTable = new ClusterTable;
    devicesTabs->addTab(m_deviceView, tr("Cards"));
    devicesTabs->addTab(m_clusterTable, tr("Edit cluster"));
    connect(m_deviceView, &DeviceView::nodesDropped, this,
            [this](int device, const std::vector<int> &nodes) { m_document->assign(nodes, device); });
    connect(m_deviceView, &DeviceView::deviceActivated, this, [this](int device) {
        std::vector<int> nodes;
        for (size_t v = 0; v < m_document->placement().size(); ++v)
            if (m_document->placement()[v] == device)
                nodes.push_back(static_cast<int>(v));
        setSelection(nodes);
    });
    connect(m_clusterTable, &ClusterTable::clusterEdited, this,
            [this](const std::shared_ptr<const Cluster> &c) { m_document->editCluster(c); });

    m_timeline = new TimelineView;
    connect(m_timeline, &TimelineView::opClicked, this, [this](int v) {
        setSelection({v});
        m_graphView->reveal(v);
    });
    m_metrics = new MetricsView;
    m_runManager = new RunManager(this);
    m_runs = new RunsPanel(m_runManager);
    connect(m_runs, &RunsPanel::applyRequested, this, [this](const std::vector<int> &devices, const QString &what) {
        m_document->applyPlacement(devices, what);
    });
    connect(m_runs, &RunsPanel::log, this, &MainWindow::log);
    connect(m_runs, &RunsPanel::refused, this, &MainWindow::showError);
    connect(m_runs, &RunsPanel::failed, this, &MainWindow::noteError);
    m_steeringController = new SteeringController(m_runManager->pool(), this);
    m_steering = new SteeringPanel(m_steeringController, m_document->undoStack());
    connect(
        m_steering, &SteeringPanel::applyRequested, this,
        [this](const std::vector<int> &devices, const QString &what) { m_document->applyPlacement(devices, what); });
    connect(m_steering, &SteeringPanel::opsHighlighted, this,
            [this](const std::vector<int> &nodes, const QString &why) {
                setSelection(nodes);
                if (!nodes.empty())
                    m_graphView->reveal(nodes.front());
                log(why);
                m_status->setText(why);
            });
    connect(m_steering, &SteeringPanel::log, this, &MainWindow::log);
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    auto *history = new QUndoView(m_document->undoStack());
    history->setEmptyLabel(tr("<opened>"));

    makeDock("graph", tr("Graph"), graphBox, Qt::LeftDockWidgetArea);
    QDockWidget *devices = makeDock("devices", tr("Devices"), devicesTabs, Qt::RightDockWidgetArea);
    QDockWidget *metrics = makeDock("metrics", tr("Metrics"), m_metrics, Qt::RightDockWidgetArea);
    QDockWidget *models = makeDock("models", tr("Models"), m_runs, Qt::RightDockWidgetArea);
    QDockWidget *steering = makeDock("steering", tr("Steering"), m_steering, Qt::RightDockWidgetArea);
    QDockWidget *historyDock = makeDock("history", tr("History"), history, Qt::RightDockWidgetArea);
    makeDock("timeline", tr("Timeline"), m_timeline, Qt::BottomDockWidgetArea);
    QDockWidget *logDock = makeDock("log", tr("Log"), m_log, Qt::BottomDockWidgetArea);
    tabifyDockWidget(metrics, models);
    tabifyDockWidget(models, steering);
    tabifyDockWidget(steering, historyDock);
    metrics->raise();
    tabifyDockWidget(dock("timeline"), logDock);
    dock("timeline")->raise();
    // Default proportions, once the window has its size (a saved layout replaces them).
    QTimer::singleShot(0, this, [this, devices, metrics] {
        if (!QSettings().contains("window/state")) {
            resizeDocks({dock("graph"), devices}, {880, 520}, Qt::Horizontal);
            resizeDocks({devices, metrics}, {230, 400}, Qt::Vertical);
            resizeDocks({dock("graph"), dock("timeline")}, {600, 250}, Qt::Vertical);
        }
    });
}

QDockWidget *MainWindow::dock(const QString &name) const
{
    for (QDockWidget *d : m_docks)
        if (d->objectName() == name || d->windowTitle().compare(name, Qt::CaseInsensitive) == 0)
            return d;
    return nullptr;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu); // files come and go
    file->addAction(tr("Open &Example"), this, &MainWindow::openExample);
    QMenu *generate = file->addMenu(tr("&Generate"));
    for (const GeneratorInfo &g : generators()) {
        QAction *a = generate->addAction(QString::fromStdString(g.name));
        a->setToolTip(QString::fromStdString(g.description));
        connect(a, &QAction::triggered, this, [this, name = QString::fromStdString(g.name)] { openGenerated(name); });
    }
    QMenu *clusters = file->addMenu(tr("&Cluster Preset"));
    for (const QString &preset : QDir(":/clusters").entryList()) {
        connect(clusters->addAction(preset.section('.', 0, 0)), &QAction::triggered, this, [this, preset] {
            try {
                switchCluster(presetCluster(preset), {});
                QSettings().setValue("cluster/last", "preset:" + preset);
                log(tr("Cluster preset %1").arg(preset));
            } catch (const InputError &e) {
                showError(QString::fromStdString(e.what()));
            }
        });
    }
    file->addSeparator();
    file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] { saveSession(false, false); })
        ->setObjectName("saveSession");
    file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, this, [this] { saveSession(true, false); });
    QMenu *exports = file->addMenu(tr("&Export"));
    const auto exportAction = [this, exports](const QString &text, const QString &title, const QString &kind,
                                              const QString &extension, ExportFunction write,
                                              ExportNote note = nullptr) {
        exports->addAction(text, this, [=] {
            if (const QString path = askExportPath(title, kind, extension); !path.isEmpty())
                exportTo(path, write, note);
        });
    };
    exportAction(tr("Placement as JSON…"), tr("Export placement"), tr("Placement"), ".placement.json",
                 exportPlacementJson);
    exportAction(tr("Placement as CSV…"), tr("Export placement"), tr("CSV"), ".csv", exportPlacementCsv);
    exportAction(tr("Graph as DOT, coloured by device…"), tr("Export DOT"), tr("Graphviz"), ".dot", exportPlacementDot);
    exportAction(tr("Graph as JSON…"), tr("Export graph"), tr("Graph"), ".graph.json", exportGraphJson);
    exports->addAction(tr("Cluster as JSON (with its edits)…"), this, [this] {
        if (const QString path = askExportPath(tr("Export cluster"), tr("Cluster"), ".cluster.json"); !path.isEmpty())
            exportCluster(path);
    });
    exportAction(tr("Timeline as CSV…"), tr("Export timeline"), tr("CSV"), ".csv", exportTimelineCsv);
    exportAction(tr("PyTorch device_map (JSON)…"), tr("Export device_map"), tr("JSON"), ".json", exportTorchDeviceMap,
                 torchDeviceMapNote);
    exportAction(tr("TensorFlow devices per op (JSON)…"), tr("Export TensorFlow devices"), tr("JSON"), ".json",
                 exportTensorFlowDevices);
    exports->addAction(tr("View as PNG or SVG…"), this, &MainWindow::exportImage);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    m_assignMenu = edit->addMenu(tr("&Assign Selection to Device")); // filled by refreshCluster
    for (int d = 0; d < 9; ++d) {
        QAction *a = new QAction(this);
        a->setShortcut(QKeySequence(Qt::Key_1 + d));
        connect(a, &QAction::triggered, this, [this, d] { assignSelection(d); });
        addAction(a); // shortcuts work while the menu is closed
        m_assignKeys.push_back(a);
    }
    refreshAssignMenu();
    edit->addAction(tr("&Pin Selection"), QKeySequence(tr("Ctrl+P")), this,
                    [this] { m_document->setPinned(m_selection, true); });
    edit->addAction(tr("U&npin Selection"), QKeySequence(tr("Ctrl+Shift+P")), this,
                    [this] { m_document->setPinned(m_selection, false); });
    edit->addAction(tr("Select &All"), QKeySequence::SelectAll, this, [this] {
        std::vector<int> all(m_document->placement().size());
        for (size_t v = 0; v < all.size(); ++v)
            all[v] = static_cast<int>(v);
        setSelection(all);
    });
    edit->addAction(tr("&Find"), QKeySequence::Find, this, [this] {
        dock("graph")->raise();
        m_search->setFocus();
        m_search->selectAll();
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Zoom to &Fit"), QKeySequence(tr("Ctrl+0")), m_graphView, &GraphView::zoomToFit);
    view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] { m_graphView->zoomBy(1.25); });
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { m_graphView->zoomBy(0.8); });
    view->addSeparator();
    view->addAction(tr("Expand Scopes (up to 2,000 items)"), this, [this] { m_graphView->expandToBudget(2000); });
    view->addAction(tr("Collapse Scopes"), this, [this] { m_graphView->expandToBudget(150); });
    view->addSeparator();
    for (QDockWidget *d : m_docks)
        view->addAction(d->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Placement Studio"), this,
                    [this] { QMessageBox::about(this, tr("About Placement Studio"), aboutText()); });
}

QString MainWindow::aboutText()
{
    return tr("Placement Studio %1\nPlaces and partitions computation graphs on device clusters.\n%2")
        .arg(PS_VERSION, QString::fromStdString(learnerRuntime()));
}

void MainWindow::log(const QString &text)
{
    m_log->appendPlainText(QTime::currentTime().toString("HH:mm:ss  ") + text);
}

QString MainWindow::logText() const
{
    return m_log->toPlainText();
}

void MainWindow::noteError(const QString &text)
{
    ++m_errorCount;
    m_lastError = text;
    log(tr("Error: %1").arg(text));
    statusBar()->showMessage(text, 10000);
}

void MainWindow::showError(const QString &text)
{
    noteError(text);
    if (isVisible() && !QApplication::platformName().contains("offscreen"))
        QMessageBox::warning(this, tr("Placement Studio"), text);
}

void MainWindow::updateTitle()
{
    QString name = m_document->sessionPath.isEmpty()
                       ? (m_document->graph() ? QString::fromStdString(m_document->graph()->name()) : tr("untitled"))
                       : QFileInfo(m_document->sessionPath).fileName();
    setWindowTitle(name + (unsaved() ? " *" : "") + tr(" — Placement Studio"));
}

// ---- opening -------------------------------------------------------------------------------

void MainWindow::openFiles(const QStringList &paths, const LoadOptions &options)
{
    // A graph opened with no cluster open (and none among the files) goes on the last cluster
    // used, or the 4gpu preset, so that it opens placed and simulated.
    const bool clusterAmong = std::any_of(paths.begin(), paths.end(), [](const QString &p) {
        return FileLoader::isCluster(p) || FileLoader::isSession(p);
    });
    QStringList ordered;
    if (m_document->cluster().deviceCount() == 0 && !clusterAmong) {
        const QString last = QSettings().value("cluster/last").toString();
        if (!last.startsWith("preset:") && QFileInfo(last).isFile()) {
            // Read in the loader like a dropped one (4,096 devices: 0.2-1 s here).
            log(tr("No cluster was open: using the last one, %1").arg(last));
            ordered << last;
        } else {
            openDefaultCluster();
        }
    }
    // Clusters first, so that a graph among the files is placed on its cluster in the loader
    // thread (placed here once both had arrived, the 58k-op GNMT held the window 0.4 s); then
    // graphs and sessions, then what applies to them (placements, partitions). The loader hands
    // results back in this order.
    auto rank = [](const QString &p) {
        return FileLoader::isCluster(p) ? 0 : isGraphFile(p) || FileLoader::isSession(p) ? 1 : 2;
    };
    QStringList given = paths;
    std::stable_sort(given.begin(), given.end(), [&](const QString &a, const QString &b) { return rank(a) < rank(b); });
    openInOrder(ordered + given, options);
}

void MainWindow::openInOrder(const QStringList &paths, const LoadOptions &options)
{
    if (paths.isEmpty())
        return;
    if (FileLoader::isCluster(paths.front())) {
        // Read in the loader too: 4,096 devices held the window 0.9-1.2 s. The rest follows once
        // it is in place (LoadResult::then).
        log(tr("Opening %1").arg(paths.front()));
        m_loader->load(paths.front(), options, nullptr, paths.mid(1));
        return;
    }
    if (m_document->cluster().deviceCount() == 0 && std::any_of(paths.begin(), paths.end(), isGraphFile)) {
        // The cluster before them could not be read (the last one used, gone bad): the preset.
        usePresetCluster(tr("No cluster could be opened"));
    }
    const auto cluster = m_document->sharedCluster();
    for (const QString &path : paths) {
        log(tr("Opening %1").arg(path));
        m_loader->load(path, options, cluster->deviceCount() > 0 ? cluster : nullptr);
    }
}

void MainWindow::openDefaultCluster()
{
    const QString last = QSettings().value("cluster/last").toString();
    if (!last.isEmpty()) {
        try {
            const bool preset = last.startsWith("preset:");
            const QString name = preset ? last.mid(7) : last;
            const Cluster c = preset ? presetCluster(name) : readClusterJson(name.toStdString());
            m_document->setCluster(c, preset ? QString() : name);
            log(tr("No cluster was open: using the last one, %1").arg(name));
            return;
        } catch (const InputError &e) {
            log(tr("The last cluster, %1, cannot be read (%2); using the 4gpu preset").arg(last, e.what()));
        }
    }
    usePresetCluster(tr("No cluster was open"));
}

void MainWindow::usePresetCluster(const QString &why)
{
    m_document->setCluster(presetCluster("4gpu.cluster.json"), {});
    log(tr("%1: using the 4gpu preset (File > Cluster Preset to change it)").arg(why));
}

void MainWindow::switchCluster(const Cluster &cluster, const QString &path)
{
    if (!m_document->graph()) {
        m_document->setCluster(cluster, path);
        return;
    }
    // The ops whose device is gone are placed anew: on the 58k-op GNMT that held the window 0.4-0.7 s.
    m_loader->placeOn(m_document->graph(), cluster, path);
    m_status->setText( // after the loader's "Loading…"
        tr("Placing the graph on %1…").arg(path.isEmpty() ? tr("the preset") : QFileInfo(path).fileName()));
}

void MainWindow::cancelLoading()
{
    if (m_loader->inFlight() == 0)
        return;
    m_loader->cancel();
    log(tr("Loading cancelled"));
    m_status->setText(tr("Loading cancelled"));
}

bool MainWindow::busy() const
{
    return m_loader->inFlight() > 0 || m_graphView->layoutRunning() || m_runs->anyRunning() ||
           m_steeringController->running() || saving() || m_keeping->isRunning();
}

void MainWindow::loaded(const LoadResult &r)
{
    apply(r);
    openInOrder(r.then, r.thenOptions); // what was opened with it (a cluster's graph)
}

void MainWindow::apply(const LoadResult &r)
{
    if (!r.error.isEmpty()) {
        showError(r.error);
        m_status->clear();
        return;
    }
    if (!r.placedGraph && r.generated.isEmpty())
        addRecent(r.path);
    if (r.session) {
        const SessionData &s = *r.session;
        keepUnsavedWork();
        restoreSession(s);
        m_document->sessionPath = r.path;
        log(tr("Session %1 restored").arg(r.path));
        updateTitle();
        return;
    }
    if (r.steering) {
        openSteeringLog(r.path, *r.steering);
        return;
    }
    LoadedFile &f = *r.file;
    auto namingTheFile = [&](auto resolve) { // what does not fit the graph, said with the file's name
        try {
            return resolve();
        } catch (const InputError &e) {
            rethrowWithContext(e, r.path.toStdString());
        }
    };
    for (const std::string &w : f.warnings)
        log(tr("Warning: %1: %2").arg(r.path, QString::fromStdString(w)));
    try {
        if (f.graph) {
            auto graph = std::make_shared<const Graph>(std::move(*f.graph));
            if (r.generated.isEmpty())
                log(tr("Graph %1: %2 ops, %3 edges").arg(r.path).arg(graph->nodeCount()).arg(graph->edgeCount()));
            else
                log(tr("Generated %1 with its defaults: %2 ops").arg(r.generated).arg(graph->nodeCount()));
            const bool sameCluster = r.initial && r.initialDevices == m_document->deviceNames();
            keepUnsavedWork();
            m_document->setGraph(graph, r.path, sameCluster ? r.initial : nullptr);
            if (m_document->unplaced.isEmpty())
                log(tr("Placed by %1, the best of the fast placers").arg(m_document->producer));
            else // it said "Placed by , the best of the fast placers"
                log(tr("Not placed: %1; every op starts on %2")
                        .arg(m_document->unplaced, QString::fromStdString(m_document->cluster().device(0).name)));
        } else if (f.cluster) {
            const std::shared_ptr<const Graph> graph = m_document->graph();
            const bool graphFollows = std::any_of(r.then.begin(), r.then.end(), isGraphFile);
            if (graph && !r.placedGraph && !graphFollows) {
                switchCluster(*f.cluster, r.path); // placed in the worker pool, then back here
            } else {
                log(tr("Cluster %1: %2 devices")
                        .arg(r.path.isEmpty() ? tr("preset") : r.path)
                        .arg(f.cluster->deviceCount()));
                std::vector<int> placement;
                if (r.initial && r.placedGraph == graph)
                    placement = r.initial->placement.devices();
                else if (graph && graphFollows) // the open graph is about to go: not placed again
                    placement.assign(static_cast<size_t>(graph->nodeCount()), 0);
                m_document->setCluster(*f.cluster, r.path, placement.empty() ? nullptr : &placement);
                if (!r.path.isEmpty()) // once the cluster is in use
                    QSettings().setValue("cluster/last", r.path);
            }
        } else if (f.placement) {
            if (!m_document->ready())
                throw InputError(r.path.toStdString() + ": open a graph and a cluster before a placement");
            const Placement p = namingTheFile(
                [&] { return resolvePlacement(*f.placement, *m_document->graph(), m_document->cluster()); });
            m_document->applyPlacement(p.devices(), QFileInfo(r.path).fileName());
            log(tr("Placement %1 applied (undo restores the previous one)").arg(r.path));
        } else if (f.partition) {
            if (!m_document->ready())
                throw InputError(r.path.toStdString() + ": open a graph and a cluster before a partition");
            const Placement p = namingTheFile([&] {
                return placementOfPartition(resolvePartition(*f.partition, *m_document->graph()),
                                            m_document->cluster());
            });
            m_document->applyPlacement(p.devices(), QFileInfo(r.path).fileName());
            log(tr("Partition %1 applied as a placement: part i on device i").arg(r.path));
        }
    } catch (const InputError &e) {
        showError(QString::fromStdString(e.what()));
    }
    m_status->clear();
    updateTitle();
}

void MainWindow::openExample()
{
    try {
        keepUnsavedWork();
        m_document->setCluster(presetCluster("4gpu.cluster.json"), {});
        auto graph = std::make_shared<const Graph>(ps::generate("inception-v3", {{"batch", 32}}, 1));
        m_document->setGraph(graph, {});
        log(tr("Example: Inception-V3 (batch 32) on 4 GPUs, placed by %1, the best of the fast placers")
                .arg(m_document->producer));
    } catch (const InputError &e) {
        showError(QString::fromStdString(e.what()));
    }
}

void MainWindow::openGenerated(const QString &name)
{
    if (m_document->cluster().deviceCount() == 0)
        openDefaultCluster();
    log(tr("Generating %1…").arg(name));
    m_loader->generate(name, m_document->sharedCluster());
    m_status->setText(tr("Generating %1…").arg(name)); // after the loader's "Loading…"
}

LoadOptions MainWindow::askImportOptions(const QString &path, bool *ok)
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    auto *batch = new QSpinBox(&dialog);
    batch->setRange(0, static_cast<int>(LoadOptions::kMaxBatch));
    batch->setSpecialValueText(tr("as in the file"));
    auto *shapes = new QLineEdit(&dialog);
    shapes->setPlaceholderText(tr("e.g. 1x3x224x224; 2x5:int64 (one per input, in order; empty: the file's)"));
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("Batch size"), batch);
    form->addRow(tr("Input shapes"), shapes); // ONNX too (only TorchScript read them before)
    auto *problem = new QLabel(&dialog);
    problem->setObjectName("importProblem");
    problem->setStyleSheet("color: #b00020");
    problem->setWordWrap(true);
    problem->hide();
    form->addRow(problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    LoadOptions options;
    // The shapes are read as the command line's --input-shape is; a malformed one keeps the
    // dialog open and says why (it was read as a dimension of 0 before).
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        try {
            options.inputs.clear();
            for (const QString &spec : shapes->text().split(';', Qt::SkipEmptyParts))
                options.inputs.push_back(LoadOptions::parseInput(spec.trimmed().toStdString()));
            dialog.accept();
        } catch (const InputError &e) {
            problem->setText(QString::fromStdString(e.what()));
            problem->show();
        }
    });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    *ok = dialog.exec() == QDialog::Accepted;
    options.batch = batch->value();
    return options;
}

void MainWindow::openPicked(const QStringList &paths)
{
    LoadOptions options;
    const auto model = firstModelFile(paths);
    if (model != paths.end()) {
        bool ok = false;
        options = askImportOptions(*model, &ok);
        if (!ok)
            return;
    }
    openFiles(paths, options);
}

void MainWindow::openDialog()
{
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open"), settings.value("files/lastDir").toString(),
        tr("All supported (%1 *.json *.json.gz *.pstudio);;%2;;Sessions (*.pstudio);;All files (*)")
            .arg(QString::fromStdString(namePatterns()), QString::fromStdString(dialogFilters())));
    if (paths.isEmpty())
        return;
    settings.setValue("files/lastDir", QFileInfo(paths.first()).absolutePath());
    openPicked(paths);
}

void MainWindow::addRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value("files/recent").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue("files/recent", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("files/recent").toStringList();
    for (const QString &path : recent) {
        QAction *open = m_recentMenu->addAction(path);
        connect(open, &QAction::triggered, this, [this, path] { openPicked({path}); });
        if (!QFileInfo::exists(path)) { // moved or deleted since: said, not offered
            open->setText(tr("%1 (gone)").arg(path));
            open->setEnabled(false);
        }
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
        else
            showError(tr("%1: only local files can be opened").arg(url.toString()));
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // A model file's import dialog waits until the drop has returned (it would hold the drag's
    // source); other files open at once.
    if (firstModelFile(paths) != paths.end())
        QTimer::singleShot(0, this, [this, paths] { openPicked(paths); });
    else
        openFiles(paths);
}

// ---- selection and edits ---------------------------------------------------------------------

void MainWindow::setSelection(const std::vector<int> &nodes)
{
    m_selection = nodes;
    m_graphView->setSelection(nodes);
    m_timeline->setSelection(nodes);
    if (!nodes.empty())
        m_status->setText(
            tr("%n op(s) selected — keys 1–9 move them, Ctrl+P pins", nullptr, static_cast<int>(nodes.size())));
}

void MainWindow::assignSelection(int device)
{
    if (m_selection.empty() || device >= m_document->cluster().deviceCount())
        return;
    m_document->assign(m_selection, device);
}

namespace {
// A submenu of the cluster's devices, `pick` called with the one chosen. On a large cluster the
// devices come in groups ("gpu:0 - gpu:63"), each filled when it opens: a menu of 4,096 entries
// took longer to build than to use and ran off the screen.
void addDeviceMenu(QMenu *parent, const QString &title, const std::shared_ptr<const Cluster> &cluster, bool numberKeys,
                   const std::function<void(int)> &pick)
{
    QMenu *menu = parent->addMenu(title);
    const int k = cluster->deviceCount();
    auto fill = [cluster, pick, numberKeys](QMenu *into, int from, int to) {
        for (int d = from; d < to; ++d) {
            QAction *a = into->addAction(QString::fromStdString(cluster->device(d).name), [pick, d] { pick(d); });
            if (numberKeys && d < 9)
                a->setShortcut(QKeySequence(Qt::Key_1 + d));
        }
    };
    constexpr int kFlat = 32;
    if (k <= kFlat) {
        fill(menu, 0, k);
        return;
    }
    const int block = std::max(kFlat, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(k)))));
    for (int from = 0; from < k; from += block) {
        const int to = std::min(k, from + block);
        QMenu *group = menu->addMenu(QStringLiteral("%1 – %2").arg(
            QString::fromStdString(cluster->device(from).name), QString::fromStdString(cluster->device(to - 1).name)));
        QObject::connect(group, &QMenu::aboutToShow, group, [group, fill, from, to] {
            if (group->isEmpty())
                fill(group, from, to);
        });
    }
}
} // namespace

QMenu *MainWindow::contextMenu(const std::vector<int> &nodes)
{
    setSelection(nodes);
    auto *menu = new QMenu(this);
    menu->setToolTipsVisible(true); // Prefer device's says what a preference is
    // The cluster as the menu opened (one may be read while it is open: a device chosen then that
    // the new cluster lacks does nothing).
    const auto cluster = m_document->sharedCluster();
    auto still = [this](std::function<void(int)> pick) {
        return [this, pick](int d) {
            if (d < m_document->cluster().deviceCount())
                pick(d);
        };
    };
    addDeviceMenu(menu, tr("Move to device"), cluster, true, [this](int d) { assignSelection(d); });
    addDeviceMenu(menu, tr("Pin to device"), cluster, false, still([this](int d) {
                      // Moving and pinning are one step for the person: one undo step.
                      m_document->undoStack()->beginMacro(
                          tr("Pin %n op(s) to device", nullptr, static_cast<int>(m_selection.size())));
                      m_document->assign(m_selection, d);
                      m_document->setPinned(m_selection, true);
                      m_document->undoStack()->endMacro();
                  }));
    addDeviceMenu(menu, tr("Prefer device"), cluster, false,
                  still([this](int d) { m_steering->preferDevice(m_selection, d); }));
    menu->actions().back()->setToolTip(tr("A soft wish for steering: candidates that honour it rank higher"));
    menu->addAction(tr("Pin to current device"), this, [this] { m_document->setPinned(m_selection, true); });
    menu->addAction(tr("Unpin"), this, [this] { m_document->setPinned(m_selection, false); });
    menu->addSeparator();
    menu->addAction(tr("Keep together"), this, [this] { m_steering->keepTogether(m_selection); })
        ->setEnabled(m_selection.size() > 1);
    menu->addAction(tr("Mark as important"), this, [this] { m_steering->markImportant(m_selection); });
    return menu;
}

void MainWindow::showContextMenu(const std::vector<int> &nodes, const QPoint &globalPos)
{
    const std::unique_ptr<QMenu> menu(contextMenu(nodes));
    menu->exec(globalPos);
}

void MainWindow::runSearch()
{
    const QString text = m_search->text().trimmed();
    if (text != m_lastSearch) {
        m_lastSearch = text;
        m_searchHits = m_graphView->search(text);
        m_searchIndex = 0;
        setSelection(m_searchHits);
        m_status->setText(tr("%n match(es)", nullptr, static_cast<int>(m_searchHits.size())));
    }
    if (m_searchHits.empty())
        return;
    m_graphView->reveal(m_searchHits[m_searchIndex % m_searchHits.size()]);
    ++m_searchIndex;
}

// ---- refresh ---------------------------------------------------------------------------------

void MainWindow::refreshGraph()
{
    m_savedWork = m_work; // the results on the last graph went with it, as its undo steps did
    m_selection.clear();
    m_searchHits.clear();
    m_lastSearch.clear();
    m_graphView->setGraph(m_document->graph());
    refreshPlacement();
}

void MainWindow::refreshCluster()
{
    m_clusterTable->setCluster(m_document->sharedCluster());
    refreshAssignMenu();
    refreshPlacement();
}

void MainWindow::sayWhenNothingFits(const Constraints &constraints)
{
    QString why;
    if (m_document->ready())
        why = QString::fromStdString(
            FeasibilityTracker(*m_document->graph(), m_document->cluster(), constraints).neverFits());
    if (!why.isEmpty() && why != m_nothingFits)
        log(tr("Warning: %1: every placement here is infeasible (the Metrics dock names the devices over)").arg(why));
    m_nothingFits = why;
}

void MainWindow::refreshAssignMenu()
{
    // The first nine devices by name with their number keys (the menu said "Device 1" to "Device
    // 9" on any cluster), then, on a larger cluster, every device in groups.
    const std::shared_ptr<const Cluster> cluster = m_document->sharedCluster();
    const int k = cluster->deviceCount();
    m_assignMenu->clear();
    qDeleteAll(m_assignMenu->findChildren<QMenu *>(QString(), Qt::FindDirectChildrenOnly));
    for (int d = 0; d < static_cast<int>(m_assignKeys.size()); ++d) {
        m_assignKeys[d]->setVisible(d < k);
        if (d < k) {
            m_assignKeys[d]->setText(QString::fromStdString(cluster->device(d).name));
            m_assignMenu->addAction(m_assignKeys[d]);
        }
    }
    m_assignMenu->setEnabled(k > 0);
    if (k > static_cast<int>(m_assignKeys.size()))
        addDeviceMenu(m_assignMenu, tr("All %1 Devices").arg(k), cluster, false, [this](int d) { assignSelection(d); });
}

void MainWindow::refreshPlacement()
{
    const Document &d = *m_document;
    const std::shared_ptr<const Schedule> schedule = d.schedule();
    std::vector<char> pinned(d.pins().size());
    for (size_t v = 0; v < pinned.size(); ++v)
        pinned[v] = d.pins()[v] >= 0;
    m_graphView->setPlacement(d.placement(), d.cluster().deviceCount(), pinned, d.flaggedNodes());
    if (schedule)
        m_graphView->setTimes(schedule->start, schedule->finish, d.deviceNames());
    const std::vector<int> counts = d.opCountPerDevice();
    m_deviceView->setState(d.cluster(), schedule.get(), counts);
    m_timeline->setData(d.graph(), d.cluster(), schedule, d.placement());
    m_timeline->setSelection(m_selection);
    m_metrics->setState(d.cluster(), schedule.get(), counts, d.simulationError());
    const Constraints constraints = d.constraints();
    m_runs->setProblem(d.graph(), d.sharedCluster(), constraints, schedule ? schedule->lowerBound.bound : 0.0);
    m_steering->setProblem(d.graph(), d.sharedCluster(), d.clusterUndoable());
    m_steering->setPins(d.pins());
    m_steering->setPlacement(d.placement());
    sayWhenNothingFits(constraints); // the person's pins may be what makes nothing fit
    if (schedule)
        m_status->setText(tr("Makespan %1 (%2× bound)%3")
                              .arg(formatSeconds(schedule->makespan))
                              .arg(schedule->ratio(), 0, 'f', 3)
                              .arg(schedule->violations.empty() ? QString() : tr(" — infeasible")));
    else if (!d.simulationError().isEmpty())
        m_status->setText(d.simulationError());
    updateTitle();
}

} // namespace ps
