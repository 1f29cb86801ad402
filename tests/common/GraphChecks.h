#pragma once
// Reading a graph's numbers by node id in tests.
#include "core/graph/Graph.h"

#include <QtGlobal>

#include <string>

namespace ps::test {

inline double flopsOf(const Graph &g, const std::string &id)
{
    const int v = g.findNode(id);
    if (v < 0)
        qFatal("no node %s", id.c_str());
    return g.flops(v);
}

} // namespace ps::test
