// gdp: GDP/SGDP (Zhou et al. 2019): GraphSAGE embeddings of the ops, then a placement network
// with segment-level recurrent attention over the op sequence (topological order; each segment
// attends to itself and to the previous segment's states, as Transformer-XL does), a device
// distribution per op, trained with PPO (the clipped ratio of the whole placement's
// probabilities, normalized advantages). Trains on several graphs at once; a trained policy
// places unseen graphs zero-shot or is fine-tuned.
#include "core/InputError.h"
#include "core/placers/BlockGrower.h"
#include "core/placers/Placer.h"
#include "core/placers/PlacerRegistry.h"
#include "models/LearnerFamilies.h"
#include "models/Learners.h"
#include "models/Pretrained.h"
#include "models/StartRace.h"
#include "models/torch/Collective.h"
#include "models/torch/GraphSegments.h"
#include "models/torch/PolicySupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include <cstring>
#include <numeric>
#include <random>

namespace ps {

namespace {

using namespace learn;

struct GdpNetImpl : torch::nn::Module
{
    GdpNetImpl(int inputs, int hidden, int devices, int heads)
        : encoder(register_module("encoder", SageEncoder(inputs, hidden, 2))),
          attention(register_module(
              "attention", torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(hidden, heads)))),
          norm1(register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})))),
          norm2(register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})))),
          ff1(register_module("ff1", torch::nn::Linear(hidden, 2 * hidden))),
          ff2(register_module("ff2", torch::nn::Linear(2 * hidden, hidden))),
          out(register_module("out", torch::nn::Linear(hidden, devices)))
    {}

    // Device logits per node (node order), computed segment by segment along `order`; `states`,
    // when given, receives the encoder's states in that order (GST's history).
    torch::Tensor forward(const GraphData &g, const torch::Tensor &order, int64_t segment,
                          torch::Tensor *states = nullptr)
    {
        const torch::Tensor seq = encoder(g).index_select(0, order);
        if (states)
            *states = seq.detach();
        const torch::Tensor logits = head(seq, {}, segment);
        return torch::zeros_like(logits).index_copy(0, order, logits);
    }

    // GST: the logits of one segment's ops (in order), the encoder run on the segment's halo only
    // (frozen: without gradient, for the prediction head's fine-tuning); `memory` holds the
    // previous positions' states from the history (undefined: none). `states` receives the
    // segment's fresh states.
    torch::Tensor forwardSegment(const GraphSegment &s, const torch::Tensor &memory, int64_t segment, bool frozen,
                                 torch::Tensor *states)
    {
        torch::Tensor seq;
        {
            const torch::AutoGradMode gradients(!frozen && torch::GradMode::is_enabled());
            seq = encoder(s.halo).index_select(0, s.rows);
        }
        *states = seq.detach();
        return head(seq, memory, segment);
    }

    // The placement network over a sequence of states: each block of `segment` attends to itself
    // and to the previous block's input states (Transformer-XL's previous-layer states for our one
    // attention layer), kept without backpropagating through them.
    torch::Tensor head(const torch::Tensor &seq, torch::Tensor memory, int64_t segment)
    {
        std::vector<torch::Tensor> outputs;
        for (int64_t start = 0; start < seq.size(0); start += segment) {
            const torch::Tensor q = seq.slice(0, start, std::min(seq.size(0), start + segment)); // (L, H)
            const torch::Tensor kv = memory.defined() ? torch::cat({memory, q}) : q;
            const torch::Tensor a = std::get<0>(attention(q.unsqueeze(1), kv.unsqueeze(1), kv.unsqueeze(1))).squeeze(1);
            torch::Tensor z = norm1(q + a);
            z = norm2(z + ff2(torch::relu(ff1(z))));
            outputs.push_back(z);
            memory = q.detach();
        }
        return out(torch::cat(outputs));
    }

    SageEncoder encoder;
    torch::nn::MultiheadAttention attention;
    torch::nn::LayerNorm norm1, norm2;
    torch::nn::Linear ff1, ff2, out;
};
TORCH_MODULE(GdpNet);

struct TrainGraph
{
    std::shared_ptr<const Graph> graph;
    std::unique_ptr<Constraints> constraints;
    std::unique_ptr<Judge> judge;
    std::unique_ptr<BlockGrower> blocks; // a sample's moves carry blocks (BlockSampling)
    GraphData data;
    torch::Tensor order;
    std::vector<int> start;             // the warm start's placement (HEFT's, or the best fast placer's)
    torch::Tensor prior;                // n x k logits toward it (undefined: no prior)
    double residualScale = 1;           // on the network's logits (a stored policy on a larger graph)
    std::vector<GraphSegment> segments; // GST's (empty: every step sees the whole graph)
    EmbeddingHistory history;
};

// The whole graph's logits; with GST the encoder's states refresh the history.
torch::Tensor logitsOf(GdpNet &net, TrainGraph &t, int64_t segment)
{
    torch::Tensor states;
    const torch::Tensor logits = net->forward(t.data, t.order, segment, t.segments.empty() ? nullptr : &states);
    if (states.defined())
        t.history.refresh(states);
    return t.prior.defined() ? logits * t.residualScale + t.prior : logits;
}

