#pragma once
// A placement (spec section 3): one device index per node, plus what produced it.
#include <string>
#include <utility>
#include <vector>

namespace ps {

class Graph;
class Cluster;
class Partition;

class Placement
{
public:
    Placement() = default;
    explicit Placement(std::vector<int> deviceOfNode) : m_device(std::move(deviceOfNode)) {}

    int nodeCount() const { return static_cast<int>(m_device.size()); }
    int device(int v) const { return m_device[v]; }
    void setDevice(int v, int d) { m_device[v] = d; }
    const std::vector<int> &devices() const { return m_device; }

    // Informative fields carried through files.
    std::string graphName, clusterName;
    std::string producerModel;
    std::string producerParamsJson = "{}"; // a JSON object, kept as text
    // Provenance of a model's result (0 where unknown, e.g. a hand edit).
    unsigned long long producerSeed = 0;
    long long producerEvaluations = 0;
    double producerWallS = 0;

private:
    std::vector<int> m_device;
};

// A placement file as written, before it is checked against a graph and a cluster.
struct PlacementDoc
{
    std::string graphName, clusterName;
    std::vector<std::pair<std::string, std::string>> assignment; // node id -> device name
    std::string producerModel;
    std::string producerParamsJson = "{}";
    unsigned long long producerSeed = 0;
    long long producerEvaluations = 0;
    double producerWallS = 0;
};

// Checks that the assignment names every node of the graph exactly once (throws InputError) and
// returns the node of each entry.
std::vector<int> assignedNodes(const PlacementDoc &doc, const Graph &graph);
// The same, and that every device is one of the cluster's (throws InputError).
Placement resolvePlacement(const PlacementDoc &doc, const Graph &graph, const Cluster &cluster);
PlacementDoc toDoc(const Placement &placement, const Graph &graph, const Cluster &cluster);
// A partition where a placement goes (a file opened in the app, `simulate`, `place --start`): part
// i on device i. More parts than devices throws InputError ("8 parts for 4 devices").
Placement placementOfPartition(const Partition &partition, const Cluster &cluster);

} // namespace ps
