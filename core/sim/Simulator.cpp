#include "core/sim/Simulator.h"

#include "core/placement/Constraints.h"

#include "core/InputError.h"
#include "core/placement/Placement.h"
#include "core/sim/CostModel.h"
#include "core/sim/QuadHeap.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>

namespace ps {

namespace {

// An event: its time and the rest of the spec's order (kind, rank, device) packed into one
// integer, so the heap compares two numbers. The node is the op of that rank.
//
// The queue holds at most one event per device (its running op) and one per link (the transfer
// at the head of that link): a link carries transfers one at a time in issue order, so its
// arrivals come in time order and can wait in a FIFO of their own. The heap stays tiny and the
// order of processing is the spec's, except among arrivals with one time on one link, whose
// order changes nothing (each only counts an input as available).
struct Event
{
    double time;
    uint64_t key; // kind (1 bit) | rank (31 bits) | device (20 bits)
    int link;     // for arrivals: the slot of the link whose FIFO holds the transfer

    static uint64_t pack(int kind, int rank, int device)
    {
        return static_cast<uint64_t>(kind) << 51 | static_cast<uint64_t>(rank) << 20 | static_cast<uint64_t>(device);
    }
    int kind() const { return static_cast<int>(key >> 51); }
    int rank() const { return static_cast<int>((key >> 20) & 0x7fffffff); }
    int device() const { return static_cast<int>(key & 0xfffff); }
};

// Times are never negative (they are sums of non-negative numbers starting at +0.0), and the
// bit patterns of non-negative doubles order like the numbers: (time, key) compares as one
// 128-bit integer, without the unpredictable branches of a lexicographic compare.
inline unsigned __int128 orderOf(double time, uint64_t key)
{
    uint64_t bits;
    std::memcpy(&bits, &time, sizeof bits);
    return static_cast<unsigned __int128>(bits) << 64 | key;
}

// Queue order: the smallest (time, kind, rank, device) first.
struct EventBefore
{
    bool operator()(const Event &a, const Event &b) const { return orderOf(a.time, a.key) < orderOf(b.time, b.key); }
};

struct Arrival
{
    double time;
    int producer;
    int transfer; // index into Schedule::transfers while recording
};

// A FIFO that keeps its storage between runs.
struct LinkQueue
{
    std::vector<Arrival> items;
    size_t head = 0;
    double free = 0;       // when the link can start the next transfer
    int lastTransfer = -1; // recording: the transfer it carried last
    bool empty() const { return head == items.size(); }
    void clear()
    {
        items.clear();
        head = 0;
        free = 0;
        lastTransfer = -1;
    }
};

struct ReadyOp
{
    double ready;
    int rank;
    int node;
};

struct ReadyBefore
{
    bool operator()(const ReadyOp &a, const ReadyOp &b) const
    {
        return orderOf(a.ready, static_cast<uint64_t>(a.rank)) < orderOf(b.ready, static_cast<uint64_t>(b.rank));
    }
};

// The ops ready on one device, taken in (ready time, rank) order. An op becomes ready when its
// last input arrives, at the time of the event being processed, and events come in time order:
// so ops are pushed in non-decreasing ready time, and only the ops pushed since the last take
// can be out of order. They are appended and sorted on the next take (small runs: cheaper
// than a heap, whose depth grows with the thousands of ops ready at once on wide graphs).
class ReadyQueue
{
public:
    bool empty() const { return m_head == m_items.size(); }
    void clear()
    {
        m_items.clear();
        m_head = m_sorted = 0;
    }
    void push(const ReadyOp &op) { m_items.push_back(op); }
    ReadyOp pop()
    {
        settle();
        const ReadyOp op = m_items[m_head++];
        if (empty())
            clear();
        return op;
    }
    // The ops still waiting, in order, for snapshots; assign() restores them.
    std::vector<ReadyOp> items()
    {
        settle();
        return {m_items.begin() + static_cast<long>(m_head), m_items.end()};
    }
    void assign(const std::vector<ReadyOp> &items)
    {
        m_items.assign(items.begin(), items.end());
        m_head = 0;
        m_sorted = m_items.size();
    }

private:
    void settle()
    {
        if (m_sorted == m_items.size())
            return;
        const auto begin = m_items.begin();
        const auto mid = begin + static_cast<long>(m_sorted);
        std::sort(mid, m_items.end(), ReadyBefore{});
        // A tail that starts at the time the sorted part ends (zero-time ops and transfers
        // can make several batches at one time) merges with it.
        if (m_sorted > m_head && ReadyBefore{}(*mid, *(mid - 1)))
            std::inplace_merge(begin + static_cast<long>(m_head), mid, m_items.end(), ReadyBefore{});
        m_sorted = m_items.size();
    }

