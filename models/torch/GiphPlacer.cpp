// giph (Hu et al., MLSys 2023): placement as a sequence of improvements. The gpNet pairs every
// op with every device it may use; each pair carries compute and communication features under
// the current placement, a GNN over the op graph gives each op an embedding, and a round of
// message passing over the gpNet's placement-dependent edges mixes in the options the op's
// neighbours hold. The policy scores every (op, device) pair (on a graph of more than
// `candidates_above` ops, the pairs of a candidate set drawn for each move) and moves one op per step;
// REINFORCE on the makespan improvements (discounted returns, a per-step baseline). Nothing in
// the network is sized by the device count, so a trained policy works unchanged when devices are
// added or removed.
#include "core/InputError.h"
#include "core/placers/Placer.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/CostModel.h"
#include "models/LearnerFamilies.h"
#include "models/Learners.h"
#include "models/torch/Collective.h"
#include "models/torch/PolicySupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>
#include <random>

namespace ps {

namespace {

using namespace learn;

constexpr int kOptionFeatures = 10;

struct Heard;

struct GiphNetImpl : torch::nn::Module
{
    explicit GiphNetImpl(int hidden)
        : encoder(register_module("encoder", SageEncoder(kFeatureCount, hidden, 2))),
          option(register_module("option", torch::nn::Linear(hidden + kOptionFeatures, hidden))),
          mixSelf(register_module("mix_self", torch::nn::Linear(hidden, hidden))),
          mixPred(register_module("mix_pred", torch::nn::Linear(torch::nn::LinearOptions(hidden, hidden).bias(false)))),
          mixSucc(register_module("mix_succ", torch::nn::Linear(torch::nn::LinearOptions(hidden, hidden).bias(false)))),
          score(register_module("score", torch::nn::Linear(hidden, 1)))
    {}
    // The option layer is one linear map of [embedding, option features]; split in two, the
    // embedding's part is computed once per episode (n x H) and only the option features' part
    // (n x k x O) each move, which is what a move changes: the same function, a fraction of the
    // multiply-adds of the concatenated form on every move.
    // embeddings (n, H) -> their part of the option layer's pre-activation (n, H), bias included
    torch::Tensor project(const torch::Tensor &h)
    {
        const int64_t hidden = h.size(1);
        return torch::nn::functional::linear(h, option->weight.slice(1, 0, hidden), option->bias);
    }
    // projected embeddings (n, H), the option features of the ops in `rows` (c, k, O), and the
    // options their neighbours hold -> logits (c, k). Then one round of message passing over the
    // gpNet, whose edges depend on the placement: option (v, d) hears from the options its
    // predecessors and successors hold now, (u, p(u)) (mean over each direction); the edges'
    // communication costs to d are among the option's own features (the link times in and out).
    torch::Tensor forward(const torch::Tensor &projected, const torch::Tensor &options, const torch::Tensor &rows,
                          const Heard &heard);

    SageEncoder encoder;
    torch::nn::Linear option, mixSelf, mixPred, mixSucc, score;
};
TORCH_MODULE(GiphNet);

// What the ops of `rows` hear: the neighbours' indices (m), the option each holds now (m, O),
// and the mean over each op's predecessors and over its successors as (c, m) matrices.
struct Heard
{
    torch::Tensor nodes, held, fromPred, fromSucc;
};

torch::Tensor GiphNetImpl::forward(const torch::Tensor &projected, const torch::Tensor &options,
                                   const torch::Tensor &rows, const Heard &heard)
{
    const int64_t hidden = projected.size(1);
    const torch::Tensor w = option->weight.slice(1, hidden).t(); // (O, H)
    const torch::Tensor holding = torch::relu(projected.index_select(0, heard.nodes) + torch::matmul(heard.held, w));
    const torch::Tensor messages =
        mixPred(torch::mm(heard.fromPred, holding)) + mixSucc(torch::mm(heard.fromSucc, holding)); // (c, H)
    const torch::Tensor h0 = torch::relu(projected.index_select(0, rows).unsqueeze(1) + torch::matmul(options, w));
    return score(torch::relu(mixSelf(h0) + messages.unsqueeze(1))).squeeze(2);
}

// The gpNet's option features of every (op, device) pair under a placement: compute time there,
// whether it is the current device, the input and output bytes that would cross devices and the
// time the links would take for them (latency + bytes / bandwidth, over the compute time), the
// device's speed, memory use and overflow, and load.
class OptionFeatures
{
public:
    OptionFeatures(const Graph &g, const Cluster &c) : m_g(g), m_c(c), m_costs(g, c)
    {
        double fastest = 0;
        for (const Device &d : c.devices())
            fastest = std::max(fastest, d.flopsPerS);
        for (const Device &d : c.devices())
            m_speed.push_back(fastest > 0 ? d.flopsPerS / fastest : 0);
        m_meanCompute.resize(g.nodeCount());
        for (int v = 0; v < g.nodeCount(); ++v)
            m_meanCompute[v] = m_costs.meanCompute(v) + 1e-12;
        m_totalFlops = g.totalFlops() + 1e-9;
    }

