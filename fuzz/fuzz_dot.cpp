// Fuzzes the DOT reader (cgraph underneath) and, for what it accepts, the DOT writer: what the
// writer writes reads back as the same graph.
#include "core/InputError.h"
#include "core/io/DotFormat.h"
#include "fuzz/SameAfterWriting.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try {
        const ps::Graph g = ps::parseDot(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
        if (!ps::fuzz::sameGraph(g, ps::parseDot(ps::graphToDot(g), "fuzz-again")))
            __builtin_trap();
    } catch (const ps::InputError &) {}
    return 0;
}
