// rl-seq2seq: the placer of Mirhoseini et al. 2017 with the grouper of their 2018 hierarchical
// planner. A feed-forward grouper assigns each op to one of G groups (or groups follow scopes);
// an LSTM encoder reads the groups (mean features of their ops, in topological order) and an
// LSTM decoder with attention emits a device per group. Both are trained together with
// REINFORCE: reward -sqrt(penalized makespan), a moving-average baseline, several samples per
// step. Unlike the paper (random start), a run starts by default at the best fast placer's
// placement: fixed prior logits send each op to a group that stands for its start device and
// each such group to that device, so the untrained policy samples the start and training
// learns the correction; the start is offered to the judge, so a run never returns worse.
#include "core/InputError.h"
#include "core/placers/Placer.h"
#include "models/LearnerFamilies.h"
#include "models/Learners.h"
#include "models/torch/PolicySupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ps {

namespace {

using namespace learn;

constexpr int kGroupInputs = kFeatureCount + 2; // mean features, log size, mean rank

struct Seq2SeqNetImpl : torch::nn::Module
{
    Seq2SeqNetImpl(int hidden, int groups, int devices)
        : hidden(hidden), devices(devices),
          grouperIn(register_module("grouper_in", torch::nn::Linear(kFeatureCount, hidden))),
          grouperOut(register_module("grouper_out", torch::nn::Linear(hidden, groups))),
          encoder(register_module("encoder", torch::nn::LSTM(torch::nn::LSTMOptions(kGroupInputs, hidden)))),
          decoder(register_module("decoder", torch::nn::LSTMCell(2 * hidden, hidden))),
          deviceEmbedding(register_module("device_embedding", torch::nn::Embedding(devices + 1, hidden))),
          attention(register_module("attention", torch::nn::Linear(hidden, hidden))),
          out(register_module("out", torch::nn::Linear(2 * hidden, devices)))
    {}

    torch::Tensor groupLogits(const torch::Tensor &x) { return grouperOut(torch::relu(grouperIn(x))); }

    // Decodes a device per group for S placements at once (sampled, or greedy): `groupInputs` is
    // (S, g, inputs), `bias` (S, g, k, in decoding order; may be undefined) is added to the
    // decoder's logits. Returns the choices (S, g), each placement's log-probability (S) and its
    // mean entropy per step (S).
    Sampled place(const torch::Tensor &groupInputs, const torch::Tensor &bias, bool greedy,
                  const at::Generator &generator)
    {
        const int64_t count = groupInputs.size(0), g = groupInputs.size(1);
        auto [encoded, state] = encoder->forward(groupInputs.transpose(0, 1));              // (g, S, h)
        const torch::Tensor memory = encoded.transpose(0, 1);                               // (S, g, h)
        torch::Tensor h = std::get<0>(state).squeeze(0), c = std::get<1>(state).squeeze(0); // (S, h)
        torch::Tensor context = torch::zeros({count, hidden}, groupInputs.options());
        torch::Tensor previous =
            torch::full({count}, devices, torch::dtype(torch::kInt64).device(groupInputs.device()));
        torch::Tensor logProb = torch::zeros({count}, groupInputs.options()), entropy = torch::zeros_like(logProb);
        std::vector<torch::Tensor> choices;
        for (int64_t t = 0; t < g; ++t) {
            std::tie(h, c) =
                decoder->forward(torch::cat({deviceEmbedding(previous), context}, 1), std::make_tuple(h, c));
            const torch::Tensor scores = torch::bmm(memory, attention(h).unsqueeze(2)).squeeze(2); // (S, g)
            context = torch::bmm(torch::softmax(scores, 1).unsqueeze(1), memory).squeeze(1);       // (S, h)
            torch::Tensor logits = out(torch::cat({h, context}, 1));                               // (S, k)
            if (bias.defined())
                logits = logits + bias.select(1, t);
            const torch::Tensor logp = torch::log_softmax(logits, 1);
            const torch::Tensor choice = greedy ? logp.argmax(1) : drawRows(logp.exp(), generator);
            logProb = logProb + logp.gather(1, choice.unsqueeze(1)).squeeze(1);
            entropy = entropy - (logp.exp() * logp).sum(1);
            choices.push_back(choice);
            previous = choice.detach();
        }
        Sampled all;
        all.choice = torch::stack(choices, 1);
        all.logProb = logProb;
        all.entropy = entropy / static_cast<double>(std::max<int64_t>(1, g));
        return all;
    }

