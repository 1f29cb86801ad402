// Fuzzes the DOT reader (cgraph underneath) and, for what it accepts, the DOT writer: what the
// writer writes reads back with the same ids and edges.
#include "core/InputError.h"
#include "core/io/DotFormat.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try {
        ps::Graph g = ps::parseDot(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
        const std::string text = ps::graphToDot(g);
        const ps::Graph again = ps::parseDot(text, "fuzz-again");
        if (again.name() != g.name() || again.nodeCount() != g.nodeCount() || again.edgeCount() != g.edgeCount())
            __builtin_trap();
        for (int v = 0; v < g.nodeCount(); ++v)
            if (again.id(v) != g.id(v) || again.scope(v) != g.scope(v) || again.op(v) != g.op(v))
                __builtin_trap();
    } catch (const ps::InputError &) {}
    return 0;
}
