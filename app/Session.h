#pragma once
// Session files (.pstudio, JSON): the graph (a reference to its .graph.json file, or embedded),
// the cluster, the placement and the user's pins. Written atomically (QSaveFile). Also the
// autosave, in the same format.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <QString>

#include <memory>
#include <vector>

namespace ps {

class Document;

struct SessionData
{
    std::shared_ptr<const Graph> graph;
    QString graphPath;
    Cluster cluster;
    QString clusterPath;
    std::vector<int> placement, pins;
    QString producer;
};

// Throws InputError with the file name on any problem.
void saveSession(const QString &path, const Document &document);
SessionData loadSession(const QString &path);

} // namespace ps
