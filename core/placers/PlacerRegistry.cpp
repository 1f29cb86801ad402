#include "core/placers/PlacerRegistry.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/io/JsonStream.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/sim/Simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>

namespace ps {

namespace {
PlacerRegistry &globalPlacers()
{
    static PlacerRegistry registry = [] {
        PlacerRegistry r;
        r.add(makeSinglePlacer());
        r.add(makeRoundRobinPlacer());
        r.add(makeHumanPlacer());
        r.add(makeHeftPlacer());
        r.add(makeContentionHeftPlacer());
        r.add(makeCpopPlacer());
        r.add(makeMemoryTopoPlacer());
        r.add(makeMemoryEtfPlacer());
        r.add(makeMemorySctPlacer());
        r.add(makeContentionEtfPlacer());
        r.add(makeMetisPlacer());
        r.add(makeSpectralPlacer());
        r.add(makeLocalSearchPlacer());
        r.add(makeBestFastPlacer());
        return r;
    }();
    return registry;
}
} // namespace

const PlacerRegistry &PlacerRegistry::builtin()
{
    return globalPlacers();
}

void PlacerRegistry::addFamily(std::unique_ptr<Placer> family)
{
    if (!globalPlacers().find(family->info().name))
        globalPlacers().add(std::move(family));
}

std::vector<std::string> compositionStages(const std::string &spec)
{
    std::vector<std::string> stages;
    size_t pos = 0;
    while (true) {
        size_t plus = spec.find('+', pos);
        stages.push_back(spec.substr(pos, plus == std::string::npos ? std::string::npos : plus - pos));
        if (stages.back().empty() && !spec.empty())
            throw InputError("model '" + spec +
                             "' has an empty stage: stages are joined by one '+' (heft+local-search)");
        if (plus == std::string::npos)
            break;
        pos = plus + 1;
    }
    return stages;
}

namespace {

std::vector<std::string> paramsFor(const Placer &placer, const std::vector<std::string> &params)
{
    const std::vector<HyperParam> declared = placer.info().params;
    std::vector<std::string> mine;
    for (const std::string &p : params) {
        const std::string key = p.substr(0, p.find('='));
        for (const HyperParam &h : declared)
            if (h.name == key)
                mine.push_back(p);
    }
    return mine;
}

// The stages of a spec (`human` first when a refiner starts it without a start placement), each
// parameter checked against the stage(s) that declare it.
std::vector<const Placer *> checkedStages(const PlacerRegistry &registry, const std::string &spec,
                                          const std::vector<std::string> &params, bool haveStart)
{
    std::vector<const Placer *> stages;
    for (const std::string &name : compositionStages(spec))
        stages.push_back(&registry.require(name, "model"));
    // A start given to a spec whose first stage builds its own placement would be dropped unseen.
    if (haveStart && !stages.front()->takesStart())
        throw InputError("'" + spec + "' does not start from a given placement" +
                         (stages.size() > 1 ? ": its first stage '" + stages.front()->info().name + "' builds its own"
                                            : std::string()) +
                         "; start with local-search, gdp or giph, or give no start");
    if (stages.front()->refines() && !haveStart)
        stages.insert(stages.begin(), registry.find("human"));
    for (const std::string &p : params)
        if (std::none_of(stages.begin(), stages.end(), [&](const Placer *s) { return !paramsFor(*s, {p}).empty(); })) {
            std::vector<std::string> known;
            for (const Placer *stage : stages)
                for (const HyperParam &h : stage->info().params)
                    if (std::find(known.begin(), known.end(), h.name) == known.end())
                        known.push_back(h.name);
            std::string list;
            for (const std::string &name : known)
                list += (list.empty() ? "" : ", ") + name;
            throw InputError("no stage of '" + spec + "' has a parameter '" + p.substr(0, p.find('=')) +
                             "' (known: " + (list.empty() ? "none" : list) + ")");
        }
    for (const Placer *stage : stages) // types and ranges
        ParamValues::parse(stage->info().params, paramsFor(*stage, params));
    return stages;
}

} // namespace

void checkPlacerSpec(const PlacerRegistry &registry, const std::string &spec, const std::vector<std::string> &params,
                     bool haveStart)
{
    checkedStages(registry, spec, params, haveStart);
}

bool betterResult(const PlacerResult &a, const PlacerResult &b)
{
    return (a.feasible && !b.feasible) || (a.feasible == b.feasible && a.score < b.score);
}

namespace {

// The one placement there is when the cluster has one device or the pins and colocation groups
// fix every op (freeChoices is empty), judged, with a note; else nothing.
std::optional<PlacerResult> onlyPlacement(const PlacementProblem &problem, Simulator &sim, const ObjectiveJudge &judge,
                                          const std::string &spec)
{
    const int n = problem.graph.nodeCount(), k = problem.cluster.deviceCount();
    if (k > 1 && !freeChoices(problem.constraints, n).empty())
        return std::nullopt;
    PlacerResult only = judgePlacement(problem, sim, judge, std::vector<int>(static_cast<size_t>(n), 0));
    only.notes.push_back((k == 1 ? "one device: every op goes on it" : "the pins and colocation groups fix every op") +
                         std::string(" ('") + spec + "' was not run)");
    return only;
}

// An infeasible result says first when no placement could fit memory (each placer's own notes
// name only the ops it could not fit).
void noteMemoryNeverFits(PlacerResult &result, const PlacementProblem &problem)
{
    if (result.feasible)
        return;
    if (std::string why = FeasibilityTracker(problem.graph, problem.cluster, problem.constraints).neverFits();
        !why.empty())
        result.notes.insert(result.notes.begin(), std::move(why));
}

} // namespace

PlacerResult runPlacer(const PlacerRegistry &registry, const std::string &spec, const PlacementProblem &problem,
                       const std::vector<std::string> &params, const RunControl &control, const Placement *start)
{
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<const Placer *> stages = checkedStages(registry, spec, params, start != nullptr);
    if (problem.graph.nodeCount() == 0)
        throw InputError("the graph has no nodes to place");
    // Every run would spend its budget in a space with no feasible placement (gdp: 2 s, 54,794
    // simulator runs, for a three-op graph).
    if (const std::string why = problem.constraints.contradiction(problem.graph, problem.cluster); !why.empty())
        throw InputError(why);
    if (start && start->nodeCount() != problem.graph.nodeCount())
        throw InputError("the placement to refine has " + std::to_string(start->nodeCount()) + " nodes, the graph " +
                         std::to_string(problem.graph.nodeCount()));

    Simulator sim(problem.graph, problem.cluster);
    const ObjectiveJudge judge(problem.graph, problem.cluster, problem.constraints, problem.objective);
    // One placement to choose from (one device, or every op pinned or colocated with a pinned op):
    // no family can find another, so none is run (gdp trained 47 s on GNMT x one GPU to hand back
    // its start, and every search spent its time limit on a graph pinned throughout). A learner
    // asked to save its policy still trains.
    if (!savesAPolicy(params))
        if (std::optional<PlacerResult> only = onlyPlacement(problem, sim, judge, spec)) {
            only->evaluations = sim.evaluations();
            noteMemoryNeverFits(*only, problem);
            stampProvenance(*only, spec, params, control.seed, problem, secondsSince(t0));
            return *only;
        }
    PlacerResult result;
    bool haveResult = false;
    auto judgeAndKeep = [&](std::vector<int> devices) {
        // A stage's output replaces the result only if it is not less feasible and not worse.
        PlacerResult judged = judgePlacement(problem, sim, judge, std::move(devices));
        if (haveResult && betterResult(result, judged))
            return false;
        judged.evaluations = result.evaluations;
        judged.notes = std::move(result.notes);
        result = std::move(judged);
        haveResult = true;
        return true;
    };
    if (start) // (the first stage takes it): the result is never worse than the start
        judgeAndKeep(start->devices());
    std::vector<std::vector<int>> alternatives; // the previous stage's other placements
    for (size_t i = 0; i < stages.size(); ++i) {
        const Placer *stage = stages[i];
        if (haveResult && judge.meetsFloor(result.score, result.feasible)) { // nothing left to find
            result.notes.push_back("'" + stage->info().name +
                                   "' was not run: the placement so far meets the lower bound, so no "
                                   "placement can score lower");
            break;
        }
        const ParamValues values = ParamValues::parse(stage->info().params, paramsFor(*stage, params));
        RunControl stageControl = control;
        // A stage followed by others gets an equal share of what is left, so that one that spends
        // its whole budget (a learner, local search) leaves the later stages theirs; a stage that
        // needs less (a list scheduler) leaves the rest to them.
        const long long stagesLeft = static_cast<long long>(stages.size() - i);
        const double used = secondsSince(t0);
        stageControl.budget.timeLimitS = control.timeLeftS(used) / static_cast<double>(stagesLeft);
        // The judgement after the stage is one more run: the stage gets what is left after it.
        const long long spent = result.evaluations + sim.evaluations();
        // Without a bound, none (a learner given a bound, even a huge one, trains until it is spent).
        const long long left = control.budget.evaluationsLeft(spent, 1);
        const long long later = stagesLeft - 1; // the later stages' judgements
        stageControl.budget.maxEvaluations =
            control.budget.evaluationsBounded() ? std::min(left, std::max(1LL, (left - later) / stagesLeft)) : left;
        if (haveResult && stageControl.budget.maxEvaluations <= 0) { // its judgement alone would overspend
            result.notes.push_back("no simulator evaluations left for '" + stage->info().name + "'");
            break;
        }
        // Progress over the whole composition: the stages done and this one's fraction, or the
        // share of the time or the evaluations spent, whichever is further; evaluations in all.
        if (control.progress)
            stageControl.progress = [&, i](const Progress &p) {
                Progress q = p;
                q.evaluations += result.evaluations + sim.evaluations();
                const double elapsed = secondsSince(t0);
                q.fraction =
                    (static_cast<double>(i) + std::clamp(p.fraction, 0.0, 1.0)) / static_cast<double>(stages.size());
                if (std::isfinite(control.budget.timeLimitS) && control.budget.timeLimitS > 0)
                    q.fraction = std::max(q.fraction, elapsed / control.budget.timeLimitS);
                if (control.budget.maxEvaluations != std::numeric_limits<long long>::max())
                    q.fraction = std::max(q.fraction, double(q.evaluations) / double(control.budget.maxEvaluations));
                q.fraction = std::min(q.fraction, 1.0);
                control.report(q);
            };
        // A refiner gets its own copy: judgeAndKeep may replace the result while it runs.
        const Placement base = haveResult ? result.placement : Placement();
        PlacerOutput out = stage->placeAmong(problem, values, stageControl, haveResult ? &base : nullptr, alternatives);
        result.evaluations += out.evaluations;
        result.notes.insert(result.notes.end(), out.notes.begin(), out.notes.end());
        // The stage's other placements go to the next stage, when its own is where that one starts.
        alternatives.clear();
        if (judgeAndKeep(out.placement.devices()))
            alternatives = std::move(out.alternatives);
        if (control.cancelled())
            break;
    }
    result.evaluations += sim.evaluations();
    noteMemoryNeverFits(result, problem);
    stampProvenance(result, spec, params, control.seed, problem, secondsSince(t0));
    return result;
}

namespace {

// The fast placers in the order bestFastPlacement runs them: the list schedulers from the cheapest
// (on 200,000 ops x 8 GPUs m-etf took 0.32 s, m-etf-c 0.88, cpop 1.47, heft 2.53, heft-c 2.88),
// with human (the expert's layouts) second, then the two that place by rank alone. m-etf comes
// first because the first placer runs whatever the limit, and stopped it still places every op
// by the near rule: with the time a learner's warm start had left on 200,000 ops x 8gpu-2node,
// human first took it all and the learners returned its 7.9 x the bound; m-etf stopped gives
// 1.003. `tieRank`: the order among equal results (fastPlacers()'s order). On thousands of devices the costs come in
// another order (GNMT-58k x 4,096 GPUs: heft 5.9 s, m-etf 15.8 s).
struct FastPlacer
{
    const char *name;
    int tieRank;
    bool listScheduler;
};
constexpr FastPlacer kFastPlacers[] = {{"m-etf", 3, true},   {"human", 0, false}, {"m-etf-c", 4, true},
                                       {"cpop", 5, true},    {"heft", 1, true},   {"heft-c", 2, true},
                                       {"m-topo", 6, false}, {"single", 7, false}};

} // namespace

const std::vector<std::string> &fastPlacers()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> byTie(std::size(kFastPlacers));
        for (const FastPlacer &p : kFastPlacers)
            byTie[p.tieRank] = p.name;
        return byTie;
    }();
    return names;
}

