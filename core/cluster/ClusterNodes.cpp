#include "core/cluster/ClusterNodes.h"

#include "core/cluster/Cluster.h"

#include <algorithm>
#include <numeric>

namespace ps {

std::vector<std::vector<int>> clusterNodes(const Cluster &c)
{
    const int k = c.deviceCount();
    double slowest = 0; // seconds a byte, of the slowest link
    for (int d = 0; d < k; ++d)
        for (int e = 0; e < k; ++e)
            if (d != e)
                slowest = std::max(slowest, 1 / c.link(d, e).bandwidthBytesPerS);
    std::vector<int> root(k);
    std::iota(root.begin(), root.end(), 0);
    const auto find = [&](int d) {
        while (root[d] != d)
            d = root[d] = root[root[d]];
        return d;
    };
    const auto fast = [&](int d, int e) { return 1 / c.link(d, e).bandwidthBytesPerS < slowest; };
    for (int d = 0; d < k; ++d)
        for (int e = d + 1; e < k; ++e)
            if (fast(d, e) && fast(e, d))
                root[std::max(find(d), find(e))] = std::min(find(d), find(e));
    std::vector<std::vector<int>> nodes;
    std::vector<int> nodeOf(k, -1);
    for (int d = 0; d < k; ++d) {
        const int r = find(d);
        if (nodeOf[r] < 0) {
            nodeOf[r] = static_cast<int>(nodes.size());
            nodes.emplace_back();
        }
        nodes[nodeOf[r]].push_back(d);
    }
    return nodes;
}

} // namespace ps
