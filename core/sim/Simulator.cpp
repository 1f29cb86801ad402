#include "core/sim/Simulator.h"

#include "core/InputError.h"
#include "core/placement/Placement.h"
#include "core/sim/CostModel.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ps {

namespace {

struct Event
{
    double time;
    int kind; // 0 = op finish, 1 = transfer arrival
    int rank; // of the op that finished or produced the transfer
    int device; // executing device for finishes, destination for arrivals
    int node;
    int transfer = -1; // index into Schedule::transfers while recording (not part of the order)
};

// Heap order: the smallest (time, kind, rank, device) on top.
struct EventLater
{
    bool operator()(const Event &a, const Event &b) const
    {
        if (a.time != b.time)
            return a.time > b.time;
        if (a.kind != b.kind)
            return a.kind > b.kind;
        if (a.rank != b.rank)
            return a.rank > b.rank;
        return a.device > b.device;
    }
};

struct ReadyOp
{
    double ready;
    int rank;
    int node;
};

struct ReadyLater
{
    bool operator()(const ReadyOp &a, const ReadyOp &b) const
    {
        if (a.ready != b.ready)
            return a.ready > b.ready;
        return a.rank > b.rank;
    }
};

// What made an op ready when it did (for the critical path).
constexpr int kNoCause = -1;

} // namespace

struct Simulator::Impl
{
    const Graph &graph;
    const Cluster &cluster;
    CostModel costs;
    const int n, k;
    long long evaluations = 0;

    // Workspace, sized once.
    std::vector<double> comp, readyTime, start, finish, busy, linkFree, destBytes;
    std::vector<int> missing, destStamp, destList;
    std::vector<char> idle;
    std::vector<std::vector<ReadyOp>> ready;
    std::vector<Event> events;
    int stamp = 0;
    double movedBytes = 0;
    long long transferCount = 0;

    // Recording, only for simulate(): causes for the critical path.
    Schedule *record = nullptr;
    std::vector<int> readyCauseOp, readyCauseTransfer, previousOnDevice, lastOnDevice,
        previousOnLink, lastOnLink;

    Impl(const Graph &g, const Cluster &c)
        : graph(g), cluster(c), costs(g, c), n(g.nodeCount()), k(c.deviceCount())
    {
        comp.resize(n);
        readyTime.resize(n);
        start.resize(n);
        finish.resize(n);
        missing.resize(n);
        busy.resize(k);
        linkFree.resize(static_cast<size_t>(k) * k);
        destBytes.resize(k);
        destStamp.assign(k, 0);
        destList.reserve(k);
        idle.resize(k);
        ready.resize(k);
        events.reserve(static_cast<size_t>(n) + 16);
    }

    void pushEvent(const Event &e)
    {
        events.push_back(e);
        std::push_heap(events.begin(), events.end(), EventLater());
    }

    void makeAvailable(int u, int d, double t, const int *place, int transferIndex)
    {
        const auto succ = graph.successors(u);
        for (size_t i = 0; i < succ.size(); ++i) {
            const int w = succ[i];
            if (place[w] != d)
                continue;
            --missing[w];
            if (t > readyTime[w]) {
                readyTime[w] = t;
                if (record) {
                    readyCauseOp[w] = transferIndex < 0 ? u : kNoCause;
                    readyCauseTransfer[w] = transferIndex;
                }
            }
            if (missing[w] == 0) {
                ready[d].push_back({readyTime[w], graph.rank(w), w});
                std::push_heap(ready[d].begin(), ready[d].end(), ReadyLater());
            }
        }
    }

    // Returns false when an op would finish after the cutoff.
    bool dispatch(double t, double cutoff)
    {
        for (int d = 0; d < k; ++d) {
            if (!idle[d] || ready[d].empty())
                continue;
            std::pop_heap(ready[d].begin(), ready[d].end(), ReadyLater());
            const int v = ready[d].back().node;
            ready[d].pop_back();
            idle[d] = 0;
            start[v] = t;
            finish[v] = t + comp[v];
            busy[d] += comp[v];
            if (finish[v] > cutoff)
                return false;
            if (record) {
                previousOnDevice[v] = lastOnDevice[d];
                lastOnDevice[d] = v;
            }
            pushEvent({finish[v], 0, graph.rank(v), d, v, -1});
        }
        return true;
    }

