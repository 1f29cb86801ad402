#pragma once
// For the fuzz targets: whether what a writer wrote reads back as the same thing, field by field
// and number for number. A target traps where it does not.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <string>

namespace ps::fuzz {

inline std::string nameOr(const std::vector<std::string> &names, int index)
{
    return index < 0 ? std::string("\x01none") : names[static_cast<size_t>(index)];
}

// The same nodes (ids, in order) and edges; numbers are not compared (METIS's integer weights are
// scaled to fit, so they read back rounded).
inline bool sameStructure(const Graph &a, const Graph &b)
{
    if (a.nodeCount() != b.nodeCount() || a.edgeCount() != b.edgeCount())
        return false;
    for (int v = 0; v < a.nodeCount(); ++v)
        if (a.id(v) != b.id(v))
            return false;
    for (int e = 0; e < a.edgeCount(); ++e)
        if (a.edgeSrc(e) != b.edgeSrc(e) || a.edgeDst(e) != b.edgeDst(e))
            return false;
    return true;
}

inline bool sameGraph(const Graph &a, const Graph &b)
{
    if (a.name() != b.name() || a.nodeCount() != b.nodeCount() || a.edgeCount() != b.edgeCount())
        return false;
    for (int v = 0; v < a.nodeCount(); ++v) {
        if (a.id(v) != b.id(v) || a.op(v) != b.op(v) || a.scope(v) != b.scope(v) || a.flops(v) != b.flops(v) ||
            a.outBytes(v) != b.outBytes(v) || a.paramBytes(v) != b.paramBytes(v) || a.memBytes(v) != b.memBytes(v) ||
            nameOr(a.colocateGroupNames(), a.colocateGroup(v)) != nameOr(b.colocateGroupNames(), b.colocateGroup(v)) ||
            nameOr(a.pinNames(), a.pin(v)) != nameOr(b.pinNames(), b.pin(v)))
            return false;
        const auto ca = a.computeOverrides(v), cb = b.computeOverrides(v);
        if (ca.size() != cb.size())
            return false;
        for (size_t i = 0; i < ca.size(); ++i)
            if (a.deviceTypeNames()[static_cast<size_t>(ca[i].deviceType)] !=
                    b.deviceTypeNames()[static_cast<size_t>(cb[i].deviceType)] ||
                ca[i].seconds != cb[i].seconds)
                return false;
    }
    for (int e = 0; e < a.edgeCount(); ++e)
        if (a.edgeSrc(e) != b.edgeSrc(e) || a.edgeDst(e) != b.edgeDst(e) || a.edgeBytes(e) != b.edgeBytes(e))
            return false;
    return true;
}

inline bool sameCluster(const Cluster &a, const Cluster &b)
{
    if (a.name() != b.name() || a.deviceCount() != b.deviceCount())
        return false;
    for (int d = 0; d < a.deviceCount(); ++d) {
        const Device &x = a.device(d), &y = b.device(d);
        if (x.name != y.name || x.type != y.type || x.flopsPerS != y.flopsPerS || x.memoryBytes != y.memoryBytes ||
            x.opOverheadS != y.opOverheadS)
            return false;
    }
    for (int s = 0; s < a.deviceCount(); ++s)
        for (int d = 0; d < a.deviceCount(); ++d)
            if (s != d && (a.link(s, d).bandwidthBytesPerS != b.link(s, d).bandwidthBytesPerS ||
                           a.link(s, d).latencyS != b.link(s, d).latencyS))
                return false;
    return true;
}

} // namespace ps::fuzz
