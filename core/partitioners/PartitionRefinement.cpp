#include "core/partitioners/PartitionRefinement.h"

#include "core/family/ModelFamily.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/sim/PartitionMetrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <random>
#include <set>
#include <tuple>

namespace ps {

std::vector<int> topologicalChunks(const Graph &g, int k, const std::vector<double> &shares)
{
    const int n = g.nodeCount();
    double total = 0;
    for (int v = 0; v < n; ++v)
        total += g.flops(v);
    const bool byFlops = total > 0;
    if (!byFlops)
        total = n;
    auto share = [&](int part) { return shares.empty() ? 1.0 / k : shares[part]; };
    std::vector<int> parts(n, 0);
    int part = 0;
    double done = 0, end = share(0) * total;
    for (int v : g.topologicalOrder()) {
        const double w = byFlops ? g.flops(v) : 1.0;
        while (part < k - 1 && done + w / 2 > end)
            end += share(++part) * total;
        parts[v] = part;
        done += w;
    }
    return parts;
}

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
};

// What each part may weigh: the tolerance times its share of the total (1/k each without shares).
std::vector<double> partLimits(double total, int k, double tolerance, const std::vector<double> &shares)
{
    std::vector<double> limit(k);
    for (int q = 0; q < k; ++q)
        limit[q] = tolerance * total * (shares.empty() ? 1.0 / k : shares[q]);
    return limit;
}

// The largest part weight over its share of the total (1: every part on its share).
double overShare(const std::vector<double> &weight, const std::vector<double> &shares)
{
    const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
    const std::vector<double> target = partLimits(total, static_cast<int>(weight.size()), 1.0, shares);
    double worst = 0;
    for (size_t q = 0; q < weight.size(); ++q)
        worst = std::max(worst, target[q] > 0 ? weight[q] / target[q] : (weight[q] > 0 ? HUGE_VAL : 0.0));
    return worst;
}

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

std::string evenOutStoppedParts(const Graph &g, const UndirectedGraph &view, std::vector<int> &parts, int k,
                                double tolerance, const std::vector<double> &shares, const std::string &family)
{
    double total = 0;
    const double before = overShare(partWeights(view, parts, k, total), shares);
    if (before <= tolerance)
        return {};
    std::vector<int> chunks = topologicalChunks(g, k, shares);
    const double after = overShare(partWeights(view, chunks, k, total), shares);
    if (after >= before)
        return {};
    parts = std::move(chunks);
    char note[240];
    std::snprintf(note, sizeof note,
                  "%s: stopped (time limit or cancel) with a part at %.3g times its share against %.3g; the parts "
                  "are runs of the topological order sized to the FLOPs (%.3g)",
                  family.c_str(), before, tolerance, after);
    return note;
}

namespace {

// Each part's weight and limit; on many parts, the parts of each limit (a device type's share)
// are also kept in order of weight, then number.
class PartLoads
{
public:
    PartLoads(std::vector<double> weight, std::vector<double> limit)
        : weight_(std::move(weight)), limit_(std::move(limit))
    {
        if (limit_.size() <= kScanUpTo)
            return;
        class_.resize(limit_.size());
        std::map<double, int> classOf;
        for (size_t q = 0; q < limit_.size(); ++q) {
            const auto [it, added] = classOf.emplace(limit_[q], static_cast<int>(classes_.size()));
            if (added)
                classes_.emplace_back();
            class_[q] = it->second;
            classes_[class_[q]].emplace(weight_[q], static_cast<int>(q));
        }
    }

    double weight(int q) const { return weight_[q]; }
    double limit(int q) const { return limit_[q]; }
    bool fits(int q, double w) const { return weight_[q] + w <= limit_[q]; }
    bool lighter(int a, int b) const { return std::pair(weight_[a], a) < std::pair(weight_[b], b); }

