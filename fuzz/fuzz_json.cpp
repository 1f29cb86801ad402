// Fuzzes the JSON readers: the first byte picks graph, cluster, placement or partition.
#include "core/InputError.h"
#include "core/io/ClusterJson.h"
#include "core/io/FileBytes.h"
#include "core/io/GraphJson.h"
#include "core/io/PlacementJson.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        std::string plain = ps::isGzip(text) ? ps::gunzip(text, "fuzz") : std::string(text);
        switch (data[0] % 4) {
        case 0: ps::parseGraphJson(plain, "fuzz"); break;
        case 1: ps::parseClusterJson(plain, "fuzz"); break;
        case 2: ps::parsePlacementJson(plain, "fuzz"); break;
        default: ps::parsePartitionJson(plain, "fuzz"); break;
        }
    } catch (const ps::InputError &) {}
    return 0;
}
