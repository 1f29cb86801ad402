// CPOP (Topcuoglu, Hariri, Wu 2002): priority = upward + downward rank; the nodes of the
// critical path (priority equal to the entry node's) all go to the one device that runs them
// fastest in total, the others to their earliest-finish device; ready nodes are taken in
// decreasing priority. Links assumed free, as in the paper; memory-aware.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/ListScheduler.h"
#include "core/placers/PlacerRegistry.h"

#include <cmath>
#include <queue>

namespace ps {

namespace {

class CpopPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"cpop", "CPOP: critical path on the fastest device for it, the rest by earliest finish", {}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &, const RunControl &control,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const int n = g.nodeCount(), k = c.deviceCount();
        ListScheduler scheduler(g, c, pb.constraints, ListScheduler::Options{true, false, false});
        const std::vector<double> up = upwardRanks(scheduler.costs()), down = downwardRanks(scheduler.costs());
        std::vector<double> priority(n);
        double critical = 0;
        for (int v = 0; v < n; ++v) {
            priority[v] = up[v] + down[v];
            critical = std::max(critical, priority[v]);
        }
        // The critical path: from the entry node of highest priority, follow successors whose
        // priority equals it (relative tolerance for rounding).
        auto onPath = [&](int v) { return std::fabs(priority[v] - critical) <= 1e-9 * std::max(1.0, critical); };
        std::vector<char> isCritical(n, 0);
        std::vector<int> path;
        int v = -1;
        for (int u : g.topologicalOrder())
            if (g.inDegree(u) == 0 && onPath(u) && v < 0)
                v = u;
        while (v >= 0) {
            isCritical[v] = 1;
            path.push_back(v);
            int next = -1;
            for (int w : g.successors(v))
                if (onPath(w) && next < 0)
                    next = w;
            v = next;
        }
        int pathDevice = 0;
        double bestTotal = std::numeric_limits<double>::infinity();
        for (int d = 0; d < k && !scheduler.stopped(control); ++d) { // the path's ops, not all n, per device
            double total = 0;
            for (int u : path)
                total += scheduler.costs().compute(u, d);
            if (total < bestTotal) {
                bestTotal = total;
                pathDevice = d;
            }
        }
        // Ready nodes in decreasing priority (ties: canonical rank).
        auto lower = [&](int a, int b) {
            return priority[a] < priority[b] || (priority[a] == priority[b] && g.rank(a) > g.rank(b));
        };
        std::priority_queue<int, std::vector<int>, decltype(lower)> ready(lower);
        std::vector<int> waiting(n);
        for (int u = 0; u < n; ++u)
            if ((waiting[u] = g.inDegree(u)) == 0)
                ready.push(u);
        while (!ready.empty() && !scheduler.stopped(control)) {
            const int u = ready.top();
            ready.pop();
            ListScheduler::Slot slot;
            int d = -1;
            if (isCritical[u]) {
                slot = scheduler.evaluate(u, pathDevice);
                if (std::isfinite(slot.finish))
                    d = pathDevice;
            }
            if (d < 0)
                d = scheduler.best(u, slot);
            scheduler.commit(u, d, slot);
            for (int w : g.successors(u))
                if (--waiting[w] == 0)
                    ready.push(w);
        }
        PlacerOutput out;
        out.plannedMakespan = scheduler.plannedMakespan();
        out.notes = scheduler.tracker().notes();
        out.placement = Placement(scheduler.placeRest("cpop", out.notes));
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeCpopPlacer()
{
    return std::make_unique<CpopPlacer>();
}

} // namespace ps
