#pragma once
// Builds a Graph and validates it: duplicate or empty ids, names that are not UTF-8, negative or
// non-finite numbers, edges naming unknown nodes, self-loops, and cycles (with the cycle named in
// the error).
#include "core/graph/Graph.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ps {

class GraphBuilder
{
public:
    struct NodeSpec
    {
        std::string id;
        std::string op;
        double flops = 0;
        double outBytes = 0;
        double paramBytes = 0;
        std::optional<double> memBytes; // defaults to paramBytes + outBytes
        std::string scope;
        std::vector<std::pair<std::string, double>> computeS; // device type -> seconds
        std::optional<std::string> colocate;
        std::optional<std::string> pin;
    };

    explicit GraphBuilder(std::string name = {});

    void setName(std::string name) { m_graph.m_name = std::move(name); }
    int nodeCount() const { return static_cast<int>(m_graph.m_ids.size()); }

    // Adds a node; throws InputError on an empty or duplicate id or a bad number.
    int addNode(NodeSpec spec);
    // Edges by id are resolved in build(), so they may be added before their nodes.
    // bytes defaults to the source node's out_bytes.
    void addEdge(std::string src, std::string dst, std::optional<double> bytes = std::nullopt);
    void addEdge(int src, int dst, std::optional<double> bytes = std::nullopt);
    // Error messages about edge i start with prefix + i (e.g. "/edges/" for JSON pointers).
    void setEdgeLocationPrefix(std::string prefix) { m_edgePrefix = std::move(prefix); }

    // Resolves edges, computes CSR lists, ranks, levels, totals and scopes. Throws InputError.
    Graph build();

    // Checks a number from a file: finite and non-negative. `what` names it in the message.
    static double checkedNumber(double value, const std::string &what);

private:
    struct PendingEdge
    {
        int src = -1, dst = -1;
        double bytes = 0;
        bool defaultBytes = true;
        std::string srcName, dstName;
    };

    int internString(std::vector<std::string> &table, std::unordered_map<std::string, int> &index,
                     const std::string &value);
    void pushEdge(PendingEdge edge, std::optional<double> bytes);
    std::string edgeWhere(size_t i) const;
    void resolveEdges();
    void buildAdjacency();
    void computeRanks();
    [[noreturn]] void throwCycle(const std::vector<int> &indegree) const;

    Graph m_graph;
    std::vector<PendingEdge> m_edges;
    std::vector<std::vector<Graph::ComputeOverride>> m_computeByNode;
    std::unordered_map<std::string, int> m_opIndex, m_typeIndex, m_groupIndex, m_pinIndex;
    std::string m_edgePrefix = "edge #";
};

} // namespace ps
