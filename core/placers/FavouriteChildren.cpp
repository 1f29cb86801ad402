#include "core/placers/FavouriteChildren.h"

#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/sim/CostModel.h"

#include <glpk.h>

#include <chrono>
#include <cmath>

namespace ps {

namespace {

// The heuristic fallback: each op's heaviest outgoing edge, if its child is not yet taken.
void largestEdgeRule(const Graph &g, std::vector<int> &parent)
{
    for (int i : g.topologicalOrder()) {
        const auto succ = g.successors(i);
        const auto bytes = g.successorBytes(i);
        int best = -1;
        for (size_t e = 0; e < succ.size(); ++e)
            if (parent[succ[e]] < 0 && (best < 0 || bytes[e] > bytes[best]))
                best = static_cast<int>(e);
        if (best >= 0)
            parent[succ[best]] = i;
    }
}

} // namespace

FavouriteChildren favouriteChildren(const CostModel &costs, double timeLimitS)
{
    const Graph &g = costs.graph();
    const Cluster &c = costs.cluster();
    const int n = g.nodeCount(), m = g.edgeCount(), k = c.deviceCount();
    FavouriteChildren result;
    result.favouriteParent.assign(n, -1);
    if (n == 0)
        return result;
    const auto t0 = std::chrono::steady_clock::now();

    // Times in microseconds keep the LP well scaled.
    constexpr double scale = 1e6;
    std::vector<double> p(n);
    for (int v = 0; v < n; ++v) {
        double sum = 0;
        for (int d = 0; d < k; ++d)
            sum += costs.compute(v, d);
        p[v] = scale * sum / k;
    }
    auto comm = [&](int e) {
        if (k < 2)
            return 0.0;
        double sum = 0;
        for (int a = 0; a < k; ++a)
            for (int b = 0; b < k; ++b)
                if (a != b)
                    sum += costs.transfer(a, b, g.edgeBytes(e));
        return scale * sum / (double(k) * (k - 1));
    };

    // Columns: s_1..s_n, x_1..x_m, w.  Rows: m precedence, n makespan, n out-, n in-degree.
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, n + m + 1);
    for (int v = 0; v < n; ++v)
        glp_set_col_bnds(lp, 1 + v, GLP_LO, 0.0, 0.0);
    for (int e = 0; e < m; ++e)
        glp_set_col_bnds(lp, 1 + n + e, GLP_DB, 0.0, 1.0);
    const int w = n + m + 1;
    glp_set_col_bnds(lp, w, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, w, 1.0);
    const int rows = m + 3 * n;
    glp_add_rows(lp, rows);
    std::vector<int> ia(1), ja(1);
    std::vector<double> ar(1);
    auto put = [&](int row, int col, double value) {
        ia.push_back(row);
        ja.push_back(col);
        ar.push_back(value);
    };
    for (int e = 0; e < m; ++e) { // s_j - s_i - c x_ij >= p_i
        const int i = g.edgeSrc(e), j = g.edgeDst(e), row = 1 + e;
        put(row, 1 + j, 1.0);
        put(row, 1 + i, -1.0);
        put(row, 1 + n + e, -comm(e));
        glp_set_row_bnds(lp, row, GLP_LO, p[i], 0.0);
    }
    std::vector<int> outCount(n, 0), inCount(n, 0);
    for (int e = 0; e < m; ++e) {
        ++outCount[g.edgeSrc(e)];
        ++inCount[g.edgeDst(e)];
    }
    for (int v = 0; v < n; ++v) { // w - s_v >= p_v
        const int row = 1 + m + v;
        put(row, w, 1.0);
        put(row, 1 + v, -1.0);
        glp_set_row_bnds(lp, row, GLP_LO, p[v], 0.0);
        glp_set_row_bnds(lp, 1 + m + n + v, outCount[v] > 0 ? GLP_LO : GLP_FR, outCount[v] - 1.0, 0.0);
        glp_set_row_bnds(lp, 1 + m + 2 * n + v, inCount[v] > 0 ? GLP_LO : GLP_FR, inCount[v] - 1.0, 0.0);
    }
    for (int e = 0; e < m; ++e) {
        put(1 + m + n + g.edgeSrc(e), 1 + n + e, 1.0);
        put(1 + m + 2 * n + g.edgeDst(e), 1 + n + e, 1.0);
    }
    glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    parm.meth = GLP_DUALP;
    parm.tm_lim = static_cast<int>(std::min(timeLimitS * 1000.0, 2.0e9));
    const int rc = glp_simplex(lp, &parm);
    const bool solved = rc == 0 && glp_get_status(lp) == GLP_OPT;
    if (solved) {
        // Round: x < 1/2 means no communication, i.e. a favourite; keep one per parent and child.
        std::vector<char> parentUsed(n, 0);
        for (int e = 0; e < m; ++e) {
            const int i = g.edgeSrc(e), j = g.edgeDst(e);
            if (glp_get_col_prim(lp, 1 + n + e) < 0.5 && !parentUsed[i] && result.favouriteParent[j] < 0) {
                parentUsed[i] = 1;
                result.favouriteParent[j] = i;
            }
        }
    } else {
        largestEdgeRule(g, result.favouriteParent);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char text[200];
    std::snprintf(text, sizeof text, "m-sct: LP with %d columns and %d rows %s in %.2f s", n + m + 1, rows,
                  solved ? "solved" : "not solved (time limit or solver failure); favourites by largest edge",
                  seconds);
    result.note = text;
    glp_delete_prob(lp);
    return result;
}

} // namespace ps
