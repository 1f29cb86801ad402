#include "core/placement/Placement.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Partition.h"

namespace ps {

std::vector<int> assignedNodes(const PlacementDoc &doc, const Graph &graph)
{
    std::vector<int> nodes;
    nodes.reserve(doc.assignment.size());
    std::vector<char> seen(graph.nodeCount(), 0);
    for (const auto &entry : doc.assignment) {
        const int v = graph.findNode(entry.first);
        if (v < 0)
            throw InputError("assignment names unknown node '" + entry.first + "'");
        if (seen[v]++)
            throw InputError("node '" + entry.first + "' is assigned twice");
        nodes.push_back(v);
    }
    int missing = 0, first = -1;
    for (int v = 0; v < graph.nodeCount(); ++v)
        if (!seen[v] && missing++ == 0)
            first = v;
    if (missing > 0)
        throw InputError(std::to_string(missing) + " nodes unassigned, e.g. '" + graph.id(first) + "'");
    return nodes;
}

Placement resolvePlacement(const PlacementDoc &doc, const Graph &graph, const Cluster &cluster)
{
    const std::vector<int> nodes = assignedNodes(doc, graph);
    std::vector<int> device(graph.nodeCount(), -1);
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto &[node, deviceName] = doc.assignment[i];
        const int d = cluster.findDevice(deviceName);
        if (d < 0)
            throw InputError("node '" + node + "' assigned to unknown device '" + deviceName + "'");
        device[nodes[i]] = d;
    }
    Placement p(std::move(device));
    p.graphName = doc.graphName;
    p.clusterName = doc.clusterName;
    p.producerModel = doc.producerModel;
    p.producerParamsJson = doc.producerParamsJson;
    p.producerSeed = doc.producerSeed;
    p.producerEvaluations = doc.producerEvaluations;
    p.producerWallS = doc.producerWallS;
    return p;
}

PlacementDoc toDoc(const Placement &placement, const Graph &graph, const Cluster &cluster)
{
    PlacementDoc doc;
    doc.graphName = placement.graphName.empty() ? graph.name() : placement.graphName;
    doc.clusterName = placement.clusterName.empty() ? cluster.name() : placement.clusterName;
    doc.producerModel = placement.producerModel;
    doc.producerParamsJson = placement.producerParamsJson;
    doc.producerSeed = placement.producerSeed;
    doc.producerEvaluations = placement.producerEvaluations;
    doc.producerWallS = placement.producerWallS;
    doc.assignment.reserve(graph.nodeCount());
    for (int v = 0; v < graph.nodeCount(); ++v)
        doc.assignment.emplace_back(graph.id(v), cluster.device(placement.device(v)).name);
    return doc;
}

Placement placementOfPartition(const Partition &partition, const Cluster &cluster)
{
    if (partition.k() > cluster.deviceCount())
        throw InputError(std::to_string(partition.k()) + " parts for " + std::to_string(cluster.deviceCount()) +
                         " devices");
    return Placement(std::vector<int>(partition.parts().begin(), partition.parts().end()));
}

} // namespace ps