    // The options of the ops in `rows` on every device (c, k, O).
    torch::Tensor build(const std::vector<int> &p, const std::vector<int64_t> &rows) const
    {
        const int k = m_c.deviceCount();
        const Loads loads = loadsOf(p);
        std::vector<float> f(rows.size() * k * kOptionFeatures, 0.0f);
        std::vector<double> scratch;
        for (size_t i = 0; i < rows.size(); ++i)
            write(static_cast<int>(rows[i]), p, loads, 0, k, &f[i * k * kOptionFeatures], scratch);
        return torch::from_blob(f.data(), {static_cast<int64_t>(rows.size()), k, kOptionFeatures}, torch::kFloat32)
            .clone();
    }
    // The option each op of `nodes` holds now, (u, p(u)) (m, O): what the gpNet's messages carry.
    torch::Tensor held(const std::vector<int> &p, const std::vector<int64_t> &nodes) const
    {
        const Loads loads = loadsOf(p);
        std::vector<float> f(nodes.size() * kOptionFeatures, 0.0f);
        std::vector<double> scratch;
        for (size_t i = 0; i < nodes.size(); ++i) {
            const int v = static_cast<int>(nodes[i]);
            write(v, p, loads, p[v], p[v] + 1, &f[i * kOptionFeatures], scratch);
        }
        return torch::from_blob(f.data(), {static_cast<int64_t>(nodes.size()), kOptionFeatures}, torch::kFloat32)
            .clone();
    }

private:
    struct Loads
    {
        std::vector<double> memory, flops;
    };
    Loads loadsOf(const std::vector<int> &p) const
    {
        Loads l{std::vector<double>(m_c.deviceCount(), 0), std::vector<double>(m_c.deviceCount(), 0)};
        for (int v = 0; v < m_g.nodeCount(); ++v) {
            l.memory[p[v]] += m_g.memBytes(v);
            l.flops[p[v]] += m_g.flops(v);
        }
        return l;
    }
    // Op v's options on devices first .. last-1, written one after another from `out`; `scratch`
    // is working space the caller keeps between ops.
    void write(int v, const std::vector<int> &p, const Loads &loads, int first, int last, float *out,
               std::vector<double> &scratch) const
    {
        const int k = last - first;
        double inTotal = 1e-9, outTotal = 1e-9;
        scratch.assign(4 * static_cast<size_t>(k), 0.0);
        double *inOff = scratch.data(), *outOff = inOff + k, *inSeconds = outOff + k, *outSeconds = inSeconds + k;
        // Per device d: the bytes of v's inputs (outputs) that stay local if v goes there, and the
        // links' latency and bandwidth for them.
        auto side = [&](auto neighbours, auto bytes, bool incoming, double &total, double *local, double *seconds) {
            for (size_t i = 0; i < neighbours.size(); ++i) {
                total += bytes[i];
                const int at = p[neighbours[i]];
                if (at >= first && at < last)
                    local[at - first] += bytes[i];
                for (int d = first; d < last; ++d)
                    seconds[d - first] +=
                        incoming ? m_costs.transfer(at, d, bytes[i]) : m_costs.transfer(d, at, bytes[i]);
            }
        };
        side(m_g.predecessors(v), m_g.predecessorBytes(v), true, inTotal, inOff, inSeconds);
        side(m_g.successors(v), m_g.successorBytes(v), false, outTotal, outOff, outSeconds);
        for (int d = first; d < last; ++d) {
            const int i = d - first;
            float *x = out + static_cast<size_t>(i) * kOptionFeatures;
            const double cap = std::max(1.0, m_c.device(d).memoryBytes);
            const double memAfter = loads.memory[d] + (p[v] == d ? 0 : m_g.memBytes(v));
            x[0] = static_cast<float>(std::log1p(m_costs.compute(v, d) / m_meanCompute[v]));
            x[1] = p[v] == d ? 1.0f : 0.0f;
            x[2] = static_cast<float>(1 - inOff[i] / inTotal);   // input bytes that would cross
            x[3] = static_cast<float>(1 - outOff[i] / outTotal); // output bytes that would cross
            x[4] = static_cast<float>(m_speed[d]);
            x[5] = static_cast<float>(std::min(4.0, loads.memory[d] / cap));
            x[6] = memAfter > cap ? 1.0f : 0.0f;
            x[7] = static_cast<float>(loads.flops[d] / m_totalFlops);
            // Transfer time in and out against compute (capped where links of 1e-300 bytes/s made it
            // infinite, and the policy's every probability NaN).
            x[8] = static_cast<float>(std::log1p(std::min(inSeconds[i] / m_meanCompute[v], 1e30)));
            x[9] = static_cast<float>(std::log1p(std::min(outSeconds[i] / m_meanCompute[v], 1e30)));
        }
    }

