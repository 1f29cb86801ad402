// Graphviz dot for small views. Graphviz types stay in this file; calls are serialized.
#include "core/layout/LayeredLayout.h"

#include <graphviz/gvc.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace ps {

namespace {
std::mutex graphvizLock;
constexpr double kPointsPerInch = 72;
} // namespace

LayoutResult dotLayout(const LayoutInput &input)
{
    const int n = static_cast<int>(input.size.size());
    std::lock_guard<std::mutex> lock(graphvizLock);
    GVC_t *gvc = gvContext();
    Agraph_t *g = agopen(const_cast<char *>("view"), Agdirected, nullptr);
    agattr(g, AGRAPH, const_cast<char *>("nodesep"), const_cast<char *>("0.2"));
    agattr(g, AGRAPH, const_cast<char *>("ranksep"), const_cast<char *>("0.5"));
    // Network simplex stops early: ranking after twice as many iterations as its graph has
    // nodes, x coordinates after a tenth as many as the ranked graph has (items and a virtual
    // node per rank an edge crosses). Unbounded, a collapsed view with long edges between
    // far-apart scopes (248 items, 907 edges of the 11.6k-op GNMT, tests/data/layout) took dot
    // 258 s, with the view stale and closing the window blocked meanwhile; at twice, 0.9 s, but a
    // Compare view of the 58k-op GNMT (281 items over 265 ranks) 16 s; at a tenth, 2-3 s. The
    // views of Inception-V3, GNMT and MoE lay out as fast or faster, about as wide.
    agattr(g, AGRAPH, const_cast<char *>("nslimit"), const_cast<char *>("0.1"));
    agattr(g, AGRAPH, const_cast<char *>("nslimit1"), const_cast<char *>("2"));
    agattr(g, AGNODE, const_cast<char *>("shape"), const_cast<char *>("box"));
    agattr(g, AGNODE, const_cast<char *>("fixedsize"), const_cast<char *>("true"));
    agattr(g, AGNODE, const_cast<char *>("width"), const_cast<char *>("1"));
    agattr(g, AGNODE, const_cast<char *>("height"), const_cast<char *>("0.5"));
    std::vector<Agnode_t *> nodes(n);
    char buf[64];
    for (int v = 0; v < n; ++v) {
        std::snprintf(buf, sizeof buf, "n%d", v);
        nodes[v] = agnode(g, buf, 1);
        std::snprintf(buf, sizeof buf, "%.4f", input.size[v].first / kPointsPerInch);
        agset(nodes[v], const_cast<char *>("width"), buf);
        std::snprintf(buf, sizeof buf, "%.4f", input.size[v].second / kPointsPerInch);
        agset(nodes[v], const_cast<char *>("height"), buf);
    }
    for (const auto &[a, b] : input.edges)
        if (a != b && a >= 0 && b >= 0 && a < n && b < n)
            agedge(g, nodes[a], nodes[b], nullptr, 1);
    LayoutResult out;
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        gvFreeContext(gvc);
        return layeredLayout(input);
    }
    out.center.resize(n);
    const boxf bb = GD_bb(g);
    out.width = bb.UR.x - bb.LL.x;
    out.height = bb.UR.y - bb.LL.y;
    for (int v = 0; v < n; ++v) // Graphviz's y grows upwards: flip it
        out.center[v] = {ND_coord(nodes[v]).x - bb.LL.x, bb.UR.y - ND_coord(nodes[v]).y};
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    return out;
}

} // namespace ps
