// The simplest baselines: everything on the fastest device that fits, and round-robin by rank.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>
#include <cstdio>

namespace ps {

namespace {

class SinglePlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"single", "every node on the fastest device whose memory holds the whole graph", {}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &, const RunControl &,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const std::vector<int> bySpeed = c.devicesBySpeed();
        int target = -1;
        for (int d : bySpeed)
            if (target < 0 && g.totalMemBytes() <= c.device(d).memoryBytes)
                target = d;
        PlacerOutput out;
        if (target < 0) {
            target = bySpeed.front();
            char text[256]; // in the tracker's notes' form (to_string wrote "225713932.000000 bytes")
            std::snprintf(text, sizeof text,
                          "no device holds the whole graph (%.4g bytes); the fastest, '%s', overflows by %.4g bytes",
                          g.totalMemBytes(), c.device(target).name.c_str(),
                          g.totalMemBytes() - c.device(target).memoryBytes);
            out.notes.push_back(text);
        }
        FeasibilityTracker tracker(g, c, pb.constraints);
        std::vector<int> device(g.nodeCount());
        for (int v : g.topologicalOrder()) {
            const int required = tracker.requiredDevice(v);
            device[v] = required >= 0 ? required : target; // pins win over "single"
            tracker.assign(v, device[v]);
        }
        out.placement = Placement(std::move(device));
        out.notes.insert(out.notes.end(), tracker.notes().begin(), tracker.notes().end());
        return out;
    }
};

class RoundRobinPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"round-robin", "node of rank r on device r mod k (the next one with room if full)", {}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &, const RunControl &,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        FeasibilityTracker tracker(g, pb.cluster, pb.constraints);
        std::vector<int> device(g.nodeCount());
        const int k = pb.cluster.deviceCount();
        for (int v : g.topologicalOrder())
            device[v] = tracker.assignNear(v, g.rank(v) % k);
        PlacerOutput out;
        out.placement = Placement(std::move(device));
        out.notes = tracker.notes();
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeSinglePlacer()
{
    return std::make_unique<SinglePlacer>();
}
std::unique_ptr<Placer> makeRoundRobinPlacer()
{
    return std::make_unique<RoundRobinPlacer>();
}

} // namespace ps