    const Graph &m_g;
    const Cluster &m_c;
    CostModel m_costs;
    std::vector<double> m_speed, m_meanCompute;
    double m_totalFlops;
};

class GiphPlacer : public Placer
{
public:
    FamilyInfo info() const override { return giphFamilyInfo(); }

    bool takesStart() const override { return true; }

    PlacerOutput place(const PlacementProblem &problem, const ParamValues &params, const RunControl &control,
                       const Placement *given) const override
    {
        const Graph &graph = problem.graph;
        const int n = graph.nodeCount(), k = problem.cluster.deviceCount();
        RunClock clock(control, params);
        const RunStart run = startRun(params, control, n);
        Collective collective(control.distribution);
        const torch::Device device = run.device;
        int hidden = params.integer("hidden");
        const std::string load = params.text("checkpoint");
        if (!load.empty())
            hidden = fixedByCheckpoint(load, nlohmann::json::parse(checkpointParams(load, "giph")), params, "hidden");
        // Whether a move scores a candidate set (coreOf and rowsOf below), not every op.
        // Only on a graph of more than `candidates_above` ops (and more than `candidates`).
        const int64_t candidates = params.integer("candidates");
        const bool restricted = candidates > 0 && n > std::max<int64_t>(candidates, params.integer("candidates_above"));
        // A move's activations and their gradients are (scored ops) x devices x hidden (measured 28
        // bytes a unit with 1,024 devices on the 58k-op GNMT, 1.2 GB at the peak).
        const int64_t scored = restricted ? candidates : n;
        requireMemory("giph", 32.0 * hidden * static_cast<double>(scored) * k,
                      "scoring " + std::to_string(scored) + " ops x " + std::to_string(k) +
                          " devices a move with hidden=" + std::to_string(hidden));
        GiphNet net = run.seeded([&] { return GiphNet(hidden); });
        if (!load.empty())
            loadCheckpoint(load, "giph", *net);
        collective.shareParameters(net->parameters());
        net->to(device);

        const GraphData data = graphData(graph, device);
        const OptionFeatures options(graph, problem.cluster);
        Judge judge(graph, problem.cluster, problem.constraints, problem.objective, &clock);
        clock.stopAtFloor(judge);
        std::vector<int> warmStart;
        if (!given && (params.choice("start") == "heft" || params.choice("start") == "best")) {
            const PlacerResult warm = warmStartPlacement(problem, params.choice("start") == "best", clock);
            warmStart = warm.placement.devices();
            clock.countEvaluations(warm.evaluations);
        }
        // Episode e of iteration `it` draws its random start and its moves from a generator of its
        // own, so that whichever rank plays it, it is the same episode.
        auto startPlacement = [&](std::mt19937_64 &rng) {
            std::vector<int> p(n);
            if (given)
                p = given->devices();
            else if (!warmStart.empty())
                p = warmStart;
            else if (params.choice("start") == "round-robin")
                for (int v = 0; v < n; ++v)
                    p[v] = graph.rank(v) % k;
            else
                for (int &d : p)
                    d = static_cast<int>(rng() % static_cast<uint64_t>(k));
            judge.enforce(p);
            return p;
        };
        // Pinned ops cannot move, nor the ops colocated with a pinned op: their other options are
        // masked out. An op of a colocation group moves with its group (else enforcing the
        // constraints would silently undo the move).
        const Constraints &cons = problem.constraints;
        std::vector<int> fixedDevice(n, -1);
        for (int v = 0; v < n; ++v)
            if (cons.pinnedDevice(v) >= 0) {
                fixedDevice[v] = cons.pinnedDevice(v);
                if (cons.groupOf(v) >= 0)
                    for (int u : cons.groupMembers(cons.groupOf(v)))
                        fixedDevice[u] = cons.pinnedDevice(v);
            }
        // The other options of the fixed ops among `rows` masked out (c x k), built per move: a
        // whole n x k mask was 950 MB on the 58k-op GNMT x 4,096 devices. Undefined when none is.
        auto pinMaskOf = [&](const std::vector<int64_t> &rows) {
            if (std::none_of(rows.begin(), rows.end(), [&](int64_t v) { return fixedDevice[v] >= 0; }))
                return torch::Tensor();
            torch::Tensor mask = torch::zeros({static_cast<int64_t>(rows.size()), k}, torch::kFloat32);
            float *m = mask.data_ptr<float>();
            for (size_t i = 0; i < rows.size(); ++i)
                if (const int d = fixedDevice[rows[i]]; d >= 0) {
                    std::fill(m + i * k, m + (i + 1) * k, -1e9f);
                    m[i * k + d] = 0.0f;
                }
            return mask.to(device);
        };
        // Moves v (and its group) to d; records the nodes that differ from the episode's start.
        std::vector<char> moved(n, 0);
        std::vector<int> changed;
        // The ops that move with v: its colocation group, or v alone.
        auto movedWith = [&](int v) {
            return cons.groupOf(v) >= 0 ? cons.groupMembers(cons.groupOf(v)) : std::vector<int>{v};
        };
        auto setMove = [&](std::vector<int> &p, int v, int d) {
            for (int u : movedWith(v))
                p[u] = d;
        };
        auto move = [&](std::vector<int> &p, int v, int d) {
            for (int u : movedWith(v)) {
                p[u] = d;
                if (!moved[u]) {
                    moved[u] = 1;
                    changed.push_back(u);
                }
            }
        };

        const int steps = params.integer("episode_steps"), episodes = params.integer("samples");
        const double gamma = params.number("gamma"), entropyWeight = params.number("entropy_weight");
        torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(params.number("lr")));

