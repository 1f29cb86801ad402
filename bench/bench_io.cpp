// Loading and saving large graphs: the 200,000-node, 400,000-edge target of the foundation; and
// building a cluster with a link for each pair of devices, named (as a cluster file and the app's
// cluster table do).
//   build/bench/bench_io --benchmark_filter=Graph
//   build/bench/bench_io --benchmark_filter=ClusterEveryPair
#include "core/cluster/Cluster.h"
#include "core/generators/LayeredRandomGenerator.h"
#include "core/io/FileBytes.h"
#include "core/io/GraphJson.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>

namespace {

// One generated file per size, written once per process.
const std::string &graphFile(int nodes, bool gz)
{
    static std::map<std::pair<int, bool>, std::string> files;
    auto key = std::make_pair(nodes, gz);
    auto it = files.find(key);
    if (it != files.end())
        return it->second;
    ps::LayeredRandomParams p;
    p.nodes = nodes;
    p.outDegree = 2;
    std::string path = "/tmp/ps-bench-" + std::to_string(nodes) + (gz ? ".graph.json.gz" : ".graph.json");
    ps::writeGraphJson(path, ps::generateLayeredRandom(p));
    return files[key] = path;
}

void BM_ReadGraphJson(benchmark::State &state)
{
    const std::string &path = graphFile(static_cast<int>(state.range(0)), false);
    for (auto _ : state) {
        ps::Graph g = ps::readGraphJson(path);
        benchmark::DoNotOptimize(g.nodeCount());
    }
    state.counters["nodes"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_ReadGraphJson)->Arg(10000)->Arg(200000)->Unit(benchmark::kMillisecond);

void BM_ReadGraphJsonGz(benchmark::State &state)
{
    const std::string &path = graphFile(static_cast<int>(state.range(0)), true);
    for (auto _ : state) {
        ps::Graph g = ps::readGraphJson(path);
        benchmark::DoNotOptimize(g.nodeCount());
    }
}
BENCHMARK(BM_ReadGraphJsonGz)->Arg(200000)->Unit(benchmark::kMillisecond);

void BM_GraphToJson(benchmark::State &state)
{
    ps::Graph g = ps::readGraphJson(graphFile(static_cast<int>(state.range(0)), false));
    for (auto _ : state) {
        std::string text = ps::graphToJson(g);
        benchmark::DoNotOptimize(text.data());
    }
}
BENCHMARK(BM_GraphToJson)->Arg(200000)->Unit(benchmark::kMillisecond);

void BM_BuildClusterEveryPair(benchmark::State &state)
{
    const int k = static_cast<int>(state.range(0));
    std::vector<std::string> names;
    for (int d = 0; d < k; ++d)
        names.push_back("gpu:" + std::to_string(d));
    for (auto _ : state) {
        ps::ClusterBuilder builder("pairs");
        for (int d = 0; d < k; ++d)
            builder.addDevice({names[d], "gpu", 14e12, 16e9, 5e-6});
        builder.reserveLinks(static_cast<size_t>(k) * (k - 1) / 2);
        for (int a = 0; a < k; ++a)
            for (int b = a + 1; b < k; ++b)
                builder.addLink(names[a], names[b], {a / 8 == b / 8 ? 150e9 : 12e9, 1e-6}, true);
        builder.setDefaultLink({12e9, 1e-5});
        benchmark::DoNotOptimize(builder.build());
    }
}
BENCHMARK(BM_BuildClusterEveryPair)->Arg(1024)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
