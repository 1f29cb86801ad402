#include "views/WorkerPool.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace ps {

QThreadPool *workerPool()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool; // left to the process's end: tasks may still run at exit
        p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        return p;
    }();
    return pool;
}

} // namespace ps