        auto outOfTime = [&] { return clock.exhausted(); };
        std::vector<int> local(static_cast<size_t>(n), -1); // a neighbour's index in Heard::nodes
        // What the ops of `rows` hear under placement p: only their neighbours' held options are
        // built, so a move costs in proportion to the candidates, not to the graph.
        auto heardBy = [&](const std::vector<int> &p, const std::vector<int64_t> &rows) {
            if (!restricted) { // every op is a row and a neighbour: the graph's own mean matrices
                Heard heard{torch::Tensor(), options.held(p, rows).to(device), data.fromPred, data.fromSucc};
                heard.nodes = torch::tensor(rows, torch::kInt64).to(device);
                return heard;
            }
            std::vector<int64_t> nodes, at[2], of[2];
            std::vector<float> weight[2];
            for (int dir = 0; dir < 2; ++dir)
                for (size_t r = 0; r < rows.size(); ++r) {
                    const int v = static_cast<int>(rows[r]);
                    const auto nb = dir == 0 ? graph.predecessors(v) : graph.successors(v);
                    for (int u : nb) {
                        if (local[u] < 0) {
                            local[u] = static_cast<int>(nodes.size());
                            nodes.push_back(u);
                        }
                        at[dir].push_back(static_cast<int64_t>(r));
                        of[dir].push_back(local[u]);
                        weight[dir].push_back(1.0f / static_cast<float>(nb.size()));
                    }
                }
            for (int64_t u : nodes)
                local[static_cast<size_t>(u)] = -1;
            Heard heard;
            for (int dir = 0; dir < 2; ++dir) {
                const auto count = static_cast<int64_t>(weight[dir].size());
                at[dir].insert(at[dir].end(), of[dir].begin(), of[dir].end());
                (dir == 0 ? heard.fromPred : heard.fromSucc) =
                    torch::sparse_coo_tensor(torch::tensor(at[dir], torch::kInt64).view({2, count}),
                                             torch::tensor(weight[dir], torch::kFloat32),
                                             {static_cast<int64_t>(rows.size()), static_cast<int64_t>(nodes.size())})
                        .coalesce()
                        .to(device);
            }
            heard.held = options.held(p, nodes).to(device);
            heard.nodes = torch::tensor(nodes, torch::kInt64).to(device);
            return heard;
        };
        // The policy's logits over the options of `rows` (the move's candidate ops) under placement
        // p; staying put is not a move, so each op's current device is masked too.
        auto optionLogits = [&](const torch::Tensor &h, const std::vector<int> &p, const std::vector<int64_t> &rows) {
            const torch::Tensor opts = options.build(p, rows).to(device);
            const torch::Tensor stay = opts.select(2, 1) * -1e9f;
            const torch::Tensor index = torch::tensor(rows, torch::kInt64).to(device);
            torch::Tensor logits = net->forward(h, opts, index, heardBy(p, rows)) + stay;
            if (const torch::Tensor pinned = pinMaskOf(rows); pinned.defined())
                logits = logits + pinned;
            return logits.reshape({-1});
        };
        // The ops whose options a move chooses among: every op, or on a larger graph (a departure
        // from the paper, whose every move scores all n x k options: on the 11.6k-op GNMT that left
        // no time for one iteration a minute) a set of `candidates`: the episode start's critical
        // path (the ops whose moves can shorten it) and their neighbours, up to half of the set,
        // then random ops, drawn again every move.
        std::vector<int> criticalStart, critical; // the last start's critical path (episodes share starts)
        auto coreOf = [&](const std::vector<int> &start) {
            std::vector<int64_t> core;
            if (!restricted)
                return core;
            if (start != criticalStart) {
                critical = judge.criticalOps(start);
                criticalStart = start;
            }
            std::vector<char> in(static_cast<size_t>(n), 0);
            auto add = [&](int v) {
                if (!in[v] && static_cast<int64_t>(core.size()) < candidates / 2) {
                    in[v] = 1;
                    core.push_back(v);
                }
            };
            for (int v : critical)
                add(v);
            for (int v : critical) {
                for (int u : graph.predecessors(v))
                    add(u);
                for (int u : graph.successors(v))
                    add(u);
            }
            return core;
        };
        std::vector<char> drawn(static_cast<size_t>(n), 0); // rowsOf's marks, all 0 between calls
        auto rowsOf = [&](const std::vector<int64_t> &core, std::mt19937_64 &rng) {
            std::vector<int64_t> rows;
            if (!restricted) {
                rows.resize(static_cast<size_t>(n));
                std::iota(rows.begin(), rows.end(), 0);
                return rows;
            }
            rows = core;
            for (int64_t v : rows)
                drawn[static_cast<size_t>(v)] = 1;
            std::uniform_int_distribution<int> any(0, n - 1);
            while (static_cast<int64_t>(rows.size()) < candidates) {
                const int v = any(rng);
                if (!drawn[v]) {
                    drawn[v] = 1;
                    rows.push_back(v);
                }
            }
            for (int64_t v : rows) // cleared by the rows, not by a pass over every op
                drawn[static_cast<size_t>(v)] = 0;
            std::sort(rows.begin(), rows.end());
            return rows;
        };
        // One episode of moves from a start placement, without gradients: what was chosen and
        // what each move gained. Training replays it (below), so that only one step's n x k
        // option activations are alive at a time, not one per move.
        struct Episode
        {
            std::vector<int> start;
            std::vector<std::vector<int64_t>> rows; // each move's candidate ops
            std::vector<int64_t> actions;           // index into that move's rows x devices
            std::vector<double> gains;
        };
        auto episode = [&](const torch::Tensor &h, bool greedy, int it, int e, std::vector<double> &makespans) {
            torch::NoGradGuard noGrad;
            Episode ep;
            std::mt19937_64 rng(control.seed ^ (static_cast<uint64_t>(it) << 32) ^ static_cast<uint64_t>(e));
            const at::Generator generator = sampleGenerator(run.seed, it, e);
            ep.start = startPlacement(rng);
            const std::vector<int64_t> core = coreOf(ep.start);
            std::vector<int> p = ep.start;
            double current = judge.evaluateBase(p); // moves are then judged incrementally
            const double initial = current;
            for (int u : changed)
                moved[u] = 0;
            changed.clear();
            for (int s = 0; s < steps && !outOfTime(); ++s) {
                const std::vector<int64_t> &rows = ep.rows.emplace_back(rowsOf(core, rng));
                const torch::Tensor logits = optionLogits(h, p, rows).unsqueeze(0);
                const int64_t flat =
                    (greedy ? greedyRows(logits) : sampleRows(logits, generator)).choice.item<int64_t>();
                move(p, static_cast<int>(rows[static_cast<size_t>(flat / k)]), static_cast<int>(flat % k));
                const double next = judge.evaluateChanged(p, changed);
                ep.gains.push_back(boundedWeight((current - next) / initial));
                ep.actions.push_back(flat);
                current = next;
            }
            makespans[static_cast<size_t>(e)] = judge.lastMakespan(); // where the episode ends
            return ep;
        };

