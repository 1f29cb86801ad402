#pragma once
// The threads the app's own background work runs on (graph layouts, file loads, saves), never
// QThreadPool::globalInstance(): Qt 6.4 rasterizes long lines and large fills in parallel on the
// global pool and waits for those tasks, so a long task of ours there froze painting (a 2.7 s
// Graphviz layout held a timeline's repaint for up to 2.3 s). Model runs and steering have pools
// of their own (RunManager).
class QThreadPool;

namespace ps {

QThreadPool *workerPool();

} // namespace ps
