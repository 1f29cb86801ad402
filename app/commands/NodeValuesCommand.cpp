#include "app/commands/NodeValuesCommand.h"

#include "app/Document.h"

namespace ps {

NodeValuesCommand::NodeValuesCommand(Document *document, std::vector<int> nodes, std::vector<int> values, Getter get,
                                     Setter set, const QString &text)
    : QUndoCommand(text), m_document(document), m_set(set), m_nodes(std::move(nodes)), m_after(std::move(values))
{
    for (int v : m_nodes)
        m_before.push_back((document->*get)()[v]);
}

void NodeValuesCommand::undo()
{
    (m_document->*m_set)(m_nodes, m_before);
}
void NodeValuesCommand::redo()
{
    (m_document->*m_set)(m_nodes, m_after);
}

} // namespace ps