// GST: the logits of segment `index`'s ops (in order). Its first attention block's memory is the
// previous block's states from the history (stale by at most the steps since they were written),
// unless stale embedding dropout drops it; the segment's fresh states are written back.
torch::Tensor segmentLogits(GdpNet &net, TrainGraph &t, int64_t index, int64_t segment, bool dropMemory, bool frozen)
{
    const GraphSegment &s = t.segments[static_cast<size_t>(index)];
    const torch::Tensor memory = dropMemory ? torch::Tensor() : t.history.read(s.begin - segment, s.begin);
    torch::Tensor states;
    const torch::Tensor logits = net->forwardSegment(s, memory, segment, frozen, &states);
    t.history.write(s.begin, states);
    return t.prior.defined() ? logits * t.residualScale + t.prior.index_select(0, s.ids) : logits;
}

// A training graph's constraints and judge: what its warm start needs. The target graph is judged
// by the problem's objective (its preferences name its nodes); the other training graphs by the
// default objective.
TrainGraph prepare(std::shared_ptr<const Graph> graph, const Cluster &cluster, const Constraints *given,
                   const Objective &objective, RunClock &clock)
{
    TrainGraph t;
    t.graph = std::move(graph);
    t.constraints = std::make_unique<Constraints>(given ? *given : Constraints::fromGraph(*t.graph, cluster));
    t.judge = std::make_unique<Judge>(*t.graph, cluster, *t.constraints, objective, &clock);
    return t;
}

// What training needs besides: the features, the order, GST's segments and the block grower.
// After the warm start, so that a run the warm start spends does not pay them (0.8 s on 200,000
// ops, past a 0.5 s limit before the warm start began).
void encode(TrainGraph &t, torch::Device device, int64_t gstSegment)
{
    t.blocks = std::make_unique<BlockGrower>(*t.graph, *t.constraints);
    t.data = graphData(*t.graph, device);
    std::vector<int64_t> order(t.graph->topologicalOrder().begin(), t.graph->topologicalOrder().end());
    t.order = torch::from_blob(order.data(), {static_cast<int64_t>(order.size())}, torch::kInt64).clone().to(device);
    if (gstSegment > 0)
        t.segments = graphSegments(*t.graph, t.data, order, gstSegment, 2);
}

// The warm start's placement of every training graph: HEFT's, or the best of the fast placers
// (bestFastPlacement, judged under the target's objective); their simulator runs count on the
// clock. The target graph's is offered to its judge: a warm-started run never returns worse.
// With `others`, the target's other distinct fast placements go there, best first.
void runWarmStart(std::vector<TrainGraph> &graphs, const Cluster &cluster, RunClock &clock, bool best,
                  const Objective &objective, const Placement *given, std::vector<std::vector<int>> *others)
{
    for (TrainGraph &t : graphs) {
        if (given && &t == &graphs[0]) {
            t.start = given->devices();
            continue;
        }
        const PlacementProblem pb{*t.graph, cluster, *t.constraints, &t == &graphs[0] ? objective : Objective{}};
        const PlacerResult r = warmStartPlacement(pb, best, clock, &t == &graphs[0] ? others : nullptr);
        t.start = r.placement.devices();
        clock.countEvaluations(r.evaluations);
    }
    graphs[0].judge->offer(graphs[0].start);
}

// Residual warm start: fixed logits on the start's device for every op, so that the untrained
// policy's greedy placement is the start and training learns the correction. The margin is
// log((k - 1)(n / moves - 1)), at least `floor`: an untrained sample moves about `moves` ops off
// the start (a margin fixed for every graph size would move a fixed share of the ops, hundreds on
// a large graph, and every sample would be far worse than the start). With `startFeatures` each
// op's start device is also one of its input features, so the encoder sees where an op and its
// neighbours start and the correction can be a move relative to the start (which transfers
// between graphs), not only a preference for a device number.
// With `links` > 0 a move from start device s to d has the logit links * log(bandwidth(s, d) /
// the fastest link from s), so moves go rather over fast links (within a node), and the margin on
// s is log(W_s (n / moves - 1)) with W_s the sum of those moves' exp(logit) (k - 1 without), so an
// untrained sample still moves about `moves` ops.
struct Anchor
{
    int devices = 1;
    double floor = 3, moves = 4;
    bool startFeatures = false;
    double links = 0;
};

// Row s: the prior logits of an op that starts on device s.
torch::Tensor priorRows(const Cluster &cluster, double n, const Anchor &a)
{
    const int k = a.devices;
    const double spread = std::max(1.0, n / std::max(a.moves, 1e-9) - 1);
    std::vector<float> rows(static_cast<size_t>(k) * k, 0.0f);
    for (int s = 0; s < k; ++s) {
        double fastest = 0, weight = 0;
        for (int d = 0; d < k; ++d)
            if (d != s)
                fastest = std::max(fastest, cluster.link(s, d).bandwidthBytesPerS);
        for (int d = 0; d < k; ++d) {
            if (d == s)
                continue;
            const double logit =
                a.links > 0 && fastest > 0
                    ? a.links * std::log(std::max(cluster.link(s, d).bandwidthBytesPerS, 1e-300) / fastest)
                    : 0.0;
            rows[static_cast<size_t>(s) * k + d] = static_cast<float>(logit);
            weight += std::exp(logit);
        }
        rows[static_cast<size_t>(s) * k + s] =
            static_cast<float>(std::max(a.floor, std::log(std::max(1.0, weight) * spread)));
    }
    return torch::from_blob(rows.data(), {k, k}, torch::kFloat32).clone();
}

