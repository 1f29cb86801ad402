// Baechi's memory-constrained ETF placers (Jeon et al., SoCC 2020).
//  m-ETF: Earliest Task First under memory limits: repeatedly schedule, among the ops whose
//         predecessors are all placed and the devices that still have room for them, the
//         (op, device) pair that can start earliest; no insertion, links assumed free.
//  m-SCT: the same, but an op that is the favourite child of a parent (decided by the LP of SCT
//         scheduling, see FavouriteChildren) is only offered to its parent's device while it
//         fits there.
//  m-etf-c: our contention-aware variant: the op that can start earliest goes to the device
//         where it finishes earliest with its transfers booked on the links, ties to the faster
//         device (plain ETF keeps ops on a slow device merely because it is free).
// Colocation groups are placed as one unit (the first member fixes the device).
#include "core/cluster/Cluster.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/placers/FavouriteChildren.h"
#include "core/placers/ListScheduler.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>
#include <chrono>
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

struct EtfVariant
{
    const char *name;
    const char *description;
    bool contention; // book transfers, choose the device by earliest finish, faster ties
    bool favourites; // SCT favourite children
};

class MemoryEtfPlacer : public Placer
{
public:
    explicit MemoryEtfPlacer(EtfVariant variant) : m_variant(variant) {}

    FamilyInfo info() const override
    {
        FamilyInfo info{m_variant.name, m_variant.description, {}};
        if (m_variant.favourites) {
            info.params.push_back({"lp_time_limit",
                                   HyperParam::Type::Real,
                                   0.1,
                                   3600,
                                   10,
                                   {},
                                   "seconds for the favourite-child LP before the largest-edge rule (at most what is "
                                   "left of the run's time limit)"});
            info.params.push_back({"lp_window",
                                   HyperParam::Type::Int,
                                   10,
                                   1e7,
                                   1000,
                                   {},
                                   "ops per LP window (a rolling horizon in topological order)"});
        }
        return info;
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                       const Placement *) const override;

private:
    EtfVariant m_variant;
};

PlacerOutput MemoryEtfPlacer::place(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                                    const Placement *) const
{
    const auto t0 = std::chrono::steady_clock::now();
    const Graph &g = pb.graph;
    const int n = g.nodeCount(), k = pb.cluster.deviceCount();
    ListScheduler scheduler(g, pb.cluster, pb.constraints, {false, m_variant.contention, m_variant.contention});
    FeasibilityTracker &tracker = scheduler.tracker();
    PlacerOutput out;
    std::vector<int> favouriteParent(n, -1);
    if (m_variant.favourites) {
        // The LP gets its own limit or what is left of the run's, whichever is less.
        FavouriteChildren f = favouriteChildren(
            scheduler.costs(), std::min(params.number("lp_time_limit"), control.timeLeftS(secondsSince(t0))),
            params.integer("lp_window"), [&] { return control.cancelled(); });
        favouriteParent = std::move(f.favouriteParent);
        out.notes.push_back(f.note);
    }
    const std::vector<int> &device = scheduler.devices();
    std::vector<int> unplacedInputs(n), heapsHolding(n, 0);
    std::vector<CandidateHeap> heaps(k);
    std::vector<int> forced; // ops that fit nowhere, placed at once on the least-bad device
    int placed = 0;

    auto commitBest = [&](int v) {
        ListScheduler::Slot slot;
        scheduler.commit(v, scheduler.best(v, slot), slot);
        ++placed;
    };
    auto offer = [&](int v) {
        const int parent = favouriteParent[v];
        const bool toParent = parent >= 0 && tracker.fits(v, device[parent]);
        for (int d = 0; d < k; ++d)
            if (toParent ? d == device[parent] : tracker.fits(v, d)) {
                heaps[d].push(
                    {scheduler.costs().dataReady(v, d, device.data(), scheduler.finishes().data()), g.rank(v), v});
                ++heapsHolding[v];
            }
        if (heapsHolding[v] == 0)
            forced.push_back(v);
    };
    auto release = [&](int v) {
        for (int w : g.successors(v))
            if (--unplacedInputs[w] == 0)
                offer(w);
    };
    auto drainForced = [&] {
        while (!forced.empty()) {
            const int v = forced.back();
            forced.pop_back();
            if (device[v] >= 0)
                continue;
            commitBest(v); // falls back to the least-bad device, noted by the tracker
            release(v);
        }
    };

    for (int v = 0; v < n; ++v)
        unplacedInputs[v] = g.inDegree(v);
    for (int v : g.topologicalOrder())
        if (unplacedInputs[v] == 0)
            offer(v);
    drainForced();
    while (placed < n && !scheduler.stopped(control)) {
        int bestDevice = -1;
        double bestStart = 0;
        for (int d = 0; d < k; ++d) {
            CandidateHeap &h = heaps[d];
            // Drop entries that are placed or no longer fit (memory filled, group fixed).
            while (!h.empty() && (device[h.top().node] >= 0 || !tracker.fits(h.top().node, d))) {
                const int v = h.top().node;
                h.pop();
                if (device[v] < 0 && --heapsHolding[v] == 0)
                    forced.push_back(v);
            }
            if (h.empty())
                continue;
            const double start = std::max(scheduler.deviceFree(d), h.top().dataReady);
            if (bestDevice < 0 || start < bestStart) {
                bestDevice = d;
                bestStart = start;
            }
        }
        if (!forced.empty()) {
            drainForced();
            continue;
        }
        if (bestDevice < 0)
            break; // nothing offered (cannot happen on a DAG)
        const int v = heaps[bestDevice].top().node;
        heaps[bestDevice].pop();
        if (m_variant.contention) {
            commitBest(v);
        } else {
            scheduler.commit(v, bestDevice, scheduler.evaluate(v, bestDevice));
            ++placed;
        }
        release(v);
        drainForced();
        if ((placed & 4095) == 0)
            control.report({double(placed) / n, 0, std::numeric_limits<double>::infinity(), m_variant.name});
    }
    out.plannedMakespan = scheduler.plannedMakespan();
    out.notes.insert(out.notes.end(), tracker.notes().begin(), tracker.notes().end());
    out.placement = Placement(scheduler.placeRest(m_variant.name, out.notes));
    return out;
}

} // namespace

std::unique_ptr<Placer> makeMemoryEtfPlacer()
{
    return std::make_unique<MemoryEtfPlacer>(
        EtfVariant{"m-etf",
                   "Baechi m-ETF: the ready (op, device) pair with the earliest start, among devices "
                   "with memory left",
                   false, false});
}

std::unique_ptr<Placer> makeMemorySctPlacer()
{
    return std::make_unique<MemoryEtfPlacer>(EtfVariant{
        "m-sct", "Baechi m-SCT: m-ETF keeping each op's LP-chosen favourite child on its device", false, true});
}

std::unique_ptr<Placer> makeContentionEtfPlacer()
{
    return std::make_unique<MemoryEtfPlacer>(
        EtfVariant{"m-etf-c",
                   "contention-aware m-ETF: earliest-start op on its earliest-finish device, "
                   "transfers booked on links, ties to the faster device",
                   true, false});
}

} // namespace ps
