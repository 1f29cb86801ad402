#include "core/placement/Partition.h"

#include "core/InputError.h"
#include "core/graph/Graph.h"

#include <unordered_set>

namespace ps {

int Partition::partsUsed() const
{
    std::unordered_set<int> used(m_part.begin(), m_part.end());
    return static_cast<int>(used.size());
}

void checkPartCount(long long k)
{
    if (k < 1 || k > Partition::kMaxParts)
        throw InputError("'k' must be an integer from 1 to " + std::to_string(Partition::kMaxParts) + ", not " +
                         std::to_string(k));
}

Partition resolvePartition(const PartitionDoc &doc, const Graph &graph)
{
    checkPartCount(doc.k);
    std::vector<int> part(graph.nodeCount(), -1);
    if (doc.parts.empty() && !doc.inOrder.empty()) {
        if (doc.inOrder.size() != part.size())
            throw InputError("the partition gives " + std::to_string(doc.inOrder.size()) +
                             " parts in node order for a graph of " + std::to_string(part.size()) +
                             " nodes: it partitions another graph");
        for (size_t v = 0; v < part.size(); ++v)
            part[v] = static_cast<int>(doc.inOrder[v]); // checked against k when read
    }
    for (const auto &[node, p] : doc.parts) {
        int v = graph.findNode(node);
        if (v < 0)
            throw InputError("partition names unknown node '" + node + "'");
        if (p < 0 || p >= doc.k)
            throw InputError("part " + std::to_string(p) + " of node '" + node + "' is outside 0.." +
                             std::to_string(doc.k - 1));
        if (part[v] >= 0)
            throw InputError("node '" + node + "' has two parts");
        part[v] = static_cast<int>(p);
    }
    for (int v = 0; v < graph.nodeCount(); ++v)
        if (part[v] < 0)
            throw InputError("node '" + graph.id(v) + "' has no part");
    Partition result(static_cast<int>(doc.k), std::move(part));
    result.graphName = doc.graphName;
    return result;
}

PartitionDoc toDoc(const Partition &partition, const Graph &graph)
{
    PartitionDoc doc;
    doc.graphName = partition.graphName.empty() ? graph.name() : partition.graphName;
    doc.k = partition.k();
    doc.parts.reserve(graph.nodeCount());
    for (int v = 0; v < graph.nodeCount(); ++v)
        doc.parts.emplace_back(graph.id(v), partition.part(v));
    return doc;
}

} // namespace ps