    // The lightest part (then the lowest-numbered) other than `from` and those `skip` marks that a
    // node of weight w fits in; -1: none. Within a limit only the lightest such part can be it,
    // so a step per limit (and past the parts skipped) instead of one per part.
    int lightestFitting(double w, int from, const std::vector<char> &skip) const
    {
        int best = -1;
        if (limit_.size() <= kScanUpTo) {
            for (int q = 0; q < static_cast<int>(limit_.size()); ++q)
                if (q != from && !skip[q] && fits(q, w) && (best < 0 || lighter(q, best)))
                    best = q;
            return best;
        }
        for (const auto &parts : classes_)
            for (const auto &[load, q] : parts) {
                if (q == from || skip[q])
                    continue;
                if (fits(q, w) && (best < 0 || lighter(q, best)))
                    best = q;
                break;
            }
        return best;
    }

    // The part other than `from` whose load, with a node of weight w added, is the lowest share of
    // its limit (then the lowest-numbered): where a node that fits nowhere does least harm.
    int leastLoadedWith(double w, int from) const
    {
        int best = -1;
        auto better = [&](int q) {
            return best < 0 || (weight_[q] + w) * limit_[best] < (weight_[best] + w) * limit_[q] ||
                   ((weight_[q] + w) * limit_[best] == (weight_[best] + w) * limit_[q] && q < best);
        };
        if (limit_.size() <= kScanUpTo) {
            for (int q = 0; q < static_cast<int>(limit_.size()); ++q)
                if (q != from && better(q))
                    best = q;
            return best;
        }
        for (const auto &parts : classes_) // within a limit, the lightest part other than `from`
            for (const auto &[load, q] : parts)
                if (q != from) {
                    if (better(q))
                        best = q;
                    break;
                }
        return best;
    }

    // A node of weight w moves from part `from` to part `to`.
    void move(double w, int from, int to)
    {
        if (limit_.size() <= kScanUpTo) {
            weight_[from] -= w;
            weight_[to] += w;
            return;
        }
        classes_[class_[from]].erase({weight_[from], from});
        classes_[class_[to]].erase({weight_[to], to});
        weight_[from] -= w;
        weight_[to] += w;
        classes_[class_[from]].emplace(weight_[from], from);
        classes_[class_[to]].emplace(weight_[to], to);
    }

private:
    // Up to this many parts a scan of them all costs less than keeping them in order (on GNMT-58k
    // in 4 or 8 parts the ordered sets made a refinement 8-12% slower).
    static constexpr size_t kScanUpTo = 32;
    std::vector<double> weight_, limit_;
    std::vector<int> class_;                                // past kScanUpTo: part -> its limit's class
    std::vector<std::set<std::pair<double, int>>> classes_; // past kScanUpTo: by limit, (weight, part)
};

// The weight of one node's edges into each part, kept sparse: only the parts its neighbours are in
// are touched, so that looking at a node costs its degree, not k (on hundreds of parts a dense
// pass over every part for every node was most of a refinement's time).
class PartLinks
{
public:
    explicit PartLinks(int k) : weight_(k, 0.0), touched_(k, 0) {}

    // Fills the weights of v's edges by part; whether any leaves v's part.
    bool fill(const Adjacency &adj, int v, const std::vector<int> &parts)
    {
        for (int q : reached_) {
            weight_[q] = 0.0;
            touched_[q] = 0;
        }
        reached_.clear();
        bool boundary = false;
        for (size_t i = adj.offset[v]; i < adj.offset[v + 1]; ++i) {
            const int q = parts[adj.next[i].first];
            if (!touched_[q]) {
                touched_[q] = 1;
                reached_.push_back(q);
            }
            weight_[q] += adj.next[i].second;
            boundary = boundary || q != parts[v];
        }
        return boundary;
    }

    double operator[](int q) const { return weight_[q]; }

