#pragma once
// Repairs and refinements of a k-way partition that any partitioner's output can take (GAP's
// argmax, for one): giving nodes away from parts over the imbalance tolerance, and moving
// boundary nodes to the part that cuts least while the tolerance holds. Both work on the
// undirected view the partition metrics measure (spec section 8): a part's limit is tolerance × its
// share of the total node weight (`shares`, summing to 1; empty: 1/k each).
#include <functional>
#include <string>
#include <vector>

namespace ps {

class Graph;
struct Progress;
struct RunControl;
struct UndirectedGraph;

// A partition that needs no search, for where one was stopped (METIS, GAP's repair, at a time
// limit): the topological order cut into k runs of consecutive ops, run i with about shares[i] of
// the FLOPs (of the ops when there are none; empty shares: 1/k each). Linear, and for the chains
// and pipelines of model graphs a cut of about k edges a path.
std::vector<int> topologicalChunks(const Graph &g, int k, const std::vector<double> &shares = {});

// For a partitioner stopped (a time limit, a cancel) before its parts held the tolerance: if the
// heaviest part over its share exceeds `tolerance`, and topologicalChunks' parts come out more
// even, they replace `parts`. Returns the note that says so ("<family>: stopped ..."), or "".
std::string evenOutStoppedParts(const Graph &g, const UndirectedGraph &view, std::vector<int> &parts, int k,
                                double tolerance, const std::vector<double> &shares, const std::string &family);

// The heaviest part gives nodes away until the tolerance holds or nothing helps: its nodes in the
// order of the least cut they add (ties to the lightest part that stays within the limit), each
// moved once. `stop` (if given) is asked before each part gives nodes away, and every 4,096 of its
// nodes while their moves are weighed: once it says so, the parts stay as they are then (a
// deadline, a cancel).
void rebalanceParts(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                    const std::vector<double> &shares = {}, const std::function<bool()> &stop = {});

// Fiduccia-Mattheyses refinement of the edge cut: in each pass the unlocked node whose move to
// another part lowers the cut most (or raises it least) moves and is locked, provided the part it
// goes to stays within the limit; the pass keeps the prefix of its moves with the lowest cut and
// undoes the rest. Passes repeat while they gain. The cut never rises and no part is made heavier
// than the limit. `maxMoves` bounds the moves tried; returns the number of moves kept. `stop` (if
// given) is asked before each pass and every 4,096 nodes weighed or moves tried within one: once
// it says so, the pass keeps its best prefix and refinement ends.
long long refineCut(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance, long long maxMoves,
                    const std::vector<double> &shares = {}, const std::function<bool()> &stop = {});

// refineCut over a hierarchy of coarser graphs (V-cycles, as multilevel partitioners refine): nodes
// are matched along their heaviest edge to a neighbour of the same part and contracted, level by
// level, so the partition carries over to every coarser graph with the same cut; refineCut runs at
// the coarsest level first and each level's result is carried down to the next finer one. A move
// at a coarse level shifts a whole cluster of nodes, which single-node moves cannot do without
// first raising the cut. Cycles repeat (with other matchings, from `seed`) while the cut falls, at
// most `maxCycles`. The same guarantees as refineCut: the cut never rises and no part is made
// heavier than the limit. `maxMoves` bounds the moves tried at each level; returns the moves kept.
// `stop` (if given) is asked before each level: once it says so, the levels left are carried down
// unrefined and no cycle follows.
long long refineCutMultilevel(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                              long long maxMoves, unsigned seed = 1, int maxCycles = 4,
                              const std::vector<double> &shares = {}, const std::function<bool()> &stop = {});

// The best of several refinements of `parts`: refineCutMultilevel at the tolerance, and, with the
// tolerance first relaxed by 0.05, 0.1 and 0.2, refineCutMultilevel at the relaxed one, then
// rebalanceParts and refineCutMultilevel at the tolerance itself. The relaxation lets clusters that
// the tolerance holds in place move first (a part grows, another gives nodes back afterwards).
// Keeps the trial that cuts least among those within the tolerance (or no further over it than
// `parts` were), and starts the four trials again from it while a round gains (at most
// kRefinementRounds rounds); `parts` stay as they are if none cuts less. Before each level of a trial and after each
// trial `keepGoing` (if given) hears the best cut so far and the share of the most trials the refinement may run that
// it has run (0..1; it usually ends well before), and may stop the refinement (a deadline, a cancel). Returns the edge
// cut.
inline constexpr int kRefinementRounds = 8;
double refinePartition(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                       long long maxMoves, unsigned seed = 1,
                       const std::function<bool(double cut, double done)> &keepGoing = {},
                       const std::vector<double> &shares = {});

// A refinement's progress report: "refining the cut: <cut>" at `fraction`, after `wallS`.
Progress refinementProgress(double cut, double fraction, double wallS);

// Which of rebalanceAndRefine's two steps run (gap lets a user switch each off).
struct RepairSteps
{
    bool rebalance = true;
    bool refine = true;
    int rounds = kRefinementRounds; // refinePartition's rounds at most
};

// What a partitioner's output takes to become a refined partition: rebalanceParts, then
// refinePartition with 100 moves a node (+1000) at each level, stopping early when `control` is
// cancelled or its time limit, counted from this call, is spent, and reporting "refining the
// cut" to `control` (the fraction: the trials' share, or the time limit's if further), and after
// `steps.rounds` rounds. Returns the
// edge cut (0 when `steps` leaves refinement out). Nothing is refined when the time is out at the
// start of refinement.
double rebalanceAndRefine(const UndirectedGraph &view, std::vector<int> &parts, int k, double tolerance,
                          const RunControl &control, const std::vector<double> &shares = {}, RepairSteps steps = {});

} // namespace ps