    int hidden, devices;
    torch::nn::Linear grouperIn, grouperOut;
    torch::nn::LSTM encoder;
    torch::nn::LSTMCell decoder;
    torch::nn::Embedding deviceEmbedding;
    torch::nn::Linear attention, out;
};
TORCH_MODULE(Seq2SeqNet);

// Groups by scope: the deepest scope level with at most `groups` distinct ancestors.
std::vector<int64_t> scopeGroups(const Graph &graph, int groups)
{
    const ScopeTree &tree = graph.scopes();
    std::vector<int64_t> best(graph.nodeCount(), 0);
    for (int depth = 1;; ++depth) {
        std::vector<int> ancestor(graph.nodeCount());
        std::unordered_map<int, int64_t> index;
        int deepest = 0;
        for (int v = 0; v < graph.nodeCount(); ++v) {
            int s = graph.scopeIndex(v);
            deepest = std::max(deepest, tree.scope(s).depth);
            while (tree.scope(s).depth > depth)
                s = tree.scope(s).parent;
            ancestor[v] = s;
            index.emplace(s, static_cast<int64_t>(index.size()));
        }
        if (static_cast<int>(index.size()) > groups)
            break;
        for (int v = 0; v < graph.nodeCount(); ++v)
            best[v] = index[ancestor[v]];
        if (depth >= deepest)
            break;
    }
    return best;
}

// The residual warm start's fixed logits. A logit margin of strength + log(options - 1) makes the
// untrained choice the start's with probability e^strength / (e^strength + 1) (95% at 3), whatever
// the number of options; an op's group margin adds log(ops per group).
struct WarmPrior
{
    torch::Tensor group;  // n x G on the op's target group (learned grouping); undefined otherwise
    torch::Tensor device; // G x k on the device most of the group's target ops start on
};

WarmPrior warmPrior(const Graph &graph, const std::vector<int> &start, const std::vector<int64_t> &scopeGroup,
                    int groups, int k, double strength)
{
    const int n = graph.nodeCount();
    // Target groups: by scope when groups are fixed; otherwise group g stands for device g mod k
    // and a slice of the topological order, so a group holds ops the start keeps together.
    std::vector<int64_t> target(n);
    const int slices = std::max(1, groups / k);
    for (int v = 0; v < n; ++v)
        target[v] = !scopeGroup.empty() ? scopeGroup[v]
                    : groups < k        ? start[v] % groups
                                        : start[v] + int64_t(k) * std::min<int64_t>(slices - 1, int64_t(graph.rank(v)) *
                                                                                             slices / std::max(1, n));
    std::vector<float> count(size_t(groups) * k, 0.0f);
    for (int v = 0; v < n; ++v)
        count[size_t(target[v]) * k + start[v]] += 1;
    const float deviceMargin = float(strength + std::log(std::max(1, k - 1)));
    WarmPrior p;
    p.device = torch::zeros({groups, k});
    for (int g = 0; g < groups; ++g) {
        const float *row = &count[size_t(g) * k];
        const int most = int(std::max_element(row, row + k) - row);
        if (row[most] > 0)
            p.device[g][most] = deviceMargin;
    }
    if (scopeGroup.empty()) {
        const torch::Tensor t = torch::from_blob(target.data(), {n}, torch::kInt64);
        // Per op, the margin also grows with the ops per group, so that a sample moves about as
        // many ops out of their group as the decoder moves groups off their device.
        const double perGroup = std::max(1.0, double(n) / groups);
        p.group = torch::one_hot(t, groups).to(torch::kFloat32) *
                  float(strength + std::log(std::max(1, groups - 1)) + std::log(perGroup));
    }
    return p;
}

// Group inputs, ordered by the groups' mean rank (the encoder reads them in that order).
torch::Tensor groupInputs(const torch::Tensor &x, const torch::Tensor &ranks, const torch::Tensor &group, int groups,
                          torch::Tensor &order)
{
    const auto opts = x.options();
    const torch::Tensor counts = torch::zeros({groups}, opts).index_add_(0, group, torch::ones_like(ranks));
    const torch::Tensor safe = counts.clamp_min(1).unsqueeze(1);
    const torch::Tensor meanFeatures = torch::zeros({groups, x.size(1)}, opts).index_add_(0, group, x) / safe;
    const torch::Tensor meanRank = torch::zeros({groups}, opts).index_add_(0, group, ranks) / safe.squeeze(1);
    order = torch::argsort(meanRank + (counts == 0).to(opts.dtype()) * 2); // empty groups last
    const torch::Tensor inputs =
        torch::cat({meanFeatures, torch::log1p(counts).unsqueeze(1) / 10, meanRank.unsqueeze(1)}, 1);
    return inputs.index_select(0, order);
}

class RlSeq2SeqPlacer : public Placer
{
public:
    FamilyInfo info() const override { return rlSeq2SeqFamilyInfo(); }

