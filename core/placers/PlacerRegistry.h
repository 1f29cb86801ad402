#pragma once
// The placement families, found by name, and the runner for composed specs such as
// "heft+local-search" (each stage refines the previous stage's result).
#include "core/family/FamilyRegistry.h"
#include "core/placers/Placer.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace ps {

class Simulator;

class PlacerRegistry : public FamilyRegistry<Placer>
{
public:
    // Every family: the classical ones, and those that programs add at start-up (the learned
    // families of models/, through addFamily) before any run starts.
    static const PlacerRegistry &builtin();
    static void addFamily(std::unique_ptr<Placer> family);
};

// Runs "a" or "a+b+...". `params` ("key=value") go to every stage that declares the key; a key
// no stage declares is an InputError. A spec that starts with a refiner refines `start`, or
// `human`'s placement without one. Each stage's output is made to honour the constraints and
// judged by the simulator under the problem's objective; it replaces the result only if it is
// not less feasible and its score did not grow. The time and evaluation budgets hold from the
// first instruction; the result counts every simulator run, the judgements included.
PlacerResult runPlacer(const PlacerRegistry &registry, const std::string &spec, const PlacementProblem &problem,
                       const std::vector<std::string> &params, const RunControl &control,
                       const Placement *start = nullptr);

// The stage names of "a+b+...", in order. InputError on an empty stage ("heft+", "+heft").
std::vector<std::string> compositionStages(const std::string &spec);

// Checks a run before it starts (the Models dock, `--run`, `place` before it reads its start;
// runPlacer checks this first): every stage of `spec` names a placer of the registry, every
// "key=value" belongs to a stage and has a value of its type and range, and a start given goes to a
// first stage that takes one. InputError naming the known choices otherwise.
void checkPlacerSpec(const PlacerRegistry &registry, const std::string &spec, const std::vector<std::string> &params,
                     bool haveStart = false);

// The constructive placers that take well under a second on a 58k-op graph (human, heft, heft-c,
// m-etf, m-etf-c, cpop, m-topo, single), and the best of their placements under the problem's
// objective (feasible first): what a graph opens with. Its `evaluations` are all the placers'
// simulator runs (one each). They run human first, then the list schedulers from the cheapest
// (m-etf, m-etf-c, cpop, heft, heft-c), then m-topo and single. After the first placement,
// `control`'s cancel, time limit and evaluation budget stop it before the next placer, and under a
// time limit a list scheduler starts only when the time left is at least twice what the one before took
// (a note says how many ran); its notes are the chosen placer's. InputError only if none can place it. With `others`,
// the other placers' judged results go there, best first (betterResult; ties in fastPlacers() order), each with its own
// evaluations (a learner races them as starts).
const std::vector<std::string> &fastPlacers();
PlacerResult bestFastPlacement(const PlacementProblem &problem, const RunControl &control = {},
                               std::vector<PlacerResult> *others = nullptr);
// What a graph opens with in the app: bestFastPlacement within kOpeningPlacementS seconds (a
// placer stops there with a whole placement: with 4,096 devices the eight took 80 s on the
// 58k-op GNMT; 0.4 s on 8 devices), stopped early through `cancel`.
constexpr double kOpeningPlacementS = 10;
PlacerResult openingPlacement(const PlacementProblem &problem, const std::atomic<bool> *cancel = nullptr);
// The starts a search races: `best` and `others` (bestFastPlacement's), best first, less those equal
// to `except` (the start the search already has) or to an earlier one.
std::vector<std::vector<int>> distinctStarts(const PlacerResult &best, const std::vector<PlacerResult> &others,
                                             const std::vector<int> &except);

// Whether a judged result beats another: feasible over infeasible, then the lower objective score.
bool betterResult(const PlacerResult &a, const PlacerResult &b);

// Makes devices honour the problem's constraints and judges them: makespan, bound, feasibility,
// violations, objective terms and score (one simulator run on `sim`).
PlacerResult judgePlacement(const PlacementProblem &problem, Simulator &sim, const ObjectiveJudge &judge,
                            std::vector<int> devices);
// Records what produced a result (spec, params, seed, its evaluations, wall time) in it and in
// its placement.
void stampProvenance(PlacerResult &result, const std::string &spec, const std::vector<std::string> &params,
                     uint64_t seed, const PlacementProblem &problem, double wallS);

// {"key": "value", ...} of "key=value" assignments (a placement's producer params).
std::string paramsJson(const std::vector<std::string> &params);

// Factories of the built-in families (one source file each).
std::unique_ptr<Placer> makeSinglePlacer();
std::unique_ptr<Placer> makeRoundRobinPlacer();
std::unique_ptr<Placer> makeHumanPlacer();
std::unique_ptr<Placer> makeHeftPlacer();
std::unique_ptr<Placer> makeContentionHeftPlacer();
std::unique_ptr<Placer> makeCpopPlacer();
std::unique_ptr<Placer> makeMemoryTopoPlacer();
std::unique_ptr<Placer> makeMemoryEtfPlacer();
std::unique_ptr<Placer> makeMemorySctPlacer();
std::unique_ptr<Placer> makeContentionEtfPlacer();
std::unique_ptr<Placer> makeLocalSearchPlacer();
std::unique_ptr<Placer> makeBestFastPlacer();
std::unique_ptr<Placer> makeMetisPlacer();
std::unique_ptr<Placer> makeSpectralPlacer();
// A partitioner of PartitionerRegistry::builtin() as a placer (metis, spectral, and gap where
// LibTorch is built in): parts sized to the devices' speeds, part i on device i (or a device alike
// whose links its traffic favours), then the pins, groups and memory honoured. overNodes: offers
// `levels`, a partition into the cluster's nodes first (for a partitioner that takes any k per call;
// not gap, whose stored policies are made for one k).
std::unique_ptr<Placer> makePartitionPlacer(const std::string &partitioner, std::string description,
                                            bool overNodes = false);

} // namespace ps