    std::vector<ReadyOp> m_items;
    size_t m_head = 0, m_sorted = 0;
};

// What made an op ready when it did (for the critical path).
constexpr int kNoCause = -1;

// Each op's compute time on its fastest device (the lower bound's and the cutoff's chains).
std::vector<double> fastestCompute(const CostModel &costs, int n)
{
    std::vector<double> fastest(n);
    const std::vector<int> &kinds = costs.distinctDevices();
    if (kinds.empty())
        throw InputError("the cluster has no devices");
    for (int v = 0; v < n; ++v) {
        fastest[v] = costs.compute(v, kinds.front());
        for (size_t i = 1; i < kinds.size(); ++i)
            fastest[v] = std::min(fastest[v], costs.compute(v, kinds[i]));
    }
    return fastest;
}

} // namespace

struct Simulator::Impl
{
    const Graph &graph;
    const Cluster &cluster;
    CostModel costs;
    const int n, k;
    const int *order; // node of each rank
    long long evaluations = 0;

    // Workspace, sized once.
    // What the event loop touches per node, in one cache line: successors are visited in
    // random order on real graphs.
    struct NodeState
    {
        double readyTime;
        int missing; // inputs not yet available
        int device;
    };
    std::vector<NodeState> state;
    std::vector<double> comp, busy, destBytes;
    std::vector<int> destStamp, destList;
    double latestFinish = 0;
    std::vector<char> idle, dirty;
    std::vector<int> dirtyList;
    std::vector<ReadyQueue> ready;
    QuadHeap<Event, EventBefore> events;
    // Per ordered device pair a -> b that has carried a transfer, a slot (linkSlot[a * k + b] - 1;
    // 0 for none): when the link is free again and what it still has to deliver. A run resets
    // only the slots it used (usedLinks; one may appear twice), so that thousands of devices
    // (millions of pairs) cost neither every run nor 40 bytes a pair. The table is calloc'd: a
    // large one is mapped zero pages that cost only where written (with 4,096 devices, filling
    // its 67 MB was most of a simulator's construction).
    std::unique_ptr<int[], void (*)(void *)> linkSlot{nullptr, std::free};
    std::vector<LinkQueue> links;
    std::vector<int> usedLinks;
    int stamp = 0;
    double movedBytes = 0;
    long long transferCount = 0;

    // Recording, only for simulate(): causes for the critical path.
    Schedule *record = nullptr;
    std::vector<int> readyCauseOp, readyCauseTransfer, previousOnDevice, lastOnDevice, previousOnLink;

    Impl(const Graph &g, const Cluster &c)
        : graph(g), cluster(c), costs(g, c), n(g.nodeCount()), k(c.deviceCount()), order(g.topologicalOrder().data())
    {
        comp.resize(n);
        state.resize(n);
        runFinish.resize(n);
        finishStamp.assign(n, 0);
        baseFinish.assign(n, 0.0);
        busy.resize(k);
        work.resize(k);
        baseWork.resize(k);
        const size_t pairs = std::max<size_t>(1, static_cast<size_t>(k) * k); // calloc(0) may give null
        linkSlot.reset(static_cast<int *>(std::calloc(pairs, sizeof(int))));
        if (!linkSlot)
            throw std::bad_alloc();
        destBytes.resize(k);
        destStamp.assign(k, 0);
        destList.reserve(k);
        idle.resize(k);
        dirty.assign(k, 0);
        dirtyList.reserve(k);
        ready.resize(k);
        // At most one event per device and one per link with arrivals to come, and rarely more
        // links in flight than ops; the heap grows past that if it must (once: it is reused).
        events.reserve(static_cast<size_t>(k) + std::min(static_cast<size_t>(k) * k, static_cast<size_t>(2 * n)));
    }

