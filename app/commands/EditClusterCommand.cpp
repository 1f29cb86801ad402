#include "app/commands/EditClusterCommand.h"

#include "app/Document.h"

namespace ps {

EditClusterCommand::EditClusterCommand(Document *document, std::shared_ptr<const Cluster> before,
                                       std::vector<int> placementBefore, std::shared_ptr<const Cluster> after,
                                       std::vector<int> placementAfter)
    : QUndoCommand(QObject::tr("Edit cluster")), m_document(document), m_before(std::move(before)),
      m_after(std::move(after)), m_placementBefore(std::move(placementBefore)),
      m_placementAfter(std::move(placementAfter))
{}

void EditClusterCommand::undo()
{
    m_document->replaceCluster(m_before, m_placementBefore);
}
void EditClusterCommand::redo()
{
    m_document->replaceCluster(m_after, m_placementAfter);
}

} // namespace ps
