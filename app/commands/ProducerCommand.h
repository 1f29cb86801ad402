#pragma once
// Records what made the current placement (Document::producer) as part of an undo step, so that
// undoing an apply or a hand edit also restores the provenance that exports and sessions keep.
#include "app/Document.h"

#include <QUndoCommand>

namespace ps {

class ProducerCommand : public QUndoCommand
{
public:
    ProducerCommand(Document *document, QString after)
        : m_document(document), m_before(document->producer), m_after(std::move(after))
    {}
    void undo() override { m_document->producer = m_before; }
    void redo() override { m_document->producer = m_after; }

private:
    Document *m_document;
    QString m_before, m_after;
};

} // namespace ps