    PlacerOutput place(const PlacementProblem &problem, const ParamValues &params, const RunControl &control,
                       const Placement *) const override
    {
        const Graph &graph = problem.graph;
        const int k = problem.cluster.deviceCount();
        RunClock clock(control, params);
        const RunStart run = startRun(params, control, graph.nodeCount());
        const torch::Device device = run.device;
        int hidden = params.integer("hidden"), groups = params.integer("groups");
        std::string warm = params.choice("warm_start");
        double prior = warm == "none" ? 0.0 : params.number("prior");
        const std::string load = params.text("checkpoint");
        std::string storedNote;
        if (!load.empty()) { // the stored policy decides its architecture and whether it learned over a prior
            const auto stored = nlohmann::json::parse(checkpointParams(load, "rl-seq2seq"));
            hidden = fixedByCheckpoint(load, stored, params, "hidden");
            groups = fixedByCheckpoint(load, stored, params, "groups");
            prior = stored.value("prior", 0.0);
            warm = prior > 0 ? stored.value("warm_start", std::string("heft")) : "none";
            requireDeviceCount(load, stored.value("devices", k), k);
            storedNote = storedSettingsNote("rl-seq2seq", load, params,
                                            {{"prior", settingText(params.number("prior")), settingText(prior)},
                                             {"warm_start", params.choice("warm_start"), warm}});
        }
        Seq2SeqNet net = run.seeded([&] { return Seq2SeqNet(hidden, groups, k); });
        if (!load.empty())
            loadCheckpoint(load, "rl-seq2seq", *net);
        net->to(device);
        const bool byScope = params.choice("grouping") == "scope";

        const torch::Tensor x = nodeFeatures(graph).to(device);
        const torch::Tensor ranks = x.select(1, kOpBuckets + 6).contiguous();
        torch::Tensor fixedGroups;
        std::vector<int64_t> scopeGroup;
        if (byScope) {
            scopeGroup = scopeGroups(graph, groups);
            fixedGroups = torch::from_blob(scopeGroup.data(), {graph.nodeCount()}, torch::kInt64).clone().to(device);
        }
        Judge judge(graph, problem.cluster, problem.constraints, problem.objective, &clock);
        clock.stopAtFloor(judge);
        WarmPrior warmStart;
        if (warm != "none") {
            const PlacerResult r = warmStartPlacement(problem, warm == "best", clock);
            clock.countEvaluations(r.evaluations);
            judge.offer(r.placement.devices());
            warmStart = warmPrior(graph, r.placement.devices(), scopeGroup, groups, k, prior);
            warmStart.device = warmStart.device.to(device);
            if (warmStart.group.defined())
                warmStart.group = warmStart.group.to(device);
        }
        torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(params.number("lr")));
        Baseline baseline(params.number("baseline_decay"));
        const int samples = params.integer("samples");
        const double entropyWeight = params.number("entropy_weight");

