// Local search: moves of one node (or one colocation group), moves of a connected block of nodes
// that share a device (a stage of a pipeline changes device at once), and swaps of two nodes, judged by
// the simulator under a simulated-annealing schedule, starting from another family's result
// ("heft+local-search"). A move is simulated incrementally (from the last snapshot of the
// current placement before the move can matter), and the Metropolis threshold is drawn first,
// so the simulation stops as soon as the move is sure to be rejected (Simulator's cutoff). Pinned
// nodes never move; a move that would overflow a device's memory is not tried once the current
// placement fits; the best feasible placement seen is the result. It optimises the problem's
// objective (objectiveScore); every simulator run counts against the evaluation budget.
// `restarts` splits that budget into searches from the start, each with its own cooling.
// `race_starts` > 1 first races the start and other placements (basins differ: on MoE x
// 8gpu-2node the fifth-best fast placement is the best start), each searched with its own cooling
// for an equal part of `race_share`; the restarts then search from the best found. The others are
// the previous stage's runners-up (best-fast+local-search races by default), or, with race_starts
// set after a stage that hands over none, the fast placers' placements, found within the budget.
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/placers/BlockGrower.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Objective.h"
#include "core/sim/Simulator.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <random>

namespace ps {

namespace {

class LocalSearchPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        FamilyInfo i{
            "local-search",
            "simulated annealing over moves of one node or a connected block, and swaps, judged by the simulator",
            {{"evaluations", HyperParam::Type::Int, 1, 1e9, 2000, {}, "simulator runs at most"},
             // Not tuned by steering: sampled there it cost 1% at E = 10,000 (its lineages already
             // restart from several starts); 4 suits unrolled RNNs, 1 the CNNs (docs/performance.md).
             {"restarts",
              HyperParam::Type::Int,
              1,
              64,
              1,
              {},
              "independent searches from the start, each with an equal share of the budget; the best is kept"},
             // Not tuned by steering either: its lineages are the starts, and a race would search
             // away from the placement a lineage refines (a lineage's search has no runners-up).
             {"race_starts",
              HyperParam::Type::Int,
              1,
              16,
              8,
              {},
              "the most distinct starts the search races first, each for an equal part of race_share, "
              "before it goes on from the best placement found: the given one and the previous stage's "
              "others (best-fast hands over its runners-up, so best-fast+local-search races by default); "
              "set above 1 after a stage that hands over none (heft-c+local-search), the search runs the "
              "fast placers itself, within its budget, to find them; 1: no race"},
             {"race_share",
              HyperParam::Type::Real,
              0.05,
              0.9,
              0.25,
              {},
              "share of the budget the race over the starts takes (with race_starts > 1)"},
             logTuned({"initial_temperature",
                       HyperParam::Type::Real,
                       1e-6,
                       0.1,
                       0.002,
                       {},
                       "starting temperature as a share of the start's score"}),
             linearTuned({"swap_share", HyperParam::Type::Real, 0, 1, 0.3, {}, "share of swaps among the moves"}),
             linearTuned({"critical_share",
                          HyperParam::Type::Real,
                          0,
                          1,
                          0.5,
                          {},
                          "share of moves that pick a node on the critical path"}),
             linearTuned({"neighbour_share",
                          HyperParam::Type::Real,
                          0,
                          1,
                          0.7,
                          {},
                          "share of moves to the device of a predecessor or successor"}),
             linearTuned({"block_share",
                          HyperParam::Type::Real,
                          0,
                          1,
                          0.3,
                          {},
                          "share of moves that carry a connected block of nodes on one device"}),
             logTuned({"block_size",
                       HyperParam::Type::Int,
                       2,
                       4096,
                       1024,
                       {},
                       "most nodes a block move carries (sizes drawn log-uniformly from 2)"}),
             linearTuned({"scope_share",
                          HyperParam::Type::Real,
                          0,
                          1,
                          0.7,
                          {},
                          "share of moves that carry a node's scope (a layer, an expert: its ops on the node's "
                          "device, at a depth drawn from the node's scope path), or swap it with another "
                          "device's"})}};
        i.fewestEvaluations = 2; // its start's judgement and the result's
        return i;
    }
    bool refines() const override { return true; }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                       const Placement *start) const override
    {
        return placeAmong(pb, params, control, start, {});
    }
    PlacerOutput placeAmong(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                            const Placement *start, const std::vector<std::vector<int>> &alternatives) const override;
};

