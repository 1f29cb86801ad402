// MainWindow, continued: steering logs opened, sessions (save, restore, the autosave, unsaved work
// kept when something replaces it), closing, and File ▸ Export.
#include "app/Document.h"
#include "app/Exporter.h"
#include "app/FileLoader.h"
#include "app/MainWindow.h"
#include "app/RunsPanel.h"
#include "app/Session.h"
#include "app/SteeringController.h"
#include "app/SteeringPanel.h"
#include "app/commands/OpenSteeringLogCommand.h"
#include "core/InputError.h"
#include "views/WorkerPool.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QThread>
#include <QtConcurrent>

namespace ps {

namespace {

// Writes `session` to `path` in the worker pool; the future's result is the error, empty if none.
QFuture<QString> saveInBackground(const QString &path, SessionData session)
{
    return QtConcurrent::run(workerPool(), [path, session = std::move(session)] {
        try {
            ps::saveSession(path, session);
        } catch (const InputError &e) {
            return QString::fromStdString(e.what());
        }
        return QString();
    });
}

} // namespace

void MainWindow::openSteeringLog(const QString &path, const SteeringLogDoc &steering)
{
    // Its candidates' placements and metrics are of the graph and cluster it was made on.
    if (!m_document->ready()) {
        showError(
            tr("%1: a steering log of graph '%2' on cluster '%3': open them first, then the log")
                .arg(path, QString::fromStdString(steering.graphName), QString::fromStdString(steering.clusterName)));
        return;
    }
    // The session it replaces comes back on undo (it may hold candidates of an hour's rounds).
    std::shared_ptr<const SteeringLogDoc> replaced = m_steeringController->logSnapshot();
    // Rounds run on every core, as the dock's own sessions do (a CLI log says 1 thread); how many
    // run at once changes no proposal, which the log's searches a round decide.
    try {
        m_steeringController->restore(m_document->graph(), m_document->sharedCluster(), steering,
                                      std::max(1, QThread::idealThreadCount()));
    } catch (const InputError &e) {
        showError(tr("%1: %2").arg(path, QString::fromStdString(e.what())));
        return;
    }
    if (replaced)
        m_document->undoStack()->push(new OpenSteeringLogCommand(
            m_steeringController, m_document->graph(), m_document->sharedCluster(), std::move(replaced),
            tr("Open steering log %1").arg(QFileInfo(path).fileName())));
    log(tr("Steering log %1: %n candidate(s), in the Steering dock", nullptr,
           static_cast<int>(steering.candidates.size()))
            .arg(path));
    dock("steering")->show();
    dock("steering")->raise();
}

void MainWindow::restoreSession(const SessionData &s)
{
    m_document->graphPath = s.graphPath;
    m_document->clusterPath = s.clusterPath;
    m_document->producer = s.producer;
    m_document->restore(s.graph, s.cluster, s.placement, s.pins);
    m_runs->restoreRuns(s.runs);
    QString steeringError = QString::fromStdString(s.steeringError);
    if (s.steering) {
        try {
            m_steeringController->restore(m_document->graph(), m_document->sharedCluster(), *s.steering);
        } catch (const InputError &e) {
            steeringError = QString::fromStdString(e.what());
        }
    }
    if (!steeringError.isEmpty())
        log(tr("The steering session was not restored: %1").arg(steeringError));
    m_savedWork = m_work;
}

SessionData MainWindow::sessionSnapshot() const
{
    return sessionData(*m_document, m_runs->savedRuns(), m_steeringController->logSnapshot());
}

bool MainWindow::unsaved() const
{
    return !m_document->undoStack()->isClean() || m_work != m_savedWork;
}

void MainWindow::markSaved()
{
    m_savedWork = m_work;
    m_document->undoStack()->setClean();
    updateTitle();
}

bool MainWindow::saveSessionTo(const QString &path, bool wait)
{
    m_saving->waitForFinished(); // one save at a time
    finishSave();
    SessionData session;
    try {
        session = sessionSnapshot();
    } catch (const InputError &e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    markSaved(); // what the copy holds: edits made while it is written are unsaved
    m_savingPath = path;
    m_status->setText(tr("Saving %1…").arg(QFileInfo(path).fileName()));
    m_progress->show();
    m_saving->setFuture(saveInBackground(path, std::move(session)));
    if (!wait)
        return true;
    m_saving->waitForFinished();
    return finishSave();
}

bool MainWindow::finishSave()
{
    if (m_savingPath.isEmpty())
        return true; // said already
    const QString path = std::exchange(m_savingPath, QString());
    const QString error = m_saving->result();
    m_progress->setVisible(m_loader->inFlight() > 0);
    m_status->clear();
    if (!error.isEmpty()) {
        m_document->undoStack()->resetClean();
        m_savedWork = ~quint64(0);
        updateTitle();
        showError(error);
        return false;
    }
    m_document->sessionPath = path;
    addRecent(path);
    dropStaleAutosave();
    log(tr("Session saved to %1").arg(path));
    updateTitle();
    return true;
}

bool MainWindow::saving() const
{
    return m_saving->isRunning();
}

void MainWindow::saveSession(bool ask, bool wait)
{
    QString path = m_document->sessionPath;
    if (ask || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save session"), path, tr("Session (*.pstudio)"));
        if (path.isEmpty())
            return;
        if (!path.endsWith(".pstudio"))
            path += ".pstudio";
    }
    saveSessionTo(path, wait);
}

QString MainWindow::autosavePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir().mkpath(dir);
    return dir + "/autosave.pstudio";
}

void MainWindow::autosaveNow()
{
    if (!m_document->graph() || !unsaved() || autosaving() ||
        (m_autosavedIndex == m_document->undoStack()->index() && m_autosavedWork == m_work))
        return;
    m_autosavedIndex = m_document->undoStack()->index();
    m_autosavedWork = m_work;
    m_autosaving->setFuture(saveInBackground(autosavePath(), sessionSnapshot()));
}

void MainWindow::keepUnsavedWork()
{
    if (!m_document->graph() || !unsaved())
        return;
    m_keeping->waitForFinished(); // one at a time (its path is this one's)
    SessionData work;
    try {
        work = sessionSnapshot();
    } catch (const InputError &e) {
        showError(tr("The unsaved work could not be kept: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/replaced";
    QDir().mkpath(dir);
    constexpr int kKept = 5;
    const QStringList older = QDir(dir).entryList({"*.pstudio"}, QDir::Files, QDir::Name);
    for (int i = 0; i + kKept - 1 < older.size(); ++i) // the names sort by time
        QFile::remove(dir + "/" + older[i]);
    m_keepingPath = dir + "/" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss-zzz") + ".pstudio";
    m_keeping->setFuture(saveInBackground(m_keepingPath, std::move(work)));
    log(tr("The unsaved work on graph '%1' is kept in %2 (File ▸ Open Recent)")
            .arg(QString::fromStdString(m_document->graph()->name()), m_keepingPath));
}

void MainWindow::dropStaleAutosave()
{
    if (unsaved())
        return;
    m_autosaving->waitForFinished();
    QFile::remove(autosavePath());
    m_autosavedIndex = -1;
}

bool MainWindow::autosaving() const
{
    return m_autosaving->isRunning();
}

bool MainWindow::recoverAutosave()
{
    const QString path = autosavePath();
    if (!QFile::exists(path))
        return false;
    try {
        restoreSession(loadSession(path));
        log(tr("Recovered the unsaved work of the last session"));
        QFile::remove(path);
        return true;
    } catch (const InputError &e) {
        showError(tr("The autosave could not be recovered: %1").arg(QString::fromStdString(e.what())));
        QFile::remove(path);
        return false;
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (unsaved() && !QApplication::platformName().contains("offscreen")) {
        // With no graph open there is no session to save: the edited cluster is the work.
        const bool session = m_document->graph() != nullptr;
        const auto answer = QMessageBox::question(this, tr("Placement Studio"),
                                                  session ? tr("Save the session before closing?")
                                                          : tr("Export the edited cluster before closing?"),
                                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            if (!session) {
                if (const QString path = askExportPath(tr("Export cluster"), tr("Cluster"), ".cluster.json");
                    !path.isEmpty())
                    exportCluster(path);
            } else {
                saveSession(false, true);
            }
            if (unsaved()) {
                event->ignore();
                return;
            }
        }
    }
    m_runs->cancelAll();
    m_steeringController->cancel();
    m_saving->waitForFinished();
    m_autosaving->waitForFinished();
    m_keeping->waitForFinished();
    QFile::remove(autosavePath()); // a clean exit: nothing to recover
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

// ---- export ----------------------------------------------------------------------------------

QString MainWindow::askExportPath(const QString &title, const QString &kind, const QString &extension)
{
    return withExtension(
        QFileDialog::getSaveFileName(this, title, QString(), QStringLiteral("%1 (*%2)").arg(kind, extension)),
        extension);
}

bool MainWindow::exportTo(const QString &path, ExportFunction write, ExportNote note)
{
    try {
        write(path, *m_document);
        log(tr("Exported %1").arg(path));
        if (note)
            log(note(*m_document));
        return true;
    } catch (const InputError &e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::exportCluster(const QString &path)
{
    if (!exportTo(path, exportClusterJson))
        return false;
    if (!m_document->graph())
        markSaved();
    return true;
}

void MainWindow::exportImage()
{
    QString filter;
    const QString chosen =
        QFileDialog::getSaveFileName(this, tr("Export view"), QString(), tr("PNG (*.png);;SVG (*.svg)"), &filter);
    const QString path = chosen.endsWith(".svg", Qt::CaseInsensitive)
                             ? chosen
                             : withExtension(chosen, filter.contains(".svg") ? ".svg" : ".png");
    if (path.isEmpty())
        return;
    // The dock that has focus, else the graph.
    QWidget *widget = dock("graph")->widget();
    for (QDockWidget *d : m_docks)
        if (d->isAncestorOf(QApplication::focusWidget()))
            widget = d->widget();
    try {
        exportWidgetImage(path, widget);
        log(tr("Exported %1").arg(path));
    } catch (const InputError &e) {
        showError(QString::fromStdString(e.what()));
    }
}

} // namespace ps
