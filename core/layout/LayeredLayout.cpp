#include "core/layout/LayeredLayout.h"

#include <algorithm>
#include <numeric>

namespace ps {

namespace {
constexpr double kLayerGap = 40, kNodeGap = 16;

bool stopped(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}
} // namespace

LayoutResult layeredLayout(const LayoutInput &input, const std::atomic<bool> *cancel, int sweeps)
{
    const int n = static_cast<int>(input.size.size());
    LayoutResult out;
    out.center.assign(n, {0, 0});
    std::vector<std::vector<int>> succ(n), pred(n);
    for (const auto &[a, b] : input.edges)
        if (a != b && a >= 0 && b >= 0 && a < n && b < n)
            succ[a].push_back(b);

    // Break cycles: iterative DFS; an edge to a node still on the stack is reversed.
    std::vector<char> state(n, 0); // 0 new, 1 on stack, 2 done
    std::vector<std::pair<int, size_t>> stack;
    std::vector<int> discovery;
    for (int root = 0; root < n; ++root) {
        if (state[root])
            continue;
        stack.push_back({root, 0});
        state[root] = 1;
        discovery.push_back(root);
        while (!stack.empty()) {
            auto &[v, i] = stack.back();
            if (i < succ[v].size()) {
                const int w = succ[v][i++];
                if (state[w] == 1) {
                    pred[v].push_back(w); // reversed: w -> v becomes v below w
                } else {
                    pred[w].push_back(v);
                    if (state[w] == 0) {
                        state[w] = 1;
                        discovery.push_back(w);
                        stack.push_back({w, 0});
                    }
                }
            } else {
                state[v] = 2;
                stack.pop_back();
            }
        }
    }
    if (stopped(cancel))
        return out.cancelled = true, out;

    // Longest-path layering over the acyclic predecessor lists (Kahn order).
    std::vector<std::vector<int>> down(n);
    std::vector<int> indegree(n, 0), layer(n, 0), queue;
    for (int v = 0; v < n; ++v)
        for (int u : pred[v]) {
            down[u].push_back(v);
            ++indegree[v];
        }
    for (int v = 0; v < n; ++v)
        if (indegree[v] == 0)
            queue.push_back(v);
    for (size_t q = 0; q < queue.size(); ++q) {
        const int v = queue[q];
        for (int w : down[v]) {
            layer[w] = std::max(layer[w], layer[v] + 1);
            if (--indegree[w] == 0)
                queue.push_back(w);
        }
    }
    const int layers = n == 0 ? 0 : *std::max_element(layer.begin(), layer.end()) + 1;
    std::vector<std::vector<int>> rows(layers);
    for (int v : discovery)
        rows[layer[v]].push_back(v);

    // Barycenter sweeps: order each layer by the mean relative position of its neighbours in
    // the layers above (downward sweep) or below (upward sweep).
    std::vector<double> position(n, 0);
    auto place = [&](const std::vector<int> &row) {
        for (size_t i = 0; i < row.size(); ++i)
            position[row[i]] = (static_cast<double>(i) + 0.5) / static_cast<double>(row.size());
    };
    for (const auto &row : rows)
        place(row);
    std::vector<double> key(n, 0);
    for (int s = 0; s < sweeps; ++s) {
        if (stopped(cancel))
            return out.cancelled = true, out;
        const bool downward = s % 2 == 0;
        for (int l = 0; l < layers; ++l) {
            auto &row = rows[downward ? l : layers - 1 - l];
            for (int v : row) {
                const auto &nb = downward ? pred[v] : down[v];
                double sum = 0;
                for (int u : nb)
                    sum += position[u];
                key[v] = nb.empty() ? position[v] : sum / static_cast<double>(nb.size());
            }
            std::stable_sort(row.begin(), row.end(), [&](int a, int b) { return key[a] < key[b]; });
            place(row);
        }
    }

    // Coordinates: each layer as tall as its tallest node, nodes side by side, centred on 0.
    double y = 0, widest = 0;
    std::vector<double> rowWidth(layers, 0);
    for (int l = 0; l < layers; ++l) {
        double w = 0, h = 0;
        for (int v : rows[l]) {
            w += input.size[v].first + kNodeGap;
            h = std::max(h, input.size[v].second);
        }
        rowWidth[l] = std::max(0.0, w - kNodeGap);
        widest = std::max(widest, rowWidth[l]);
        double x = -rowWidth[l] / 2;
        for (int v : rows[l]) {
            out.center[v] = {x + input.size[v].first / 2, y + h / 2};
            x += input.size[v].first + kNodeGap;
        }
        y += h + kLayerGap;
    }
    for (auto &c : out.center)
        c.first += widest / 2;
    out.width = widest;
    out.height = std::max(0.0, y - kLayerGap);
    return out;
}

} // namespace ps