void anchorAt(TrainGraph &t, const std::vector<int> &start, const Anchor &a)
{
    t.start = start;
    const torch::Tensor choice = torch::tensor(std::vector<int64_t>(start.begin(), start.end()));
    const torch::Tensor oneHot = torch::one_hot(choice, a.devices).to(torch::kFloat32).to(t.data.x.device());
    t.prior = priorRows(t.judge->cluster(), t.graph->nodeCount(), a).index_select(0, choice).to(oneHot.device());
    if (a.startFeatures) {
        const int64_t base = kFeatureCount;
        t.data.x = torch::cat({t.data.x.slice(1, 0, base), oneHot}, 1);
        refreshHaloFeatures(t.segments, t.data); // GST's halos copy the features
    }
}

// A stored policy learned its residual on other graphs, each op's correction sized for them. On a
// graph much larger than those, the corrections of many more ops add up and every sample lands
// far from the start (the pretrained policy on the 11.6k-op GNMT: samples 2.3x the start's
// makespan, against 1.2x untrained). The residual is scaled down, once, until a sample is expected
// to move at most twice the `moves` ops the prior allows for; the scale stays for the run.
double calibrateResidual(GdpNet &net, const TrainGraph &t, int64_t segment, const Anchor &a)
{
    torch::NoGradGuard noGrad;
    const torch::Tensor residual = net->forward(t.data, t.order, segment);
    const torch::Tensor start =
        torch::one_hot(torch::tensor(std::vector<int64_t>(t.start.begin(), t.start.end())), a.devices)
            .to(torch::kFloat32)
            .to(residual.device());
    auto expectedMoves = [&](double scale) {
        const torch::Tensor p = torch::softmax(residual * scale + t.prior, 1);
        return (1 - (p * start).sum(1)).sum().item<double>();
    };
    const double target = 2 * a.moves;
    if (expectedMoves(1) <= target)
        return 1;
    double lo = 0, hi = 1; // the prior alone (scale 0) moves about `moves` ops
    for (int i = 0; i < 30; ++i) {
        const double mid = (lo + hi) / 2;
        (expectedMoves(mid) <= target ? lo : hi) = mid;
    }
    return lo;
}

// Supervised warm start: cross-entropy towards each training graph's start (HEFT's placement, or
// the one a composition gives), until the policy agrees on 99.5% of the ops, the steps run out, or
// a quarter of the time budget is used.
void imitateStart(GdpNet &net, std::vector<TrainGraph> &graphs, int64_t segment, torch::optim::Optimizer &optimizer,
                  int steps, const RunClock &clock, const RunControl &control, Collective &collective)
{
    std::vector<torch::Tensor> targets;
    for (const TrainGraph &t : graphs)
        targets.push_back(torch::tensor(std::vector<int64_t>(t.start.begin(), t.start.end())).to(t.data.x.device()));
    for (int s = 0; s < steps && !collective.any(clock.exhausted()); ++s) {
        const size_t i = static_cast<size_t>(s) % graphs.size();
        const torch::Tensor logits = logitsOf(net, graphs[i], segment);
        const torch::Tensor loss = torch::nn::functional::cross_entropy(logits, targets[i]);
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        const double agree = (logits.argmax(1) == targets[i]).to(torch::kFloat32).mean().item<double>();
        if (collective.any(agree > 0.995 || clock.elapsed() > control.budget.timeLimitS / 4))
            break;
    }
}

// A sample's moves off the start carry blocks: each op the policy moves takes along, with
// probability `share`, the connected ops that stay on its start device in the sample, breadth first,
// up to a size drawn log-uniformly from 2 to `size` (local search's block moves). The policy
// decides which op goes where; the block it drags is the environment's, so PPO's actions and
// their probabilities stay the policy's per-op choices. A `scope` share of the carried blocks are
// the op's scope instead (at a depth drawn from its scope path: its layer or expert, the ops of it
// that stay on the start device), as local search's scope moves. Without a start (no residual
// prior) a sample is left as drawn.
struct BlockSampling
{
    double share = 0;
    int size = 1;
    double scope = 0;
};

// Sample s of step `step` draws its blocks from a generator of its own, so every rank draws the same.
void carryBlocks(TrainGraph &t, std::vector<int> &devices, const BlockSampling &blocks, uint64_t seed, int step, int s)
{
    if (blocks.share <= 0 || !t.prior.defined())
        return;
    std::seed_seq seq{seed, static_cast<uint64_t>(step), static_cast<uint64_t>(s)};
    std::mt19937_64 rng(seq);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<int> moved;
    for (int v = 0; v < static_cast<int>(devices.size()); ++v)
        if (devices[v] != t.start[v])
            moved.push_back(v);
    for (int v : moved) {
        if (unit(rng) >= blocks.share)
            continue;
        const int to = devices[v], depth = t.blocks->drawScopeDepth(v, blocks.scope, rng);
        const std::vector<int> carried =
            depth > 0 ? t.blocks->scopeBlock(devices, v, t.start[v], depth)
                      : t.blocks->grow(devices, v, t.start[v], BlockGrower::drawSize(blocks.size, unit(rng)));
        for (int u : carried)
            devices[u] = to;
    }
}

// One step's samples of the policy on one graph. Sample s is drawn from its own generator
// (sampleGenerator) by rank s mod N, so N processes draw what one does; rewards and makespans
// are summed over the ranks, so every rank sees the whole batch.
struct Batch
{
    torch::Tensor oldLogp;
    std::vector<std::pair<int, torch::Tensor>> mine; // (sample, action) drawn here
    std::vector<double> rewards, makespans;          // every sample's
    bool complete = true;
};

