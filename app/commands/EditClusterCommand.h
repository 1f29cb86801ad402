#pragma once
// Replaces the cluster (an edit in the devices table, or a cluster file opened) together with the
// placement and pins it implies. It holds the document's shared copies: with 523,776 links,
// copying both clusters took 85 ms.
#include "app/Document.h"

#include <QUndoCommand>

namespace ps {

// What one edit of the devices table changed, for the History dock ("Rename gpu:1 to a100:1",
// "Edit link gpu:0–gpu:1"; each read "Edit cluster").
QString describeClusterEdit(const Cluster &before, const Cluster &after);

class EditClusterCommand : public QUndoCommand
{
public:
    EditClusterCommand(Document *document, ClusterState before, ClusterState after, const QString &text);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    ClusterState m_before, m_after;
};

} // namespace ps