    // The part other than `from` that a node of weight `w` fits in with the highest value(weight
    // of the node's edges into it), then the lightest, then the lowest-numbered: what a scan of
    // every part in order would pick. Parts the node has no edge to share one value, value(0), so
    // the lightest of them that fits is the only one to weigh, found in the loads' order of
    // weight. -1: no part fits.
    template <class Value>
    int best(int from, double w, const PartLoads &loads, Value value) const
    {
        int to = -1;
        double top = 0;
        auto consider = [&](int q, double x) {
            if (q == from || !loads.fits(q, w))
                return;
            if (to < 0 || x > top || (x == top && loads.lighter(q, to))) {
                top = x;
                to = q;
            }
        };
        for (int q : reached_)
            consider(q, value(weight_[q]));
        const double unreached = value(0.0);
        if (to >= 0 && top > unreached)
            return to;
        if (const int q = loads.lightestFitting(w, from, touched_); q >= 0)
            consider(q, unreached);
        return to;
    }

private:
    std::vector<double> weight_;
    std::vector<char> touched_;
    std::vector<int> reached_;
};

// One level coarser: each node, visited in a random order, is matched with the unmatched neighbour
// of its own part that it shares the heaviest edge with (the pair weighing at most `maxWeight`);
// `toCoarse` maps each node to its coarse node. Edges inside a coarse node vanish and parallel
// coarse edges merge, so a partition carried over keeps its cut.
UndirectedGraph coarsen(const UndirectedGraph &view, const std::vector<int> &parts, double maxWeight, std::mt19937 &rng,
                        std::vector<int> &toCoarse)
{
    const Adjacency adj(view);
    const int n = static_cast<int>(view.nodeWeight.size());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    toCoarse.assign(n, -1);
    int count = 0;
    for (int v : order) {
        if (toCoarse[v] >= 0)
            continue;
        int mate = -1;
        double heaviest = 0;
        for (size_t i = adj.offset[v]; i < adj.offset[v + 1]; ++i) {
            const auto [u, w] = adj.next[i];
            if (u != v && toCoarse[u] < 0 && parts[u] == parts[v] &&
                view.nodeWeight[u] + view.nodeWeight[v] <= maxWeight && (mate < 0 || w > heaviest)) {
                mate = u;
                heaviest = w;
            }
        }
        toCoarse[v] = count;
        if (mate >= 0)
            toCoarse[mate] = count;
        ++count;
    }
    UndirectedGraph coarse;
    coarse.nodeWeight.assign(count, 0.0);
    for (int v = 0; v < n; ++v)
        coarse.nodeWeight[toCoarse[v]] += view.nodeWeight[v];
    // Coarse edges by coarse node c, each towards a higher-numbered node b once (the fine edges
    // between them summed), in order of (c, b): linear in the edges, with no sort of them all.
    std::vector<int> memberOffset(count + 1, 0), members(n);
    for (int v = 0; v < n; ++v)
        ++memberOffset[toCoarse[v] + 1];
    for (int c = 0; c < count; ++c)
        memberOffset[c + 1] += memberOffset[c];
    std::vector<int> fill(memberOffset.begin(), memberOffset.end() - 1);
    for (int v = 0; v < n; ++v)
        members[fill[toCoarse[v]]++] = v;
    std::vector<int> slot(count, -1);
    coarse.edges.reserve(view.edges.size());
    for (int c = 0; c < count; ++c) {
        const size_t first = coarse.edges.size();
        for (int m = memberOffset[c]; m < memberOffset[c + 1]; ++m) {
            const int v = members[m];
            for (size_t i = adj.offset[v]; i < adj.offset[v + 1]; ++i) {
                const int b = toCoarse[adj.next[i].first];
                if (b <= c)
                    continue;
                if (slot[b] < 0) {
                    slot[b] = static_cast<int>(coarse.edges.size());
                    coarse.edges.push_back({c, b, adj.next[i].second});
                } else {
                    coarse.edges[slot[b]].weight += adj.next[i].second;
                }
            }
        }
        for (size_t i = first; i < coarse.edges.size(); ++i)
            slot[coarse.edges[i].v] = -1;
        std::sort(coarse.edges.begin() + static_cast<std::ptrdiff_t>(first), coarse.edges.end(),
                  [](const UndirectedGraph::Edge &x, const UndirectedGraph::Edge &y) { return x.v < y.v; });
    }
    return coarse;
}

} // namespace

