#include "core/placers/FavouriteChildren.h"

#include "core/cluster/Cluster.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/sim/CostModel.h"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ps {

namespace {

// Times in microseconds keep the LP well scaled.
constexpr double kScale = 1e6;
// GLPK aborts the process on coefficients near the double's range (its scaling factor underflows:
// "glp_set_rii: invalid scale factor", with a link of 1e-300 bytes/s): the LP is not tried beyond.
constexpr double kLargestCoefficient = 1e150;

struct LpInputs
{
    std::vector<double> compute;  // p_i, mean over devices
    std::vector<double> transfer; // c_e, mean over ordered device pairs
    std::vector<int> inOffset;    // the edges into node v: inEdges[inOffset[v] .. inOffset[v + 1])
    std::vector<int> inEdges;     // (ascending within a node)
};

LpInputs lpInputs(const CostModel &costs)
{
    const Graph &g = costs.graph();
    LpInputs in;
    for (int v = 0; v < g.nodeCount(); ++v)
        in.compute.push_back(kScale * costs.meanCompute(v));
    for (int e = 0; e < g.edgeCount(); ++e)
        in.transfer.push_back(kScale * costs.meanTransfer(g.edgeBytes(e)));
    in.inOffset.assign(g.nodeCount() + 1, 0);
    for (int e = 0; e < g.edgeCount(); ++e)
        ++in.inOffset[g.edgeDst(e) + 1];
    for (int v = 0; v < g.nodeCount(); ++v)
        in.inOffset[v + 1] += in.inOffset[v];
    in.inEdges.resize(g.edgeCount());
    std::vector<int> fill(in.inOffset.begin(), in.inOffset.end() - 1);
    for (int e = 0; e < g.edgeCount(); ++e)
        in.inEdges[fill[g.edgeDst(e)]++] = e;
    return in;
}

// The LP of one window of nodes (consecutive in topological order). Predecessors in earlier
// windows enter with their start times fixed; an op whose favourite child was chosen in an
// earlier window has no favourite left among this window's children. Returns false when GLPK
// does not reach an optimum within the time limit.
bool solveWindow(const Graph &g, const LpInputs &in, const std::vector<int> &nodes, std::vector<int> &window,
                 std::vector<double> &start, std::vector<char> &parentUsed, std::vector<int> &favouriteParent,
                 double timeLimitS)
{
    const int wn = static_cast<int>(nodes.size());
    for (int i = 0; i < wn; ++i)
        window[nodes[i]] = i;
    std::vector<int> edges; // edges into the window, in file order (a scan of every edge per window
                            // took 5 s of 8 with windows of 10 ops on 200,000)
    for (int v : nodes)
        edges.insert(edges.end(), in.inEdges.begin() + in.inOffset[v], in.inEdges.begin() + in.inOffset[v + 1]);
    std::sort(edges.begin(), edges.end());
    const int m = static_cast<int>(edges.size());

    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, wn + m + 1); // s of the window's nodes, x of its incoming edges, w
    const int w = wn + m + 1;
    for (int i = 0; i < wn; ++i)
        glp_set_col_bnds(lp, 1 + i, GLP_LO, 0.0, 0.0);
    for (int k = 0; k < m; ++k) {
        const int src = g.edgeSrc(edges[k]);
        // The parent already has its favourite (chosen in an earlier window): communicate.
        if (window[src] < 0 && parentUsed[src])
            glp_set_col_bnds(lp, 1 + wn + k, GLP_FX, 1.0, 1.0);
        else
            glp_set_col_bnds(lp, 1 + wn + k, GLP_DB, 0.0, 1.0);
    }
    glp_set_col_bnds(lp, w, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, w, 1.0);

