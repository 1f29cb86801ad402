#pragma once
// The favourite-child rule of SCT scheduling (Hanen & Munier), which Baechi's m-SCT uses: an
// LP relaxation decides, for every op, at most one successor that should share its device
// (no communication on that edge). GLPK stays inside the .cpp.
#include <functional>
#include <string>
#include <vector>

namespace ps {

class CostModel;

struct FavouriteChildren
{
    std::vector<int> favouriteParent; // per node: the parent whose favourite it is, or -1
    std::string note;                 // how the LP went (solver status, size, time)
};

// Solves  min w  s.t.  s_j >= s_i + p_i + c_ij x_ij (every edge),  w >= s_i + p_i,
//   sum_j x_ij >= |succ(i)| - 1,  sum_i x_ij >= |pred(j)| - 1,  0 <= x <= 1,
// with p the mean compute time and c the mean transfer time, and rounds x_ij < 1/2 to "j is i's
// favourite child". Large graphs are solved in windows of `windowSize` ops in topological order
// (a rolling horizon: earlier windows' start times are fixed, their favourites kept); a window
// the time limit does not allow, or every window after `stop` (if given) says so (a cancel), falls
// back to each op's largest edge (noted).
FavouriteChildren favouriteChildren(const CostModel &costs, double timeLimitS, int windowSize,
                                    const std::function<bool()> &stop = {});

} // namespace ps
