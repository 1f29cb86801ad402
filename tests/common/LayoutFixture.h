#pragma once
// A graph view's layout input recorded to a file (tests/data/layout): the item count, each item's
// width and height, then one edge per line ("from to"). Shared by tests/core and bench_layout.
#include "core/layout/LayeredLayout.h"

#include <fstream>
#include <string>

namespace ps::test {

inline LayoutInput readLayoutFixture(const std::string &name)
{
    std::ifstream file(std::string(PS_SOURCE_DIR) + "/tests/data/layout/" + name);
    size_t n = 0;
    file >> n;
    LayoutInput in;
    for (size_t i = 0; i < n; ++i) {
        double w = 0, h = 0;
        file >> w >> h;
        in.size.push_back({w, h});
    }
    int from, to;
    while (file >> from >> to)
        in.edges.push_back({from, to});
    return in;
}

} // namespace ps::test