void rebalanceParts(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                    const std::vector<double> &shares, const std::function<bool()> &stop)
{
    const Adjacency adj(view);
    const int n = static_cast<int>(parts.size());
    double total = 0;
    std::vector<double> weight = partWeights(view, parts, k, total); // sets total
    PartLoads loads(std::move(weight), partLimits(total, k, tolerance, shares));
    std::vector<char> moved(n, 0);
    PartLinks link(k);
    // Each part's nodes as they were at the start, in ascending order: a node that comes into a
    // part has moved and never moves again, so these are the only ones a heavy part can give. (A
    // scan of every node for each heavy part took 0.43 s of 4,096 parts on GNMT-58k.)
    std::vector<int> firstOf(static_cast<size_t>(k) + 1, 0), members(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v)
        ++firstOf[static_cast<size_t>(parts[v]) + 1];
    for (int q = 0; q < k; ++q)
        firstOf[q + 1] += firstOf[q];
    {
        std::vector<int> fill(firstOf.begin(), firstOf.end() - 1);
        for (int v = 0; v < n; ++v)
            members[static_cast<size_t>(fill[parts[v]]++)] = v;
    }
    for (int round = 0; round < k * 4 && !(stop && stop()); ++round) {
        int heavy = 0; // the part furthest over its limit
        for (int q = 1; q < k; ++q)
            if (loads.weight(q) * loads.limit(heavy) > loads.weight(heavy) * loads.limit(q))
                heavy = q;
        if (loads.weight(heavy) <= loads.limit(heavy))
            return;
        // Each node of the heavy part, with the part it would best go to and the cut that adds.
        struct Move
        {
            double cost;
            int node, to;
        };
        std::vector<Move> moves;
        for (int i = firstOf[heavy]; i < firstOf[heavy + 1]; ++i) {
            // A round over 175,000 nodes takes most of a second: the stop is asked inside it too.
            if ((i - firstOf[heavy]) % 4096 == 4095 && stop && stop())
                return;
            const int v = members[static_cast<size_t>(i)];
            if (moved[v])
                continue;
            link.fill(adj, v, parts);
            const int best = link.best(heavy, view.nodeWeight[v], loads, [](double w) { return w; });
            // A node that fits in no part (heavier than a part's limit) may still go where it
            // leaves less load than the heavy part has (to = -1: chosen when its turn comes).
            moves.push_back({link[heavy] - (best >= 0 ? link[best] : 0.0), v, best});
        }
        if (moves.empty())
            return; // every node of the heavy part has moved already
        std::stable_sort(moves.begin(), moves.end(), [](const Move &a, const Move &b) { return a.cost < b.cost; });
        bool any = false;
        for (const Move &m : moves) {
            if (loads.weight(heavy) <= loads.limit(heavy))
                break;
            const double w = view.nodeWeight[m.node];
            int to = m.to;
            if (to < 0) {
                to = loads.leastLoadedWith(w, heavy);
                if (to < 0 || (loads.weight(to) + w) * loads.limit(heavy) >= loads.weight(heavy) * loads.limit(to))
                    continue;
            } else if (!loads.fits(to, w)) {
                continue;
            }
            loads.move(w, heavy, to);
            parts[m.node] = to;
            moved[m.node] = 1;
            any = true;
        }
        if (!any)
            return;
    }
}

