#pragma once
// The interface of every placement family, and how one is run and judged: a placer returns a
// device per node; runPlacer() times it and lets the simulator judge the result.
#include "core/family/ModelFamily.h"
#include "core/placement/Constraints.h"
#include "core/placement/Placement.h"
#include "core/sim/Objective.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ps {

class Graph;
class Cluster;

struct PlacementProblem
{
    const Graph &graph;
    const Cluster &cluster;
    const Constraints &constraints;
    Objective objective;
};

struct PlacerOutput
{
    Placement placement;
    std::vector<std::string> notes; // e.g. why no feasible placement was found
    long long evaluations = 0;      // simulator runs
    // The placer's own estimate of the makespan (list schedulers plan one), or NaN.
    double plannedMakespan = std::numeric_limits<double>::quiet_NaN();
    // Other distinct placements the stage found, best first (a portfolio's runners-up, such as
    // best-fast's): runPlacer hands them to the next stage, whose search may race them.
    std::vector<std::vector<int>> alternatives;
};

class Placer
{
public:
    virtual ~Placer() = default;
    virtual FamilyInfo info() const = 0;
    // Refiners improve a given placement (local search); others build one from scratch.
    virtual bool refines() const { return false; }
    // Whether a placement the caller gives is used (refiners need one; learners that can start
    // from one, such as gdp and giph, otherwise make their own warm start). runPlacer refuses a
    // start that the first stage would not use.
    virtual bool takesStart() const { return refines(); }
    // `start` is the placement to refine (refiners only; never null for them).
    virtual PlacerOutput place(const PlacementProblem &problem, const ParamValues &params, const RunControl &control,
                               const Placement *start) const = 0;
    // The same, given also the previous stage's other placements (PlacerOutput::alternatives),
    // which a refiner may race beside the start; others ignore them.
    virtual PlacerOutput placeAmong(const PlacementProblem &problem, const ParamValues &params,
                                    const RunControl &control, const Placement *start,
                                    const std::vector<std::vector<int>> & /*alternatives*/) const
    {
        return place(problem, params, control, start);
    }
};

// A judged run with its provenance: what ran (spec, hyperparameters, seed) and what it spent.
struct PlacerResult
{
    Placement placement;
    double makespan = 0;
    double lowerBound = 0;
    bool feasible = false; // with the graph's and the person's pins
    std::vector<std::string> violations;
    std::vector<std::string> notes;
    long long evaluations = 0; // simulator runs, the final judgement included
    double wallS = 0;
    ObjectiveTerms terms;
    double score = 0; // objectiveScore(problem.objective, terms)
    std::string spec;
    std::vector<std::string> params; // "key=value" as given
    uint64_t seed = 0;
};

} // namespace ps
