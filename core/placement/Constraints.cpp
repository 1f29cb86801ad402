#include "core/placement/Constraints.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

#include <algorithm>
#include <set>

namespace ps {

Constraints Constraints::fromGraph(const Graph &graph, const Cluster &cluster, const std::vector<int> &personPins)
{
    Constraints c;
    const int n = graph.nodeCount();
    std::vector<int> pinDevice;
    for (const std::string &name : graph.pinNames()) {
        int d = cluster.findDevice(name);
        pinDevice.push_back(d < 0 ? kUnknownDevice : d);
    }
    c.m_pin.assign(n, kNotPinned);
    c.m_groupOf.assign(n, -1);
    c.m_groups.resize(graph.colocateGroupNames().size());
    c.m_groupNames = graph.colocateGroupNames();
    for (int v = 0; v < n; ++v) {
        if (graph.pin(v) >= 0)
            c.m_pin[v] = pinDevice[graph.pin(v)];
        if (int g = graph.colocateGroup(v); g >= 0) {
            c.m_groupOf[v] = g;
            c.m_groups[g].push_back(v);
        }
    }
    for (size_t v = 0; v < personPins.size() && v < c.m_pin.size(); ++v)
        if (personPins[v] >= 0)
            c.m_pin[v] = personPins[v];
    return c;
}

std::vector<int> Constraints::unknownPins() const
{
    std::vector<int> nodes;
    for (int v = 0; v < static_cast<int>(m_pin.size()); ++v)
        if (m_pin[v] == kUnknownDevice)
            nodes.push_back(v);
    return nodes;
}

std::string Constraints::contradiction(const Graph &graph, const Cluster &cluster) const
{
    for (int g = 0; g < groupCount(); ++g) {
        int first = -1;
        for (int v : m_groups[g]) {
            const int d = pinnedDevice(v);
            if (d < 0)
                continue;
            if (first < 0)
                first = v;
            else if (d != pinnedDevice(first))
                return "colocation group '" + m_groupNames[g] + "' keeps '" + graph.id(first) + "' and '" +
                       graph.id(v) + "' together, but they are pinned to " + cluster.device(pinnedDevice(first)).name +
                       " and " + cluster.device(d).name + ": no placement honours both";
        }
    }
    return {};
}

void enforceConstraints(const Constraints &constraints, std::vector<int> &deviceOfNode)
{
    const int n = static_cast<int>(deviceOfNode.size());
    for (int v = 0; v < n; ++v)
        if (constraints.pinnedDevice(v) >= 0)
            deviceOfNode[v] = constraints.pinnedDevice(v);
    for (int g = 0; g < constraints.groupCount(); ++g) {
        const std::vector<int> &members = constraints.groupMembers(g);
        if (members.empty())
            continue;
        int device = deviceOfNode[members.front()];
        for (int u : members)
            if (constraints.pinnedDevice(u) >= 0) {
                device = constraints.pinnedDevice(u);
                break;
            }
        for (int u : members)
            deviceOfNode[u] = device;
    }
}

std::vector<int> freeChoices(const Constraints &constraints, int nodeCount)
{
    std::vector<int> free;
    for (int v = 0; v < nodeCount; ++v) {
        const int g = constraints.groupOf(v);
        if (g < 0) {
            if (constraints.pinnedDevice(v) < 0)
                free.push_back(v);
            continue;
        }
        const std::vector<int> &members = constraints.groupMembers(g);
        if (members.front() == v &&
            std::none_of(members.begin(), members.end(), [&](int u) { return constraints.pinnedDevice(u) >= 0; }))
            free.push_back(v);
    }
    return free;
}

std::vector<std::string> constraintViolations(const Graph &graph, const Cluster &cluster,
                                              const Constraints &constraints, const std::vector<int> &deviceOfNode,
                                              const std::vector<double> &usage)
{
    std::vector<std::string> bad;
    for (int d = 0; d < cluster.deviceCount(); ++d)
        if (usage[d] > cluster.device(d).memoryBytes)
            bad.push_back("memory:" + cluster.device(d).name);
    for (int v = 0; v < graph.nodeCount(); ++v) {
        const int pin = constraints.pinnedDevice(v);
        if (pin != Constraints::kNotPinned && pin != deviceOfNode[v])
            bad.push_back("pin:" + graph.id(v));
    }
    const std::vector<char> split = splitGroups(constraints, deviceOfNode);
    std::set<std::string> names; // by name, as the spec orders them
    for (int g = 0; g < constraints.groupCount(); ++g)
        if (split[g])
            names.insert(constraints.groupName(g));
    for (const std::string &name : names)
        bad.push_back("colocate:" + name);
    return bad;
}

std::vector<char> splitGroups(const Constraints &constraints, const std::vector<int> &deviceOfNode)
{
    std::vector<char> split(constraints.groupCount(), 0);
    for (int g = 0; g < constraints.groupCount(); ++g) {
        const std::vector<int> &members = constraints.groupMembers(g);
        for (int u : members)
            if (deviceOfNode[u] != deviceOfNode[members.front()]) {
                split[g] = 1;
                break;
            }
    }
    return split;
}

std::vector<char> violatingNodes(const Cluster &cluster, const Constraints &constraints,
                                 const std::vector<int> &deviceOfNode, const std::vector<double> &usage)
{
    const std::vector<char> split = splitGroups(constraints, deviceOfNode);
    std::vector<char> flag(deviceOfNode.size(), 0);
    for (size_t v = 0; v < deviceOfNode.size(); ++v) {
        const int d = deviceOfNode[v], pin = constraints.pinnedDevice(static_cast<int>(v)),
                  g = constraints.groupOf(static_cast<int>(v));
        const bool over = d >= 0 && d < cluster.deviceCount() && d < static_cast<int>(usage.size()) &&
                          usage[d] > cluster.device(d).memoryBytes;
        flag[v] = over || (pin != Constraints::kNotPinned && pin != d) || (g >= 0 && split[g]);
    }
    return flag;
}

} // namespace ps
