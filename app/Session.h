#pragma once
// Session files (.pstudio, JSON): the graph (a reference to its .graph.json file, or embedded),
// the cluster, the placement being edited, the user's pins, and the placements of finished model
// runs (the Models list). Written atomically (QSaveFile). Also the
// autosave, in the same format.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace ps {

class Document;

// A finished model run kept in the session's Models list.
struct SavedRun
{
    QString model;
    std::vector<int> placement;
    double makespan = 0, lowerBound = 0;
    bool feasible = false;
};

struct SessionData
{
    std::shared_ptr<const Graph> graph;
    QString graphPath;
    Cluster cluster;
    QString clusterPath;
    std::vector<int> placement, pins;
    QString producer;
    std::vector<SavedRun> runs;
    std::string steeringLog; // the Steering dock's session as its log (JSON); empty: none
};

// Throws InputError with the file name on any problem.
void saveSession(const QString &path, const Document &document, const std::vector<SavedRun> &runs = {},
                 const std::string &steeringLog = {});
SessionData loadSession(const QString &path);

} // namespace ps