long long refineCut(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance, long long maxMoves,
                    const std::vector<double> &shares, const std::function<bool()> &stop)
{
    // A pass over 200,000 nodes takes seconds: the stop is asked within it.
    long long asked = 0;
    auto stopNow = [&] { return stop && ++asked % 4096 == 0 && stop(); };
    const Adjacency adj(view);
    const int n = static_cast<int>(parts.size());
    double total = 0;
    std::vector<double> weight = partWeights(view, parts, k, total); // sets total
    PartLoads loads(std::move(weight), partLimits(total, k, tolerance, shares));
    double edgeWeight = 0;
    for (const auto &e : view.edges)
        edgeWeight += e.weight;
    // A pass keeps only moves that lower the cut by more than rounding can (1e-9 of a mean edge).
    const double minGain = view.edges.empty() ? 0 : 1e-9 * edgeWeight / static_cast<double>(view.edges.size());

    PartLinks link(k);
    // The best move of v: its gain (cut removed) and the part it goes to (-1: none that fits).
    auto bestMove = [&](int v, int &to) {
        const int from = parts[v];
        to = -1;
        if (!link.fill(adj, v, parts))
            return -std::numeric_limits<double>::infinity();
        const double own = link[from];
        to = link.best(from, view.nodeWeight[v], loads, [own](double w) { return w - own; });
        return to < 0 ? -std::numeric_limits<double>::infinity() : link[to] - own;
    };
    using Entry = std::tuple<double, int, unsigned>; // gain, node, version
    std::vector<unsigned> version(n, 0);
    std::vector<char> locked(n, 0);
    long long applied = 0, kept = 0;
    // Fiduccia-Mattheyses passes: the best move of an unlocked node goes first, even when it raises
    // the cut (it may open better ones), and locks the node; the pass then keeps the prefix of
    // its moves that cut least and undoes the rest. Passes repeat while they lower the cut.
    const int patience = std::max(50, n / 20); // moves without a new best before a pass gives up
    bool stopped = false;
    for (int pass = 0; pass < 16 && applied < maxMoves && !stopped && !(stop && stop()); ++pass) {
        std::priority_queue<Entry> queue;
        auto offer = [&](int v) {
            int to;
            const double g = bestMove(v, to);
            if (to >= 0)
                queue.emplace(g, v, version[v]);
        };
        std::fill(locked.begin(), locked.end(), 0);
        for (int v = 0; v < n && !stopped; ++v) {
            stopped = stopNow();
            offer(v);
        }
        if (stopped)
            break;                                // (no move made in this pass yet)
        std::vector<std::pair<int, int>> history; // (node, part it left)
        double gained = 0, bestGain = 0;
        size_t bestLength = 0;
        int sinceBest = 0;
        while (!queue.empty() && applied < maxMoves && sinceBest < patience && !(stopped = stopNow())) {
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
            loads.move(view.nodeWeight[v], parts[v], to);
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
            loads.move(view.nodeWeight[v], parts[v], from);
            parts[v] = from;
        }
        kept += static_cast<long long>(bestLength);
        if (bestLength == 0)
            break;
    }
    return kept;
}

long long refineCutMultilevel(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                              long long maxMoves, unsigned seed, int maxCycles, const std::vector<double> &shares,
                              const std::function<bool()> &stop)
{
    const size_t n = parts.size();
    if (n == 0 || k < 2)
        return 0;
    // Coarsening stops near 10 nodes a part, each at most 1.5 times the mean there (as METIS
    // bounds its coarse nodes), or when a level shrinks the graph by less than 5%.
    const size_t coarsenTo = std::max<size_t>(10 * static_cast<size_t>(k), 20);
    const double total = std::accumulate(view.nodeWeight.begin(), view.nodeWeight.end(), 0.0);
    const double maxWeight = 1.5 * total / static_cast<double>(coarsenTo);
    std::mt19937 rng(seed);
    long long kept = 0;
    double cut = partitionMetrics(view, parts, k).edgeCut;
    bool stopped = false;
    for (int cycle = 0; cycle < maxCycles && !stopped; ++cycle) {
        std::deque<UndirectedGraph> coarser;    // levels 1, 2, ... (level 0 is the view)
        std::vector<std::vector<int>> toCoarse; // level i's node -> level i + 1's node
        std::vector<std::vector<int>> levelParts{parts};
        const UndirectedGraph *current = &view;
        while (current->nodeWeight.size() > coarsenTo) {
            std::vector<int> map;
            UndirectedGraph next = coarsen(*current, levelParts.back(), maxWeight, rng, map);
            if (static_cast<double>(next.nodeWeight.size()) > 0.95 * static_cast<double>(current->nodeWeight.size()))
                break;
            std::vector<int> nextParts(next.nodeWeight.size());
            for (size_t v = 0; v < map.size(); ++v)
                nextParts[map[v]] = levelParts.back()[v];
            toCoarse.push_back(std::move(map));
            levelParts.push_back(std::move(nextParts));
            coarser.push_back(std::move(next));
            current = &coarser.back();
        }
        long long cycleKept = 0;
        for (size_t level = coarser.size() + 1; level-- > 0;) {
            const UndirectedGraph &g = level == 0 ? view : coarser[level - 1];
            // Once stopped, the levels left are only carried down (the cut stays what it is).
            stopped = stopped || (stop && stop());
            if (!stopped)
                cycleKept += refineCut(g, levelParts[level], k, tolerance, maxMoves, shares, stop);
            if (level > 0)
                for (size_t v = 0; v < toCoarse[level - 1].size(); ++v)
                    levelParts[level - 1][v] = levelParts[level][toCoarse[level - 1][v]];
        }
        // Coarse cuts are the fine cut summed in another order: keep a cycle only if the cut it
        // leaves, measured on the view, did not rise by rounding.
        const double now = partitionMetrics(view, levelParts[0], k).edgeCut;
        if (now > cut)
            break;
        parts = std::move(levelParts[0]);
        kept += cycleKept;
        const bool gained = now < cut * (1 - 1e-9);
        cut = now;
        if (!gained)
            break;
    }
    return kept;
}