PlacerResult bestFastPlacement(const PlacementProblem &problem, const RunControl &control,
                               std::vector<PlacerResult> *others)
{
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<PlacerResult> results;
    std::string why;
    long long spent = 0;
    size_t tried = 0;
    bool atFloor = false; // a placer's placement met the lower bound: the others were not run
    const std::vector<std::string> &names = fastPlacers();
    // They run in kFastPlacers' order. A list scheduler that the limit stops leaves most ops to its
    // fallback rule and still pays its ranks and its judgement, so under a time limit one starts
    // only when the time left is at least twice what the one before it took (each took up to 2.75
    // times the one before on 200,000 ops; heft first, as before, took 2.5 s of a 2 s limit and
    // kept m-etf, the best there, from running).
    double lastListS = 0; // what the last list scheduler took
    for (const FastPlacer &placer : kFastPlacers) {
        const std::string name = placer.name;
        const Placer *family = PlacerRegistry::builtin().find(name);
        if (!family)
            continue;
        // Each placer costs at least one simulator run (its judgement); once one result is in hand, the
        // budget, the clock and a cancel stop the probing.
        const double used = secondsSince(t0);
        if (!results.empty() && control.exhausted(used, spent))
            break;
        if (!results.empty() && placer.listScheduler && control.timeLeftS(used) < 2 * lastListS)
            continue;
        // Nor one whose fixed costs the runs left cannot pay (human with one left spent two).
        if (!results.empty() && control.budget.evaluationsLeft(spent) < family->info().fewestEvaluations)
            continue;
        ++tried;
        // What is left of the budget (each placer honours it after its first run).
        const RunControl rest = control.within(used, spent);
        const double start = secondsSince(t0);
        try {
            results.push_back(runPlacer(PlacerRegistry::builtin(), name, problem, {}, rest));
        } catch (const InputError &e) {
            why = e.what();
            continue;
        }
        if (placer.listScheduler)
            lastListS = secondsSince(t0) - start;
        spent += results.back().evaluations;
        PlacerResult &r = results.back();
        if (meetsScoreFloor(problem.objective, r.lowerBound, r.score, r.feasible)) { // none can beat it
            atFloor = true;
            if (tried < names.size())
                r.notes.push_back(name + " met the lower bound: the other fast placers were not run");
            break;
        }
    }
    if (results.empty())
        throw InputError("no fast placer could place the graph: " + why);
    auto rank = [&](const PlacerResult &r) { return std::find(names.begin(), names.end(), r.spec) - names.begin(); };
    std::stable_sort(results.begin(), results.end(), [&](const PlacerResult &a, const PlacerResult &b) {
        return betterResult(a, b) || (!betterResult(b, a) && rank(a) < rank(b)); // ties: fastPlacers() order
    });
    PlacerResult best = std::move(results.front());
    if (others)
        others->assign(std::make_move_iterator(results.begin() + 1), std::make_move_iterator(results.end()));
    if (tried < names.size() && !atFloor)
        best.notes.push_back("the budget let " + std::to_string(tried) + " of the " + std::to_string(names.size()) +
                             " fast placers run");
    best.evaluations = spent; // what finding it cost, all the placers' runs
    return best;
}

