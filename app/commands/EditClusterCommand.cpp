#include "app/commands/EditClusterCommand.h"

namespace ps {

EditClusterCommand::EditClusterCommand(Document *document, ClusterState before, ClusterState after)
    : QUndoCommand(QObject::tr("Edit cluster")), m_document(document), m_before(std::move(before)),
      m_after(std::move(after))
{}

void EditClusterCommand::undo()
{
    m_document->replaceCluster(m_before);
}
void EditClusterCommand::redo()
{
    m_document->replaceCluster(m_after);
}

} // namespace ps
