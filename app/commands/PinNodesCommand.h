#pragma once
// Pins ops to their current device (or unpins them); later runs honour the pins.
#include <QUndoCommand>

#include <vector>

namespace ps {

class Document;

class PinNodesCommand : public QUndoCommand
{
public:
    PinNodesCommand(Document *document, std::vector<int> nodes, std::vector<int> pins, const QString &text);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    std::vector<int> m_nodes, m_before, m_after;
};

} // namespace ps
