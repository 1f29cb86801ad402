#include "core/placers/MemoryRepair.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/sim/CostModel.h"
#include "core/sim/Simulator.h"

#include <algorithm>

namespace ps {

MemoryRepair repairMemory(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                          std::vector<int> &devices)
{
    MemoryRepair r;
    const int k = cluster.deviceCount();
    std::vector<double> use = memoryUsage(graph, cluster, devices);
    // Each device's busy time, so that a moved op goes where it would finish first: the device
    // with the most free memory may be the slowest (a host CPU beside accelerators).
    const CostModel cost(graph, cluster);
    std::vector<double> busy(k, 0.0);
    for (int v = 0; v < graph.nodeCount(); ++v)
        busy[devices[v]] += cost.compute(v, devices[v]);
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
            double finish = 0;
            for (int e = 0; e < k; ++e) {
                const double free = cluster.device(e).memoryBytes - use[e];
                const double end = busy[e] + cost.compute(v, e);
                if (e != d && free >= graph.memBytes(v) && (to < 0 || end < finish)) {
                    finish = end;
                    to = e;
                }
            }
            if (to < 0)
                continue;
            use[d] -= graph.memBytes(v);
            use[to] += graph.memBytes(v);
            busy[d] -= cost.compute(v, d);
            busy[to] = finish;
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
