#pragma once
// One family run with seeds 1-3 under two settings: what a test compares when it claims that a
// setting pays on the mean (every seed is run with both, so the pairs share their randomness
// where the settings allow it).
#include "core/placers/PlacerRegistry.h"

#include <cmath>
#include <cstdio>
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

// What fails the claim that `after` pays on every seed for the same simulator runs: a pair whose
// makespan is not lower, or whose runs differ, or a geomean ratio not under `most`; empty when
// nothing does. Prints each pair's ratio, followed by `what`.
inline std::string lowerOnEverySeed(const std::vector<SeedPair> &pairs, double most, const char *what)
{
    std::string failed;
    for (const SeedPair &p : pairs) {
        const double ratio = p.after.makespan / p.before.makespan;
        std::printf("%.4g %s\n", ratio, what);
        if (!(ratio < 1))
            failed += "a seed ends at " + std::to_string(ratio) + " " + what + "; ";
        if (p.after.evaluations != p.before.evaluations)
            failed += "runs differ: " + std::to_string(p.after.evaluations) + " against " +
                      std::to_string(p.before.evaluations) + "; ";
    }
    const double geomean = geomeanRatio(pairs);
    if (!(geomean < most))
        failed += "geomean " + std::to_string(geomean) + ", not under " + std::to_string(most);
    return failed;
}

} // namespace ps::test