    std::vector<int> ia(1), ja(1);
    std::vector<double> ar(1);
    auto put = [&](int row, int col, double value) {
        ia.push_back(row);
        ja.push_back(col);
        ar.push_back(value);
    };
    // Rows: one per incoming edge, one makespan row per node, one out- and one in-degree row per node.
    glp_add_rows(lp, m + 3 * wn);
    std::vector<int> outCount(wn, 0), inCount(wn, 0);
    for (int k = 0; k < m; ++k) {
        const int e = edges[k], i = g.edgeSrc(e), j = g.edgeDst(e), row = 1 + k;
        put(row, 1 + window[j], 1.0);
        put(row, 1 + wn + k, -in.transfer[e]);
        if (window[i] >= 0) { // s_j - s_i - c x >= p_i
            put(row, 1 + window[i], -1.0);
            glp_set_row_bnds(lp, row, GLP_LO, in.compute[i], 0.0);
            ++outCount[window[i]];
        } else { // s_j - c x >= S_i + p_i
            glp_set_row_bnds(lp, row, GLP_LO, start[i] + in.compute[i], 0.0);
        }
        ++inCount[window[j]];
    }
    for (int i = 0; i < wn; ++i) {
        const int v = nodes[i];
        put(1 + m + i, w, 1.0);
        put(1 + m + i, 1 + i, -1.0);
        glp_set_row_bnds(lp, 1 + m + i, GLP_LO, in.compute[v], 0.0);
        glp_set_row_bnds(lp, 1 + m + wn + i, outCount[i] > 0 ? GLP_LO : GLP_FR, outCount[i] - 1.0, 0.0);
        glp_set_row_bnds(lp, 1 + m + 2 * wn + i, inCount[i] > 0 ? GLP_LO : GLP_FR, inCount[i] - 1.0, 0.0);
    }
    for (int k = 0; k < m; ++k) {
        const int e = edges[k];
        if (window[g.edgeSrc(e)] >= 0)
            put(1 + m + wn + window[g.edgeSrc(e)], 1 + wn + k, 1.0);
        put(1 + m + 2 * wn + window[g.edgeDst(e)], 1 + wn + k, 1.0);
    }
    glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    parm.meth = GLP_DUALP;
    parm.tm_lim = static_cast<int>(std::clamp(timeLimitS * 1000.0, 1.0, 2.0e9));
    const bool solved = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
    if (solved) {
        for (int i = 0; i < wn; ++i)
            start[nodes[i]] = glp_get_col_prim(lp, 1 + i);
        // x < 1/2: no communication, a favourite; at most one per parent and per child.
        for (int k = 0; k < m; ++k) {
            const int e = edges[k], i = g.edgeSrc(e), j = g.edgeDst(e);
            if (glp_get_col_prim(lp, 1 + wn + k) < 0.5 && !parentUsed[i] && favouriteParent[j] < 0) {
                parentUsed[i] = 1;
                favouriteParent[j] = i;
            }
        }
    }
    glp_delete_prob(lp);
    for (int v : nodes)
        window[v] = -1;
    return solved;
}

// The heuristic fallback: each op's heaviest outgoing edge, if its child is not yet taken.
void largestEdgeRule(const Graph &g, const std::vector<int> &nodes, std::vector<char> &parentUsed,
                     std::vector<int> &parent)
{
    for (int i : nodes) {
        if (parentUsed[i])
            continue;
        const auto succ = g.successors(i);
        const auto bytes = g.successorBytes(i);
        int best = -1;
        for (size_t e = 0; e < succ.size(); ++e)
            if (parent[succ[e]] < 0 && (best < 0 || bytes[e] > bytes[best]))
                best = static_cast<int>(e);
        if (best >= 0) {
            parent[succ[best]] = i;
            parentUsed[i] = 1;
        }
    }
}

} // namespace

FavouriteChildren favouriteChildren(const CostModel &costs, double timeLimitS, int windowSize,
                                    const std::function<bool()> &stop)
{
    const Graph &g = costs.graph();
    const int n = g.nodeCount();
    FavouriteChildren result;
    result.favouriteParent.assign(n, -1);
    if (n == 0)
        return result;
    const auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] { return secondsSince(t0); };
    const LpInputs in = lpInputs(costs);
    auto lpTakes = [](double x) { return std::isfinite(x) && x <= kLargestCoefficient; };
    const bool tryLp = std::all_of(in.compute.begin(), in.compute.end(), lpTakes) &&
                       std::all_of(in.transfer.begin(), in.transfer.end(), lpTakes);
    const std::vector<int> &order = g.topologicalOrder();
    const int size = std::max(1, windowSize);
    const int windows = (n + size - 1) / size;
    std::vector<int> window(n, -1);
    std::vector<double> start(n, 0.0);
    std::vector<char> parentUsed(n, 0);
    int solved = 0;
    for (int w = 0; w < windows; ++w) {
        const std::vector<int> nodes(order.begin() + static_cast<long>(w) * size,
                                     order.begin() + std::min<long>(n, static_cast<long>(w + 1) * size));
        const double left = timeLimitS - elapsed();
        if (tryLp && left > 0 && !(stop && stop()) &&
            solveWindow(g, in, nodes, window, start, parentUsed, result.favouriteParent, left))
            ++solved;
        else
            largestEdgeRule(g, nodes, parentUsed, result.favouriteParent);
    }
    char text[240];
    std::snprintf(text, sizeof text, "m-sct: favourite-child LP solved in %d of %d windows of up to %d ops (%.2f s)%s",
                  solved, windows, size, elapsed(),
                  !tryLp             ? "; an op or transfer takes over 1e144 s, more than the LP takes: the "
                                       "largest-edge rule instead"
                  : solved < windows ? "; the other windows used the largest-edge rule"
                                     : "");
    result.note = text;
    return result;
}

} // namespace ps
