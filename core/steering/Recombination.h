#pragma once
// Recombination of two candidates' placements, steering's operator for lineages that stall: a
// search that came back with its start unchanged says the start is a local optimum for that
// search, and another lineage's placement often holds a better stretch of the graph. Children take
// one stretch of the topological order from the partner and the rest from the base, so each keeps
// the dependencies inside a stretch placed as one of its parents placed them.
#include <cstdint>
#include <vector>

namespace ps {

struct PlacementProblem;
struct RunControl;

struct Recombined
{
    std::vector<int> devices;  // the best of the parents and their children
    long long evaluations = 0; // simulator runs spent (the parents' judgements included)
    long long children = 0;    // children judged
    bool improved = false;     // the result beats the base
};

// The partner's device labels are first aligned to the base's within classes of interchangeable
// devices (alignDevices), and both parents are judged. Then up to `evaluations` - 2 children are
// judged by the simulator under the problem's objective, each made to honour its constraints: half
// take the partner's devices for a prefix or a suffix of the topological order (one-point, cuts
// evenly spaced, both ways), half for a random stretch (two-point, from `seed`). A child that
// equals a parent or one judged already is not judged. Feasible before infeasible, then the lower
// score; ties keep the base, then the partner. A cancel (`control`) stops it with the best so far.
Recombined recombine(const PlacementProblem &problem, const std::vector<int> &base, const std::vector<int> &partner,
                     long long evaluations, uint64_t seed, const RunControl &control);

} // namespace ps
