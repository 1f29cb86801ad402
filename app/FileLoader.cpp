#include "app/FileLoader.h"

#include "app/Session.h"
#include "core/InputError.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrent>

namespace ps {

FileLoader::FileLoader(QObject *parent) : QObject(parent) { qRegisterMetaType<LoadResult>(); }

void FileLoader::load(const QString &path, const LoadOptions &options)
{
    const int generation = m_generation;
    auto *watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // cancelled
        --m_inFlight;
        if (m_inFlight == 0)
            Q_EMIT busyChanged(false);
        Q_EMIT finished(watcher->result());
    });
    if (m_inFlight++ == 0)
        Q_EMIT busyChanged(true);
    watcher->setFuture(QtConcurrent::run([path, options] {
        LoadResult r;
        r.path = path;
        try {
            if (isSession(path))
                r.session = std::make_shared<SessionData>(loadSession(path));
            else
                r.file = std::make_shared<LoadedFile>(loadFile(path.toStdString(), options));
        } catch (const InputError &e) {
            r.error = QString::fromStdString(e.what());
        } catch (const std::exception &e) {
            r.error = path + ": " + QString::fromStdString(e.what());
        }
        return r;
    }));
}

void FileLoader::cancel()
{
    ++m_generation;
    if (m_inFlight > 0) {
        m_inFlight = 0;
        Q_EMIT busyChanged(false);
    }
}

} // namespace ps