    void pushEvent(const Event &e) { events.push(e); }

    // One input of w (on device d) became available at t.
    void inputArrived(int w, int d, double t, int causeOp, int causeTransfer)
    {
        NodeState &sw = state[w];
        --sw.missing;
        if (t > sw.readyTime) {
            sw.readyTime = t;
            if (record) {
                readyCauseOp[w] = causeOp;
                readyCauseTransfer[w] = causeTransfer;
            }
        }
        if (sw.missing == 0) {
            ready[d].push({sw.readyTime, graph.rank(w), w});
            markDirty(d);
        }
    }

    void markDirty(int d)
    {
        if (!dirty[d]) {
            dirty[d] = 1;
            dirtyList.push_back(d);
        }
    }

    // A transfer of u's output reached device d.
    void transferArrived(int u, int d, double t, int transferIndex)
    {
        const auto succ = graph.successors(u);
        for (size_t i = 0; i < succ.size(); ++i)
            if (state[succ[i]].device == d)
                inputArrived(succ[i], d, t, kNoCause, transferIndex);
    }

    // Returns false when an op would finish after the cutoff, or surely will: the op just started
    // and the work its device has still to run, or the chain of compute after it, pass it.
    bool dispatch(double t, double cutoff)
    {
        // Only devices that became idle or got a ready op can start one; in ascending index.
        std::sort(dirtyList.begin(), dirtyList.end());
        for (int d : dirtyList)
            dirty[d] = 0;
        for (int d : dirtyList) {
            if (!idle[d] || ready[d].empty())
                continue;
            const int v = ready[d].pop().node;
            idle[d] = 0;
            const double finish = t + comp[v];
            busy[d] += comp[v];
            // The run ends no earlier than this op plus the rest of d's work, or plus the chain
            // after it: past the cutoff (by more than the rounding of those sums), so would it.
            if (finish > cutoff ||
                (std::isfinite(workCutoff) && finish + std::max(work[d] - busy[d], tail[v]) > workCutoff))
                return false;
            latestFinish = std::max(latestFinish, finish);
            runFinish[v] = finish;
            finishStamp[v] = runId;
            if (record) {
                record->start[v] = t;
                record->finish[v] = finish;
                previousOnDevice[v] = lastOnDevice[d];
                lastOnDevice[d] = v;
            }
            pushEvent({finish, Event::pack(0, graph.rank(v), d), -1});
        }
        dirtyList.clear();
        return true;
    }

    // u finished on device a at t: its successors on a get their input, and one copy of its
    // output leaves for every other device holding a successor (the largest edge to that device).
    void opFinished(int u, int a, double t)
    {
        idle[a] = 1;
        markDirty(a);
        ++stamp;
        destList.clear();
        const auto succ = graph.successors(u);
        const auto bytes = graph.successorBytes(u);
        for (size_t i = 0; i < succ.size(); ++i) {
            const int d = state[succ[i]].device;
            if (d == a) {
                inputArrived(succ[i], a, t, u, -1);
                continue;
            }
            if (destStamp[d] != stamp) {
                destStamp[d] = stamp;
                destBytes[d] = 0.0;
                destList.push_back(d);
            }
            destBytes[d] = std::max(destBytes[d], bytes[i]);
        }
        std::sort(destList.begin(), destList.end());
        for (int dst : destList) {
            const Link &link = cluster.link(a, dst);
            const double b = destBytes[dst];
            const size_t pair = static_cast<size_t>(a) * k + dst;
            int &slotPlusOne = linkSlot[pair];
            if (slotPlusOne == 0) {
                links.emplace_back();
                slotPlusOne = static_cast<int>(links.size());
            }
            const int slot = slotPlusOne - 1;
            LinkQueue &q = links[slot];
            const double s = std::max(t, q.free);
            const double arrival = s + (link.latencyS + b / link.bandwidthBytesPerS);
            q.free = arrival;
            movedBytes += b;
            ++transferCount;
            int index = -1;
            if (record) {
                index = static_cast<int>(record->transfers.size());
                record->transfers.push_back({u, a, dst, s, arrival, b});
                previousOnLink.push_back(q.lastTransfer);
                q.lastTransfer = index;
            }
            if (q.items.empty())
                usedLinks.push_back(slot);
            if (q.empty())
                pushEvent({arrival, Event::pack(1, graph.rank(u), dst), slot});
            q.items.push_back({arrival, u, index});
        }
    }

