// Fuzzes the JSON readers: the first byte picks graph, cluster, placement or partition. What a
// reader accepts is written again and must read back the same (and, graphs and clusters, with no
// warning of unknown keys).
#include "core/InputError.h"
#include "core/io/ClusterJson.h"
#include "core/io/FileBytes.h"
#include "core/io/GraphJson.h"
#include "core/io/PlacementJson.h"
#include "fuzz/SameAfterWriting.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        std::string plain = ps::isGzip(text) ? ps::gunzip(text, "fuzz") : std::string(text);
        switch (data[0] % 4) {
        // What we write holds only the spec's keys: read again, it draws no warning.
        case 0: {
            std::vector<std::string> warnings, again;
            const ps::Graph g = ps::parseGraphJson(plain, "fuzz", &warnings);
            if (!ps::fuzz::sameGraph(g, ps::parseGraphJson(ps::graphToJson(g), "fuzz-again", &again)) || !again.empty())
                __builtin_trap();
            break;
        }
        case 1: {
            std::vector<std::string> warnings, again;
            const ps::Cluster c = ps::parseClusterJson(plain, "fuzz", &warnings);
            if (!ps::fuzz::sameCluster(c, ps::parseClusterJson(ps::clusterToJson(c), "fuzz-again", &again)) ||
                !again.empty())
                __builtin_trap();
            break;
        }
        case 2: {
            const ps::PlacementDoc p = ps::parsePlacementJson(plain, "fuzz");
            const ps::PlacementDoc again = ps::parsePlacementJson(ps::placementToJson(p), "fuzz-again");
            if (again.assignment != p.assignment || again.graphName != p.graphName ||
                again.clusterName != p.clusterName || again.producerModel != p.producerModel ||
                again.producerParamsJson != p.producerParamsJson)
                __builtin_trap();
            break;
        }
        default: {
            const ps::PartitionDoc p = ps::parsePartitionJson(plain, "fuzz");
            const ps::PartitionDoc again = ps::parsePartitionJson(ps::partitionToJson(p), "fuzz-again");
            if (again.parts != p.parts || again.k != p.k || again.graphName != p.graphName)
                __builtin_trap();
            break;
        }
        }
    } catch (const ps::InputError &) {}
    return 0;
}
