#pragma once
// A fast layered (Sugiyama-style) layout for views too large for Graphviz dot: cycles broken by
// reversing DFS back edges, longest-path layering, a few barycenter ordering sweeps, and simple
// coordinates (each layer centred). About linear in nodes + edges; no Qt, no Graphviz.
#include <atomic>
#include <utility>
#include <vector>

namespace ps {

struct LayoutInput
{
    std::vector<std::pair<double, double>> size; // width, height per node
    std::vector<std::pair<int, int>> edges;      // from, to
};

struct LayoutResult
{
    std::vector<std::pair<double, double>> center; // per node; y grows downwards
    double width = 0, height = 0;
    bool cancelled = false;
};

// Layers go top to bottom; `cancel` is polled between phases and sweeps.
LayoutResult layeredLayout(const LayoutInput &input, const std::atomic<bool> *cancel = nullptr, int sweeps = 4);
// The same through Graphviz dot (for a few hundred nodes, where its quality matters; its network
// simplex bounded, so that a view with many long edges lays out in about a second). Calls are
// serialized: Graphviz is not thread-safe. Falls back to layeredLayout if dot fails.
LayoutResult dotLayout(const LayoutInput &input);

} // namespace ps
