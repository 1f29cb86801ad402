// Fuzzes the line-based readers: the first byte picks METIS or placement CSV.
#include "core/InputError.h"
#include "core/io/MetisFormat.h"
#include "core/io/PlacementCsv.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        if (data[0] % 2)
            ps::parseMetis(text, "fuzz");
        else
            ps::parsePlacementCsv(text, "fuzz");
    } catch (const ps::InputError &) {}
    return 0;
}
