#include "core/placers/PlacerRegistry.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/io/JsonStream.h"
#include "core/sim/Simulator.h"

#include <algorithm>
#include <chrono>

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
        return r;
    }();
    return registry;
}
} // namespace

const PlacerRegistry &PlacerRegistry::builtin() { return globalPlacers(); }

void PlacerRegistry::addFamily(std::unique_ptr<Placer> family)
{
    if (!globalPlacers().find(family->info().name))
        globalPlacers().add(std::move(family));
}

namespace {

std::vector<std::string> splitStages(const std::string &spec)
{
    std::vector<std::string> stages;
    size_t pos = 0;
    while (true) {
        size_t plus = spec.find('+', pos);
        stages.push_back(spec.substr(pos, plus == std::string::npos ? std::string::npos : plus - pos));
        if (plus == std::string::npos)
            break;
        pos = plus + 1;
    }
    return stages;
}

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

} // namespace

PlacerResult runPlacer(const PlacerRegistry &registry, const std::string &spec,
                       const PlacementProblem &problem, const std::vector<std::string> &params,
                       const RunControl &control)
{
    std::vector<const Placer *> stages;
    for (const std::string &name : splitStages(spec))
        stages.push_back(&registry.require(name, "model"));
    if (stages.front()->refines())
        stages.insert(stages.begin(), registry.find("human"));
    for (const std::string &p : params)
        if (std::none_of(stages.begin(), stages.end(),
                         [&](const Placer *s) { return !paramsFor(*s, {p}).empty(); }))
            throw InputError("no stage of '" + spec + "' has a parameter '" + p.substr(0, p.find('=')) + "'");
    if (problem.graph.nodeCount() == 0)
        throw InputError("the graph has no nodes to place");

    const auto t0 = std::chrono::steady_clock::now();
    Simulator sim(problem.graph, problem.cluster);
    PlacerResult result;
    std::vector<std::string> violations;
    bool haveResult = false;
    for (const Placer *stage : stages) {
        const ParamValues values = ParamValues::parse(stage->info().params, paramsFor(*stage, params));
        RunControl stageControl = control;
        const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        stageControl.budget.timeLimitS = std::max(0.0, control.budget.timeLimitS - used);
        PlacerOutput out = stage->place(problem, values, stageControl,
                                        haveResult ? &result.placement : nullptr);
        const Schedule s = sim.simulate(out.placement);
        // Never trade a feasible placement for an infeasible or slower one.
        const bool take = !haveResult || (s.feasible && !result.feasible) ||
                          (s.feasible == result.feasible && s.makespan <= result.makespan);
        result.evaluations += out.evaluations + 1;
        result.notes.insert(result.notes.end(), out.notes.begin(), out.notes.end());
        if (take) {
            result.placement = std::move(out.placement);
            result.makespan = s.makespan;
            result.lowerBound = s.lowerBound.bound;
            result.feasible = s.feasible;
            result.violations = s.violations;
            haveResult = true;
        }
        if (control.cancelled())
            break;
    }
    result.placement.producerModel = spec;
    result.placement.graphName = problem.graph.name();
    result.placement.clusterName = problem.cluster.name();
    std::string paramsJson = "{";
    for (size_t i = 0; i < params.size(); ++i) {
        const size_t eq = params[i].find('=');
        paramsJson += i ? ", " : "";
        jsonio::appendString(paramsJson, params[i].substr(0, eq));
        paramsJson += ": ";
        jsonio::appendString(paramsJson, params[i].substr(eq + 1));
    }
    result.placement.producerParamsJson = paramsJson + "}";
    result.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace ps
