#pragma once
// Session files (.pstudio, JSON): the graph (a reference to its .graph.json file, or embedded),
// the cluster, the placement being edited, the user's pins, and the placements of finished model
// runs (the Models list), and the Steering dock's session as its log. Written atomically
// (QSaveFile) from a copy of what the window holds, so that the writing can run on another
// thread (the autosave does). Also the autosave, in the same format.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/steering/SteeringLog.h"

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
    long long evaluations = 0; // simulator runs spent (-1: not known, a session older than the count)
    double wallS = 0;
    std::vector<std::string> notes;
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
    std::shared_ptr<const SteeringLogDoc> steering; // the Steering dock's session; null: none
    std::string steeringError;                      // why a session's steering log could not be read (the rest loads)
};

// A copy of what the window holds (cheap: no JSON). InputError when no graph is open.
SessionData sessionData(const Document &document, std::vector<SavedRun> runs = {},
                        std::shared_ptr<const SteeringLogDoc> steering = nullptr);
// Both throw InputError with the file name on any problem; either may run on any thread.
void saveSession(const QString &path, const SessionData &session);
SessionData loadSession(const QString &path);

} // namespace ps
