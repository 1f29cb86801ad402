#include "core/placers/MemoryRepair.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/sim/Simulator.h"

#include <algorithm>

namespace ps {

MemoryRepair repairMemory(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                          std::vector<int> &devices)
{
    MemoryRepair r;
    const int k = cluster.deviceCount();
    std::vector<double> use = memoryUsage(graph, cluster, devices);
    for (int d = 0; d < k; ++d) {
        if (use[d] <= cluster.device(d).memoryBytes)
            continue;
        std::vector<int> ops;
        for (int v = 0; v < graph.nodeCount(); ++v)
            if (devices[v] == d && constraints.pinnedDevice(v) < 0 && constraints.groupOf(v) < 0)
                ops.push_back(v);
        std::stable_sort(ops.begin(), ops.end(), [&](int a, int b) { return graph.memBytes(a) > graph.memBytes(b); });
        for (int v : ops) {
            if (use[d] <= cluster.device(d).memoryBytes)
                break;
            int to = -1;
            double room = 0;
            for (int e = 0; e < k; ++e) {
                const double free = cluster.device(e).memoryBytes - use[e];
                if (e != d && free >= graph.memBytes(v) && free > room) {
                    room = free;
                    to = e;
                }
            }
            if (to < 0)
                continue;
            use[d] -= graph.memBytes(v);
            use[to] += graph.memBytes(v);
            devices[v] = to;
            ++r.moved;
        }
    }
    for (int d = 0; d < k; ++d)
        if (use[d] > cluster.device(d).memoryBytes)
            r.fits = false;
    return r;
}

} // namespace ps