PlacerResult openingPlacement(const PlacementProblem &problem, const std::atomic<bool> *cancel)
{
    RunControl control;
    control.cancel = cancel;
    control.budget.timeLimitS = kOpeningPlacementS;
    return bestFastPlacement(problem, control);
}

std::vector<std::vector<int>> distinctStarts(const PlacerResult &best, const std::vector<PlacerResult> &others,
                                             const std::vector<int> &except)
{
    std::vector<std::vector<int>> starts;
    auto add = [&](const std::vector<int> &devices) {
        if (devices != except && std::find(starts.begin(), starts.end(), devices) == starts.end())
            starts.push_back(devices);
    };
    add(best.placement.devices());
    for (const PlacerResult &o : others)
        add(o.placement.devices());
    return starts;
}

PlacerResult judgePlacement(const PlacementProblem &problem, Simulator &sim, const ObjectiveJudge &judge,
                            std::vector<int> devices)
{
    enforceConstraints(problem.constraints, devices);
    const Schedule s = sim.simulate(devices);
    PlacerResult r;
    r.terms = judge.terms(s, devices);
    r.score = judge.score(r.terms);
    r.makespan = s.makespan;
    r.lowerBound = s.lowerBound.bound;
    r.feasible = r.terms.feasible;
    r.violations = constraintViolations(problem.graph, problem.cluster, problem.constraints, devices, s.memory);
    r.placement = Placement(std::move(devices));
    return r;
}

void stampProvenance(PlacerResult &result, const std::string &spec, const std::vector<std::string> &params,
                     uint64_t seed, const PlacementProblem &problem, double wallS)
{
    result.spec = spec;
    result.params = params;
    result.seed = seed;
    result.wallS = wallS;
    Placement &p = result.placement;
    p.producerModel = spec;
    p.graphName = problem.graph.name();
    p.clusterName = problem.cluster.name();
    p.producerParamsJson = paramsJson(params);
    p.producerSeed = seed;
    p.producerEvaluations = result.evaluations;
    p.producerWallS = wallS;
}

std::string paramsJson(const std::vector<std::string> &params)
{
    std::string json = "{";
    for (size_t i = 0; i < params.size(); ++i) {
        const size_t eq = params[i].find('=');
        json += i ? ", " : "";
        jsonio::appendString(json, params[i].substr(0, eq));
        json += ": ";
        jsonio::appendString(json, params[i].substr(eq + 1));
    }
    return json + "}";
}

} // namespace ps