    // Every run, full or resumed, counts as one evaluation.
    void beginRun()
    {
        ++evaluations;
        ++runId;
        lastFrom = -1;
        lastComplete = false;
    }

    double run(const int *place, double cutoff)
    {
        beginRun();
        compIsBase = false;
        std::fill(work.begin(), work.end(), 0.0);
        for (int v = 0; v < n; ++v) {
            comp[v] = costs.compute(v, place[v]);
            work[place[v]] += comp[v];
        }
        setCutoff(cutoff);
        dirtyList.clear();
        for (int d = 0; d < k; ++d) {
            ready[d].clear();
            idle[d] = 1;
            busy[d] = 0;
            dirty[d] = 1;
            dirtyList.push_back(d);
        }
        clearLinks();
        events.clear();
        movedBytes = 0;
        transferCount = 0;
        latestFinish = 0.0;
        for (int v = 0; v < n; ++v) {
            state[v] = {0.0, graph.inDegree(v), place[v]};
            if (state[v].missing == 0)
                ready[place[v]].push({0.0, graph.rank(v), v});
        }
        if (!dispatch(0.0, cutoff))
            return std::numeric_limits<double>::infinity();
        return loop(cutoff);
    }

    void clearLinks()
    {
        for (int l : usedLinks)
            links[l].clear();
        usedLinks.clear();
    }

    // The event loop from the current state. Between time steps (the state then depends on no
    // event still to come) it may take snapshots for incremental runs.
    double loop(double cutoff)
    {
        long long processed = 0;
        while (!events.empty()) {
            const double t = events.top().time;
            if (snapshotEvery > 0 && processed >= nextSnapshot) {
                takeSnapshot(t);
                nextSnapshot = processed + snapshotEvery;
            }
            while (!events.empty() && events.top().time == t) {
                const Event e = events.pop();
                ++processed;
                const int device = e.device();
                if (e.kind() == 0) {
                    opFinished(order[e.rank()], device, t);
                } else {
                    LinkQueue &q = links[e.link];
                    const Arrival a = q.items[q.head++];
                    if (!q.empty()) {
                        const Arrival &next = q.items[q.head];
                        pushEvent({next.time, Event::pack(1, graph.rank(next.producer), device), e.link});
                    }
                    transferArrived(a.producer, device, t, a.transfer);
                }
            }
            if (!dispatch(t, cutoff))
                return std::numeric_limits<double>::infinity();
        }
        return latestFinish;
    }

    // Incremental runs: snapshots of a base run, taken before the time step at `time`.
    struct SavedLink
    {
        int link; // slot
        double free;
        std::vector<Arrival> items; // what it still had to deliver
    };
    struct Snapshot
    {
        double time;
        std::vector<NodeState> state;
        std::vector<double> busy;
        std::vector<char> idle;
        std::vector<std::vector<ReadyOp>> ready;
        std::vector<Event> events;
        std::vector<SavedLink> links; // the pairs used so far
        double movedBytes, latestFinish;
        long long transferCount;
    };
    std::vector<Snapshot> snapshots;
    std::vector<double> baseComp;
    long long snapshotEvery = 0, nextSnapshot = 0;
    bool compIsBase = false;

    void takeSnapshot(double t)
    {
        Snapshot s{t, state, busy, idle, {}, events.items(), {}, movedBytes, latestFinish, transferCount};
        for (ReadyQueue &q : ready)
            s.ready.push_back(q.items());
        std::sort(usedLinks.begin(), usedLinks.end());
        usedLinks.erase(std::unique(usedLinks.begin(), usedLinks.end()), usedLinks.end());
        s.links.reserve(usedLinks.size());
        for (int l : usedLinks) {
            const LinkQueue &q = links[l];
            s.links.push_back({l, q.free, {q.items.begin() + static_cast<long>(q.head), q.items.end()}});
        }
        snapshots.push_back(std::move(s));
    }

