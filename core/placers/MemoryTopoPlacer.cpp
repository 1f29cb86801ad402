// Baechi's m-TOPO (Jeon et al., SoCC 2020): nodes in topological order fill one device after
// another, each up to a memory cap, here the device's share of the graph's memory in proportion
// to its speed (plus a slack), never above its real memory. Colocation groups move as a unit.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>

namespace ps {

namespace {

class MemoryTopoPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"m-topo",
                "Baechi m-TOPO: topological order, filling each device up to its share of the "
                "graph's memory",
                {logTuned({"slack", HyperParam::Type::Real, 0, 10, 0.05, {}, "extra share allowed per device"})}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const int k = c.deviceCount();
        std::vector<double> cap(k);
        for (int d = 0; d < k; ++d)
            cap[d] = std::min(c.device(d).memoryBytes, g.totalMemBytes() * (1 + params.number("slack")) *
                                                           c.device(d).flopsPerS / c.totalFlopsPerS());
        FeasibilityTracker tracker(g, c, pb.constraints);
        std::vector<double> filled(k, 0.0);
        std::vector<int> device(g.nodeCount());
        int current = 0;
        for (int v : g.topologicalOrder()) {
            if (tracker.requiredDevice(v) < 0)
                while (current + 1 < k && filled[current] + tracker.need(v) > cap[current])
                    ++current;
            const double need = tracker.need(v);
            device[v] = tracker.assignNear(v, current);
            filled[device[v]] += need;
        }
        PlacerOutput out;
        out.placement = Placement(std::move(device));
        out.notes = tracker.notes();
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeMemoryTopoPlacer()
{
    return std::make_unique<MemoryTopoPlacer>();
}

} // namespace ps
