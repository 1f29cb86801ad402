#pragma once
// Moves ops to devices (a drag of many ops, or a whole placement, is one command).
#include "app/Document.h"
#include "app/commands/NodeValuesCommand.h"

namespace ps {

class AssignNodesCommand : public NodeValuesCommand
{
public:
    AssignNodesCommand(Document *document, std::vector<int> nodes, std::vector<int> devices, const QString &text)
        : NodeValuesCommand(document, std::move(nodes), std::move(devices), &Document::placement, &Document::setDevices,
                            text)
    {}
};

} // namespace ps
