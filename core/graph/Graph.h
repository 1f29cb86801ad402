#pragma once
// An immutable computation graph (spec section 1): nodes with their costs and constraints,
// CSR successor/predecessor lists that keep parallel edges in file order, canonical ranks,
// the scope tree and totals. Built and validated by GraphBuilder.
#include "core/graph/ScopeTree.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

// A contiguous range of ints/doubles inside a CSR array.
template <typename T>
struct Span
{
    const T *first = nullptr;
    const T *last = nullptr;
    const T *begin() const { return first; }
    const T *end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
    bool empty() const { return first == last; }
    const T &operator[](size_t i) const { return first[i]; }
};

class Graph
{
public:
    struct ComputeOverride
    {
        int deviceType; // index into deviceTypeNames()
        double seconds;
    };

    Graph() = default;

    const std::string &name() const { return m_name; }
    int nodeCount() const { return static_cast<int>(m_ids.size()); }
    int edgeCount() const { return static_cast<int>(m_edgeSrc.size()); }

    // Node attributes, by node index (file order).
    const std::string &id(int v) const { return m_ids[v]; }
    int findNode(std::string_view id) const;
    const std::string &op(int v) const { return m_opNames[m_op[v]]; }
    int opType(int v) const { return m_op[v]; }
    const std::vector<std::string> &opTypeNames() const { return m_opNames; }
    double flops(int v) const { return m_flops[v]; }
    double outBytes(int v) const { return m_outBytes[v]; }
    double paramBytes(int v) const { return m_paramBytes[v]; }
    double memBytes(int v) const { return m_memBytes[v]; }
    int scopeIndex(int v) const { return m_scope[v]; }
    const std::string &scope(int v) const { return m_scopes.scope(m_scope[v]).path; }
    const ScopeTree &scopes() const { return m_scopes; }

    // compute_s overrides: device types are interned per graph.
    Span<ComputeOverride> computeOverrides(int v) const;
    const std::vector<std::string> &deviceTypeNames() const { return m_typeNames; }
    int findDeviceType(std::string_view type) const;

    // Constraints as written in the file; -1 when absent.
    int colocateGroup(int v) const { return m_colocate[v]; }
    const std::vector<std::string> &colocateGroupNames() const { return m_groupNames; }
    int pin(int v) const { return m_pin[v]; }
    const std::vector<std::string> &pinNames() const { return m_pinNames; }

    // Edges in file order.
    int edgeSrc(int e) const { return m_edgeSrc[e]; }
    int edgeDst(int e) const { return m_edgeDst[e]; }
    double edgeBytes(int e) const { return m_edgeBytes[e]; }

    // CSR adjacency; within a node, edges keep file order (parallel edges included).
    Span<int> successors(int v) const { return slice(m_succ, m_succOff, v); }
    Span<double> successorBytes(int v) const { return slice(m_succBytes, m_succOff, v); }
    Span<int> predecessors(int v) const { return slice(m_pred, m_predOff, v); }
    Span<double> predecessorBytes(int v) const { return slice(m_predBytes, m_predOff, v); }
    int outDegree(int v) const { return m_succOff[v + 1] - m_succOff[v]; }
    int inDegree(int v) const { return m_predOff[v + 1] - m_predOff[v]; }

    // Canonical rank (spec section 1) and the nodes in rank order.
    int rank(int v) const { return m_rank[v]; }
    const std::vector<int> &topologicalOrder() const { return m_order; }
    // Longest path counted in nodes (0 for an empty graph).
    int depth() const { return m_depth; }
    // Level of each node: 0 for sources, else 1 + max level of its predecessors.
    int level(int v) const { return m_level[v]; }

    // Totals, summed in node file order.
    double totalFlops() const { return m_totalFlops; }
    double totalParamBytes() const { return m_totalParamBytes; }
    double totalOutBytes() const { return m_totalOutBytes; }
    double totalMemBytes() const { return m_totalMemBytes; }
    double totalEdgeBytes() const { return m_totalEdgeBytes; }

private:
    friend class GraphBuilder;

    template <typename T>
    static Span<T> slice(const std::vector<T> &data, const std::vector<int> &offsets, int v)
    {
        return {data.data() + offsets[v], data.data() + offsets[v + 1]};
    }

    std::string m_name;
    std::vector<std::string> m_ids;
    std::unordered_map<std::string, int> m_index;
    std::vector<int> m_op;
    std::vector<std::string> m_opNames;
    std::vector<double> m_flops, m_outBytes, m_paramBytes, m_memBytes;
    std::vector<int> m_scope;
    ScopeTree m_scopes;
    std::vector<int> m_computeOff; // size n+1
    std::vector<ComputeOverride> m_compute;
    std::vector<std::string> m_typeNames;
    std::vector<int> m_colocate, m_pin;
    std::vector<std::string> m_groupNames, m_pinNames;

    std::vector<int> m_edgeSrc, m_edgeDst;
    std::vector<double> m_edgeBytes;
    std::vector<int> m_succOff, m_succ, m_predOff, m_pred;
    std::vector<double> m_succBytes, m_predBytes;

    std::vector<int> m_rank, m_order, m_level;
    int m_depth = 0;
    double m_totalFlops = 0, m_totalParamBytes = 0, m_totalOutBytes = 0, m_totalMemBytes = 0, m_totalEdgeBytes = 0;
};

} // namespace ps
