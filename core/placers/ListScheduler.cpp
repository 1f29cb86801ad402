#include "core/placers/ListScheduler.h"

#include "core/cluster/Cluster.h"
#include "core/family/ModelFamily.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"

#include <algorithm>
#include <cmath>

namespace ps {

namespace {
constexpr size_t kTimelineBlock = 64; // intervals a block holds before it splits in two
} // namespace

void Timeline::Block::measure()
{
    widestGap = 0;
    lastEnd = busy.front().end;
    for (size_t i = 1; i < busy.size(); ++i) {
        widestGap = std::max(widestGap, busy[i].start - lastEnd);
        lastEnd = std::max(lastEnd, busy[i].end);
    }
}

double Timeline::earliest(double ready, double length, bool insertion) const
{
    if (!insertion)
        return std::max(ready, end());
    // The first interval that ends after `ready`, as a scan of one sorted list finds it.
    auto block = std::lower_bound(m_blocks.begin(), m_blocks.end(), ready,
                                  [](const Block &b, double t) { return b.busy.back().end <= t; });
    double candidate = ready;
    if (block == m_blocks.end())
        return candidate;
    auto it = std::lower_bound(block->busy.begin(), block->busy.end(), ready,
                               [](const Interval &i, double t) { return i.end <= t; });
    for (;;) {
        for (; it != block->busy.end(); ++it) {
            if (it->start >= candidate + length)
                return candidate;
            candidate = std::max(candidate, it->end);
        }
        if (++block == m_blocks.end())
            return candidate;
        // A block whose first interval leaves no room before it and whose inner gaps are all
        // narrower than the slot (with a margin far above rounding) is passed whole.
        const Interval &first = block->busy.front();
        if (first.start < candidate + length &&
            block->widestGap < length - 1e-12 * (std::abs(length) + std::abs(block->lastEnd))) {
            candidate = std::max(candidate, block->lastEnd);
            it = block->busy.end();
        } else {
            it = block->busy.begin();
        }
    }
}

void Timeline::add(double start, double end)
{
    // In (start, end) order, as in one sorted list: a slot of length 0 goes before the interval
    // that starts where it does (put after it, the ends were out of order, which the search's
    // binary search on the ends assumes they are not).
    const Interval slot{start, end};
    auto before = [](const Interval &i, const Interval &s) {
        return i.start < s.start || (i.start == s.start && i.end < s.end);
    };
    auto block = std::lower_bound(m_blocks.begin(), m_blocks.end(), slot,
                                  [&](const Block &b, const Interval &s) { return before(b.busy.back(), s); });
    if (block == m_blocks.end()) {
        if (m_blocks.empty() || m_blocks.back().busy.size() >= kTimelineBlock) {
            Block fresh;
            fresh.busy.push_back(slot);
            fresh.measure();
            m_blocks.push_back(std::move(fresh));
            return;
        }
        block = m_blocks.end() - 1;
    }
    block->busy.insert(std::lower_bound(block->busy.begin(), block->busy.end(), slot, before), slot);
    if (block->busy.size() >= 2 * kTimelineBlock) {
        Block tail;
        tail.busy.assign(block->busy.begin() + kTimelineBlock, block->busy.end());
        block->busy.resize(kTimelineBlock);
        tail.measure();
        block = m_blocks.insert(block + 1, std::move(tail)) - 1;
    }
    block->measure();
}

FreeFirst::FreeFirst(int k) : m_end(static_cast<size_t>(std::max(k, 1)), 0.0)
{
    while (m_leaves < k)
        m_leaves *= 2;
    m_winner.assign(2 * static_cast<size_t>(m_leaves), -1);
    for (int d = 0; d < k; ++d)
        m_winner[m_leaves + d] = d;
    for (int node = m_leaves - 1; node >= 1; --node)
        play(node);
}

void FreeFirst::set(int d, double end)
{
    m_end[d] = end;
    for (int node = (m_leaves + d) / 2; node >= 1; node /= 2)
        play(node);
}

void FreeFirst::play(int node)
{
    // The left subtree holds the lower indices: it wins ties.
    const int left = m_winner[2 * node], right = m_winner[2 * node + 1];
    m_winner[node] = right < 0 || (left >= 0 && m_end[left] <= m_end[right]) ? left : right;
}

ListScheduler::ListScheduler(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                             Options options)
    : m_graph(graph), m_cluster(cluster), m_costs(graph, cluster), m_tracker(graph, cluster, constraints),
      m_options(options), m_device(graph.nodeCount(), -1), m_finish(graph.nodeCount(), 0.0),
      m_devices(cluster.deviceCount()), m_freeFirst(cluster.deviceCount()),
      m_booked(options.contention ? graph.nodeCount() : 0)
{}

const std::pair<int, double> *ListScheduler::booked(int p, int d) const
{
    for (const auto &copy : m_booked[p])
        if (copy.first == d)
            return &copy;
    return nullptr;
}

double ListScheduler::arrival(int p, int d, double bytes) const
{
    const int a = m_device[p];
    if (const auto *copy = booked(p, d))
        return copy->second; // one copy per destination device
    const double duration = m_costs.transfer(a, d, bytes);
    const auto link = m_links.find(static_cast<long long>(a) * m_cluster.deviceCount() + d);
    const double start = link == m_links.end() ? m_finish[p] : link->second.earliest(m_finish[p], duration, true);
    return start + duration;
}

double ListScheduler::inputReady(int v, int d) const
{
    if (!m_options.contention)
        return m_costs.dataReady(v, d, m_device.data(), m_finish.data());
    double ready = 0;
    const auto pred = m_graph.predecessors(v);
    const auto bytes = m_graph.predecessorBytes(v);
    for (size_t i = 0; i < pred.size(); ++i) {
        const int p = pred[i];
        ready = std::max(ready, m_device[p] == d ? m_finish[p] : arrival(p, d, bytes[i]));
    }
    return ready;
}

ListScheduler::Slot ListScheduler::evaluate(int v, int d) const
{
    Slot slot;
    if (!m_tracker.fits(v, d))
        return slot;
    const double w = m_costs.compute(v, d);
    slot.start = m_devices[d].earliest(inputReady(v, d), w, m_options.insertion);
    slot.finish = slot.start + w;
    return slot;
}

void ListScheduler::consider(int v, int d, int &chosen, Slot &slot) const
{
    const Slot s = evaluate(v, d);
    if (s.finish == std::numeric_limits<double>::infinity())
        return;
    const bool better = chosen < 0 || s.finish < slot.finish ||
                        (m_options.fasterTies && s.finish == slot.finish &&
                         m_cluster.device(d).flopsPerS > m_cluster.device(chosen).flopsPerS);
    if (better) {
        chosen = d;
        slot = s;
    }
}

int ListScheduler::bestNear(int v, Slot &slot) const
{
    int chosen = -1;
    for (int p : m_graph.predecessors(v))
        consider(v, m_device[p], chosen, slot);
    consider(v, m_freeFirst.first(), chosen, slot);
    return chosen;
}

int ListScheduler::best(int v, Slot &slot)
{
    if (m_options.near) {
        const int chosen = bestNear(v, slot);
        if (chosen >= 0)
            return chosen;
    }
    int chosen = -1;
    for (int d = 0; d < m_cluster.deviceCount(); ++d)
        consider(v, d, chosen, slot);
    if (chosen < 0) {
        chosen = m_tracker.fallbackDevice(v);
        const double w = m_costs.compute(v, chosen);
        slot.start = m_devices[chosen].earliest(inputReady(v, chosen), w, m_options.insertion);
        slot.finish = slot.start + w;
    }
    return chosen;
}

void ListScheduler::commit(int v, int d, const Slot &slot)
{
    if (m_options.contention) {
        // Book the copies v needs, largest edge per producer, in predecessor order.
        const auto pred = m_graph.predecessors(v);
        const auto bytes = m_graph.predecessorBytes(v);
        const int k = m_cluster.deviceCount();
        for (size_t i = 0; i < pred.size(); ++i) {
            const int p = pred[i], a = m_device[p];
            if (a == d || booked(p, d))
                continue;
            double size = bytes[i];
            for (size_t j = i + 1; j < pred.size(); ++j)
                if (pred[j] == p)
                    size = std::max(size, bytes[j]);
            const double duration = m_costs.transfer(a, d, size);
            Timeline &link = m_links[static_cast<long long>(a) * k + d];
            const double start = link.earliest(m_finish[p], duration, true);
            link.add(start, start + duration);
            m_booked[p].emplace_back(d, start + duration);
        }
    }
    m_tracker.assign(v, d);
    m_device[v] = d;
    m_finish[v] = slot.finish;
    m_devices[d].add(slot.start, slot.finish);
    m_freeFirst.set(d, m_devices[d].end());
}

bool ListScheduler::stopped(const RunControl &control) const
{
    return control.outOfTime(secondsSince(m_start));
}

std::vector<int> ListScheduler::placeRest(const std::string &placer, std::vector<std::string> &notes)
{
    const int n = m_graph.nodeCount();
    int rest = 0;
    m_options.near = true; // a few candidates, not every device (what made the full rule slow)
    for (int v : m_graph.topologicalOrder()) {
        if (m_device[v] >= 0)
            continue;
        Slot slot;
        commit(v, best(v, slot), slot);
        ++rest;
    }
    if (rest > 0)
        notes.push_back(placer + ": stopped (time limit or cancel) after placing " + std::to_string(n - rest) + " of " +
                        std::to_string(n) +
                        " ops; the rest went where they finish first among their inputs' devices and the device "
                        "free first");
    return m_device;
}

double ListScheduler::plannedMakespan() const
{
    double makespan = 0;
    for (double f : m_finish)
        makespan = std::max(makespan, f);
    return makespan;
}

std::vector<double> upwardRanks(const CostModel &costs)
{
    const Graph &g = costs.graph();
    std::vector<double> rank(g.nodeCount(), 0.0);
    const std::vector<int> &topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const int v = *it;
        double tail = 0;
        const auto succ = g.successors(v);
        const auto bytes = g.successorBytes(v);
        for (size_t i = 0; i < succ.size(); ++i)
            tail = std::max(tail, costs.meanTransfer(bytes[i]) + rank[succ[i]]);
        rank[v] = costs.meanCompute(v) + tail;
    }
    return rank;
}

std::vector<double> downwardRanks(const CostModel &costs)
{
    const Graph &g = costs.graph();
    std::vector<double> rank(g.nodeCount(), 0.0), mean(g.nodeCount());
    for (int v = 0; v < g.nodeCount(); ++v)
        mean[v] = costs.meanCompute(v);
    for (int v : g.topologicalOrder()) {
        const auto pred = g.predecessors(v);
        const auto bytes = g.predecessorBytes(v);
        for (size_t i = 0; i < pred.size(); ++i)
            rank[v] = std::max(rank[v], rank[pred[i]] + mean[pred[i]] + costs.meanTransfer(bytes[i]));
    }
    return rank;
}

} // namespace ps
