// HEFT (Topcuoglu, Hariri, Wu 2002): tasks in decreasing upward rank (mean compute and mean
// communication costs, memoised), each on the device that gives it the earliest finish time,
// inserted into an idle gap when one is long enough. "heft" is faithful to the paper (links
// assumed free, ties to the lower device index); "heft-c" is our contention-aware variant: every
// transfer is booked on its link as the simulator queues it, and ties go to the faster device.
// Both are memory-aware: devices without room are skipped.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/ListScheduler.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>

namespace ps {

namespace {

class HeftPlacer : public Placer
{
public:
    HeftPlacer(std::string name, std::string description, ListScheduler::Options options)
        : m_name(std::move(name)), m_description(std::move(description)), m_options(options)
    {}

    FamilyInfo info() const override
    {
        return {
            m_name,
            m_description,
            {linearTuned({"insertion", HyperParam::Type::Bool, 0, 1, 1, {}, "fill idle gaps between scheduled ops"}),
             {"near",
              HyperParam::Type::Bool,
              0,
              1,
              0,
              {},
              "weigh only the inputs' devices and the device free first (every device when none has room): "
              "for clusters of thousands of devices"}}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        ListScheduler::Options options = m_options;
        options.insertion = params.flag("insertion");
        options.near = params.flag("near");
        ListScheduler scheduler(g, pb.cluster, pb.constraints, options);
        const std::vector<double> upward = upwardRanks(scheduler.costs());
        // Decreasing upward rank; the canonical rank breaks ties, which keeps the order
        // topological even for zero-cost ops.
        std::vector<int> order(g.topologicalOrder());
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return upward[a] > upward[b] || (upward[a] == upward[b] && g.rank(a) < g.rank(b));
        });
        return scheduleInOrder(scheduler, order, control, m_name);
    }

    // Places nodes in the given order on their earliest-finish devices; after a cancel or the
    // time limit placeRest schedules the rest, so the result is always a whole placement.
    static PlacerOutput scheduleInOrder(ListScheduler &scheduler, const std::vector<int> &order,
                                        const RunControl &control, const std::string &name)
    {
        const int n = static_cast<int>(order.size());
        int placed = 0;
        for (int v : order) {
            if (scheduler.stopped(control))
                break;
            ListScheduler::Slot slot;
            scheduler.commit(v, scheduler.best(v, slot), slot);
            if ((++placed & 4095) == 0)
                control.report({double(placed) / n, 0, std::numeric_limits<double>::infinity(), name});
        }
        PlacerOutput out;
        out.plannedMakespan = scheduler.plannedMakespan();
        out.notes = scheduler.tracker().notes();
        out.placement = Placement(scheduler.placeRest(name, out.notes));
        return out;
    }

private:
    std::string m_name, m_description;
    ListScheduler::Options m_options;
};

} // namespace

std::unique_ptr<Placer> makeHeftPlacer()
{
    return std::make_unique<HeftPlacer>(
        "heft",
        "HEFT: decreasing upward rank, earliest finish time with insertion (links assumed free), "
        "memory-aware",
        ListScheduler::Options{true, false, false});
}

std::unique_ptr<Placer> makeContentionHeftPlacer()
{
    return std::make_unique<HeftPlacer>(
        "heft-c",
        "contention-aware HEFT: every transfer booked on its link as the simulator queues it, "
        "ties to the faster device",
        ListScheduler::Options{true, true, true});
}

} // namespace ps
