// The simulator on a 50,000-node layered random graph and 8 devices: one full run (the
// target is 10 ms), a recorded run, and the evaluation of single-node moves three ways (full
// re-simulation, incremental from snapshots, incremental with the local search's cutoff).
//   build/bench/bench_sim
#include "core/cluster/Cluster.h"
#include "core/generators/LayeredRandomGenerator.h"
#include "core/placement/Constraints.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Simulator.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

struct Setup
{
    ps::Graph graph;
    ps::Cluster cluster;
    std::vector<int> random, heft;
    std::vector<std::pair<int, int>> moves; // (node, new device)

    Setup()
    {
        ps::LayeredRandomParams p;
        p.nodes = 50000;
        p.outDegree = 2;
        graph = ps::generateLayeredRandom(p);
        ps::ClusterBuilder b("8gpu");
        for (int d = 0; d < 8; ++d)
            b.addDevice({"gpu:" + std::to_string(d), "gpu", 1.4e13, 3.2e10, 5e-6});
        b.setDefaultLink({1.2e10, 1e-5});
        cluster = b.build();
        std::mt19937 rng(1);
        random.resize(graph.nodeCount());
        for (int &d : random)
            d = static_cast<int>(rng() % 8);
        const ps::Constraints cons = ps::Constraints::fromGraph(graph, cluster);
        heft = ps::runPlacer(ps::PlacerRegistry::builtin(), "heft",
                             ps::PlacementProblem{graph, cluster, cons, ps::Objective{}}, {}, ps::RunControl{})
                   .placement.devices();
        for (int i = 0; i < 256; ++i) {
            const int v = static_cast<int>(rng() % graph.nodeCount());
            moves.emplace_back(v, (heft[v] + 1 + static_cast<int>(rng() % 7)) % 8);
        }
    }
};

const Setup &setup()
{
    static const Setup s;
    return s;
}

void BM_Simulate(benchmark::State &state)
{
    const Setup &s = setup();
    ps::Simulator sim(s.graph, s.cluster);
    const std::vector<int> &place = state.range(0) == 0 ? s.random : s.heft;
    for (auto _ : state)
        benchmark::DoNotOptimize(sim.makespan(place));
    state.SetLabel(state.range(0) == 0 ? "random placement" : "HEFT placement");
}
BENCHMARK(BM_Simulate)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_SimulateRecorded(benchmark::State &state)
{
    const Setup &s = setup();
    ps::Simulator sim(s.graph, s.cluster);
    for (auto _ : state)
        benchmark::DoNotOptimize(sim.simulate(s.heft).makespan);
}
BENCHMARK(BM_SimulateRecorded)->Unit(benchmark::kMillisecond);

// mode 0: full re-simulation; 1: incremental; 2: incremental with the cutoff a greedy search
// uses (reject anything not better than the current makespan).
void BM_MoveEvaluation(benchmark::State &state)
{
    const Setup &s = setup();
    ps::Simulator sim(s.graph, s.cluster);
    std::vector<int> place = s.heft;
    sim.setIncrementalBase(place);
    const double current = sim.makespan(place);
    size_t i = 0;
    for (auto _ : state) {
        const auto [v, d] = s.moves[i++ % s.moves.size()];
        place[v] = d;
        double m;
        if (state.range(0) == 0)
            m = sim.makespan(place);
        else
            m = sim.makespanChanged(place, {v}, state.range(0) == 2 ? current : 1e300);
        benchmark::DoNotOptimize(m);
        place[v] = s.heft[v];
    }
    static const char *labels[] = {"full re-simulation", "incremental", "incremental + cutoff"};
    state.SetLabel(labels[state.range(0)]);
}
BENCHMARK(BM_MoveEvaluation)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
