#pragma once
// Spec section 4: the cost of running a node on a device and of moving bytes over a link,
// evaluated exactly as the spec writes them. Shared by the simulator, the bound and the placers.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <algorithm>
#include <vector>

namespace ps {

class CostModel
{
public:
    CostModel(const Graph &graph, const Cluster &cluster);

    // compute(v, d) = base + op_overhead_s(d); base = compute_s[type(d)] if given, else
    // flops / flops_per_s.
    double compute(int v, int d) const
    {
        const Device &dev = m_cluster.device(d);
        double base;
        if (!findOverride(v, m_graphType[d], base))
            base = m_graph.flops(v) / dev.flopsPerS;
        return base + dev.opOverheadS;
    }

    // latency + bytes / bandwidth for a != b; 0 on one device.
    double transfer(int a, int b, double bytes) const
    {
        if (a == b)
            return 0;
        const Link &l = m_cluster.link(a, b);
        return l.latencyS + bytes / l.bandwidthBytesPerS;
    }

    // Means used by list schedulers and the SCT LP: compute over all devices, and transfer time
    // over all ordered pairs of distinct devices (0 on a single device). The compute mean is taken
    // over the kinds of device, each weighed by how many there are: O(kinds), not O(devices), per
    // node (the ranks of the 58k-op GNMT on 2,048 GPUs took 0.4 s summing device by device).
    double meanCompute(int v) const
    {
        double sum = 0;
        for (size_t i = 0; i < m_distinct.size(); ++i)
            sum += m_distinctCount[i] * compute(v, m_distinct[i]);
        return sum / m_cluster.deviceCount();
    }
    double meanTransfer(double bytes) const
    {
        return m_cluster.meanLinkLatency() + bytes * m_cluster.meanInverseBandwidth();
    }
    double meanInverseBandwidth() const { return m_cluster.meanInverseBandwidth(); }

    // When all of v's inputs can be on device d, given where and when its predecessors finished
    // (contention-free: every transfer starts as soon as its producer ends).
    double dataReady(int v, int d, const int *deviceOf, const double *finishOf) const
    {
        double ready = 0;
        const auto pred = m_graph.predecessors(v);
        const auto bytes = m_graph.predecessorBytes(v);
        for (size_t i = 0; i < pred.size(); ++i) {
            const int p = pred[i];
            ready = std::max(ready, finishOf[p] + transfer(deviceOf[p], d, bytes[i]));
        }
        return ready;
    }

    const Graph &graph() const { return m_graph; }
    const Cluster &cluster() const { return m_cluster; }
    // One device of each kind that compute() tells apart (type, speed and overhead), the first
    // in device order: a minimum of compute() over all devices is one over these (1 of 1,000
    // identical GPUs, not 1,000).
    const std::vector<int> &distinctDevices() const { return m_distinct; }

private:
    bool findOverride(int v, int type, double &seconds) const
    {
        if (type < 0)
            return false;
        for (const auto &o : m_graph.computeOverrides(v))
            if (o.deviceType == type) {
                seconds = o.seconds;
                return true;
            }
        return false;
    }

    const Graph &m_graph;
    const Cluster &m_cluster;
    std::vector<int> m_graphType; // device -> the graph's index of its type, or -1
    std::vector<int> m_distinct;
    std::vector<double> m_distinctCount; // how many devices are of m_distinct[i]'s kind
};

} // namespace ps
