#pragma once
// Private to models/torch: small pieces the placement policies share (LibTorch).
#include "models/torch/Collective.h"
#include "models/torch/LearnerSupport.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ps::learn {

// Samples one category per row of logits (rows x k); returns the choices, the summed
// log-probability of them, and the mean entropy of the rows. The draw is made on the CPU from
// `generator` (drawRows), so a CUDA run draws what a CPU run draws from the same probabilities.
struct Sampled
{
    torch::Tensor choice; // int64, rows
    torch::Tensor logProb;
    torch::Tensor entropy;
};
Sampled sampleRows(const torch::Tensor &logits, const at::Generator &generator);
// One category per row of `probs` (rows x k), drawn on the CPU from `generator` (a CPU generator
// of the run's own), returned on `probs`' device. LibTorch's CUDA sampling could only draw from the
// process-global CUDA generator, which concurrent runs share.
torch::Tensor drawRows(const torch::Tensor &probs, const at::Generator &generator);
Sampled greedyRows(const torch::Tensor &logits);

std::vector<int> toVector(const torch::Tensor &choice);

// The end of a (data-parallel) run: every rank takes the best placement any rank found and the
// count of what all of them spent, then waits for the others (before rank 0 takes the
// rendezvous down).
void shareResult(Collective &collective, Judge &judge, RunClock &clock);
// A placer's output from its judge: the best placement, its simulator runs, a note when nothing
// fit, and (when it `searched`) one when nothing it tried beat the start, the first placement it
// judged (on 4,096 devices every learner hands back its warm start; the note says so), or when it
// stopped `atFloor` (RunClock::stopAtFloor), that one instead.
PlacerOutput judgedOutput(const std::string &family, const Judge &judge, long long evaluations, bool searched = true,
                          bool atFloor = false);
// The same over every rank of a data-parallel run, with the collectives' cost.
PlacerOutput learnerOutput(const std::string &family, const Judge &judge, const RunClock &clock,
                           const Collective &collective, bool searched = true);

// REINFORCE's reward for a placement: minus the square root of the penalized makespan.
inline double rewardOf(double penalized)
{
    return -std::sqrt(penalized);
}

// A policy-gradient weight (an advantage, or a move's gain over the start's makespan) held to
// +-1000: far beyond what a run sees (a few units), but a cluster whose links take 1e36 s made
// gains of 1e37 that overflowed the float loss, and every later probability was NaN.
inline double boundedWeight(double w)
{
    return std::clamp(w, -1e3, 1e3);
}

// Moving-average baseline (Mirhoseini et al. 2017).
class Baseline
{
public:
    explicit Baseline(double decay) : m_decay(decay) {}
    double value() const { return m_value; }
    void update(double mean)
    {
        m_value = m_started ? m_decay * m_value + (1 - m_decay) * mean : mean;
        m_started = true;
    }

private:
    double m_decay, m_value = 0;
    bool m_started = false;
};

} // namespace ps::learn
