#pragma once
// Replaces the cluster (an edit in the devices table) together with the placement and pins it
// implies. It holds the document's shared copies: with 523,776 links, copying both clusters took
// 85 ms.
#include "app/Document.h"

#include <QUndoCommand>

namespace ps {

class EditClusterCommand : public QUndoCommand
{
public:
    // `consequence`: what the edit did besides (ops moved off a removed device), added to its text.
    EditClusterCommand(Document *document, ClusterState before, ClusterState after, const QString &consequence = {});
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    ClusterState m_before, m_after;
};

} // namespace ps
