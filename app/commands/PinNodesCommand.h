#pragma once
// Pins ops to a device, or unpins them (-1); later runs honour the pins.
#include "app/Document.h"
#include "app/commands/NodeValuesCommand.h"

namespace ps {

class PinNodesCommand : public NodeValuesCommand
{
public:
    PinNodesCommand(Document *document, std::vector<int> nodes, std::vector<int> pins, const QString &text)
        : NodeValuesCommand(document, std::move(nodes), std::move(pins), &Document::pins, &Document::setPins, text)
    {}
};

} // namespace ps
