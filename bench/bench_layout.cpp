// The graph view's layout work on the 8+8-layer GNMT unrolled over 250 steps (57,969 ops):
// building the collapsed view, our layered layout of every op (the worst case: all scopes
// expanded), of the top-level collapsed view, Graphviz dot on Inception-V3 (316 ops), and dot on a
// collapsed view of the 11.6k-op GNMT with many long edges (tests/data/layout).
//   build/bench/bench_layout
#include "common/LayoutFixture.h"
#include "core/generators/Generators.h"
#include "core/layout/CollapsedView.h"
#include "core/layout/LayeredLayout.h"

#include <benchmark/benchmark.h>

namespace {

const ps::Graph &gnmt()
{
    static const ps::Graph g = ps::generate("gnmt", {{"source_steps", 250}, {"target_steps", 250}}, 1);
    return g;
}

ps::LayoutInput inputOf(const ps::CollapsedView &view)
{
    ps::LayoutInput in;
    for (size_t i = 0; i < view.items().size(); ++i)
        in.size.push_back({100, 26});
    for (const auto &e : view.edges())
        in.edges.push_back({e.from, e.to});
    return in;
}

void BM_CollapsedView(benchmark::State &state)
{
    const ps::Graph &g = gnmt();
    const std::vector<char> all(g.scopes().size(), 1);
    for (auto _ : state)
        benchmark::DoNotOptimize(ps::CollapsedView(g, all).items().size());
    state.SetLabel(std::to_string(ps::CollapsedView(g, all).items().size()) + " items");
}
BENCHMARK(BM_CollapsedView)->Unit(benchmark::kMillisecond);

void BM_LayeredLayoutAllOps(benchmark::State &state)
{
    const ps::Graph &g = gnmt();
    const ps::CollapsedView view(g, std::vector<char>(g.scopes().size(), 1));
    const ps::LayoutInput in = inputOf(view);
    for (auto _ : state)
        benchmark::DoNotOptimize(ps::layeredLayout(in).width);
    state.SetLabel(std::to_string(in.size.size()) + " items, " + std::to_string(in.edges.size()) + " edges");
}
BENCHMARK(BM_LayeredLayoutAllOps)->Unit(benchmark::kMillisecond);

void BM_LayeredLayoutCollapsed(benchmark::State &state)
{
    const ps::Graph &g = gnmt();
    const ps::CollapsedView view(g, ps::CollapsedView::expandWithin(g, 150));
    const ps::LayoutInput in = inputOf(view);
    for (auto _ : state)
        benchmark::DoNotOptimize(ps::layeredLayout(in).width);
    state.SetLabel(std::to_string(in.size.size()) + " items");
}
BENCHMARK(BM_LayeredLayoutCollapsed)->Unit(benchmark::kMicrosecond);

void BM_DotInceptionV3(benchmark::State &state)
{
    const ps::Graph g = ps::generate("inception-v3", std::map<std::string, double>{}, 1);
    const ps::CollapsedView view(g, std::vector<char>(g.scopes().size(), 1));
    const ps::LayoutInput in = inputOf(view);
    for (auto _ : state)
        benchmark::DoNotOptimize(ps::dotLayout(in).width);
    state.SetLabel(std::to_string(in.size.size()) + " items");
}
BENCHMARK(BM_DotInceptionV3)->Unit(benchmark::kMillisecond);

// Recorded views (tests/data/layout): the 11.6k-op GNMT's with many long edges, and a 58k-op
// GNMT Compare view over many ranks.
void BM_DotRecordedView(benchmark::State &state, const char *name)
{
    const ps::LayoutInput in = ps::test::readLayoutFixture(name);
    for (auto _ : state)
        benchmark::DoNotOptimize(ps::dotLayout(in).width);
    state.SetLabel(std::to_string(in.size.size()) + " items, " + std::to_string(in.edges.size()) + " edges");
}
BENCHMARK_CAPTURE(BM_DotRecordedView, ManyLongEdges, "gnmt-compare-view.txt")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DotRecordedView, ManyRanks, "gnmt58k-compare-view.txt")->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
