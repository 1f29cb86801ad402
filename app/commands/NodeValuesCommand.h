#pragma once
// Sets one per-node value (a device, a pin) for some nodes; undo restores what they had. The
// document's getter and setter say which value.
#include <QUndoCommand>

#include <vector>

namespace ps {

class Document;

class NodeValuesCommand : public QUndoCommand
{
public:
    using Getter = const std::vector<int> &(Document::*)() const;
    using Setter = void (Document::*)(const std::vector<int> &nodes, const std::vector<int> &values);

    NodeValuesCommand(Document *document, std::vector<int> nodes, std::vector<int> values, Getter get, Setter set,
                      const QString &text);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    Setter m_set;
    std::vector<int> m_nodes, m_before, m_after;
};

} // namespace ps