        // `count` placements: the grouper's logits once, a grouping per placement (sampled, or
        // fixed by scope), then every placement's devices decoded in one batch. logp and entropy
        // get one value per placement.
        auto rollouts = [&](int count, bool greedy, torch::Tensor &logp, torch::Tensor &entropy) {
            std::vector<torch::Tensor> grouping, inputs, biases, orders(static_cast<size_t>(count)), groupLogp;
            torch::Tensor groupEntropy = torch::zeros({}, x.options()), groupLog;
            if (!byScope) {
                torch::Tensor logits = net->groupLogits(x);
                if (warmStart.group.defined())
                    logits = logits + warmStart.group;
                groupLog = torch::log_softmax(logits, 1);
                groupEntropy = -(groupLog.exp() * groupLog).sum(1).mean();
            }
            for (int s = 0; s < count; ++s) {
                torch::Tensor group = fixedGroups;
                if (!byScope) {
                    group = greedy ? groupLog.argmax(1) : drawRows(groupLog.exp(), run.generator);
                    groupLogp.push_back(groupLog.gather(1, group.unsqueeze(1)).sum());
                }
                grouping.push_back(group);
                inputs.push_back(groupInputs(x, ranks, group, groups, orders[static_cast<size_t>(s)]));
                if (warmStart.device.defined())
                    biases.push_back(warmStart.device.index_select(0, orders[static_cast<size_t>(s)]));
            }
            const Sampled d = net->place(torch::stack(inputs), biases.empty() ? torch::Tensor() : torch::stack(biases),
                                         greedy, run.generator);
            logp = groupLogp.empty() ? d.logProb : torch::stack(groupLogp) + d.logProb;
            entropy = groupEntropy + d.entropy;
            std::vector<std::vector<int>> placements;
            for (int s = 0; s < count; ++s) { // orders[s][t] is the group decoded at step t
                const torch::Tensor deviceOfGroup = torch::empty({groups}, torch::kInt64)
                                                        .to(device)
                                                        .index_put_({orders[static_cast<size_t>(s)]}, d.choice[s]);
                placements.push_back(toVector(deviceOfGroup.index_select(0, grouping[static_cast<size_t>(s)])));
            }
            return placements;
        };

        for (int it = 0; clock.next(it); ++it) {
            std::vector<double> rewards, makespans;
            torch::Tensor logps, entropies;
            std::vector<std::vector<int>> placements = rollouts(samples, false, logps, entropies);
            for (int s = 0; s < samples && !clock.exhausted(); ++s) {
                rewards.push_back(rewardOf(judge.evaluate(placements[static_cast<size_t>(s)])));
                makespans.push_back(judge.lastMakespan());
            }
            if (static_cast<int>(rewards.size()) < samples)
                break; // the budget ended inside the batch
            const double mean = std::accumulate(rewards.begin(), rewards.end(), 0.0) / samples;
            if (it == 0)
                baseline.update(mean);
            // Advantages over the moving-average baseline, scaled by the batch's spread so that the
            // step size does not depend on the graph's makespan scale.
            double var = 0;
            for (double r : rewards)
                var += (r - mean) * (r - mean);
            const double scale = std::sqrt(var / samples) + 1e-3 * std::abs(mean) + 1e-12;
            std::vector<float> weights;
            for (int s = 0; s < samples; ++s)
                weights.push_back(static_cast<float>(boundedWeight((rewards[s] - baseline.value()) / scale) / samples));
            torch::Tensor loss = -(torch::tensor(weights).to(device) * logps).sum();
            const torch::Tensor entropy = entropies.mean();
            loss = loss - entropyWeight * entropy;
            optimizer.zero_grad();
            loss.backward();
            torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
            optimizer.step();
            baseline.update(mean);
            clock.report(it, &judge, makespans, loss.item<double>(), entropy.item<double>());
        }
        if (!clock.exhausted() || judge.best().empty()) {
            // The greedy decode of the trained policy competes with the samples.
            torch::NoGradGuard noGrad;
            torch::Tensor logp, entropy;
            std::vector<int> greedy = rollouts(1, true, logp, entropy)[0];
            judge.evaluate(greedy);
        }
        if (!params.text("save_checkpoint").empty()) {
            nlohmann::json stored{
                {"hidden", hidden}, {"groups", groups}, {"devices", k}, {"prior", prior}, {"warm_start", warm}};
            saveCheckpoint(params.text("save_checkpoint"), "rl-seq2seq", stored.dump(), *net);
        }
        PlacerOutput out = judgedOutput("rl-seq2seq", judge, clock.evaluations(), true, clock.atFloor());
        if (!storedNote.empty())
            out.notes.push_back(storedNote);
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeRlSeq2SeqPlacer()
{
    return std::make_unique<RlSeq2SeqPlacer>();
}

} // namespace ps