    void issueTransfers(int u, int a, double t, const int *place)
    {
        // One copy of u's output per destination device: the largest edge to that device.
        ++stamp;
        destList.clear();
        const auto succ = graph.successors(u);
        const auto bytes = graph.successorBytes(u);
        for (size_t i = 0; i < succ.size(); ++i) {
            const int d = place[succ[i]];
            if (d == a)
                continue;
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
            double &free = linkFree[static_cast<size_t>(a) * k + dst];
            const double s = std::max(t, free);
            const double arrival = s + (link.latencyS + b / link.bandwidthBytesPerS);
            free = arrival;
            movedBytes += b;
            ++transferCount;
            int index = -1;
            if (record) {
                index = static_cast<int>(record->transfers.size());
                record->transfers.push_back({u, a, dst, s, arrival, b});
                const size_t l = static_cast<size_t>(a) * k + dst;
                previousOnLink.push_back(lastOnLink[l]);
                lastOnLink[l] = index;
            }
            pushEvent({arrival, 1, graph.rank(u), dst, u, index});
        }
    }

    double run(const int *place, double cutoff)
    {
        ++evaluations;
        for (int v = 0; v < n; ++v)
            comp[v] = costs.compute(v, place[v]);
        for (int d = 0; d < k; ++d) {
            ready[d].clear();
            idle[d] = 1;
            busy[d] = 0;
        }
        std::fill(linkFree.begin(), linkFree.end(), 0.0);
        events.clear();
        movedBytes = 0;
        transferCount = 0;
        for (int v = 0; v < n; ++v) {
            readyTime[v] = 0;
            missing[v] = graph.inDegree(v);
            if (missing[v] == 0)
                ready[place[v]].push_back({0.0, graph.rank(v), v});
        }
        for (int d = 0; d < k; ++d)
            std::make_heap(ready[d].begin(), ready[d].end(), ReadyLater());

        const double inf = std::numeric_limits<double>::infinity();
        if (!dispatch(0.0, cutoff))
            return inf;
        while (!events.empty()) {
            const double t = events.front().time;
            while (!events.empty() && events.front().time == t) {
                std::pop_heap(events.begin(), events.end(), EventLater());
                const Event e = events.back();
                events.pop_back();
                if (e.kind == 0) {
                    idle[e.device] = 1;
                    makeAvailable(e.node, e.device, t, place, -1);
                    issueTransfers(e.node, e.device, t, place);
                } else {
                    makeAvailable(e.node, e.device, t, place, e.transfer);
                }
            }
            if (!dispatch(t, cutoff))
                return inf;
        }
        double makespan = 0.0;
        for (int v = 0; v < n; ++v)
            makespan = std::max(makespan, finish[v]);
        return makespan;
    }
};

Simulator::Simulator(const Graph &graph, const Cluster &cluster)
    : m_impl(std::make_unique<Impl>(graph, cluster))
{
}

Simulator::~Simulator() = default;

long long Simulator::evaluations() const { return m_impl->evaluations; }
const Graph &Simulator::graph() const { return m_impl->graph; }
const Cluster &Simulator::cluster() const { return m_impl->cluster; }

double Simulator::makespan(const std::vector<int> &deviceOfNode, double cutoff)
{
    return m_impl->run(deviceOfNode.data(), cutoff);
}

Schedule Simulator::simulate(const Placement &placement) { return simulate(placement.devices()); }

