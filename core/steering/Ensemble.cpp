#include "core/steering/Ensemble.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/placers/MemoryRepair.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Simulator.h"
#include "core/steering/Recombination.h"
#include "core/steering/SteeringSession.h"

#include <algorithm>
#include <numeric>

namespace ps {

std::vector<int> alignDevices(const Cluster &cluster, const std::vector<int> &reference, const std::vector<int> &member)
{
    const int k = cluster.deviceCount();
    if (k > 256) // the greedy matching is cubic in the device count
        return member;
    auto same = [&](int a, int b) {
        const Device &x = cluster.device(a), &y = cluster.device(b);
        return x.type == y.type && x.flopsPerS == y.flopsPerS && x.memoryBytes == y.memoryBytes &&
               x.opOverheadS == y.opOverheadS;
    };
    // overlap[a * k + b]: ops on a in the reference and on b in the member.
    std::vector<long long> overlap(static_cast<size_t>(k) * k, 0);
    for (size_t v = 0; v < reference.size(); ++v)
        ++overlap[static_cast<size_t>(reference[v]) * k + member[v]];
    std::vector<int> rename(k, -1), taken(k, 0);
    while (true) {
        long long best = -1;
        int ba = -1, bb = -1;
        for (int a = 0; a < k; ++a)
            for (int b = 0; b < k; ++b)
                if (!taken[a] && rename[b] < 0 && same(a, b) && overlap[static_cast<size_t>(a) * k + b] > best) {
                    best = overlap[static_cast<size_t>(a) * k + b];
                    ba = a;
                    bb = b;
                }
        if (ba < 0)
            break;
        rename[bb] = ba;
        taken[ba] = 1;
    }
    std::vector<int> out(member.size());
    for (size_t v = 0; v < member.size(); ++v)
        out[v] = rename[member[v]] >= 0 ? rename[member[v]] : member[v];
    return out;
}

std::vector<int> weightedVote(const std::vector<std::vector<int>> &members, const std::vector<double> &weights,
                              long long *unanimous)
{
    const size_t n = members.front().size();
    std::vector<int> out(n);
    long long same = 0;
    for (size_t v = 0; v < n; ++v) {
        int bestDevice = members[0][v];
        double bestWeight = -1;
        bool all = true;
        for (size_t i = 0; i < members.size(); ++i) {
            all = all && members[i][v] == members[0][v];
            double w = 0;
            for (size_t j = 0; j < members.size(); ++j)
                w += members[j][v] == members[i][v] ? weights[j] : 0;
            if (w > bestWeight) {
                bestWeight = w;
                bestDevice = members[i][v];
            }
        }
        out[v] = bestDevice;
        same += all;
    }
    if (unanimous)
        *unanimous = same;
    return out;
}

EnsembleResult SteeringSession::ensemble(int size, long long evaluations, const RunControl &control)
{
    if (size < 1 || size > SteeringSettings::kMaxEnsemble)
        throw InputError("an ensemble takes 1 to " + std::to_string(SteeringSettings::kMaxEnsemble) + " members, not " +
                         std::to_string(size));
    std::vector<int> members;
    for (int id : ranking())
        if (m_candidates[id].verdict != Candidate::Verdict::Rejected && static_cast<int>(members.size()) < size)
            members.push_back(id);
    if (members.empty())
        throw InputError("no candidates to form an ensemble from yet: run a round first");

    EnsembleResult r;
    r.members = members;
    r.budget = std::max(1LL, evaluations);
    std::vector<std::vector<int>> placements;
    std::vector<double> weights;
    for (size_t i = 0; i < members.size(); ++i) {
        const std::vector<int> &d = m_candidates[members[i]].devices;
        placements.push_back(i == 0 ? d : alignDevices(m_cluster, placements.front(), d));
        weights.push_back(1.0 / (1.0 + i)); // rank-weighted: the best member counts most
    }
    long long unanimous = 0;
    std::vector<int> voted = weightedVote(placements, weights, &unanimous);
    r.agreementWithMembers = double(unanimous) / double(voted.size());
    enforceConstraints(m_constraints, voted);
    repairMemory(m_graph, m_cluster, m_constraints, voted);

    const PlacementProblem problem{m_graph, m_cluster, m_constraints, m_objective};
    RunControl rc;
    rc.seed = m_settings.seed ^ 0x5EEDULL;
    rc.cancel = control.cancel;
    rc.progress = control.progress;
    // The vote is recombined with the best member (stretches of the consensus taken into it where
    // they help, or the vote itself when it is better): a vote of disagreeing members can be far
    // worse than each of them, and local search alone does not bring it back.
    const Recombined mixed = recombine(problem, placements.front(), voted, r.budget / 4, rc.seed, rc);
    const Placement start(mixed.devices);
    const long long rest = std::max(1LL, r.budget - mixed.evaluations);
    if (m_settings.exactBudget) // the judgements come out of it too
        rc.budget.maxEvaluations = rest;
    const PlacerResult refined =
        runPlacer(m_registry, "local-search", problem, {"evaluations=" + std::to_string(rest)}, rc, &start);
    r.devices = refined.placement.devices();
    r.terms = refined.terms;
    r.score = refined.score;
    r.evaluations = refined.evaluations + mixed.evaluations;
    m_evaluations += r.evaluations;
    return r;
}

} // namespace ps