double refinePartition(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                       long long maxMoves, unsigned seed, const std::function<bool(double, double)> &keepGoing,
                       const std::vector<double> &shares)
{
    PartitionMetrics best = partitionMetrics(view, parts, k);
    double bestOver = overShare(best.partWeights, shares);
    // Each round starts every trial from the best partition so far; rounds repeat while one gains.
    constexpr int kRounds = kRefinementRounds;
    const std::vector<double> slacks{0.0, 0.05, 0.1, 0.2};
    int trials = 0;
    auto done = [&] { return static_cast<double>(trials) / static_cast<double>(kRounds * slacks.size()); };
    const std::function<bool()> stop = [&] { return keepGoing && !keepGoing(best.edgeCut, done()); };
    for (int round = 0; round < kRounds; ++round) {
        const std::vector<int> start = parts;
        const double before = best.edgeCut;
        for (double slack : slacks) {
            std::vector<int> trial = start;
            if (slack > 0) {
                refineCutMultilevel(view, trial, k, tolerance + slack, maxMoves, seed, 4, shares, stop);
                rebalanceParts(view, trial, k, tolerance, shares);
            }
            refineCutMultilevel(view, trial, k, tolerance, maxMoves, seed, 4, shares, stop);
            const PartitionMetrics m = partitionMetrics(view, trial, k);
            const double over = overShare(m.partWeights, shares);
            // Within the tolerance (or no further over it than the start), and cutting less.
            if (over <= std::max(tolerance, bestOver) + 1e-12 && m.edgeCut < best.edgeCut) {
                best = m;
                bestOver = over;
                parts = std::move(trial);
            }
            ++trials;
            if (keepGoing && !keepGoing(best.edgeCut, done()))
                return best.edgeCut;
        }
        if (!(best.edgeCut < before * (1 - 1e-9)))
            break;
    }
    return best.edgeCut;
}

Progress refinementProgress(double cut, double fraction, double wallS)
{
    Progress p;
    p.fraction = fraction;
    char text[64];
    std::snprintf(text, sizeof text, "refining the cut: %.4g", cut);
    p.message = text;
    p.wallS = wallS;
    return p;
}

double rebalanceAndRefine(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                          const RunControl &control, const std::vector<double> &shares, RepairSteps steps)
{
    const auto start = std::chrono::steady_clock::now();
    if (steps.rebalance)
        rebalanceParts(view, parts, k, tolerance, shares, [&] { return control.outOfTime(secondsSince(start)); });
    if (!steps.refine)
        return 0;
    // Out of time already: refinement would coarsen the whole graph before it first asks (0.3 s
    // and more on 200,000 ops).
    if (control.exhausted(secondsSince(start), 0))
        return partitionMetrics(view, parts, k).edgeCut;
    // The share of refinePartition's work these rounds are: the progress goes to 1 at its end (after
    // one round of eight it stood at 12%, and the run was over).
    const double share = static_cast<double>(steps.rounds) / kRefinementRounds;
    auto keepGoing = [&](double cut, double done) {
        const double used = secondsSince(start);
        const double limit = control.budget.timeLimitS;
        const double ours = done / share;
        control.report(refinementProgress(
            cut, std::min(1.0, std::isfinite(limit) && limit > 0 ? std::max(ours, used / limit) : ours), used));
        return !control.exhausted(used, 0) && done < share - 1e-12;
    };
    return refinePartition(view, parts, k, tolerance, 100LL * static_cast<long long>(parts.size()) + 1000,
                           static_cast<unsigned>(control.seed), keepGoing, shares);
}

} // namespace ps