Schedule Simulator::simulate(const std::vector<int> &deviceOfNode)
{
    Impl &s = *m_impl;
    if (static_cast<int>(deviceOfNode.size()) != s.n)
        throw InputError("the placement has " + std::to_string(deviceOfNode.size()) +
                         " nodes, the graph " + std::to_string(s.n));
    for (int d : deviceOfNode)
        if (d < 0 || d >= s.k)
            throw InputError("the placement names device " + std::to_string(d) + " of " +
                             std::to_string(s.k));
    Schedule out;
    s.record = &out;
    s.readyCauseOp.assign(s.n, kNoCause);
    s.readyCauseTransfer.assign(s.n, -1);
    s.previousOnDevice.assign(s.n, -1);
    s.lastOnDevice.assign(s.k, -1);
    s.lastOnLink.assign(static_cast<size_t>(s.k) * s.k, -1);
    s.previousOnLink.clear();
    struct Reset
    {
        Impl &s;
        ~Reset() { s.record = nullptr; }
    } reset{s};

    out.makespan = s.run(deviceOfNode.data(), std::numeric_limits<double>::infinity());
    out.start = s.start;
    out.finish = s.finish;
    out.busy = s.busy;
    out.movedBytes = s.movedBytes;
    out.transferCount = s.transferCount;
    out.memory = memoryUsage(s.graph, s.cluster, deviceOfNode);
    out.violations = constraintViolations(s.graph, s.cluster, deviceOfNode, out.memory);
    out.feasible = out.violations.empty();
    out.lowerBound = computeLowerBound(s.graph, s.cluster);

    // The critical path, walked back from the op that finishes last.
    int v = -1;
    for (int u = 0; u < s.n; ++u)
        if (v < 0 || out.finish[u] > out.finish[v])
            v = u;
    while (v >= 0) {
        out.criticalPath.push_back({CriticalStep::Op, v});
        if (out.start[v] > s.readyTime[v]) {
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
    const int n = graph.nodeCount(), k = cluster.deviceCount();
    std::vector<double> longest(n, 0.0);
    double work = 0.0;
    LowerBound lb;
    for (int v = 0; v < n; ++v) {
        double effective = costs.compute(v, 0) * cluster.device(0).flopsPerS;
        for (int d = 1; d < k; ++d)
            effective = std::min(effective, costs.compute(v, d) * cluster.device(d).flopsPerS);
        work += effective;
    }
    for (int v : graph.topologicalOrder()) {
        double best = costs.compute(v, 0);
        for (int d = 1; d < k; ++d)
            best = std::min(best, costs.compute(v, d));
        double before = 0.0;
        for (int u : graph.predecessors(v))
            before = std::max(before, longest[u]);
        longest[v] = best + before;
        lb.criticalPath = std::max(lb.criticalPath, longest[v]);
    }
    lb.work = work / cluster.totalFlopsPerS();
    lb.bound = std::max(lb.criticalPath, lb.work);
    return lb;
}

double computeTime(const Graph &graph, const Cluster &cluster, int v, int d)
{
    return CostModel(graph, cluster).compute(v, d);
}

std::vector<double> memoryUsage(const Graph &graph, const Cluster &cluster,
                                const std::vector<int> &deviceOfNode)
{
    std::vector<double> usage(cluster.deviceCount(), 0.0);
    for (int v = 0; v < graph.nodeCount(); ++v)
        usage[deviceOfNode[v]] += graph.memBytes(v);
    return usage;
}

std::vector<std::string> constraintViolations(const Graph &graph, const Cluster &cluster,
                                              const std::vector<int> &deviceOfNode,
                                              const std::vector<double> &usage)
{
    std::vector<std::string> bad;
    for (int d = 0; d < cluster.deviceCount(); ++d)
        if (usage[d] > cluster.device(d).memoryBytes)
            bad.push_back("memory:" + cluster.device(d).name);
    std::vector<int> pinDevice;
    for (const std::string &name : graph.pinNames())
        pinDevice.push_back(cluster.findDevice(name));
    std::map<std::string, int> groupDevice; // sorted by name; -2 once split
    for (int v = 0; v < graph.nodeCount(); ++v) {
        if (graph.pin(v) >= 0 && pinDevice[graph.pin(v)] != deviceOfNode[v])
            bad.push_back("pin:" + graph.id(v));
        if (graph.colocateGroup(v) >= 0) {
            auto [it, inserted] =
                groupDevice.emplace(graph.colocateGroupNames()[graph.colocateGroup(v)], deviceOfNode[v]);
            if (!inserted && it->second != deviceOfNode[v])
                it->second = -2;
        }
    }
    for (const auto &[name, device] : groupDevice)
        if (device == -2)
            bad.push_back("colocate:" + name);
    return bad;
}

double penalizedMakespan(double makespan, const Cluster &cluster, const std::vector<double> &usage)
{
    double over = 0.0;
    for (int d = 0; d < cluster.deviceCount(); ++d)
        over += std::max(0.0, usage[d] - cluster.device(d).memoryBytes);
    return makespan * (1 + 10 * over / cluster.totalMemoryBytes());
}

} // namespace ps
