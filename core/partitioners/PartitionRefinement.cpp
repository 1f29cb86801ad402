#include "core/partitioners/PartitionRefinement.h"

#include "core/sim/PartitionMetrics.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

namespace ps {

namespace {

// The view's edges both ways, by node.
struct Adjacency
{
    std::vector<size_t> offset;
    std::vector<std::pair<int, double>> next; // (neighbour, weight)

    explicit Adjacency(const UndirectedGraph &view)
    {
        const size_t n = view.nodeWeight.size();
        offset.assign(n + 1, 0);
        for (const auto &e : view.edges) {
            ++offset[e.u + 1];
            ++offset[e.v + 1];
        }
        for (size_t v = 0; v < n; ++v)
            offset[v + 1] += offset[v];
        next.resize(offset[n]);
        std::vector<size_t> fill(offset.begin(), offset.end() - 1);
        for (const auto &e : view.edges) {
            next[fill[e.u]++] = {e.v, e.weight};
            next[fill[e.v]++] = {e.u, e.weight};
        }
    }

    // The weight of v's edges into each part (`link`, k entries); whether any leaves v's part.
    bool linkWeights(int v, const std::vector<int> &parts, std::vector<double> &link) const
    {
        std::fill(link.begin(), link.end(), 0.0);
        bool boundary = false;
        for (size_t i = offset[v]; i < offset[v + 1]; ++i) {
            link[parts[next[i].first]] += next[i].second;
            boundary = boundary || parts[next[i].first] != parts[v];
        }
        return boundary;
    }
};

std::vector<double> partWeights(const UndirectedGraph &view, const std::vector<int> &parts, int k, double &total)
{
    std::vector<double> weight(k, 0);
    total = 0;
    for (size_t v = 0; v < parts.size(); ++v) {
        weight[parts[v]] += view.nodeWeight[v];
        total += view.nodeWeight[v];
    }
    return weight;
}

} // namespace

void rebalanceParts(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance)
{
    const Adjacency adj(view);
    const int n = static_cast<int>(parts.size());
    double total = 0;
    std::vector<double> weight = partWeights(view, parts, k, total);
    const double limit = tolerance * total / k;
    std::vector<char> moved(n, 0);
    std::vector<double> link(k);
    for (int round = 0; round < k * 4; ++round) {
        const int heavy = static_cast<int>(std::max_element(weight.begin(), weight.end()) - weight.begin());
        if (weight[heavy] <= limit)
            return;
        // Each node of the heavy part, with the part it would best go to and the cut that adds.
        struct Move
        {
            double cost;
            int node, to;
        };
        std::vector<Move> moves;
        for (int v = 0; v < n; ++v) {
            if (parts[v] != heavy || moved[v])
                continue;
            adj.linkWeights(v, parts, link);
            int best = -1;
            for (int q = 0; q < k; ++q)
                if (q != heavy && weight[q] + view.nodeWeight[v] <= limit &&
                    (best < 0 || link[q] > link[best] || (link[q] == link[best] && weight[q] < weight[best])))
                    best = q;
            if (best >= 0)
                moves.push_back({link[heavy] - link[best], v, best});
        }
        if (moves.empty())
            return; // no node fits anywhere else: the tolerance cannot be met by moving one
        std::stable_sort(moves.begin(), moves.end(), [](const Move &a, const Move &b) { return a.cost < b.cost; });
        bool any = false;
        for (const Move &m : moves) {
            if (weight[heavy] <= limit)
                break;
            if (weight[m.to] + view.nodeWeight[m.node] > limit)
                continue;
            weight[heavy] -= view.nodeWeight[m.node];
            weight[m.to] += view.nodeWeight[m.node];
            parts[m.node] = m.to;
            moved[m.node] = 1;
            any = true;
        }
        if (!any)
            return;
    }
}

long long refineCut(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance, long long maxMoves)
{
    const Adjacency adj(view);
    const int n = static_cast<int>(parts.size());
    double total = 0;
    std::vector<double> weight = partWeights(view, parts, k, total);
    const double limit = tolerance * total / k;
    double edgeWeight = 0;
    for (const auto &e : view.edges)
        edgeWeight += e.weight;
    // A pass keeps only moves that lower the cut by more than rounding can (1e-9 of a mean edge).
    const double minGain = view.edges.empty() ? 0 : 1e-9 * edgeWeight / static_cast<double>(view.edges.size());

    std::vector<double> link(k, 0.0);
    // The best move of v: its gain (cut removed) and the part it goes to (-1: none that fits).
    auto bestMove = [&](int v, int &to) {
        const int from = parts[v];
        to = -1;
        double gain = -std::numeric_limits<double>::infinity();
        if (!adj.linkWeights(v, parts, link))
            return gain;
        for (int q = 0; q < k; ++q) {
            if (q == from || weight[q] + view.nodeWeight[v] > limit)
                continue;
            const double g = link[q] - link[from];
            if (to < 0 || g > gain || (g == gain && weight[q] < weight[to])) {
                gain = g;
                to = q;
            }
        }
        return gain;
    };
    using Entry = std::tuple<double, int, unsigned>; // gain, node, version
    std::vector<unsigned> version(n, 0);
    std::vector<char> locked(n, 0);
    long long applied = 0, kept = 0;
    // Fiduccia-Mattheyses passes: the best move of an unlocked node goes first, even when it raises
    // the cut (it may open better ones), and locks the node; the pass then keeps the prefix of
    // its moves that cut least and undoes the rest. Passes repeat while they lower the cut.
    const int patience = std::max(50, n / 20); // moves without a new best before a pass gives up
    for (int pass = 0; pass < 16 && applied < maxMoves; ++pass) {
        std::priority_queue<Entry> queue;
        auto offer = [&](int v) {
            int to;
            const double g = bestMove(v, to);
            if (to >= 0)
                queue.emplace(g, v, version[v]);
        };
        std::fill(locked.begin(), locked.end(), 0);
        for (int v = 0; v < n; ++v)
            offer(v);
        std::vector<std::pair<int, int>> history; // (node, part it left)
        double gained = 0, bestGain = 0;
        size_t bestLength = 0;
        int sinceBest = 0;
        while (!queue.empty() && applied < maxMoves && sinceBest < patience) {
            const auto [gain, v, stamp] = queue.top();
            queue.pop();
            if (stamp != version[v] || locked[v])
                continue;
            int to;
            const double now = bestMove(v, to);
            if (to < 0)
                continue;
            if (now < gain) { // the parts' weights or the neighbours moved since: queue it anew
                ++version[v];
                queue.emplace(now, v, version[v]);
                continue;
            }
            history.emplace_back(v, parts[v]);
            weight[parts[v]] -= view.nodeWeight[v];
            weight[to] += view.nodeWeight[v];
            parts[v] = to;
            locked[v] = 1;
            ++applied;
            gained += now;
            if (gained > bestGain + minGain) {
                bestGain = gained;
                bestLength = history.size();
                sinceBest = 0;
            } else {
                ++sinceBest;
            }
            for (size_t i = adj.offset[v]; i < adj.offset[v + 1]; ++i) {
                const int u = adj.next[i].first;
                if (!locked[u]) {
                    ++version[u];
                    offer(u);
                }
            }
        }
        while (history.size() > bestLength) {
            const auto [v, from] = history.back();
            history.pop_back();
            weight[parts[v]] -= view.nodeWeight[v];
            weight[from] += view.nodeWeight[v];
            parts[v] = from;
        }
        kept += static_cast<long long>(bestLength);
        if (bestLength == 0)
            break;
    }
    return kept;
}

} // namespace ps