// Whether every sample of a batch had the same makespan (to rounding): the policy has collapsed.
bool oneMakespan(const std::vector<double> &makespans)
{
    const auto [lo, hi] = std::minmax_element(makespans.begin(), makespans.end());
    return makespans.size() > 1 && *hi - *lo <= 1e-12 * std::max(1.0, std::abs(*hi));
}

// The policy's parameters back to `initial` and the optimizer's moments forgotten.
void restartPolicy(GdpNet &net, const std::vector<torch::Tensor> &initial, torch::optim::Optimizer &optimizer)
{
    torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> weights = net->parameters();
    for (size_t i = 0; i < weights.size(); ++i)
        weights[i].copy_(initial[i]);
    optimizer.state().clear();
}

Batch sampleBatch(GdpNet &net, TrainGraph &t, int64_t segment, int samples, int step, const RunStart &run,
                  const BlockSampling &blocks, RunClock &clock, Collective &collective)
{
    torch::NoGradGuard noGrad;
    Batch b;
    b.oldLogp = torch::log_softmax(logitsOf(net, t, segment), 1);
    // Drawn on the CPU (drawRows), from probabilities computed once a batch. oldLogp is already
    // normalised; normalising it again is what sampleRows did per sample, and keeps the CPU's
    // draws bit for bit those of before (exp(oldLogp) can differ in the last bit).
    const torch::Tensor probs = torch::log_softmax(b.oldLogp.cpu(), 1).exp();
    std::vector<double> shared(2 * static_cast<size_t>(samples), 0.0); // rewards, makespans
    for (int s = 0; s < samples; ++s) {
        if (!collective.mine(s))
            continue;
        if (clock.exhausted()) {
            b.complete = false;
            break;
        }
        const torch::Tensor a = drawRows(probs, sampleGenerator(run.seed, step, s));
        std::vector<int> devices = toVector(a);
        carryBlocks(t, devices, blocks, run.seed, step, s);
        shared[static_cast<size_t>(s)] = rewardOf(t.judge->evaluate(devices));
        shared[static_cast<size_t>(samples + s)] = t.judge->lastMakespan();
        b.mine.emplace_back(s, a);
    }
    b.complete = !collective.any(!b.complete);
    shared = collective.sum(shared);
    b.rewards.assign(shared.begin(), shared.begin() + samples);
    b.makespans.assign(shared.begin() + samples, shared.end());
    if (collective.size() > 1)
        clock.setRanks(collective.perRank(static_cast<double>(clock.evaluations())));
    return b;
}

// One PPO step's gradient, the same whatever the number of ranks. The loss (the clipped ratio of
// each whole placement's probabilities, advantages normalized over the whole batch, minus the
// entropy bonus) is differentiated first with respect to the policy's log-probabilities only
// (n x k), sample by sample, summed in double precision and then over the ranks; every rank
// then backpropagates that one sum through the network. Summing parameter gradients in float
// instead made the curves of 1, 2 and 4 processes drift apart within a few steps (Adam turns
// rounding noise in near-zero gradients into full-size steps). `logits` are the policy's for the
// ops `ids` (undefined: every op, in node order); with a subset the ratio is that subset's
// joint ratio. Returns the batch's loss and the policy's mean entropy; the parameters' gradients
// are added to.
//
// A sample's term depends on the log-probabilities only through its log-ratio (the sum of its
// chosen (op, device) entries), so its gradient is one number, the term's slope in the log-ratio,
// on each of those entries. The log-ratios of all samples come from one gather; the slopes and
// their sums are taken here in double precision. (Autograd sample by sample did the same with
// over twenty operator calls and a backward pass per sample: on CUDA, that many launches and a
// device sync each.)
std::pair<double, double> ppoStep(const torch::Tensor &logits, const torch::Tensor &ids, const Batch &b, double clip,
                                  double entropyWeight, Collective &collective)
{
    const int samples = static_cast<int>(b.rewards.size());
    const double mean = std::accumulate(b.rewards.begin(), b.rewards.end(), 0.0) / samples;
    double var = 0;
    for (double r : b.rewards)
        var += (r - mean) * (r - mean);
    const double sd = std::sqrt(var / samples) + 1e-8;
    const torch::Tensor logp = torch::log_softmax(logits, 1);
    const torch::Tensor oldLogp = ids.defined() ? b.oldLogp.index_select(0, ids) : b.oldLogp;
    const torch::Tensor leaf = logp.detach().requires_grad_(true);
    const int64_t rows = leaf.size(0), k = leaf.size(1);
    std::vector<double> shared(static_cast<size_t>(rows * k) + 1, 0.0);
    double loss = 0;
    if (!b.mine.empty()) {
        std::vector<torch::Tensor> actions;
        for (const auto &[s, action] : b.mine)
            actions.push_back(action);
        torch::Tensor choice = torch::stack(actions).to(leaf.device(), torch::kInt64); // sample x op: the device
        if (ids.defined())
            choice = choice.index_select(1, ids);
        const auto m = static_cast<int64_t>(b.mine.size());
        const torch::Tensor flat = (choice + torch::arange(rows, choice.options()).mul(k)).reshape({-1});
        auto chosen = [&](const torch::Tensor &lp) {
            return lp.detach().reshape({-1}).index_select(0, flat).view({m, rows});
        };
        const torch::Tensor logRatio =
            (chosen(leaf) - chosen(oldLogp)).sum(1).to(torch::kCPU, torch::kFloat64).contiguous();
        const torch::Tensor devices = choice.to(torch::kCPU).contiguous();
        const double *ratioLog = logRatio.data_ptr<double>();
        const int64_t *device = devices.data_ptr<int64_t>();
        for (int64_t j = 0; j < m; ++j) {
            const int s = b.mine[static_cast<size_t>(j)].first;
            const double advantage = samples > 1 ? (b.rewards[static_cast<size_t>(s)] - mean) / sd : 0;
            const double x = ratioLog[j], ratio = std::exp(std::clamp(x, -20.0, 20.0));
            const double plain = ratio * advantage, clipped = std::clamp(ratio, 1 - clip, 1 + clip) * advantage;
            loss -= std::min(plain, clipped) / samples;
            // The slope through the term the minimum takes (half each on a tie, as autograd's
            // minimum); none where a clamp holds the value.
            double slope = 0;
            if (x >= -20 && x <= 20) {
                const double viaClipped = ratio >= 1 - clip && ratio <= 1 + clip ? plain : 0;
                slope = plain < clipped ? plain : clipped < plain ? viaClipped : (plain + viaClipped) / 2;
            }
            const double coefficient = -slope / samples;
            if (coefficient != 0)
                for (int64_t o = 0; o < rows; ++o)
                    shared[static_cast<size_t>(o * k + device[j * rows + o])] += coefficient;
        }
    }
    const torch::Tensor entropy = -(leaf.exp() * leaf).sum(1).mean();
    if (collective.leader()) { // counted once over the ranks
        const torch::Tensor term = -entropyWeight * entropy;
        const torch::Tensor grad =
            torch::autograd::grad({term}, {leaf})[0].to(torch::kCPU, torch::kFloat64).contiguous();
        const double *g = grad.data_ptr<double>();
        for (size_t i = 0; i + 1 < shared.size(); ++i)
            shared[i] += g[i];
        loss += term.item<double>();
    }
    shared.back() = loss;
    shared = collective.sum(std::move(shared));
    const torch::Tensor total =
        torch::from_blob(shared.data(), leaf.sizes(), torch::kFloat64).to(leaf.dtype()).to(leaf.device());
    logp.backward(total);
    return {shared.back(), entropy.item<double>()};
}

