#include "app/commands/OpenSteeringLogCommand.h"

#include "app/SteeringController.h"
#include "core/steering/SteeringLog.h"

namespace ps {

OpenSteeringLogCommand::OpenSteeringLogCommand(SteeringController *controller, std::shared_ptr<const Graph> graph,
                                               std::shared_ptr<const Cluster> cluster,
                                               std::shared_ptr<const SteeringLogDoc> replaced, const QString &text)
    : QUndoCommand(text), m_controller(controller), m_graph(std::move(graph)), m_cluster(std::move(cluster)),
      m_other(std::move(replaced))
{}

void OpenSteeringLogCommand::redo()
{
    if (m_opened) {
        m_opened = false;
        return;
    }
    swap();
}

void OpenSteeringLogCommand::swap()
{
    // Both sessions were of this graph and cluster (the undo stack orders every change of
    // either), and each restored once already, so neither can be refused.
    std::shared_ptr<const SteeringLogDoc> shown = m_controller->logSnapshot();
    m_controller->restore(m_graph, m_cluster, *m_other);
    m_other = std::move(shown);
}

} // namespace ps
