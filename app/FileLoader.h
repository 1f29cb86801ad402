#pragma once
// Reads files off the GUI thread. Readers cannot be interrupted, so cancelling abandons the
// loads in flight: their results are dropped when they arrive and the window is free at once.
#include "core/io/FileKind.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ps {

struct SessionData;

struct LoadResult
{
    QString path;
    std::shared_ptr<LoadedFile> file;       // a graph, cluster, placement or partition
    std::shared_ptr<SessionData> session;   // or a session
    QString error;                          // or why it failed
};

class FileLoader : public QObject
{
    Q_OBJECT
public:
    explicit FileLoader(QObject *parent = nullptr);
    void load(const QString &path, const LoadOptions &options = {});
    void cancel();
    int inFlight() const { return m_inFlight; }

    static bool isSession(const QString &path) { return path.endsWith(QStringLiteral(".pstudio")); }

Q_SIGNALS:
    void finished(const ps::LoadResult &result);
    void busyChanged(bool busy);

private:
    int m_generation = 0, m_inFlight = 0;
};

} // namespace ps

Q_DECLARE_METATYPE(ps::LoadResult)