// What a PPO epoch needs besides the batch.
struct PpoSettings
{
    int64_t segment = 128; // attention block
    double clip = 0.2, entropyWeight = 0.01;
    uint64_t seed = 1;
    GstSettings gst;
};

// One PPO epoch's gradient on one graph's batch: the whole graph's, or with GST the sum over
// the epoch's drawn segments, each with its ops' joint ratio (`frozen`: the encoder fixed and
// no memory dropped, GST's prediction-head fine-tuning). Returns the loss and the entropy.
std::pair<double, double> epochGradient(GdpNet &net, TrainGraph &t, const Batch &b, const PpoSettings &ppo,
                                        long long step, int epoch, bool frozen, Collective &collective)
{
    if (t.segments.empty())
        return ppoStep(logitsOf(net, t, ppo.segment), {}, b, ppo.clip, ppo.entropyWeight, collective);
    const SegmentDraw draw = drawSegments(ppo.seed, step, epoch, static_cast<int64_t>(t.segments.size()),
                                          ppo.gst.perStep, ppo.gst.staleDropout);
    double loss = 0, entropy = 0;
    for (size_t i = 0; i < draw.segments.size(); ++i) {
        const int64_t index = draw.segments[i];
        const torch::Tensor logits = segmentLogits(net, t, index, ppo.segment, !frozen && draw.dropMemory[i], frozen);
        const auto [l, e] =
            ppoStep(logits, t.segments[static_cast<size_t>(index)].ids, b, ppo.clip, ppo.entropyWeight, collective);
        loss += l;
        entropy += e;
    }
    const double count = static_cast<double>(draw.segments.size());
    return {loss / count, entropy / count};
}

class GdpPlacer : public Placer
{
public:
    FamilyInfo info() const override { return gdpFamilyInfo(); }

    bool takesStart() const override { return true; }

