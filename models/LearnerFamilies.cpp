#include "models/LearnerFamilies.h"

#include <algorithm>

namespace ps {

namespace {

// Hyperparameters every learned family shares; `simulated` (the placers the simulator judges) adds
// `evaluations`, a budget of simulator runs (what steering gives a learned candidate).
std::vector<HyperParam> commonParams(int defaultIterations, int defaultSamples = 8, bool simulated = true)
{
    using T = HyperParam::Type;
    std::vector<HyperParam> p;
    p.push_back({"iterations",
                 T::Int,
                 0,
                 1e6,
                 static_cast<double>(defaultIterations),
                 {},
                 "training iterations (0: use the checkpoint as it is, zero-shot)"});
    p.push_back(logTuned({"lr", T::Real, 1e-6, 1, 3e-3, {}, "Adam learning rate"}));
    p.push_back(
        {"samples", T::Int, 1, 256, static_cast<double>(defaultSamples), {}, "placements sampled per iteration"});
    p.push_back({"hidden", T::Int, 4, 1024, 64, {}, "hidden units"});
    p.push_back({"device",
                 T::Choice,
                 0,
                 0,
                 0,
                 {"auto", "cpu", "cuda"},
                 "where LibTorch runs (auto: CUDA if present and the graph has 10,000 ops or more)"});
    p.push_back({"threads", T::Int, 0, 256, 0, {}, "intra-op threads for this run (0: LibTorch's default)"});
    HyperParam load{
        "checkpoint",
        T::Text,
        0,
        0,
        0,
        {},
        "a trained policy to start from (zero-shot with iterations=0); for gdp and gap, 'pretrained' is the "
        "one shipped for this many devices (parts)"};
    HyperParam save{"save_checkpoint", T::Text, 0, 0, 0, {}, "write the trained policy here"};
    p.push_back(load);
    p.push_back(save);
    p.push_back({"checkpoint_every",
                 T::Real,
                 0.01,
                 86400,
                 10,
                 {},
                 "seconds between rank 0's checkpoints in a data-parallel run (kept when a rank is lost)"});
    if (simulated)
        p.push_back({"evaluations",
                     T::Int,
                     0,
                     1e12,
                     0,
                     {},
                     "at most this many simulator runs, the warm start's included and the final judgement aside "
                     "(at the least 2 are spent: the warm start's and its judgement as the start); training runs "
                     "until they are spent unless `iterations` is given (0: no limit of its own)"});
    return p;
}

// GST's hyperparameters (Cao et al. 2023), the same for every family that trains on segments;
// models/torch/GraphSegments.cpp reads their values.
std::vector<HyperParam> gstParams()
{
    using T = HyperParam::Type;
    std::vector<HyperParam> p;
    p.push_back({"gst",
                 T::Choice,
                 0,
                 0,
                 0,
                 {"auto", "on", "off"},
                 "Graph Segment Training (Cao et al. 2023): a gradient step runs on a few segments of the op "
                 "sequence, the rest read from a table of historical embeddings, so memory stays fixed as graphs "
                 "grow (auto: on for graphs over 16,384 ops)"});
    p.push_back({"gst_segment", T::Int, 8, 1e6, 4096, {}, "GST: ops per segment"});
    p.push_back({"gst_segments", T::Int, 1, 1024, 2, {}, "GST: segments trained on per step"});
    p.push_back({"stale_dropout", T::Real, 0, 1, 0.5, {}, "GST: probability of dropping a stale segment's embeddings"});
    p.push_back({"finetune_share",
                 T::Real,
                 0,
                 1,
                 0.1,
                 {},
                 "GST: the last share of the budget trains the prediction head only (encoder fixed, every embedding "
                 "fresh)"});
    return p;
}

// The entropy bonus of the policy-gradient learners (gdp, giph, rl-seq2seq), one definition so
// that their defaults and ranges cannot drift apart.
HyperParam entropyWeightParam()
{
    return logTuned({"entropy_weight", HyperParam::Type::Real, 0, 10, 0.01, {}, "entropy bonus"});
}

// What a family that trains over a corpus of graphs with GST adds (gdp, gap).
void addCorpusParams(std::vector<HyperParam> &params, const char *graphsPerStep)
{
    using T = HyperParam::Type;
    params.push_back({"train_graphs", T::Text, 0, 0, 0, {}, "more graph files to train on, separated by ';'"});
    params.push_back({"graphs_per_step", T::Int, 1, 1024, 1, {}, graphsPerStep});
    for (HyperParam &h : gstParams())
        params.push_back(h);
}

} // namespace

FamilyInfo gdpFamilyInfo()
{
    using T = HyperParam::Type;
    FamilyInfo f{"gdp",
                 "GDP/SGDP (Zhou et al. 2019): GraphSAGE + segment-level recurrent attention placement network, "
                 "PPO; batch training over graphs, zero-shot and fine-tuning",
                 // The network's pass over the graph is most of an iteration (the simulator
                 // runs of 8 samples were 0.5% of one on GNMT), so samples come nearly free:
                 // 128 were 0.990 of 32 over the 20-case 60 s matrix (docs/performance.md).
                 commonParams(100, 128)};
    f.params.push_back(logTuned({"segment", T::Int, 8, 4096, 128, {}, "ops per attention segment"}));
    f.params.push_back({"heads", T::Int, 1, 16, 4, {}, "attention heads (divide hidden)"});
    f.params.push_back({"ppo_epochs",
                        T::Int,
                        1,
                        64,
                        1,
                        {},
                        "PPO epochs per batch of samples (one measured better than four at 60 s)"});
    f.params.push_back(linearTuned({"clip", T::Real, 0.01, 1, 0.2, {}, "PPO clipping of the probability ratio"}));
    f.params.push_back(entropyWeightParam());
    f.params.push_back({"warm_start",
                        T::Choice,
                        0,
                        0,
                        0,
                        {"best", "heft", "imitate", "none"},
                        "best: start at the best fast placer's placement (fixed prior logits, the policy "
                        "learns the correction); heft: the same from HEFT's; imitate: supervised steps "
                        "towards HEFT's (or the given placement in a composition); none: the paper's random start"});
    f.params.push_back(
        linearTuned({"prior", T::Real, 0, 20, 3, {}, "least strength of the warm start's prior (logits)"}));
    f.params.push_back(logTuned({"moves",
                                 T::Real,
                                 0.1,
                                 1e6,
                                 4,
                                 {},
                                 "with a prior: ops an untrained sample moves off the start (sets the prior's "
                                 "margin from the graph's size)"}));
    // 0.5 was 0.995 of 0 over the 10 cases of the 60 s matrix whose links differ (3 seeds; within
    // the noise) and no faster to converge: off by default (docs/performance.md).
    f.params.push_back(linearTuned({"link_prior",
                                    T::Real,
                                    0,
                                    10,
                                    0,
                                    {},
                                    "with a prior: a move's logit to a device is this times the log of its link's "
                                    "bandwidth from the start device over the fastest such link (0: every device "
                                    "alike)"}));
    f.params.push_back({"reanchor",
                        T::Int,
                        0,
                        1e6,
                        5,
                        {},
                        "with a prior: every this many iterations the prior moves to the best placement found "
                        "so far, so the policy learns moves from the incumbent (0: never)"});
    f.params.push_back(
        {"restart_after",
         T::Int,
         0,
         1e6,
         2,
         {},
         "with a prior, on one graph: after this many iterations in a row whose samples are all one placement "
         "(the policy has collapsed), the policy and the optimizer return to where the run began "
         "and the prior moves to the best placement found (0: never)"});
    f.params.push_back(
        {"stall_restart",
         T::Int,
         0,
         1e6,
         15,
         {},
         "with a prior, on one graph: the same restart after this many iterations in a row whose samples found "
         "nothing better than the best before them (0: never)"});
    f.params.push_back({"start_features",
                        T::Choice,
                        0,
                        0,
                        0,
                        {"on", "off"},
                        "with a prior: each op's start device is an input feature, so the policy learns moves "
                        "relative to the start"});
    f.params.push_back(linearTuned({"block_share",
                                    T::Real,
                                    0,
                                    1,
                                    0.5,
                                    {},
                                    "share of the ops a sample moves off its start that take a connected block "
                                    "of the ops on their start device along"}));
    f.params.push_back(logTuned({"block_size",
                                 T::Int,
                                 2,
                                 4096,
                                 1024,
                                 {},
                                 "most ops a carried block holds (sizes drawn log-uniformly from 2)"}));
    f.params.push_back(linearTuned({"scope_share",
                                    T::Real,
                                    0,
                                    1,
                                    0.5,
                                    {},
                                    "share of the carried blocks that are the moved op's scope (a layer or an "
                                    "expert, at a depth drawn from its scope path) rather than a connected block"}));
    f.params.push_back({"race_starts",
                        T::Int,
                        1,
                        16,
                        8,
                        {},
                        "with warm_start=best, on one graph: the run searches from this many of the fast "
                        "placers' distinct placements in turn, best first, then from the best placement found "
                        "(1: from the best fast placement alone)"});
    f.params.push_back(linearTuned({"race_share",
                                    T::Real,
                                    0,
                                    1,
                                    0.25,
                                    {},
                                    "share of the budget the race over starts takes (each start an equal part; "
                                    "a start's part ends early when its policy collapses or stalls)"}));
    f.params.push_back({"warm_steps", T::Int, 0, 10000, 60, {}, "at most this many imitation steps"});
    addCorpusParams(f.params, "graphs in one gradient step (1: one graph a step, its samples shared by the ranks of a "
                              "data-parallel run; more: the ranks share the graphs)");
    f.trains = true;
    f.fewestEvaluations = 3; // the warm start's run, its judgement as the start, and the result's
    f.distributes = true;
    return f;
}

FamilyInfo giphFamilyInfo()
{
    using T = HyperParam::Type;
    FamilyInfo f{"giph",
                 "GiPH (Hu et al. 2023): gpNet of (op, device) options, GNN policy that moves one op per step, "
                 "REINFORCE on makespan improvements; independent of the device count",
                 commonParams(50)};
    f.params.push_back({"episode_steps", T::Int, 1, 100000, 32, {}, "moves per episode"});
    f.params.push_back(linearTuned({"gamma", T::Real, 0, 1, 0.97, {}, "discount of later improvements"}));
    f.params.push_back(entropyWeightParam());
    f.params.push_back({"candidates",
                        T::Int,
                        0,
                        1e7,
                        512,
                        {},
                        "on a graph of more than `candidates_above` ops, a move chooses among the options of this "
                        "many: the episode start's critical path, its neighbours, then random ops (0: every op, "
                        "as the paper)"});
    // A set of half the graph or more saves at most half a move's cost and loses the full view: at
    // 60 s (3 seeds) every op's options did 1-2% better on the RNN LMs of 538 and 1,014 ops.
    f.params.push_back({"candidates_above",
                        T::Int,
                        0,
                        1e9,
                        1024,
                        {},
                        "the candidate set is used on graphs of more ops than this (and than `candidates`)"});
    f.params.push_back({"start",
                        T::Choice,
                        0,
                        0,
                        0,
                        {"best", "heft", "random", "round-robin"},
                        "the placement episodes start from: the best fast placer's, HEFT's (the paper: "
                        "random; a composition's input replaces it)"});
    f.trains = true;
    f.fewestEvaluations = 3; // the warm start's run, its judgement as the start, and the result's
    f.distributes = true;
    return f;
}

FamilyInfo rlSeq2SeqFamilyInfo()
{
    using T = HyperParam::Type;
    FamilyInfo f{"rl-seq2seq",
                 "Mirhoseini et al. 2017/2018: learned grouper + LSTM encoder-decoder with attention, one device "
                 "per group, REINFORCE with a moving-average baseline",
                 commonParams(200)};
    f.params.push_back({"groups", T::Int, 1, 4096, 32, {}, "groups (the decoder's sequence length)"});
    f.params.push_back(
        linearTuned({"grouping", T::Choice, 0, 0, 0, {"learned", "scope"}, "learned grouper, or by scope"}));
    f.params.push_back({"baseline_decay", T::Real, 0, 0.9999, 0.9, {}, "moving-average baseline decay"});
    f.params.push_back(entropyWeightParam());
    f.params.push_back({"warm_start",
                        T::Choice,
                        0,
                        0,
                        0,
                        {"best", "heft", "none"},
                        "best: start at the best fast placer's placement (fixed prior logits on groups and "
                        "devices, the policy learns the correction); heft: the same from HEFT's; none: the "
                        "paper's random start"});
    f.params.push_back(linearTuned({"prior",
                                    T::Real,
                                    0,
                                    10,
                                    3,
                                    {},
                                    "strength of the warm start's prior: the untrained policy keeps the start's "
                                    "choice with probability e^prior / (e^prior + 1)"}));
    f.trains = true;
    f.fewestEvaluations = 3; // the warm start's run, its judgement as the start, and the result's
    return f;
}

FamilyInfo gapFamilyInfo()
{
    using T = HyperParam::Type;
    FamilyInfo f{"gap",
                 "GAP (Nazi et al. 2019): GraphSAGE + softmax partition module, trained on the expected "
                 "normalized cut and balance; one forward pass to partition",
                 {}};
    f.params = commonParams(300, 8, false);
    f.params.erase(
        std::remove_if(f.params.begin(), f.params.end(), [](const HyperParam &h) { return h.name == "samples"; }),
        f.params.end());
    f.params.push_back(logTuned({"balance_weight", T::Real, 0, 1000, 1, {}, "weight of the balance term"}));
    f.params.push_back(
        {"rebalance", T::Bool, 0, 1, 1, {}, "after the argmax, move nodes out of parts over the imbalance tolerance"});
    f.params.push_back({"refine",
                        T::Bool,
                        0,
                        1,
                        1,
                        {},
                        "then move boundary nodes to the part that cuts least while the tolerance holds"});
    addCorpusParams(f.params,
                    "graphs in one gradient step (the global batch; ranks of a data-parallel run share them)");
    f.trains = true;
    f.distributes = true;
    return f;
}

} // namespace ps
