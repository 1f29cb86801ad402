#pragma once
// Placement constraints (spec section 6): pinned nodes and colocation groups, resolved against
// a cluster. Pins come from the graph and may be added by the user.
#include <string>
#include <vector>

namespace ps {

class Graph;
class Cluster;

class Constraints
{
public:
    static constexpr int kNotPinned = -1;
    static constexpr int kUnknownDevice = -2; // the pin names a device the cluster lacks

    Constraints() = default;
    // The graph file's pins and colocation groups, then the person's pins (device per node, -1
    // for none; empty for none at all) over them.
    static Constraints fromGraph(const Graph &graph, const Cluster &cluster, const std::vector<int> &personPins = {});

    int pinnedDevice(int v) const { return m_pin.empty() ? kNotPinned : m_pin[v]; }
    void pin(int v, int device) { m_pin[v] = device; }
    // Nodes whose pin names no device of the cluster.
    std::vector<int> unknownPins() const;
    // Why no placement can honour these constraints (a colocation group whose members are pinned to
    // two devices), or empty. Names the group, the two ops and their devices.
    std::string contradiction(const Graph &graph, const Cluster &cluster) const;

    int groupCount() const { return static_cast<int>(m_groups.size()); }
    const std::vector<int> &groupMembers(int g) const { return m_groups[g]; }
    const std::string &groupName(int g) const { return m_groupNames[g]; }
    int groupOf(int v) const { return m_groupOf.empty() ? -1 : m_groupOf[v]; }

private:
    std::vector<int> m_pin;
    std::vector<int> m_groupOf;
    std::vector<std::vector<int>> m_groups; // members in file order
    std::vector<std::string> m_groupNames;
};

// The one place where every family's output is made to honour the constraints: pinned nodes go
// to their device, and each colocation group to one device (a pinned member's, else the device
// of its first member). Pins naming an unknown device are left for the report below.
void enforceConstraints(const Constraints &constraints, std::vector<int> &deviceOfNode);

// The nodes whose devices decide a placement under these constraints: each colocation group's
// first member and each node outside a group, less those pinned (a group is when a member is).
// Any placement is these nodes' devices followed by enforceConstraints.
std::vector<int> freeChoices(const Constraints &constraints, int nodeCount);
// Per colocation group: whether its members sit on more than one device.
std::vector<char> splitGroups(const Constraints &constraints, const std::vector<int> &deviceOfNode);

// Per node: on a device over its memory, off its pin (or pinned to an unknown device), or in a
// split group. What the views flag; the same rules as the list below.
std::vector<char> violatingNodes(const Cluster &cluster, const Constraints &constraints,
                                 const std::vector<int> &deviceOfNode, const std::vector<double> &usage);

// Spec section 6's violations in its order ("memory:DEV", then "pin:NODE" in node order, then
// "colocate:GROUP" by name), with the person's pins counted like the graph's.
std::vector<std::string> constraintViolations(const Graph &graph, const Cluster &cluster,
                                              const Constraints &constraints, const std::vector<int> &deviceOfNode,
                                              const std::vector<double> &usage);

} // namespace ps