    void restore(const Snapshot &s)
    {
        state = s.state;
        busy = s.busy;
        idle = s.idle;
        for (int d = 0; d < k; ++d)
            ready[d].assign(s.ready[d]);
        events.assign(s.events);
        clearLinks();
        for (const SavedLink &saved : s.links) {
            links[saved.link].items.assign(saved.items.begin(), saved.items.end());
            links[saved.link].free = saved.free;
            usedLinks.push_back(saved.link);
        }
        movedBytes = s.movedBytes;
        latestFinish = s.latestFinish;
        transferCount = s.transferCount;
        dirtyList.clear();
    }

    double setBase(const std::vector<int> &place, int count)
    {
        snapshots.clear();
        if (count <= 0) {
            const double bytesPerSnapshot = 16.0 * n + 40.0 * std::min(double(k) * k, double(n)) + 1024;
            count = static_cast<int>(std::clamp(64e6 / bytesPerSnapshot, 4.0, 64.0));
        }
        // About `count` snapshots spread over the base run's events (two events per op is a
        // fair first guess; the base run itself tells the real count).
        baseSnapshotEvery = std::max<long long>(1, 2LL * n / std::max(1, count));
        snapshotEvery = baseSnapshotEvery;
        nextSnapshot = 0;
        const double makespan = run(place.data(), std::numeric_limits<double>::infinity());
        snapshotEvery = 0;
        baseFinish = runFinish;
        baseComp = comp;
        baseWork = work;
        compIsBase = true;
        return makespan;
    }

    // The last run, complete, becomes the base (see Simulator::acceptChanged).
    double accept(const std::vector<int> &place, const std::vector<int> &changed)
    {
        if (baseComp.empty())
            throw std::logic_error("acceptChanged: no incremental base");
        if (!lastComplete)
            throw std::logic_error("acceptChanged: the last run did not run to its end");
        // The snapshots up to the one the run resumed from hold for the new base too (the
        // changed nodes aside, patched here); the later ones are taken again from there.
        size_t keep = 0;
        while (keep < snapshots.size() && lastFrom > 0 && snapshots[keep].time <= lastFrom)
            ++keep;
        snapshots.resize(keep);
        for (int v : changed) {
            baseComp[v] = costs.compute(v, place[v]);
            for (Snapshot &snap : snapshots)
                snap.state[v].device = place[v];
        }
        if (snapshots.empty())
            return setBase(place, static_cast<int>(std::max<long long>(1, 2LL * n / baseSnapshotEvery)));
        std::fill(baseWork.begin(), baseWork.end(), 0.0);
        for (int v = 0; v < n; ++v)
            baseWork[place[v]] += baseComp[v];
        beginRun();
        restore(snapshots.back());
        comp = baseComp;
        compIsBase = true;
        work = baseWork;
        setCutoff(std::numeric_limits<double>::infinity());
        snapshotEvery = baseSnapshotEvery;
        nextSnapshot = snapshotEvery; // the one resumed from is there already
        const double makespan = loop(std::numeric_limits<double>::infinity());
        snapshotEvery = 0;
        for (int v = 0; v < n; ++v)
            if (finishStamp[v] == runId)
                baseFinish[v] = runFinish[v];
        return makespan;
    }

    double runChanged(const std::vector<int> &place, const std::vector<int> &changed, double cutoff)
    {
        // Nothing before the first finish of a changed node's predecessor depends on where the
        // changed nodes are (a node with no predecessor matters from time 0).
        double from = std::numeric_limits<double>::infinity();
        for (int v : changed) {
            if (graph.inDegree(v) == 0)
                from = 0;
            for (int p : graph.predecessors(v))
                from = std::min(from, baseFinish[p]);
        }
        const Snapshot *use = nullptr;
        for (const Snapshot &s : snapshots)
            if (s.time <= from)
                use = &s;
        double result;
        if (!use || from <= 0) {
            result = run(place.data(), cutoff);
        } else {
            beginRun();
            lastFrom = from;
            restore(*use);
            if (!compIsBase) {
                comp = baseComp;
                compIsBase = true;
            }
            work = baseWork;
            for (int v : changed) {
                work[state[v].device] -= baseComp[v];
                state[v].device = place[v];
                comp[v] = costs.compute(v, place[v]);
                work[place[v]] += comp[v];
            }
            setCutoff(cutoff);
            result = loop(cutoff);
            for (int v : changed)
                comp[v] = baseComp[v];
        }
        lastComplete = std::isfinite(result);
        return result;
    }

