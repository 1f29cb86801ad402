#include "core/steering/Recombination.h"

#include "core/family/ModelFamily.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Objective.h"
#include "core/sim/Simulator.h"
#include "core/steering/Ensemble.h"

#include <algorithm>
#include <random>
#include <set>

namespace ps {

Recombined recombine(const PlacementProblem &problem, const std::vector<int> &base, const std::vector<int> &partner,
                     long long evaluations, uint64_t seed, const RunControl &control)
{
    const Graph &g = problem.graph;
    const int n = g.nodeCount();
    Recombined out;
    out.devices = base;
    if (evaluations < 3 || n < 2 || base.size() != static_cast<size_t>(n) || partner.size() != base.size())
        return out;
    const std::vector<int> other = alignDevices(problem.cluster, base, partner);
    // Topological positions of the ops where the parents differ: a stretch [from, to) of positions
    // is a child; it is a new placement only if it holds some but not all of them.
    const std::vector<int> &order = g.topologicalOrder();
    std::vector<int> differing; // positions, ascending
    for (int pos = 0; pos < n; ++pos)
        if (base[order[pos]] != other[order[pos]])
            differing.push_back(pos);
    if (differing.empty())
        return out;

    Simulator sim(g, problem.cluster);
    const ObjectiveJudge judge(g, problem.cluster, problem.constraints, problem.objective);
    PlacerResult best = judgePlacement(problem, sim, judge, base);
    PlacerResult partnerJudged = judgePlacement(problem, sim, judge, other);
    if (betterResult(partnerJudged, best)) {
        best = std::move(partnerJudged);
        out.improved = true;
    }
    // A child is known by the differing positions it takes from the partner: [first, last) of them.
    std::set<std::pair<long long, long long>> tried;
    auto tryChild = [&](int from, int to) {
        const long long first = std::lower_bound(differing.begin(), differing.end(), from) - differing.begin();
        const long long last = std::lower_bound(differing.begin(), differing.end(), to) - differing.begin();
        if (last - first <= 0 || last - first == static_cast<long long>(differing.size()) || control.cancelled() ||
            !tried.insert({first, last}).second) // a parent, or a child judged already
            return;
        std::vector<int> child = base;
        for (int pos = from; pos < to; ++pos)
            child[order[pos]] = other[order[pos]];
        ++out.children;
        PlacerResult judged = judgePlacement(problem, sim, judge, std::move(child));
        if (betterResult(judged, best)) {
            best = std::move(judged);
            out.improved = true;
        }
    };
    const long long children = evaluations - 2; // the parents' judgements came first
    // One-point: cuts spread evenly over the span where the parents differ, the partner's devices
    // before the cut, then after it.
    const long long cuts = std::max(1LL, children / 4);
    const int lo = differing.front(), hi = differing.back() + 1;
    for (long long i = 1; i <= cuts && sim.evaluations() < evaluations; ++i) {
        const int cut = lo + static_cast<int>((hi - lo) * i / (cuts + 1));
        tryChild(0, cut);
        if (sim.evaluations() < evaluations)
            tryChild(cut, n);
    }
    // Two-point: random stretches inside that span.
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> position(lo, hi);
    for (long long attempt = 0; sim.evaluations() < evaluations && attempt < 4 * children && !control.cancelled();
         ++attempt) {
        int a = position(rng), b = position(rng);
        if (a > b)
            std::swap(a, b);
        tryChild(a, b);
    }
    out.devices = best.placement.devices();
    out.evaluations = sim.evaluations();
    return out;
}

} // namespace ps
