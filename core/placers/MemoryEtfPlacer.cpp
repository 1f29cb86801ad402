// Baechi's m-ETF (Jeon et al., SoCC 2020): Earliest Task First under memory limits. Repeatedly
// schedule, among the ops whose predecessors are all placed and the devices that still have room
// for them, the (op, device) pair that can start earliest; no insertion into gaps, links assumed
// free. Colocation groups are placed as one unit (their first member fixes the device).
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/CostModel.h"

#include <algorithm>
#include <queue>

namespace ps {

namespace {

struct Candidate
{
    double dataReady;
    int rank;
    int node;
    bool operator>(const Candidate &o) const
    {
        return dataReady > o.dataReady || (dataReady == o.dataReady && rank > o.rank);
    }
};

using CandidateHeap = std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>>;

class MemoryEtfPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"m-etf", "Baechi m-ETF: the ready (op, device) pair with the earliest start, among "
                         "devices with memory left", {}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &, const RunControl &control,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const int n = g.nodeCount(), k = c.deviceCount();
        CostModel costs(g, c);
        FeasibilityTracker tracker(g, c, pb.constraints);
        std::vector<int> device(n, -1), unplacedInputs(n), heapsHolding(n, 0);
        std::vector<double> finish(n, 0.0), avail(k, 0.0);
        std::vector<CandidateHeap> heaps(k);
        int placed = 0;

        auto commit = [&](int v, int d, double start) {
            tracker.assign(v, d);
            device[v] = d;
            finish[v] = start + costs.compute(v, d);
            avail[d] = finish[v];
            ++placed;
        };
        std::vector<int> newlyReady;
        auto offer = [&](int v) {
            for (int d = 0; d < k; ++d)
                if (tracker.fits(v, d)) {
                    heaps[d].push({costs.dataReady(v, d, device.data(), finish.data()), g.rank(v), v});
                    ++heapsHolding[v];
                }
            if (heapsHolding[v] == 0) { // fits nowhere: place it now, overflowing the least-bad device
                const int d = tracker.fallbackDevice(v);
                commit(v, d, std::max(avail[d], costs.dataReady(v, d, device.data(), finish.data())));
                newlyReady.push_back(v);
            }
        };
        auto release = [&](int v) { // v is placed: its successors may become ready
            for (int w : g.successors(v))
                if (--unplacedInputs[w] == 0)
                    offer(w);
        };

        for (int v = 0; v < n; ++v)
            unplacedInputs[v] = g.inDegree(v);
        for (int v : g.topologicalOrder())
            if (unplacedInputs[v] == 0)
                offer(v);
        auto drainForced = [&] {
            while (!newlyReady.empty()) {
                int v = newlyReady.back();
                newlyReady.pop_back();
                release(v);
            }
        };
        drainForced();

        while (placed < n) {
            int bestDevice = -1;
            double bestStart = 0;
            for (int d = 0; d < k; ++d) {
                CandidateHeap &h = heaps[d];
                // Drop entries that are placed, or no longer fit (memory filled, group fixed).
                while (!h.empty() && (device[h.top().node] >= 0 || !tracker.fits(h.top().node, d))) {
                    const int v = h.top().node;
                    h.pop();
                    if (device[v] < 0 && --heapsHolding[v] == 0) {
                        const int f = tracker.fallbackDevice(v);
                        commit(v, f, std::max(avail[f], costs.dataReady(v, f, device.data(), finish.data())));
                        newlyReady.push_back(v);
                    }
                }
                if (h.empty())
                    continue;
                const double start = std::max(avail[d], h.top().dataReady);
                if (bestDevice < 0 || start < bestStart) {
                    bestDevice = d;
                    bestStart = start;
                }
            }
            if (!newlyReady.empty()) {
                drainForced();
                continue;
            }
            if (bestDevice < 0)
                break; // nothing left to offer (cannot happen on a DAG)
            const int v = heaps[bestDevice].top().node;
            heaps[bestDevice].pop();
            commit(v, bestDevice, bestStart);
            release(v);
            drainForced();
            if ((placed & 4095) == 0) {
                control.report({double(placed) / n, 0, std::numeric_limits<double>::infinity(), "m-etf"});
                if (control.cancelled())
                    break;
            }
        }
        for (int v : g.topologicalOrder())
            if (device[v] < 0)
                device[v] = tracker.assignNear(v, 0);
        PlacerOutput out;
        out.placement = Placement(std::move(device));
        out.notes = tracker.notes();
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeMemoryEtfPlacer() { return std::make_unique<MemoryEtfPlacer>(); }

} // namespace ps