    // Compute per device of the run's placement and of the base's; the longest chain of compute
    // after each op (each on its fastest device; found at the first run with a cutoff); and the
    // cutoff those bounds are held to, a little above the run's (their sums round differently
    // from the schedule's; +infinity: none).
    std::vector<double> work, baseWork, tail;
    double workCutoff = std::numeric_limits<double>::infinity();
    void setCutoff(double cutoff)
    {
        workCutoff = std::isfinite(cutoff) ? cutoff * (1 + 1e-9) : std::numeric_limits<double>::infinity();
        if (std::isfinite(cutoff) && tail.empty()) {
            const std::vector<double> fastest = fastestCompute(costs, n);
            tail.assign(n, 0.0);
            const std::vector<int> &topo = graph.topologicalOrder();
            for (auto it = topo.rbegin(); it != topo.rend(); ++it)
                for (int w : graph.successors(*it))
                    tail[*it] = std::max(tail[*it], fastest[w] + tail[w]);
        }
    }

    std::optional<LowerBound> lowerBound;
    std::vector<double> baseFinish; // finish times of the base run
    long long baseSnapshotEvery = 1;
    // Finish times written by the run numbered runId (for making a run the base).
    std::vector<double> runFinish;
    std::vector<uint32_t> finishStamp;
    uint32_t runId = 0;
    // The last incremental run: where it resumed (-1: from the start), and whether it ended.
    double lastFrom = -1;
    bool lastComplete = false;
};

Simulator::Simulator(const Graph &graph, const Cluster &cluster) : m_impl(std::make_unique<Impl>(graph, cluster)) {}

Simulator::~Simulator() = default;

long long Simulator::evaluations() const
{
    return m_impl->evaluations;
}
double Simulator::lastMovedBytes() const
{
    return m_impl->movedBytes;
}

double Simulator::setIncrementalBase(const std::vector<int> &deviceOfNode, int snapshots)
{
    return m_impl->setBase(deviceOfNode, snapshots);
}

double Simulator::makespanChanged(const std::vector<int> &deviceOfNode, const std::vector<int> &changed, double cutoff)
{
    return m_impl->runChanged(deviceOfNode, changed, cutoff);
}

double Simulator::acceptChanged(const std::vector<int> &deviceOfNode, const std::vector<int> &changed)
{
    return m_impl->accept(deviceOfNode, changed);
}
const Graph &Simulator::graph() const
{
    return m_impl->graph;
}
const Cluster &Simulator::cluster() const
{
    return m_impl->cluster;
}

double Simulator::makespan(const std::vector<int> &deviceOfNode, double cutoff)
{
    return m_impl->run(deviceOfNode.data(), cutoff);
}

Schedule Simulator::simulate(const Placement &placement)
{
    return simulate(placement.devices());
}

Schedule Simulator::simulate(const std::vector<int> &deviceOfNode)
{
    Impl &s = *m_impl;
    if (static_cast<int>(deviceOfNode.size()) != s.n)
        throw InputError("the placement has " + std::to_string(deviceOfNode.size()) + " nodes, the graph " +
                         std::to_string(s.n));
    for (int d : deviceOfNode)
        if (d < 0 || d >= s.k)
            throw InputError("the placement names device " + std::to_string(d) + " of " + std::to_string(s.k));
    Schedule out;
    out.start.assign(s.n, 0.0);
    out.finish.assign(s.n, 0.0);
    s.record = &out;
    s.readyCauseOp.assign(s.n, kNoCause);
    s.readyCauseTransfer.assign(s.n, -1);
    s.previousOnDevice.assign(s.n, -1);
    s.lastOnDevice.assign(s.k, -1);
    s.previousOnLink.clear();
    struct Reset
    {
        Impl &s;
        ~Reset() { s.record = nullptr; }
    } reset{s};

    out.makespan = s.run(deviceOfNode.data(), std::numeric_limits<double>::infinity());
    out.busy = s.busy;
    out.movedBytes = s.movedBytes;
    out.transferCount = s.transferCount;
    out.memory = memoryUsage(s.graph, s.cluster, deviceOfNode);
    out.violations = constraintViolations(s.graph, s.cluster, deviceOfNode, out.memory);
    out.feasible = out.violations.empty();
    if (!s.lowerBound)
        s.lowerBound = computeLowerBound(s.graph, s.cluster); // the same for every placement
    out.lowerBound = *s.lowerBound;

    // The critical path, walked back from the op that finishes last.
    int v = -1;
    for (int u = 0; u < s.n; ++u)
        if (v < 0 || out.finish[u] > out.finish[v])
            v = u;
    while (v >= 0) {
        out.criticalPath.push_back({CriticalStep::Op, v});
        if (out.start[v] > s.state[v].readyTime) {
            v = s.previousOnDevice[v]; // the device was busy until v started
        } else if (s.readyCauseTransfer[v] >= 0) {
            int t = s.readyCauseTransfer[v];
            for (;;) {
                out.criticalPath.push_back({CriticalStep::TransferStep, t});
                const Transfer &tr = out.transfers[t];
                if (tr.start > out.finish[tr.producer] && s.previousOnLink[t] >= 0)
                    t = s.previousOnLink[t]; // it waited for the link
                else
                    break;
            }
            v = out.transfers[t].producer;
        } else {
            v = s.readyCauseOp[v];
        }
    }

    auto finite = [](double x) { return std::isfinite(x); };
    bool ok = finite(out.makespan) && finite(out.movedBytes) && finite(out.lowerBound.bound) &&
              finite(out.lowerBound.criticalPath) && finite(out.lowerBound.work) &&
              std::all_of(out.busy.begin(), out.busy.end(), finite) &&
              std::all_of(out.memory.begin(), out.memory.end(), finite) &&
              std::all_of(out.finish.begin(), out.finish.end(), finite);
    if (!ok)
        throw InputError("a cost or result overflows a double");
    return out;
}

LowerBound computeLowerBound(const Graph &graph, const Cluster &cluster)
{
    CostModel costs(graph, cluster);
    const int n = graph.nodeCount();
    const std::vector<double> fastest = fastestCompute(costs, n);
    const std::vector<int> &kinds = costs.distinctDevices(); // the minima over all devices
    std::vector<double> longest(n, 0.0);
    double work = 0.0;
    LowerBound lb;
    for (int v = 0; v < n; ++v) {
        double effective = costs.compute(v, kinds.front()) * cluster.device(kinds.front()).flopsPerS;
        for (size_t i = 1; i < kinds.size(); ++i)
            effective = std::min(effective, costs.compute(v, kinds[i]) * cluster.device(kinds[i]).flopsPerS);
        work += effective;
    }
    for (int v : graph.topologicalOrder()) {
        double before = 0.0;
        for (int u : graph.predecessors(v))
            before = std::max(before, longest[u]);
        longest[v] = fastest[v] + before;
        lb.criticalPath = std::max(lb.criticalPath, longest[v]);
    }
    lb.work = work / cluster.totalFlopsPerS();
    lb.bound = std::max(lb.criticalPath, lb.work);
    return lb;
}

std::vector<double> memoryUsage(const Graph &graph, const Cluster &cluster, const std::vector<int> &deviceOfNode)
{
    std::vector<double> usage(cluster.deviceCount(), 0.0);
    for (int v = 0; v < graph.nodeCount(); ++v)
        usage[deviceOfNode[v]] += graph.memBytes(v);
    return usage;
}

std::vector<std::string> constraintViolations(const Graph &graph, const Cluster &cluster,
                                              const std::vector<int> &deviceOfNode, const std::vector<double> &usage)
{
    return constraintViolations(graph, cluster, Constraints::fromGraph(graph, cluster), deviceOfNode, usage);
}

double penalizedMakespan(double makespan, const Cluster &cluster, const std::vector<double> &usage)
{
    double over = 0.0;
    for (int d = 0; d < cluster.deviceCount(); ++d)
        over += std::max(0.0, usage[d] - cluster.device(d).memoryBytes);
    return makespan * (1 + 10 * over / cluster.totalMemoryBytes());
}

} // namespace ps
