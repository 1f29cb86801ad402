#pragma once
// Nodes dragged between views (graph view -> device cards) travel as this MIME type.
#include <QMimeData>

#include <vector>

namespace ps {

inline constexpr const char *kNodeMimeType = "application/x-placement-studio-nodes";

QMimeData *makeNodeMime(const std::vector<int> &nodes);
std::vector<int> nodesFromMime(const QMimeData *mime);

} // namespace ps
