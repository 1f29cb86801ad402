// HEFT (Topcuoglu, Hariri, Wu 2002): tasks in decreasing upward rank, each on the device that
// gives it the earliest finish time, inserted into an idle gap when one is long enough. The
// upward rank uses mean compute and mean communication costs and is memoised in reverse
// topological order (the recursive form is exponential on deep graphs). Faithful to the paper:
// links are assumed free (no contention). Memory-aware: devices without room are skipped.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/CostModel.h"

#include <algorithm>
#include <numeric>

namespace ps {

namespace {

struct Interval
{
    double start, end;
};

// Earliest start >= ready of a slot of length `length` on a device's busy intervals (sorted,
// disjoint); with insertion the slot may lie in a gap between intervals.
double earliestSlot(const std::vector<Interval> &busy, double ready, double length, bool insertion)
{
    if (!insertion)
        return busy.empty() ? ready : std::max(ready, busy.back().end);
    auto it = std::lower_bound(busy.begin(), busy.end(), ready,
                               [](const Interval &i, double t) { return i.end <= t; });
    double candidate = ready;
    for (; it != busy.end(); ++it) {
        if (it->start >= candidate + length)
            return candidate;
        candidate = std::max(candidate, it->end);
    }
    return candidate;
}

class HeftPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"heft",
                "HEFT: decreasing upward rank, earliest finish time with insertion (links assumed "
                "free), memory-aware",
                {{"insertion", HyperParam::Type::Bool, 0, 1, 1, {}, "fill idle gaps between scheduled ops"}}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const int n = g.nodeCount(), k = c.deviceCount();
        const bool insertion = params.flag("insertion");
        CostModel costs(g, c);

        // Mean communication cost of b bytes = mean latency + b * mean(1 / bandwidth).
        double meanLatency = 0, meanInverseBandwidth = 0;
        if (k > 1) {
            for (int a = 0; a < k; ++a)
                for (int b = 0; b < k; ++b)
                    if (a != b) {
                        meanLatency += c.link(a, b).latencyS;
                        meanInverseBandwidth += 1.0 / c.link(a, b).bandwidthBytesPerS;
                    }
            meanLatency /= double(k) * (k - 1);
            meanInverseBandwidth /= double(k) * (k - 1);
        }
        std::vector<double> upward(n, 0.0);
        const std::vector<int> &topo = g.topologicalOrder();
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
            const int v = *it;
            double meanCompute = 0;
            for (int d = 0; d < k; ++d)
                meanCompute += costs.compute(v, d);
            meanCompute /= k;
            double tail = 0;
            const auto succ = g.successors(v);
            const auto bytes = g.successorBytes(v);
            for (size_t i = 0; i < succ.size(); ++i) {
                const double comm = k > 1 ? meanLatency + bytes[i] * meanInverseBandwidth : 0.0;
                tail = std::max(tail, comm + upward[succ[i]]);
            }
            upward[v] = meanCompute + tail;
        }
        // Decreasing upward rank; the canonical rank breaks ties, which keeps the order
        // topological even for zero-cost ops.
        std::vector<int> order(topo);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return upward[a] > upward[b] || (upward[a] == upward[b] && g.rank(a) < g.rank(b));
        });

        FeasibilityTracker tracker(g, c, pb.constraints);
        std::vector<int> device(n, -1);
        std::vector<double> finish(n, 0.0);
        std::vector<std::vector<Interval>> busy(k);
        long long placed = 0;
        for (int v : order) {
            int best = -1;
            double bestStart = 0, bestFinish = 0;
            for (int d = 0; d < k; ++d) {
                if (!tracker.fits(v, d))
                    continue;
                const double w = costs.compute(v, d);
                const double start = earliestSlot(busy[d], costs.dataReady(v, d, device.data(), finish.data()), w, insertion);
                if (best < 0 || start + w < bestFinish) {
                    best = d;
                    bestStart = start;
                    bestFinish = start + w;
                }
            }
            if (best < 0) {
                best = tracker.fallbackDevice(v);
                const double w = costs.compute(v, best);
                bestStart = earliestSlot(busy[best], costs.dataReady(v, best, device.data(), finish.data()), w, insertion);
                bestFinish = bestStart + w;
            }
            tracker.assign(v, best);
            device[v] = best;
            finish[v] = bestFinish;
            auto &list = busy[best];
            auto at = std::lower_bound(list.begin(), list.end(), bestStart,
                                       [](const Interval &i, double t) { return i.start < t; });
            list.insert(at, {bestStart, bestFinish});
            if ((++placed & 4095) == 0) {
                control.report({double(placed) / n, 0, std::numeric_limits<double>::infinity(), "heft"});
                if (control.cancelled())
                    break;
            }
        }
        // After a cancel, the rest goes where it fits, so the result is still a placement.
        for (int v : order)
            if (device[v] < 0)
                device[v] = tracker.assignNear(v, 0);
        PlacerOutput out;
        out.plannedMakespan = 0;
        for (int v = 0; v < n; ++v)
            out.plannedMakespan = std::max(out.plannedMakespan, finish[v]);
        out.placement = Placement(std::move(device));
        out.notes = tracker.notes();
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeHeftPlacer() { return std::make_unique<HeftPlacer>(); }

} // namespace ps
