#pragma once
// Moves ops to devices (a drag of many ops, or a whole placement, is one command).
#include <QUndoCommand>

#include <vector>

namespace ps {

class Document;

class AssignNodesCommand : public QUndoCommand
{
public:
    AssignNodesCommand(Document *document, std::vector<int> nodes, std::vector<int> devices, const QString &text);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    std::vector<int> m_nodes, m_before, m_after;
};

} // namespace ps
