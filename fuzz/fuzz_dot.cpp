// Fuzzes the DOT reader (cgraph underneath) and, for what it accepts, the DOT writer.
#include "core/InputError.h"
#include "core/io/DotFormat.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try {
        ps::Graph g = ps::parseDot(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
        ps::parseDot(ps::graphToDot(g), "fuzz-again");
    } catch (const ps::InputError &) {}
    return 0;
}
