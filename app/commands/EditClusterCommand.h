#pragma once
// Replaces the cluster (an edit in the devices table) together with the placement it implies.
#include "core/cluster/Cluster.h"

#include <QUndoCommand>

#include <vector>

namespace ps {

class Document;

class EditClusterCommand : public QUndoCommand
{
public:
    EditClusterCommand(Document *document, Cluster before, std::vector<int> placementBefore, Cluster after,
                       std::vector<int> placementAfter);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    Cluster m_before, m_after;
    std::vector<int> m_placementBefore, m_placementAfter;
};

} // namespace ps
