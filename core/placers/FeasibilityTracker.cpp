#include "core/placers/FeasibilityTracker.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"

#include <algorithm>
#include <cstdio>

namespace ps {

FeasibilityTracker::FeasibilityTracker(const Graph &graph, const Cluster &cluster, const Constraints &constraints)
    : m_graph(graph), m_cluster(cluster), m_constraints(constraints), m_used(cluster.deviceCount(), 0.0),
      m_groupMemory(constraints.groupCount(), 0.0), m_groupDevice(constraints.groupCount(), -1)
{
    for (int g = 0; g < constraints.groupCount(); ++g)
        for (int v : constraints.groupMembers(g))
            m_groupMemory[g] += graph.memBytes(v);
    // A pinned member pins its whole group.
    for (int v = 0; v < graph.nodeCount(); ++v) {
        const int g = constraints.groupOf(v), pin = constraints.pinnedDevice(v);
        if (g >= 0 && pin >= 0 && m_groupDevice[g] < 0)
            m_groupDevice[g] = pin;
    }
    for (int v : constraints.unknownPins())
        m_notes.push_back("node '" + graph.id(v) + "' is pinned to a device the cluster lacks");
}

int FeasibilityTracker::requiredDevice(int v) const
{
    const int pin = m_constraints.pinnedDevice(v);
    if (pin >= 0)
        return pin;
    const int g = m_constraints.groupOf(v);
    return g >= 0 ? m_groupDevice[g] : -1;
}

double FeasibilityTracker::need(int v) const
{
    const int g = m_constraints.groupOf(v);
    if (g < 0)
        return m_graph.memBytes(v);
    return m_groupMemory[g] < 0 ? 0.0 : m_groupMemory[g];
}

bool FeasibilityTracker::allowed(int v, int d) const
{
    const int required = requiredDevice(v);
    return required < 0 || required == d;
}

bool FeasibilityTracker::fits(int v, int d) const
{
    return allowed(v, d) && m_used[d] + need(v) <= m_cluster.device(d).memoryBytes;
}

void FeasibilityTracker::assign(int v, int d)
{
    m_used[d] += need(v);
    const int g = m_constraints.groupOf(v);
    if (g >= 0) {
        m_groupDevice[g] = d;
        m_groupMemory[g] = -1; // reserved
    }
}

double FeasibilityTracker::freeMemory(int d) const
{
    return m_cluster.device(d).memoryBytes - m_used[d];
}

int FeasibilityTracker::fallbackDevice(int v)
{
    int best = requiredDevice(v);
    if (best < 0) {
        best = 0;
        for (int d = 1; d < m_cluster.deviceCount(); ++d)
            if (freeMemory(d) > freeMemory(best))
                best = d;
    }
    char text[256];
    std::snprintf(text, sizeof text,
                  "no device has room for node '%s' (needs %.4g bytes); "
                  "placing it on '%s' overflows it by %.4g bytes",
                  m_graph.id(v).c_str(), need(v), m_cluster.device(best).name.c_str(), need(v) - freeMemory(best));
    if (m_notes.size() < 20)
        m_notes.push_back(text);
    return best;
}

std::string FeasibilityTracker::neverFits() const
{
    const int n = m_graph.nodeCount(), k = m_cluster.deviceCount();
    if (n == 0 || k == 0)
        return {};
    const auto bytes = [](double b) {
        char text[32];
        std::snprintf(text, sizeof text, "%.3g", b);
        return std::string(text);
    };
    double largest = 0, capacity = 0, total = 0;
    for (int d = 0; d < k; ++d) {
        largest = std::max(largest, m_cluster.device(d).memoryBytes);
        capacity += m_cluster.device(d).memoryBytes;
    }
    std::vector<double> pinned(static_cast<size_t>(k), 0.0);
    for (int v = 0; v < n; ++v) {
        total += m_graph.memBytes(v);
        const int g = m_constraints.groupOf(v);
        if (g >= 0 && m_constraints.groupMembers(g).front() != v)
            continue; // a group counts once, at its first member (need() is the group's whole)
        const int d = requiredDevice(v);
        const double room = d >= 0 ? m_cluster.device(d).memoryBytes : largest;
        if (need(v) > room)
            return "no placement fits memory: " +
                   (g >= 0 ? "colocation group '" + m_constraints.groupName(g) + "'" : "op '" + m_graph.id(v) + "'") +
                   " needs " + bytes(need(v)) + " bytes and " +
                   (d >= 0 ? m_cluster.device(d).name + ", where it is pinned," : "the largest device") + " holds " +
                   bytes(room);
        if (d >= 0)
            pinned[static_cast<size_t>(d)] += need(v);
    }
    for (int d = 0; d < k; ++d)
        if (pinned[static_cast<size_t>(d)] > m_cluster.device(d).memoryBytes)
            return "no placement fits memory: the ops pinned to " + m_cluster.device(d).name + " need " +
                   bytes(pinned[static_cast<size_t>(d)]) + " bytes and it holds " +
                   bytes(m_cluster.device(d).memoryBytes);
    if (total > capacity)
        return "no placement fits memory: the ops need " + bytes(total) + " bytes and the cluster's " +
               std::to_string(k) + " devices hold " + bytes(capacity);
    return {};
}

int FeasibilityTracker::assignNear(int v, int preferred)
{
    const int k = m_cluster.deviceCount();
    int chosen = -1;
    for (int i = 0; i < k && chosen < 0; ++i)
        if (fits(v, (preferred + i) % k))
            chosen = (preferred + i) % k;
    if (chosen < 0)
        chosen = fallbackDevice(v);
    assign(v, chosen);
    return chosen;
}

} // namespace ps