PlacerOutput LocalSearchPlacer::placeAmong(const PlacementProblem &pb, const ParamValues &params,
                                           const RunControl &control, const Placement *start,
                                           const std::vector<std::vector<int>> &alternatives) const
{
    const Graph &g = pb.graph;
    const Cluster &c = pb.cluster;
    const Constraints &cons = pb.constraints;
    const int n = g.nodeCount(), k = c.deviceCount();
    const auto t0 = std::chrono::steady_clock::now();
    // A time limit is a budget to use: without an evaluation cap set, the default cap yields to it.
    const bool capped = params.given("evaluations") || !std::isfinite(control.budget.timeLimitS);
    const long long maxEvals =
        std::min<long long>(capped ? params.integer("evaluations") : LLONG_MAX, control.budget.maxEvaluations);
    std::mt19937_64 rng(control.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);

    Simulator sim(g, c);
    const ObjectiveJudge judge(g, c, cons, pb.objective);
    std::vector<int> current = start->devices();
    enforceConstraints(cons, current);
    // The race's starts after the given one: the previous stage's others, or (race_starts set) the
    // fast placers' placements, found within the budget.
    std::vector<std::vector<int>> starts{current};
    long long startsCost = 0;
    std::vector<std::string> notes;
    const size_t raceStarts = static_cast<size_t>(params.integer("race_starts"));
    if (raceStarts > 1 && maxEvals >= 100 && k > 1 && (!alternatives.empty() || params.given("race_starts"))) {
        std::vector<std::vector<int>> others = alternatives;
        std::string from = "the previous stage's others";
        if (others.empty()) {
            RunControl probe = control;
            probe.progress = nullptr;
            probe.budget.maxEvaluations = maxEvals;
            std::vector<PlacerResult> fastOthers;
            try {
                const PlacerResult fast = bestFastPlacement(pb, probe, &fastOthers);
                startsCost = fast.evaluations;
                others = distinctStarts(fast, fastOthers, current);
                from = "the fast placers'";
                if (others.empty())
                    notes.push_back("local-search: no race (every fast placement is the start)");
            } catch (const InputError &e) { // no fast placer could place the graph: search from the start alone
                notes.push_back(std::string("local-search: no race (") + e.what() + ")");
            }
        }
        for (std::vector<int> &s : others)
            if (starts.size() < raceStarts && std::find(starts.begin(), starts.end(), s) == starts.end())
                starts.push_back(std::move(s));
        if (starts.size() > 1)
            notes.push_back("local-search: raced " + std::to_string(starts.size()) +
                            " distinct starts (the given one and " + from + ")");
    }
    const long long maxSearch = maxEvals - startsCost;
    std::vector<double> usage = memoryUsage(g, c, current);
    std::vector<double> busy = judge.busyTime(current);
    auto score = [&](double makespan, const std::vector<double> &use, const std::vector<double> &load) {
        return judge.score(judge.terms(makespan, sim.lastMovedBytes(), use, load, current, false));
    };
    auto spent = [&] { return sim.evaluations(); };
    auto fitsMemory = [&](const std::vector<double> &use) {
        for (int d = 0; d < k; ++d)
            if (use[d] > c.device(d).memoryBytes)
                return false;
        return true;
    };

    if (maxSearch < 4 || k < 2) { // the base, its critical path and one move at the least
        PlacerOutput out;
        out.placement = Placement(std::move(current));
        out.evaluations = startsCost;
        out.notes = std::move(notes);
        return out;
    }
    double currentScore = score(sim.setIncrementalBase(current), usage, busy);
    bool currentFits = fitsMemory(usage);
    std::vector<int> best = current;
    double bestScore = currentScore;
    bool bestFits = currentFits;

    std::vector<int> critical;
    auto refreshCritical = [&] { critical = sim.simulate(current).criticalOps(); };
    refreshCritical();

    BlockGrower blocks(g, cons);

    // Whether the current placement beats the best seen: it fits where the best did not, or scores lower.
    auto beatsBest = [&] {
        return (currentFits && !bestFits) || (currentFits == bestFits && currentScore < bestScore);
    };
    // What a restart returns to: the start, or after a race the best placement it found.
    std::vector<int> base = current;
    double baseScore = currentScore;
    bool baseFits = currentFits;
    double temperature0 = params.number("initial_temperature") * currentScore;
    const int restarts = static_cast<int>(params.integer("restarts"));
    // The budget's segments, each cooling from its own start: with a race, one per start over
    // race_share, then `restarts` over the rest.
    const int racers = starts.size() > 1 ? static_cast<int>(starts.size()) : 0; // the race's segments
    const double raceShare = racers > 0 ? params.number("race_share") : 0.0;
    auto segmentAt = [&](double progress) -> std::pair<int, double> { // (segment, the share of it spent)
        if (progress < raceShare) {
            const double x = progress / raceShare * racers;
            const int i = std::min(racers - 1, static_cast<int>(x));
            return {i, x - i};
        }
        const double x = racers > 0 ? (progress - raceShare) / (1 - raceShare) * restarts : progress * restarts;
        const int j = std::min(restarts - 1, static_cast<int>(x));
        return {racers + j, x - j};
    };
    int segment = 0;
    const double swapShare = params.number("swap_share"), criticalShare = params.number("critical_share"),
                 neighbourShare = params.number("neighbour_share"), blockShare = params.number("block_share"),
                 scopeShare = params.number("scope_share");
    const int blockSize = static_cast<int>(params.integer("block_size"));
    long long accepted = 0, attempts = 0;
    const long long maxAttempts = 50 * std::min<long long>(maxSearch, 1LL << 40) + 1000; // few moves possible
    auto elapsed = [&] { return secondsSince(t0); };
    auto lastReport = t0;
    std::vector<std::pair<int, int>> undo; // (node, old device)
    while (spent() < maxSearch && k > 1 && n > 0 && ++attempts <= maxAttempts) {
        const double timeShare =
            std::isfinite(control.budget.timeLimitS) ? elapsed() / std::max(1e-9, control.budget.timeLimitS) : 0.0;
        const double progress = std::max(double(spent()) / double(maxSearch), timeShare);
        if (progress >= 1 || control.cancelled())
            break;
        if (judge.meetsFloor(bestScore, bestFits)) {
            notes.push_back(ObjectiveJudge::floorNote("local-search", startsCost + spent()));
            break;
        }
        // Each segment cools through its own share of the budget, from its start.
        const auto [nowSegment, segmentSpent] = segmentAt(progress);
        if (nowSegment != segment) {
            // A new segment re-bases the simulator and finds the critical path (a run each), then
            // needs a move: with less left, the budget is spent.
            if (spent() + 3 > maxSearch)
                break;
            if (segment < racers && nowSegment >= racers) { // the race is over
                base = best;
                baseScore = bestScore;
                baseFits = bestFits;
                temperature0 = params.number("initial_temperature") * baseScore;
            }
            segment = nowSegment;
            current = segment < racers ? starts[static_cast<size_t>(segment)] : base;
            usage = memoryUsage(g, c, current);
            busy = judge.busyTime(current);
            const double makespan = sim.setIncrementalBase(current);
            if (segment < racers) { // a racing start: judged, and its own temperature
                currentScore = score(makespan, usage, busy);
                currentFits = fitsMemory(usage);
                temperature0 = params.number("initial_temperature") * currentScore;
                if (beatsBest()) {
                    best = current;
                    bestScore = currentScore;
                    bestFits = currentFits;
                }
            } else {
                currentScore = baseScore;
                currentFits = baseFits;
            }
            refreshCritical();
        }
        const double temperature = temperature0 * std::pow(1e-3, segmentSpent);

        // Pick a move.
        const int v = !critical.empty() && unit(rng) < criticalShare
                          ? critical[std::uniform_int_distribution<size_t>(0, critical.size() - 1)(rng)]
                          : std::uniform_int_distribution<int>(0, n - 1)(rng);
        const int depth = blocks.drawScopeDepth(v, scopeShare, rng);
        const bool scopeMove = depth > 0;
        const bool blockMove = !scopeMove && blockShare > 0 && unit(rng) < blockShare;
        const std::vector<int> moving =
            scopeMove   ? blocks.scopeBlock(current, v, current[v], depth)
            : blockMove ? blocks.grow(current, v, current[v], BlockGrower::drawSize(blockSize, unit(rng)))
                        : blocks.unitOf(v);
        if (moving.empty() || !blocks.movable(moving))
            continue;
        undo.clear();
        std::vector<double> newUsage = usage, newBusy = busy;
        auto moveAll = [&](const std::vector<int> &nodes, int to) {
            for (int u : nodes) {
                undo.emplace_back(u, current[u]);
                newUsage[current[u]] -= g.memBytes(u);
                newUsage[to] += g.memBytes(u);
                newBusy[current[u]] -= judge.computeTime(u, current[u]);
                newBusy[to] += judge.computeTime(u, to);
                current[u] = to;
            }
        };
        if (scopeMove && unit(rng) < swapShare) {
            // The same depth of scope, of a node on another device.
            const int w = std::uniform_int_distribution<int>(0, n - 1)(rng);
            if (current[w] == current[v])
                continue;
            const int dv = current[v], dw = current[w];
            // Empty when w has no scope (depth 0).
            const std::vector<int> other = blocks.scopeBlock(current, w, dw, std::min(depth, blocks.scopeDepth(w)));
            if (other.empty())
                continue;
            moveAll(moving, dw);
            moveAll(other, dv);
        } else if (!blockMove && !scopeMove && unit(rng) < swapShare && moving.size() == 1) {
            const int w = std::uniform_int_distribution<int>(0, n - 1)(rng);
            if (current[w] == current[v] || cons.groupOf(w) >= 0 || cons.pinnedDevice(w) >= 0)
                continue;
            const int dv = current[v], dw = current[w];
            moveAll({v}, dw);
            moveAll({w}, dv);
        } else {
            // Mostly towards a neighbour's device (saving a transfer), else anywhere.
            int to = -1;
            const auto pred = g.predecessors(v), succ = g.successors(v);
            const size_t degree = pred.size() + succ.size();
            if (degree > 0 && unit(rng) < neighbourShare) {
                const size_t pick = std::uniform_int_distribution<size_t>(0, degree - 1)(rng);
                to = current[pick < pred.size() ? pred[pick] : succ[pick - pred.size()]];
            }
            if (to < 0 || to == current[v]) {
                to = std::uniform_int_distribution<int>(0, k - 2)(rng);
                if (to >= current[v])
                    ++to;
            }
            moveAll(moving, to);
        }
        const bool newFits = fitsMemory(newUsage);
        auto revert = [&] {
            for (auto it = undo.rbegin(); it != undo.rend(); ++it)
                current[it->first] = it->second;
        };
        if (currentFits && !newFits) {
            revert();
            continue;
        }
        // Accept iff newScore < currentScore - T ln(u): the threshold is known beforehand.
        const double threshold = currentScore - temperature * std::log(std::max(unit(rng), 1e-300));
        // The terms that do not depend on the schedule are known before simulating; what is left
        // of the threshold bounds the makespan (unless moved bytes count, known only after).
        const double penalty = penalizedMakespan(1.0, c, newUsage) * pb.objective.makespanWeight;
        const double cutoff = pb.objective.bytesWeight > 0 || penalty <= 0
                                  ? std::numeric_limits<double>::infinity()
                                  : (threshold - score(0.0, newUsage, newBusy)) / penalty;
        std::vector<int> changed;
        for (const auto &entry : undo)
            changed.push_back(entry.first);
        const double makespan = sim.makespanChanged(current, changed, cutoff);
        const double newScore = std::isinf(makespan) ? makespan : score(makespan, newUsage, newBusy);
        if (newScore < threshold) {
            ++accepted;
            usage = newUsage;
            busy = newBusy;
            currentScore = newScore;
            currentFits = newFits;
            const bool improved = beatsBest();
            if (improved) {
                best = current;
                bestScore = currentScore;
                bestFits = currentFits;
            }
            // Re-basing costs a run (from where the move's run resumed), and so does the next
            // move: stop when the budget has not both.
            if (spent() + 2 > maxSearch)
                break;
            sim.acceptChanged(current, changed);
            if (improved && spent() + 2 <= maxSearch)
                refreshCritical();
        } else {
            revert();
        }
        const auto now = std::chrono::steady_clock::now();
        if (now - lastReport > std::chrono::milliseconds(100)) {
            lastReport = now;
            control.report({progress, startsCost + spent(),
                            bestFits ? bestScore : std::numeric_limits<double>::infinity(),
                            "local-search: " + std::to_string(accepted) + " moves accepted"});
        }
    }
    PlacerOutput out;
    out.placement = Placement(std::move(best));
    out.evaluations = startsCost + spent();
    out.notes = std::move(notes);
    return out;
}

} // namespace

std::unique_ptr<Placer> makeLocalSearchPlacer()
{
    return std::make_unique<LocalSearchPlacer>();
}

} // namespace ps
