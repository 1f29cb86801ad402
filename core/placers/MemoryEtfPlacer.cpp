// Baechi's memory-constrained ETF placers (Jeon et al., SoCC 2020).
//  m-ETF: Earliest Task First under memory limits: repeatedly schedule, among the ops whose
//         predecessors are all placed and the devices that still have room for them, the
//         (op, device) pair that can start earliest; no insertion, links assumed free.
//  m-SCT: the same, with favourite children (decided by the LP of SCT scheduling, see
//         FavouriteChildren) as in Baechi's SCT: when an op's favourite child becomes ready while
//         the op is still the last on its device, and that device is among those where the child
//         can start earliest, the device waits for the child (its "awake" state): it runs another
//         op meanwhile only if that op ends before the child is ready (Baechi: only "urgent" ops).
//         Otherwise the child is an op like any other.
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
#include <utility>

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
                                   "seconds for the favourite-child LP before the largest-edge rule (at most half of "
                                   "what is left of the run's time limit: the scheduling gets the rest)"});
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
        // The LP gets its own limit or half of what is left of the run's, whichever is less: with
        // all of it, a time limit stopped the scheduling before its first op, and every op went
        // where its inputs are (GNMT-58k x 8gpu-2node under 5 s: 7.6x the bound, m-etf's 4.8x).
        FavouriteChildren f = favouriteChildren(
            scheduler.costs(), std::min(params.number("lp_time_limit"), control.timeLeftS(secondsSince(t0)) / 2),
            params.integer("lp_window"), [&] { return control.cancelled(); });
        favouriteParent = std::move(f.favouriteParent);
        out.notes.push_back(f.note);
    }
    const std::vector<int> &device = scheduler.devices();
    std::vector<int> unplacedInputs(n), heapsHolding(n, 0);
    std::vector<CandidateHeap> heaps(k);
    std::vector<int> forced; // ops that fit nowhere, placed at once on the least-bad device
    int placed = 0;

    // SCT: the op placed last on each device, the favourite child a device waits for (-1: none)
    // and when that child's inputs are there (fixed: a child is offered once they are all placed).
    std::vector<int> lastOp(k, -1), awaited(k, -1);
    std::vector<double> awaitedReady(k, 0.0);
    auto dataReady = [&](int v, int d) {
        return scheduler.costs().dataReady(v, d, device.data(), scheduler.finishes().data());
    };
    auto commitOn = [&](int v, int d, const ListScheduler::Slot &slot) {
        scheduler.commit(v, d, slot);
        lastOp[d] = v;
        ++placed;
    };
    auto commitBest = [&](int v) {
        ListScheduler::Slot slot;
        const int d = scheduler.best(v, slot);
        commitOn(v, d, slot);
    };
    // Whether v is the favourite child its parent's device waits for: the parent is still the last
    // op there and no device lets v start earlier (Baechi's SCTDevice::get_op_to_schedule).
    auto awaits = [&](int v) {
        const int parent = favouriteParent[v];
        const int pd = parent >= 0 ? device[parent] : -1;
        if (pd < 0 || lastOp[pd] != parent || awaited[pd] >= 0 || !tracker.fits(v, pd))
            return false;
        const double ready = dataReady(v, pd), here = std::max(scheduler.deviceFree(pd), ready);
        for (int d = 0; d < k; ++d)
            if (d != pd && tracker.fits(v, d) && std::max(scheduler.deviceFree(d), dataReady(v, d)) < here)
                return false;
        awaited[pd] = v;
        awaitedReady[pd] = ready;
        return true;
    };
    auto offer = [&](int v) {
        if (awaits(v)) {
            heapsHolding[v] = 1;
            return;
        }
        for (int d = 0; d < k; ++d)
            if (tracker.fits(v, d)) {
                heaps[d].push({dataReady(v, d), g.rank(v), v});
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
        int bestDevice = -1, bestOp = -1;
        double bestStart = 0;
        for (int d = 0; d < k; ++d) {
            // A child the device waits for but no longer fits goes back to being offered anywhere.
            if (awaited[d] >= 0 && !tracker.fits(awaited[d], d)) {
                const int v = std::exchange(awaited[d], -1);
                heapsHolding[v] = 0;
                offer(v);
            }
            CandidateHeap &h = heaps[d];
            // Drop entries that are placed or no longer fit (memory filled, group fixed).
            while (!h.empty() && (device[h.top().node] >= 0 || !tracker.fits(h.top().node, d))) {
                const int v = h.top().node;
                h.pop();
                if (device[v] < 0 && --heapsHolding[v] == 0)
                    forced.push_back(v);
            }
            int v = h.empty() ? -1 : h.top().node;
            double start = h.empty() ? 0.0 : std::max(scheduler.deviceFree(d), h.top().dataReady);
            // A waiting device runs another op only if it ends before the awaited child is ready.
            if (awaited[d] >= 0 && (v < 0 || scheduler.evaluate(v, d).finish > awaitedReady[d])) {
                v = awaited[d];
                start = std::max(scheduler.deviceFree(d), awaitedReady[d]);
            }
            if (v >= 0 && (bestDevice < 0 || start < bestStart)) {
                bestDevice = d;
                bestOp = v;
                bestStart = start;
            }
        }
        if (!forced.empty()) {
            drainForced();
            continue;
        }
        if (bestDevice < 0)
            break; // nothing offered (cannot happen on a DAG)
        const int v = bestOp;
        if (awaited[bestDevice] == v)
            awaited[bestDevice] = -1;
        else
            heaps[bestDevice].pop();
        if (m_variant.contention)
            commitBest(v);
        else
            commitOn(v, bestDevice, scheduler.evaluate(v, bestDevice));
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
    return std::make_unique<MemoryEtfPlacer>(
        EtfVariant{"m-sct",
                   "Baechi m-SCT: m-ETF where a device waits for its last op's LP-chosen favourite "
                   "child when no device can start it earlier",
                   false, true});
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
