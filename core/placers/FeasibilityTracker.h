#pragma once
// Bookkeeping shared by the constructive placers: memory left per device, pins, and colocation
// groups placed as one unit (the first member reserves the whole group's memory and fixes the
// group's device). When nothing fits, it picks the least-bad device and records why.
#include <string>
#include <vector>

namespace ps {

class Graph;
class Cluster;
class Constraints;

class FeasibilityTracker
{
public:
    FeasibilityTracker(const Graph &graph, const Cluster &cluster, const Constraints &constraints);

    // The only device v may use (its pin, or its group's device once the group is placed), or -1.
    int requiredDevice(int v) const;
    // Memory placing v on a device would add now: its group's total for a group's first member,
    // 0 for later members, else its own.
    double need(int v) const;
    bool allowed(int v, int d) const;
    bool fits(int v, int d) const;
    void assign(int v, int d);
    double freeMemory(int d) const;
    // The allowed device with the most free memory, for when v fits nowhere; notes the overflow.
    int fallbackDevice(int v);
    // `preferred` if v fits there, else the next device (cyclically) where it fits, else the
    // fallback; the device is assigned.
    int assignNear(int v, int preferred);
    const std::vector<std::string> &notes() const { return m_notes; }
    // Before any assign: why no placement can fit memory, or empty. An op or colocation group
    // larger than every device it may go to (its pin's, else the largest), the ops pinned to a
    // device over it, or the graph over the whole cluster.
    std::string neverFits() const;

private:
    const Graph &m_graph;
    const Cluster &m_cluster;
    const Constraints &m_constraints;
    std::vector<double> m_used;
    std::vector<double> m_groupMemory;
    std::vector<int> m_groupDevice;
    std::vector<std::string> m_notes;
};

} // namespace ps