    PlacerOutput place(const PlacementProblem &problem, const ParamValues &params, const RunControl &control,
                       const Placement *given) const override
    {
        const int k = problem.cluster.deviceCount();
        RunClock clock(control, params);
        // Every graph trained on holds its n x devices tensors at once (the prior, the logits, their
        // softmax and gradients; measured 30-37 bytes an (op, device) pair on the 58k-op GNMT with
        // 1,024 and 4,096 devices, 2.5 and 7.3 GB at the peak).
        std::vector<Graph> extra = loadTrainGraphs(params.text("train_graphs"));
        double ops = problem.graph.nodeCount();
        for (const Graph &g : extra)
            ops += g.nodeCount();
        requireMemory("gdp", 48.0 * ops * k,
                      std::to_string(k) + " devices for " + std::to_string(static_cast<long long>(ops)) + " ops");
        const RunStart run = startRun(params, control, problem.graph.nodeCount());
        Collective collective(control.distribution);
        const torch::Device device = run.device;
        int hidden = params.integer("hidden"), heads = params.integer("heads");
        std::string warm = params.choice("warm_start");
        double prior = warm == "best" || warm == "heft" ? params.number("prior") : 0.0;
        bool startFeatures = prior > 0 && params.choice("start_features") == "on";
        double moves = params.number("moves"), linkPrior = params.number("link_prior");
        std::string load = params.text("checkpoint"), storedNote;
        if (load == "pretrained")
            load = pretrainedCheckpoint("gdp", k);
        if (!load.empty()) { // the stored policy decides its architecture and whether it learned over a prior
            const auto stored = nlohmann::json::parse(checkpointParams(load, "gdp"));
            hidden = fixedByCheckpoint(load, stored, params, "hidden");
            heads = fixedByCheckpoint(load, stored, params, "heads");
            prior = stored.value("prior", 0.0);
            warm = prior > 0 ? stored.value("warm_start", std::string("heft")) : "none";
            requireDeviceCount(load, stored.value("devices", k), k);
            startFeatures = prior > 0 && stored.value("start_features", false);
            moves = stored.value("moves", 0.0) > 0 ? stored.value("moves", 0.0) : moves;
            linkPrior = stored.value("link_prior", 0.0); // the prior it learned over (none before link_prior)
            storedNote =
                storedSettingsNote("gdp", load, params,
                                   {{"prior", settingText(params.number("prior")), settingText(prior)},
                                    {"warm_start", params.choice("warm_start"), warm},
                                    {"start_features", params.choice("start_features"), startFeatures ? "on" : "off"},
                                    {"moves", settingText(params.number("moves")), settingText(moves)},
                                    {"link_prior", settingText(params.number("link_prior")), settingText(linkPrior)}});
        }
        if (hidden % heads != 0)
            throw InputError("gdp: hidden (" + std::to_string(hidden) + ") must be a multiple of heads (" +
                             std::to_string(heads) + ")");
        const int inputs = kFeatureCount + (startFeatures ? k : 0);
        const Anchor anchor{k, prior, moves, startFeatures, linkPrior};
        GdpNet net = run.seeded([&] { return GdpNet(inputs, hidden, k, heads); });
        if (!load.empty())
            loadCheckpoint(load, "gdp", *net);
        collective.shareParameters(net->parameters());
        net->to(device);

        const int64_t segment = params.integer("segment");
        // GST's segments hold whole attention blocks, so a segment's attention is the full graph's.
        const GstSettings gst = GstSettings::from(params);
        auto segmentsFor = [&](const Graph &g) { return (gst.segmentFor(g) + segment - 1) / segment * segment; };
        std::vector<TrainGraph> graphs;
        auto target = std::shared_ptr<const Graph>(&problem.graph, [](const Graph *) {});
        graphs.push_back(prepare(target, problem.cluster, &problem.constraints, problem.objective, clock));
        clock.stopAtFloor(*graphs.front().judge);
        for (Graph &g : extra)
            graphs.push_back(
                prepare(std::make_shared<const Graph>(std::move(g)), problem.cluster, nullptr, Objective{}, clock));
        auto encodeAll = [&] {
            for (TrainGraph &t : graphs)
                encode(t, device, segmentsFor(*t.graph));
        };

        torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(params.number("lr")));
        // The race: on one graph from the best fast placement (no given start), the other fast
        // placements are starts too, each searched for its part of race_share (basins differ: on
        // MoE x 8gpu-2node gdp from heft-c's placement reaches 1.89 of the bound in 3 s, from the
        // best fast one, m-etf's, 2.62).
        std::vector<std::vector<int>> raceStarts;
        const bool racing = warm == "best" && prior > 0 && !given && graphs.size() == 1 &&
                            params.integer("race_starts") > 1 && params.number("race_share") > 0;
        bool warmSpent = false;
        if (warm != "none") {
            // A residual prior anchors at a start, imitation learns it: a given one (a composition's
            // input), else HEFT's or the best fast placer's.
            const bool residual = warm == "best" || warm == "heft";
            runWarmStart(graphs, problem.cluster, clock, warm == "best", problem.objective, given,
                         racing ? &raceStarts : nullptr);
            // The warm start spent the budget (thousands of devices): it is the result, without
            // the anchoring's n x devices tensors (seconds there; GNMT-58k x 4,096 ended at 19 s
            // under a 10 s limit).
            warmSpent = collective.any(clock.exhausted());
            if (!warmSpent) {
                encodeAll();
                if (residual) {
                    for (TrainGraph &t : graphs)
                        anchorAt(t, t.start, anchor);
                    if (!load.empty())
                        graphs[0].residualScale = calibrateResidual(net, graphs[0], segment, anchor);
                } else if (load.empty() && params.integer("iterations") > 0) {
                    imitateStart(net, graphs, segment, optimizer, params.integer("warm_steps"), clock, control,
                                 collective);
                }
            }
        } else {
            encodeAll();
        }
        const int samples = params.integer("samples"), epochs = params.integer("ppo_epochs");
        const BlockSampling blocks{params.number("block_share"), static_cast<int>(params.integer("block_size")),
                                   params.number("scope_share")};
        PpoSettings ppo;
        ppo.segment = segment;
        ppo.clip = params.number("clip");
        ppo.entropyWeight = params.number("entropy_weight");
        ppo.seed = run.seed;
        ppo.gst = gst;
        const std::string saveTo = params.text("save_checkpoint");
        nlohmann::json stored{{"hidden", hidden}, {"heads", heads},         {"devices", k},
                              {"prior", prior},   {"warm_start", warm},     {"start_features", startFeatures},
                              {"moves", moves},   {"link_prior", linkPrior}};
        auto save = [&] { saveCheckpoint(saveTo, "gdp", stored.dump(), *net); };
        PeriodicCheckpoint periodic(saveTo, collective.leader() && collective.size() > 1,
                                    params.number("checkpoint_every"));
        Judge &judge = *graphs[0].judge;
        // graphs_per_step > 1: step `it` trains on graphs it*B .. it*B+B-1 (round the training set),
        // graph b being rank b mod N's with all its samples. Each graph's parameter gradient is
        // added in double precision, summed over the ranks, and the mean taken: the same steps
        // whatever the number of processes, and the network's work divided between them.
        const int perStep = params.integer("graphs_per_step"), reanchor = params.integer("reanchor");
        // Restarts search one graph; a policy trained over several (`train_graphs`) keeps learning.
        const bool restartable = prior > 0 && graphs.size() == 1;
        const int restartAfter = restartable ? static_cast<int>(params.integer("restart_after")) : 0;
        const int stallAfter = restartable ? static_cast<int>(params.integer("stall_restart")) : 0;
        if (raceStarts.size() + 1 > static_cast<size_t>(params.integer("race_starts")))
            raceStarts.resize(static_cast<size_t>(params.integer("race_starts")) - 1);
        raceStarts.insert(raceStarts.begin(), graphs[0].start);
        StartRace race(raceStarts.size(), params.number("race_share"), clock.progress(0), restartAfter, stallAfter);
        auto agree = [&](bool mine) { return collective.any(mine); };
        std::vector<torch::Tensor> initial; // what a restart returns the policy to (nothing trained it yet)
        if (restartAfter > 0 || stallAfter > 0 || race.racing())
            for (const torch::Tensor &w : net->parameters())
                initial.push_back(w.detach().clone());
        // The incumbent over every rank becomes the start the policy's moves are from: in the
        // race, the incumbent since the racing start.
        auto anchorAtIncumbent = [&](TrainGraph &t) {
            const std::vector<int> best = race.racing() ? collective.bestOf(judge.segmentBestKey(), judge.segmentBest())
                                                        : collective.bestOf(judge.bestKey(), judge.best());
            if (!best.empty() && best != t.start)
                anchorAt(t, best, anchor);
        };
        // A graph step fine-tunes the head alone only when every graph it may hold is segmented.
        const bool everySegmented =
            std::all_of(graphs.begin(), graphs.end(), [](const TrainGraph &t) { return !t.segments.empty(); });
        Collective alone{Distribution{}};
        const std::vector<torch::Tensor> weights = net->parameters();
        int64_t weightCount = 0;
        for (const torch::Tensor &w : weights)
            weightCount += w.numel();
        auto graphStep = [&](int it) {
            struct Item
            {
                TrainGraph *graph;
                Batch batch;
                long long index;
            };
            std::vector<Item> mine;
            bool complete = true;
            for (int b = 0; b < perStep && complete; ++b) {
                if (!collective.mine(b))
                    continue;
                const long long item = static_cast<long long>(it) * perStep + b;
                TrainGraph &t = graphs[static_cast<size_t>(item % static_cast<long long>(graphs.size()))];
                Batch batch = sampleBatch(net, t, segment, samples, static_cast<int>(item), run, blocks, clock, alone);
                complete = batch.complete;
                mine.push_back({&t, std::move(batch), item});
            }
            if (collective.any(!complete))
                return false; // the budget ended inside the step (on some rank)
            double lastLoss = 0, lastEntropy = 0;
            const bool frozen = collective.any(clock.inFinalShare(it, ppo.gst.finetuneShare)); // ranks agree
            for (int e = 0; e < epochs && !collective.any(clock.exhausted()); ++e) {
                torch::Tensor sum = torch::zeros({weightCount + 2}, torch::kFloat64);
                for (Item &m : mine) {
                    optimizer.zero_grad();
                    const auto [loss, entropy] = epochGradient(net, *m.graph, m.batch, ppo, m.index, e, frozen, alone);
                    std::vector<torch::Tensor> flat;
                    for (const torch::Tensor &w : weights)
                        flat.push_back(w.grad().defined() ? w.grad().reshape({-1}).to(torch::kCPU, torch::kFloat64)
                                                          : torch::zeros({w.numel()}, torch::kFloat64));
                    flat.push_back(torch::tensor({loss, entropy}, torch::kFloat64));
                    sum += torch::cat(flat);
                }
                std::vector<double> shared(sum.data_ptr<double>(), sum.data_ptr<double>() + sum.numel());
                shared = collective.sum(std::move(shared));
                int64_t at = 0;
                for (const torch::Tensor &w : weights) {
                    const torch::Tensor g = torch::from_blob(shared.data() + at, {w.numel()}, torch::kFloat64)
                                                .div(perStep)
                                                .to(w.dtype())
                                                .view(w.sizes())
                                                .to(w.device());
                    at += w.numel();
                    if (w.grad().defined())
                        w.mutable_grad().copy_(g);
                    else
                        w.mutable_grad() = g.clone();
                }
                if (frozen && everySegmented)
                    holdStill(net->encoder->parameters());
                torch::nn::utils::clip_grad_norm_(weights, 1.0);
                optimizer.step();
                lastLoss = shared[static_cast<size_t>(weightCount)] / perStep;
                lastEntropy = shared[static_cast<size_t>(weightCount) + 1] / perStep;
            }
            std::vector<double> makespans(static_cast<size_t>(perStep) * samples, 0.0);
            for (size_t i = 0, b = 0; b < static_cast<size_t>(perStep); ++b)
                if (collective.mine(static_cast<long long>(b))) {
                    std::copy(mine[i].batch.makespans.begin(), mine[i].batch.makespans.end(),
                              makespans.begin() + static_cast<long long>(b) * samples);
                    ++i;
                }
            makespans = collective.sum(std::move(makespans));
            if (collective.size() > 1)
                clock.setRanks(collective.perRank(static_cast<double>(clock.evaluations())));
            clock.report(it, &judge, makespans, lastLoss, lastEntropy);
            periodic.maybeSave(it, save);
            return true;
        };
        try {
            for (int it = 0; !collective.any(!clock.next(it)); ++it) {
                if (perStep > 1) {
                    if (!graphStep(it))
                        break;
                    continue;
                }
                TrainGraph &t = graphs[static_cast<size_t>(it) % graphs.size()];
                if (reanchor > 0 && prior > 0 && it > 0 && it % reanchor == 0 && &t == &graphs[0])
                    anchorAtIncumbent(t);
                const Batch batch = sampleBatch(net, t, segment, samples, it, run, blocks, clock, collective);
                if (!batch.complete)
                    break; // the budget ended inside the batch (on some rank)
                double lastLoss = 0, lastEntropy = 0;
                const bool frozen = collective.any(clock.inFinalShare(it, ppo.gst.finetuneShare)); // ranks agree
                for (int e = 0; e < epochs && !collective.any(clock.exhausted()); ++e) {
                    optimizer.zero_grad();
                    const auto [loss, entropy] = epochGradient(net, t, batch, ppo, it, e, frozen, collective);
                    if (frozen && !t.segments.empty())
                        holdStill(net->encoder->parameters());
                    torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
                    optimizer.step();
                    lastLoss = loss;
                    lastEntropy = entropy;
                }
                clock.report(it, t.judge.get(), batch.makespans, lastLoss, lastEntropy);
                periodic.maybeSave(it, save);
                const double batchBest = *std::max_element(batch.rewards.begin(), batch.rewards.end());
                switch (race.after(batchBest, oneMakespan(batch.makespans), clock.progress(it + 1), agree)) {
                case StartRace::Next::Go: break;
                case StartRace::Next::NextStart: // the start is judged: its search's first incumbent
                    restartPolicy(net, initial, optimizer);
                    anchorAt(t, raceStarts[race.current()], anchor);
                    judge.startSegment();
                    judge.offer(raceStarts[race.current()]);
                    race.startBegan(clock.progress(it + 1)); // after the start's judgement
                    break;
                case StartRace::Next::Incumbent: // the race is over: from the best placement any start found
                case StartRace::Next::Restart:
                    // (A restart: every sample was the same placement, so the batch's advantages were all
                    // zero and the policy could not learn, or it settled where it finds nothing new.) The
                    // policy starts again, anchored at the incumbent over every rank.
                    restartPolicy(net, initial, optimizer);
                    anchorAtIncumbent(t);
                    break;
                }
            }
            if (!warmSpent && (!clock.exhausted() || judge.best().empty())) { // the trained policy's greedy placement
                torch::NoGradGuard noGrad;
                std::vector<int> greedy = toVector(logitsOf(net, graphs[0], segment).argmax(1));
                judge.evaluate(greedy);
            }
            // Zero-shot (a stored policy, no training): besides its greedy placement, `samples`
            // placements drawn from it, judged without a gradient step.
            if (!warmSpent && !load.empty() && params.integer("iterations") == 0 && !clock.exhausted())
                sampleBatch(net, graphs[0], segment, samples, 0, run, blocks, clock, collective);
            shareResult(collective, judge, clock);
        } catch (const LostRank &e) {
            throw LostRank(e.what() + periodic.keptNote());
        }
        if (!saveTo.empty() && collective.leader())
            save();
        PlacerOutput out = learnerOutput("gdp", judge, clock, collective, !warmSpent);
        if (warmSpent && !clock.atFloor()) // (a cancel and the floor say so themselves)
            out.notes.push_back(std::string("gdp: the warm start spent ") +
                                (clock.runsSpent() ? "the run's simulator runs" : "the time limit") +
                                "; it is the result, untrained");
        if (!storedNote.empty())
            out.notes.push_back(storedNote);
        if (race.raced() > 0)
            out.notes.push_back("gdp: searched from " + std::to_string(race.raced() + 1) + " of the fast placers' " +
                                std::to_string(raceStarts.size()) + " distinct placements in turn");
        if (race.restarts() > 0)
            out.notes.push_back("gdp: the policy collapsed or stalled and started again from the best placement " +
                                std::to_string(race.restarts()) + " time(s)");
        if (graphs[0].residualScale < 1) {
            char note[256];
            std::snprintf(note, sizeof note,
                          "gdp: the stored policy's corrections were scaled by %.3g on this graph's %d ops, so that a "
                          "sample moves about %g ops off the start",
                          graphs[0].residualScale, problem.graph.nodeCount(), 2 * moves);
            out.notes.push_back(note);
        }
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeGdpPlacer()
{
    return std::make_unique<GdpPlacer>();
}

} // namespace ps
