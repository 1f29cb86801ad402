#pragma once
// One family run with seeds 1-3 under two settings: what a test compares when it claims that a
// setting pays on the mean (every seed is run with both, so the pairs share their randomness
// where the settings allow it).
#include "core/placers/PlacerRegistry.h"

#include <cmath>
#include <string>
#include <vector>

namespace ps::test {

struct SeedPair
{
    PlacerResult before, after;
};

// Each seed's results of `spec` with `params` plus `before`, and with `params` plus `after`.
inline std::vector<SeedPair> runSeedPairs(const std::string &spec, const PlacementProblem &problem,
                                          const std::vector<std::string> &params, const std::string &before,
                                          const std::string &after)
{
    std::vector<SeedPair> pairs;
    for (uint64_t seed : {1, 2, 3}) {
        RunControl control;
        control.seed = seed;
        auto run = [&](const std::string &setting) {
            std::vector<std::string> all = params;
            all.push_back(setting);
            return runPlacer(PlacerRegistry::builtin(), spec, problem, all, control);
        };
        pairs.push_back({run(before), run(after)}); // a braced list runs them in order
    }
    return pairs;
}

// The geometric mean over the pairs of the makespan after over the makespan before.
inline double geomeanRatio(const std::vector<SeedPair> &pairs)
{
    double logSum = 0;
    for (const SeedPair &p : pairs)
        logSum += std::log(p.after.makespan / p.before.makespan);
    return std::exp(logSum / static_cast<double>(pairs.size()));
}

} // namespace ps::test
