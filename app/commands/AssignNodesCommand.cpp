#include "app/commands/AssignNodesCommand.h"

#include "app/Document.h"

namespace ps {

AssignNodesCommand::AssignNodesCommand(Document *document, std::vector<int> nodes, std::vector<int> devices,
                                       const QString &text)
    : QUndoCommand(text), m_document(document), m_nodes(std::move(nodes)), m_after(std::move(devices))
{
    for (int v : m_nodes)
        m_before.push_back(document->placement()[v]);
}

void AssignNodesCommand::undo() { m_document->setDevices(m_nodes, m_before); }
void AssignNodesCommand::redo() { m_document->setDevices(m_nodes, m_after); }

} // namespace ps