        std::vector<double> stepBaseline(steps, 0.0);
        const std::string saveTo = params.text("save_checkpoint");
        auto save = [&] { saveCheckpoint(saveTo, "giph", nlohmann::json{{"hidden", hidden}}.dump(), *net); };
        PeriodicCheckpoint periodic(saveTo, collective.leader() && collective.size() > 1,
                                    params.number("checkpoint_every"));
        try {
            for (int it = 0; !collective.any(!clock.next(it)); ++it) {
                // Episode e is rank e mod N's. Shared afterwards: where each ended, the moves,
                // and each step's summed returns and count (the baseline).
                std::vector<double> shared(static_cast<size_t>(episodes + 1 + 2 * steps), 0.0);
                std::vector<double> makespans(static_cast<size_t>(episodes), 0.0);
                std::vector<Episode> played;
                std::vector<int> playedIndex;
                std::vector<std::vector<double>> returns;
                bool cut = false; // the budget ended before an episode of this rank
                {
                    torch::NoGradGuard noGrad;
                    const torch::Tensor h = net->project(net->encoder(data));
                    for (int e = 0; e < episodes && !cut; ++e) {
                        if (!collective.mine(e))
                            continue;
                        if ((cut = outOfTime()))
                            break;
                        played.push_back(episode(h, false, it, e, makespans));
                        playedIndex.push_back(e);
                        const std::vector<double> &gains = played.back().gains;
                        std::vector<double> g(gains.size());
                        double running = 0;
                        for (size_t t = gains.size(); t-- > 0;)
                            g[t] = running = gains[t] + gamma * running;
                        returns.push_back(g);
                    }
                }
                std::copy(makespans.begin(), makespans.end(), shared.begin());
                for (const Episode &ep : played)
                    shared[static_cast<size_t>(episodes)] += static_cast<double>(ep.actions.size());
                for (const auto &r : returns)
                    for (size_t t = 0; t < r.size(); ++t) {
                        shared[static_cast<size_t>(episodes + 1) + t] += r[t];
                        shared[static_cast<size_t>(episodes + 1 + steps) + t] += 1;
                    }
                if (collective.any(cut))
                    break;
                shared = collective.sum(shared);
                const double moves = shared[static_cast<size_t>(episodes)];
                if (moves == 0)
                    break; // the budget ended before a move
                // REINFORCE, one step at a time: each step's loss is backpropagated into the option
                // scorer and into a detached copy of the projected embeddings, whose gradient then
                // goes through the projection and the encoder once.
                const torch::Tensor h = net->project(net->encoder(data));
                const torch::Tensor hd = h.detach().requires_grad_(true);
                optimizer.zero_grad();
                double lossSum = 0, entropySum = 0;
                for (size_t e = 0; e < played.size() && !cut; ++e) {
                    std::vector<int> p = played[e].start;
                    for (size_t t = 0; t < played[e].actions.size() && !(cut = outOfTime()); ++t) {
                        const int64_t flat = played[e].actions[t];
                        const torch::Tensor logp = torch::log_softmax(optionLogits(hd, p, played[e].rows[t]), 0);
                        const torch::Tensor entropy = -(logp.exp() * logp).sum();
                        const torch::Tensor loss = -(returns[e][t] - stepBaseline[t]) * logp[flat] / episodes -
                                                   entropyWeight * entropy / moves;
                        loss.backward();
                        lossSum += loss.item<double>();
                        entropySum += entropy.item<double>();
                        setMove(p, static_cast<int>(played[e].rows[t][static_cast<size_t>(flat / k)]),
                                static_cast<int>(flat % k));
                    }
                }
                if (collective.any(cut))
                    break; // the budget ended inside the update: it is dropped
                if (hd.grad().defined())
                    h.backward(hd.grad());
                collective.sumGradients(net->parameters());
                torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
                optimizer.step();
                for (size_t t = 0; t < stepBaseline.size(); ++t) {
                    const double sum = shared[static_cast<size_t>(episodes + 1) + t];
                    const double count = shared[static_cast<size_t>(episodes + 1 + steps) + t];
                    if (count > 0)
                        stepBaseline[t] = it == 0 ? sum / count : 0.9 * stepBaseline[t] + 0.1 * sum / count;
                }
                const std::vector<double> sums = collective.sum({lossSum, entropySum});
                if (collective.size() > 1)
                    clock.setRanks(collective.perRank(static_cast<double>(clock.evaluations())));
                clock.report(it, &judge, std::vector<double>(shared.begin(), shared.begin() + episodes), sums[0],
                             sums[1] / moves);
                periodic.maybeSave(it, save);
            }
            if (!outOfTime()) { // the trained policy's greedy episode, when budget is left
                torch::NoGradGuard noGrad;
                std::vector<double> makespans(1);
                episode(net->project(net->encoder(data)), true, 0, 0, makespans);
            } else if (judge.best().empty()) {
                // The budget ended before any episode was judged: the start, judged once (a greedy
                // episode here took 0.63 s past a 2 s limit on 200,000 ops).
                std::mt19937_64 rng(run.seed);
                judge.offer(startPlacement(rng));
            }
            shareResult(collective, judge, clock);
        } catch (const LostRank &e) {
            throw LostRank(e.what() + periodic.keptNote());
        }
        if (!saveTo.empty() && collective.leader())
            save();
        PlacerOutput out = learnerOutput("giph", judge, clock, collective);
        if (restricted)
            out.notes.push_back("giph: each move chose among the options of " + std::to_string(candidates) + " of " +
                                std::to_string(n) +
                                " ops (the episode start's critical path, its neighbours, then random ones)");
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeGiphPlacer()
{
    return std::make_unique<GiphPlacer>();
}

} // namespace ps
