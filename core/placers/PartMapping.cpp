#include "core/placers/PartMapping.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace ps {

namespace {

// What each part sends each other part: the transfers (an output to a part holding at least one
// of its consumers, once, its largest edge's bytes: spec section 4) and their bytes, k x k with the
// sending part as the row.
struct Traffic
{
    int k = 0;
    std::vector<double> count, bytes;
};

Traffic trafficBetweenParts(const Graph &g, const std::vector<int> &part, int k)
{
    Traffic t{k, std::vector<double>(static_cast<size_t>(k) * k), std::vector<double>(static_cast<size_t>(k) * k)};
    std::vector<double> most(k, -1); // per receiving part: the largest edge to it, -1 for none
    std::vector<int> receivers;
    for (int v = 0; v < g.nodeCount(); ++v) {
        const int p = part[v];
        const Span<int> succ = g.successors(v);
        const Span<double> bytes = g.successorBytes(v);
        for (size_t i = 0; i < succ.size(); ++i) {
            const int q = part[succ[i]];
            if (q == p)
                continue;
            if (most[q] < 0)
                receivers.push_back(q);
            most[q] = std::max(most[q], bytes[i]);
        }
        for (int q : receivers) {
            t.count[static_cast<size_t>(p) * k + q] += 1;
            t.bytes[static_cast<size_t>(p) * k + q] += most[q];
            most[q] = -1;
        }
        receivers.clear();
    }
    return t;
}

// The time of one part's transfers to another with the two parts on devices d and e.
class TransferCost
{
public:
    TransferCost(const Cluster &c, const Traffic &t) : m_t(t), m_k(c.deviceCount()), m_partners(m_k)
    {
        for (int p = 0; p < m_k; ++p)
            for (int q = 0; q < m_k; ++q)
                if (p != q && (t.count[at(p, q)] > 0 || t.count[at(q, p)] > 0))
                    m_partners[p].push_back(q);
        m_latency.resize(static_cast<size_t>(m_k) * m_k);
        m_perByte.resize(m_latency.size());
        for (int d = 0; d < m_k; ++d)
            for (int e = 0; e < m_k; ++e)
                if (d != e) {
                    m_latency[at(d, e)] = c.link(d, e).latencyS;
                    m_perByte[at(d, e)] = 1 / c.link(d, e).bandwidthBytesPerS;
                }
    }

    // Whether every link costs the same: then no mapping changes anything.
    bool uniform() const
    {
        for (int d = 0; d < m_k; ++d)
            for (int e = 0; e < m_k; ++e)
                if (d != e && std::tie(m_latency[at(d, e)], m_perByte[at(d, e)]) !=
                                  std::tie(m_latency[at(0, 1)], m_perByte[at(0, 1)]))
                    return false;
        return true;
    }

    double operator()(int p, int q, int d, int e) const
    {
        return m_t.count[at(p, q)] * m_latency[at(d, e)] + m_t.bytes[at(p, q)] * m_perByte[at(d, e)];
    }

    double total(const std::vector<int> &device) const
    {
        double sum = 0;
        for (int p = 0; p < m_k; ++p)
            for (int q = 0; q < m_k; ++q)
                if (p != q)
                    sum += (*this)(p, q, device[p], device[q]);
        return sum;
    }

    // The change in total() when parts a and b swap devices: only the terms of the parts either
    // exchanges transfers with change (the traffic between parts is sparse: a sweep over 256
    // devices took seconds with every part's terms summed).
    double swapDelta(const std::vector<int> &device, int a, int b) const
    {
        const int da = device[a], db = device[b];
        const TransferCost &c = *this;
        double delta = c(a, b, db, da) - c(a, b, da, db) + c(b, a, da, db) - c(b, a, db, da);
        for (int q : m_partners[a])
            if (q != b) {
                const int dq = device[q];
                delta += c(a, q, db, dq) - c(a, q, da, dq) + c(q, a, dq, db) - c(q, a, dq, da);
            }
        for (int q : m_partners[b])
            if (q != a) {
                const int dq = device[q];
                delta += c(b, q, da, dq) - c(b, q, db, dq) + c(q, b, dq, da) - c(q, b, dq, db);
            }
        return delta;
    }

    // Whether part p exchanges any transfer with another.
    bool talks(int p) const { return !m_partners[p].empty(); }

private:
    size_t at(int p, int q) const { return static_cast<size_t>(p) * m_k + q; }

    const Traffic &m_t;
    int m_k;
    std::vector<double> m_latency, m_perByte;
    std::vector<std::vector<int>> m_partners; // of each part, the parts it sends to or hears from
};

// Devices a part sized for one fits on the other exactly: an index per distinct kind.
std::vector<int> interchangeableKinds(const Cluster &c)
{
    std::vector<int> kind(c.deviceCount());
    for (int d = 0; d < c.deviceCount(); ++d) {
        kind[d] = d;
        for (int e = 0; e < d; ++e) {
            const Device &x = c.device(d), &y = c.device(e);
            if (std::tie(x.type, x.flopsPerS, x.memoryBytes, x.opOverheadS) ==
                std::tie(y.type, y.flopsPerS, y.memoryBytes, y.opOverheadS)) {
                kind[d] = kind[e];
                break;
            }
        }
    }
    return kind;
}

} // namespace

PartMapping mapPartsToDevices(const Graph &graph, const Cluster &cluster, std::vector<int> &devices)
{
    PartMapping out;
    const int k = cluster.deviceCount();
    if (k < 2)
        return out;
    const std::vector<int> kind = interchangeableKinds(cluster);
    if (std::all_of(kind.begin(), kind.end(), [&](int x) { return std::count(kind.begin(), kind.end(), x) == 1; }))
        return out; // no two devices alike
    if (k > PartMapping::kMaxDevices) {
        out.skipped = true;
        return out;
    }
    const Traffic traffic = trafficBetweenParts(graph, devices, k);
    const TransferCost cost(cluster, traffic);
    if (cost.uniform())
        return out;
    std::vector<int> device(k); // of each part
    std::iota(device.begin(), device.end(), 0);
    out.transferSBefore = cost.total(device);
    const double tiny = 1e-12 * out.transferSBefore;
    constexpr int kMaxSweeps = 100;
    for (int sweep = 0, improved = 1; improved && sweep < kMaxSweeps; ++sweep) {
        improved = 0;
        for (int a = 0; a < k; ++a)
            for (int b = a + 1; b < k; ++b)
                if (kind[device[a]] == kind[device[b]] && (cost.talks(a) || cost.talks(b)) &&
                    cost.swapDelta(device, a, b) < -tiny) {
                    std::swap(device[a], device[b]);
                    improved = 1;
                }
    }
    out.transferSAfter = cost.total(device);
    for (int p = 0; p < k; ++p)
        out.partsMoved += device[p] != p;
    for (int &d : devices)
        d = device[d];
    return out;
}

} // namespace ps
