#include "core/graph/GraphBuilder.h"

#include "core/InputError.h"
#include "core/Utf8.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

namespace ps {

namespace {
std::string quoted(const std::string &s)
{
    return "'" + s + "'";
}

// Names are written into JSON again: text that is not UTF-8 would make a file no reader accepts.
void requireUtf8(const std::string &text, const std::string &what)
{
    const size_t bad = firstInvalidUtf8(text);
    if (bad == std::string::npos)
        return;
    throw InputError(what + " is not UTF-8 text ('" + printableUtf8(text) + "', byte " + hexByte(text[bad]) +
                     " at position " + std::to_string(bad) + ")");
}
} // namespace

GraphBuilder::GraphBuilder(std::string name)
{
    m_graph.m_name = std::move(name);
}

double GraphBuilder::checkedNumber(double value, const std::string &what)
{
    if (!std::isfinite(value))
        throw InputError(what + " must be a finite number");
    if (value < 0)
        throw InputError(what + " must be non-negative");
    return value;
}

int GraphBuilder::internString(std::vector<std::string> &table, std::unordered_map<std::string, int> &index,
                               const std::string &value)
{
    auto [it, inserted] = index.emplace(value, static_cast<int>(table.size()));
    if (inserted)
        table.push_back(value);
    return it->second;
}

int GraphBuilder::addNode(NodeSpec spec)
{
    Graph &g = m_graph;
    if (spec.id.empty())
        throw InputError("a node has an empty id");
    requireUtf8(spec.id, "the node id");
    const std::string who = "of node " + quoted(spec.id);
    requireUtf8(spec.op, "the op " + who);
    requireUtf8(spec.scope, "the scope " + who);
    requireUtf8(spec.colocate.value_or(""), "the colocation group " + who);
    requireUtf8(spec.pin.value_or(""), "the pin " + who);
    double flops = checkedNumber(spec.flops, "'flops' " + who);
    double outBytes = checkedNumber(spec.outBytes, "'out_bytes' " + who);
    double paramBytes = checkedNumber(spec.paramBytes, "'param_bytes' " + who);
    double memBytes = spec.memBytes ? checkedNumber(*spec.memBytes, "'mem_bytes' " + who) : paramBytes + outBytes;
    std::vector<Graph::ComputeOverride> overrides;
    for (const auto &[type, seconds] : spec.computeS) {
        requireUtf8(type, "the device type in 'compute_s' " + who);
        checkedNumber(seconds, "'compute_s." + type + "' " + who);
        int t = internString(g.m_typeNames, m_typeIndex, type);
        auto same = [t](const Graph::ComputeOverride &o) { return o.deviceType == t; };
        if (std::find_if(overrides.begin(), overrides.end(), same) != overrides.end())
            throw InputError("device type " + quoted(type) + " appears twice in 'compute_s' " + who);
        overrides.push_back({t, seconds});
    }

    const int index = nodeCount();
    if (!g.m_index.emplace(spec.id, index).second)
        throw InputError("duplicate node id " + quoted(spec.id));
    g.m_ids.push_back(std::move(spec.id));
    g.m_op.push_back(internString(g.m_opNames, m_opIndex, spec.op));
    g.m_flops.push_back(flops);
    g.m_outBytes.push_back(outBytes);
    g.m_paramBytes.push_back(paramBytes);
    g.m_memBytes.push_back(memBytes);
    g.m_scope.push_back(g.m_scopes.intern(spec.scope));
    g.m_colocate.push_back(spec.colocate ? internString(g.m_groupNames, m_groupIndex, *spec.colocate) : -1);
    g.m_pin.push_back(spec.pin ? internString(g.m_pinNames, m_pinIndex, *spec.pin) : -1);
    m_computeByNode.push_back(std::move(overrides));
    return index;
}

void GraphBuilder::addEdge(std::string src, std::string dst, std::optional<double> bytes)
{
    PendingEdge e;
    e.srcName = std::move(src);
    e.dstName = std::move(dst);
    pushEdge(std::move(e), bytes);
}

void GraphBuilder::addEdge(int src, int dst, std::optional<double> bytes)
{
    PendingEdge e;
    e.src = src;
    e.dst = dst;
    pushEdge(std::move(e), bytes);
}

void GraphBuilder::pushEdge(PendingEdge edge, std::optional<double> bytes)
{
    if (bytes) {
        edge.bytes = checkedNumber(*bytes, edgeWhere(m_edges.size()) + ": 'bytes'");
        edge.defaultBytes = false;
    }
    m_edges.push_back(std::move(edge));
}

std::string GraphBuilder::edgeWhere(size_t i) const
{
    return m_edgePrefix + std::to_string(i);
}

void GraphBuilder::resolveEdges()
{
    Graph &g = m_graph;
    const int n = nodeCount();
    g.m_edgeSrc.resize(m_edges.size());
    g.m_edgeDst.resize(m_edges.size());
    g.m_edgeBytes.resize(m_edges.size());
    for (size_t i = 0; i < m_edges.size(); ++i) {
        PendingEdge &e = m_edges[i];
        if (e.src < 0 && e.dst < 0) {
            e.src = g.findNode(e.srcName);
            e.dst = g.findNode(e.dstName);
            if (e.src < 0 || e.dst < 0)
                throw InputError(edgeWhere(i) + ": edge " + quoted(e.srcName) + "->" + quoted(e.dstName) +
                                 " names unknown node " + quoted(e.src < 0 ? e.srcName : e.dstName));
        } else if (e.src < 0 || e.src >= n || e.dst < 0 || e.dst >= n) {
            throw InputError(edgeWhere(i) + ": edge names a node index out of range");
        }
        if (e.src == e.dst)
            throw InputError(edgeWhere(i) + ": self-loop on " + quoted(g.m_ids[e.src]));
        g.m_edgeSrc[i] = e.src;
        g.m_edgeDst[i] = e.dst;
        g.m_edgeBytes[i] = e.defaultBytes ? g.m_outBytes[e.src] : e.bytes;
    }
    m_edges.clear();
    m_edges.shrink_to_fit();
}

void GraphBuilder::buildAdjacency()
{
    Graph &g = m_graph;
    const int n = nodeCount();
    const size_t m = g.m_edgeSrc.size();
    // Counting sort by endpoint keeps file order within each node's list.
    auto fill = [&](const std::vector<int> &key, const std::vector<int> &other, std::vector<int> &off,
                    std::vector<int> &adj, std::vector<double> &bytes) {
        off.assign(n + 1, 0);
        for (size_t e = 0; e < m; ++e)
            off[key[e] + 1]++;
        for (int v = 0; v < n; ++v)
            off[v + 1] += off[v];
        adj.resize(m);
        bytes.resize(m);
        std::vector<int> next(off.begin(), off.end() - 1);
        for (size_t e = 0; e < m; ++e) {
            int slot = next[key[e]]++;
            adj[slot] = other[e];
            bytes[slot] = g.m_edgeBytes[e];
        }
    };
    fill(g.m_edgeSrc, g.m_edgeDst, g.m_succOff, g.m_succ, g.m_succBytes);
    fill(g.m_edgeDst, g.m_edgeSrc, g.m_predOff, g.m_pred, g.m_predBytes);

    g.m_computeOff.assign(n + 1, 0);
    for (int v = 0; v < n; ++v)
        g.m_computeOff[v + 1] = g.m_computeOff[v] + static_cast<int>(m_computeByNode[v].size());
    g.m_compute.clear();
    g.m_compute.reserve(g.m_computeOff[n]);
    for (auto &list : m_computeByNode)
        g.m_compute.insert(g.m_compute.end(), list.begin(), list.end());
    m_computeByNode.clear();
}

void GraphBuilder::computeRanks()
{
    Graph &g = m_graph;
    const int n = nodeCount();
    std::vector<int> indegree(n);
    for (int v = 0; v < n; ++v)
        indegree[v] = g.inDegree(v);
    // Kahn's algorithm, always taking the ready node that comes first in the file.
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (int v = 0; v < n; ++v)
        if (indegree[v] == 0)
            ready.push(v);
    g.m_rank.assign(n, -1);
    g.m_order.clear();
    g.m_order.reserve(n);
    while (!ready.empty()) {
        int v = ready.top();
        ready.pop();
        g.m_rank[v] = static_cast<int>(g.m_order.size());
        g.m_order.push_back(v);
        for (int w : g.successors(v))
            if (--indegree[w] == 0)
                ready.push(w);
    }
    if (static_cast<int>(g.m_order.size()) != n)
        throwCycle(indegree);

    g.m_level.assign(n, 0);
    g.m_depth = 0;
    for (int v : g.m_order) {
        int level = 0;
        for (int u : g.predecessors(v))
            level = std::max(level, g.m_level[u] + 1);
        g.m_level[v] = level;
        g.m_depth = std::max(g.m_depth, level + 1);
    }
}

void GraphBuilder::throwCycle(const std::vector<int> &indegree) const
{
    const Graph &g = m_graph;
    // Nodes left with indegree > 0 all have a predecessor that is also left: walking
    // predecessors from any of them must revisit a node, which closes a cycle.
    int start = 0;
    while (indegree[start] == 0)
        ++start;
    std::vector<int> seenAt(g.nodeCount(), -1);
    std::vector<int> walk;
    int v = start;
    while (seenAt[v] < 0) {
        seenAt[v] = static_cast<int>(walk.size());
        walk.push_back(v);
        for (int u : g.predecessors(v))
            if (indegree[u] > 0) {
                v = u;
                break;
            }
    }
    std::vector<int> cycle(walk.begin() + seenAt[v], walk.end());
    std::reverse(cycle.begin(), cycle.end()); // predecessor walk -> edge direction
    std::string text;
    const size_t shown = std::min<size_t>(cycle.size(), 8);
    for (size_t i = 0; i < shown; ++i)
        text += quoted(g.m_ids[cycle[i]]) + " -> ";
    if (shown < cycle.size())
        text += "... (" + std::to_string(cycle.size()) + " nodes) -> ";
    text += quoted(g.m_ids[cycle[0]]);
    throw InputError("graph has a cycle: " + text);
}

Graph GraphBuilder::build()
{
    requireUtf8(m_graph.m_name, "the graph's name");
    resolveEdges();
    buildAdjacency();
    computeRanks();
    Graph &g = m_graph;
    g.m_totalFlops = g.m_totalParamBytes = g.m_totalOutBytes = g.m_totalMemBytes = 0;
    for (int v = 0; v < nodeCount(); ++v) {
        g.m_totalFlops += g.m_flops[v];
        g.m_totalParamBytes += g.m_paramBytes[v];
        g.m_totalOutBytes += g.m_outBytes[v];
        g.m_totalMemBytes += g.m_memBytes[v];
    }
    g.m_totalEdgeBytes = 0;
    for (double b : g.m_edgeBytes)
        g.m_totalEdgeBytes += b;
    g.m_scopes.accumulate(g.m_scope, g.m_flops);
    Graph result = std::move(m_graph);
    m_graph = Graph();
    m_opIndex.clear();
    m_typeIndex.clear();
    m_groupIndex.clear();
    m_pinIndex.clear();
    return result;
}

} // namespace ps
