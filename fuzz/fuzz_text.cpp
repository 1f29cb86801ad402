// Fuzzes the line-based readers: the first byte picks a METIS graph, a placement CSV or a METIS
// partition (of 7 parts). What a reader
// accepts is written again and must read back the same (for METIS, whose integer weights are
// scaled to fit, the same nodes and edges).
#include "core/InputError.h"
#include "core/io/MetisFormat.h"
#include "core/io/PlacementCsv.h"
#include "fuzz/SameAfterWriting.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        if (data[0] % 3 == 1) {
            const ps::Graph g = ps::parseMetis(text, "fuzz");
            if (!ps::fuzz::sameStructure(g, ps::parseMetis(ps::graphToMetis(g), "fuzz")))
                __builtin_trap();
        } else if (data[0] % 3 == 2) {
            const ps::PartitionDoc p = ps::parseMetisPartition(text, "fuzz.part.7");
            const ps::Partition parts(7, {p.inOrder.begin(), p.inOrder.end()});
            if (ps::parseMetisPartition(ps::partitionToMetis(parts), "fuzz.part.7").inOrder != p.inOrder)
                __builtin_trap();
        } else {
            const ps::PlacementDoc p = ps::parsePlacementCsv(text, "fuzz");
            if (ps::parsePlacementCsv(ps::placementToCsv(p), "fuzz").assignment != p.assignment)
                __builtin_trap();
        }
    } catch (const ps::InputError &) {}
    return 0;
}
