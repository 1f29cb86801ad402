#pragma once
// Opening a steering log as one undo step: the session it replaced (candidates, feedback and
// all) comes back on undo, and whatever the log's session has become by then (rounds run after
// it was opened included) comes back on redo. Each step swaps the session shown with the one
// kept here.
#include <QUndoCommand>

#include <memory>

namespace ps {

class Cluster;
class Graph;
class SteeringController;
struct SteeringLogDoc;

class OpenSteeringLogCommand : public QUndoCommand
{
public:
    // Pushed after the controller has opened the log; `replaced` is the session it had before.
    OpenSteeringLogCommand(SteeringController *controller, std::shared_ptr<const Graph> graph,
                           std::shared_ptr<const Cluster> cluster, std::shared_ptr<const SteeringLogDoc> replaced,
                           const QString &text);
    void redo() override;
    void undo() override { swap(); }

private:
    void swap();

    SteeringController *m_controller;
    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const Cluster> m_cluster;
    std::shared_ptr<const SteeringLogDoc> m_other; // the session not shown
    bool m_opened = true;                          // the first redo (the push) finds the log open already
};

} // namespace ps
