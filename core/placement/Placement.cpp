#include "core/placement/Placement.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"

namespace ps {

Placement resolvePlacement(const PlacementDoc &doc, const Graph &graph, const Cluster &cluster)
{
    std::vector<int> device(graph.nodeCount(), -1);
    for (const auto &[node, deviceName] : doc.assignment) {
        int v = graph.findNode(node);
        if (v < 0)
            throw InputError("assignment names unknown node '" + node + "'");
        int d = cluster.findDevice(deviceName);
        if (d < 0)
            throw InputError("node '" + node + "' assigned to unknown device '" + deviceName + "'");
        if (device[v] >= 0)
            throw InputError("node '" + node + "' is assigned twice");
        device[v] = d;
    }
    int missing = 0, first = -1;
    for (int v = 0; v < graph.nodeCount(); ++v)
        if (device[v] < 0 && missing++ == 0)
            first = v;
    if (missing > 0)
        throw InputError(std::to_string(missing) + " nodes unassigned, e.g. '" + graph.id(first) +
                         "'");
    Placement p(std::move(device));
    p.graphName = doc.graphName;
    p.clusterName = doc.clusterName;
    p.producerModel = doc.producerModel;
    p.producerParamsJson = doc.producerParamsJson;
    return p;
}

PlacementDoc toDoc(const Placement &placement, const Graph &graph, const Cluster &cluster)
{
    PlacementDoc doc;
    doc.graphName = placement.graphName.empty() ? graph.name() : placement.graphName;
    doc.clusterName = placement.clusterName.empty() ? cluster.name() : placement.clusterName;
    doc.producerModel = placement.producerModel;
    doc.producerParamsJson = placement.producerParamsJson;
    doc.assignment.reserve(graph.nodeCount());
    for (int v = 0; v < graph.nodeCount(); ++v)
        doc.assignment.emplace_back(graph.id(v), cluster.device(placement.device(v)).name);
    return doc;
}

} // namespace ps
