#pragma once
// A k-way partition of a graph's nodes (spec section 8).
#include <string>
#include <utility>
#include <vector>

namespace ps {

class Graph;

class Partition
{
public:
    static constexpr long long kMaxParts = 1000000;

    Partition() = default;
    Partition(int k, std::vector<int> partOfNode) : m_k(k), m_part(std::move(partOfNode)) {}

    int k() const { return m_k; }
    int nodeCount() const { return static_cast<int>(m_part.size()); }
    int part(int v) const { return m_part[v]; }
    const std::vector<int> &parts() const { return m_part; }
    int partsUsed() const;

    std::string graphName;
    // What the run that made it says of it (a partitioner stopped early), as results' notes do.
    std::vector<std::string> notes;

private:
    int m_k = 1;
    std::vector<int> m_part;
};

// A partition file as written, before it is checked against a graph.
struct PartitionDoc
{
    std::string graphName;
    long long k = 0;
    std::vector<std::pair<std::string, long long>> parts; // node id -> part
    // Or, where a file names no node (a METIS partition), the parts in the graph's node order.
    std::vector<long long> inOrder;
};

// Checks k, that every node has exactly one part and that parts lie in 0..k-1.
Partition resolvePartition(const PartitionDoc &doc, const Graph &graph);
PartitionDoc toDoc(const Partition &partition, const Graph &graph);
// Checks k alone (used by readers before any node is known).
void checkPartCount(long long k);

} // namespace ps
