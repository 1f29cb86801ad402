#include "app/commands/PinNodesCommand.h"

#include "app/Document.h"

namespace ps {

PinNodesCommand::PinNodesCommand(Document *document, std::vector<int> nodes, std::vector<int> pins,
                                 const QString &text)
    : QUndoCommand(text), m_document(document), m_nodes(std::move(nodes)), m_after(std::move(pins))
{
    for (int v : m_nodes)
        m_before.push_back(document->pins()[v]);
}

void PinNodesCommand::undo() { m_document->setPins(m_nodes, m_before); }
void PinNodesCommand::redo() { m_document->setPins(m_nodes, m_after); }

} // namespace ps
