#pragma once
// The METIS view of a graph: CSR adjacency over the merged undirected edges of spec section 8,
// with integer weights (flops, optionally memory as a second constraint; bytes on edges)
// scaled down when their sums would not fit METIS's 32-bit indices. Shared by the METIS file
// writer and the library call, so both see the same graph.
#include <cstdint>
#include <vector>

namespace ps {

class Graph;

struct MetisGraph
{
    int vertices = 0;
    int constraints = 1; // 1: flops; 2: flops and memory
    std::vector<int32_t> xadj, adjncy, adjwgt;
    std::vector<int32_t> vwgt; // vertices x constraints
    // Integer weight = value / divisor (1 when the values fit as they are).
    double flopsDivisor = 1, memoryDivisor = 1, bytesDivisor = 1;
    long long edges() const { return static_cast<long long>(adjncy.size()) / 2; }
};

MetisGraph buildMetisGraph(const Graph &graph, bool withMemory);

} // namespace ps
