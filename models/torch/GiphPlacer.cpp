// giph (Hu et al., MLSys 2023): placement as a sequence of improvements. The gpNet pairs every
// op with every device it may use; each pair carries compute and communication features under
// the current placement, and a GNN over the op graph gives each op an embedding. The policy
// scores every (op, device) pair and moves one op per step; REINFORCE on the makespan
// improvements (discounted returns, a per-step baseline). Nothing in the network is sized by
// the device count, so a trained policy works unchanged when devices are added or removed.
#include "core/InputError.h"
#include "core/placers/Placer.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/CostModel.h"
#include "models/Learners.h"
#include "models/torch/PolicySupport.h"

#include <nlohmann/json.hpp>

#include <numeric>
#include <random>

namespace ps {

namespace {

using namespace learn;

constexpr int kOptionFeatures = 8;

struct GiphNetImpl : torch::nn::Module
{
    explicit GiphNetImpl(int hidden)
        : encoder(register_module("encoder", SageEncoder(kFeatureCount, hidden, 2))),
          option(register_module("option", torch::nn::Linear(hidden + kOptionFeatures, hidden))),
          score(register_module("score", torch::nn::Linear(hidden, 1)))
    {
    }
    // embeddings (n, H) and option features (n, k, O) -> logits (n, k)
    torch::Tensor forward(const torch::Tensor &h, const torch::Tensor &options)
    {
        const torch::Tensor expanded = h.unsqueeze(1).expand({h.size(0), options.size(1), h.size(1)});
        return score(torch::relu(option(torch::cat({expanded, options}, 2)))).squeeze(2);
    }
    SageEncoder encoder;
    torch::nn::Linear option, score;
};
TORCH_MODULE(GiphNet);

// The gpNet's option features of every (op, device) pair under a placement.
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

    torch::Tensor build(const std::vector<int> &p) const
    {
        const int n = m_g.nodeCount(), k = m_c.deviceCount();
        std::vector<double> memory(k, 0), flops(k, 0);
        for (int v = 0; v < n; ++v) {
            memory[p[v]] += m_g.memBytes(v);
            flops[p[v]] += m_g.flops(v);
        }
        std::vector<float> f(static_cast<size_t>(n) * k * kOptionFeatures, 0.0f);
        std::vector<double> inOff(k), outOff(k);
        for (int v = 0; v < n; ++v) {
            double inTotal = 1e-9, outTotal = 1e-9;
            std::fill(inOff.begin(), inOff.end(), 0.0);
            std::fill(outOff.begin(), outOff.end(), 0.0);
            const auto preds = m_g.predecessors(v);
            const auto predBytes = m_g.predecessorBytes(v);
            for (size_t i = 0; i < preds.size(); ++i) {
                inTotal += predBytes[i];
                inOff[p[preds[i]]] += predBytes[i]; // bytes that stay local if v goes there
            }
            const auto succs = m_g.successors(v);
            const auto succBytes = m_g.successorBytes(v);
            for (size_t i = 0; i < succs.size(); ++i) {
                outTotal += succBytes[i];
                outOff[p[succs[i]]] += succBytes[i];
            }
            for (int d = 0; d < k; ++d) {
                float *x = &f[(static_cast<size_t>(v) * k + d) * kOptionFeatures];
                const double cap = std::max(1.0, m_c.device(d).memoryBytes);
                const double memAfter = memory[d] + (p[v] == d ? 0 : m_g.memBytes(v));
                x[0] = static_cast<float>(std::log1p(m_costs.compute(v, d) / m_meanCompute[v]));
                x[1] = p[v] == d ? 1.0f : 0.0f;
                x[2] = static_cast<float>(1 - inOff[d] / inTotal);   // input bytes that would cross
                x[3] = static_cast<float>(1 - outOff[d] / outTotal); // output bytes that would cross
                x[4] = static_cast<float>(m_speed[d]);
                x[5] = static_cast<float>(std::min(4.0, memory[d] / cap));
                x[6] = memAfter > cap ? 1.0f : 0.0f;
                x[7] = static_cast<float>(flops[d] / m_totalFlops);
            }
        }
        return torch::from_blob(f.data(), {n, k, kOptionFeatures}, torch::kFloat32).clone();
    }

private:
    const Graph &m_g;
    const Cluster &m_c;
    CostModel m_costs;
    std::vector<double> m_speed, m_meanCompute;
    double m_totalFlops;
};

class GiphPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        using T = HyperParam::Type;
        FamilyInfo f{"giph",
                     "GiPH (Hu et al. 2023): gpNet of (op, device) options, GNN policy that moves one op per step, "
                     "REINFORCE on makespan improvements; independent of the device count",
                     commonParams(50)};
        f.params.push_back({"episode_steps", T::Int, 1, 100000, 32, {}, "moves per episode"});
        f.params.push_back(linearTuned({"gamma", T::Real, 0, 1, 0.97, {}, "discount of later improvements"}));
        f.params.push_back(logTuned({"entropy_weight", T::Real, 0, 10, 0.01, {}, "entropy bonus"}));
        f.params.push_back({"start", T::Choice, 0, 0, 0, {"heft", "random", "round-robin"},
                            "the placement episodes start from (the paper: random; a composition's input "
                            "replaces it)"});
        f.trains = true;
        return f;
    }

    PlacerOutput place(const PlacementProblem &problem, const ParamValues &params, const RunControl &control,
                       const Placement *given) const override
    {
        const Graph &graph = problem.graph;
        const int n = graph.nodeCount(), k = problem.cluster.deviceCount();
        RunClock clock(control, params.integer("iterations"));
        const RunStart run = startRun(params, control);
        const torch::Device device = run.device;
        std::mt19937_64 rng(control.seed);
        int hidden = params.integer("hidden");
        const std::string load = params.text("checkpoint");
        if (!load.empty())
            hidden = nlohmann::json::parse(checkpointParams(load, "giph")).value("hidden", hidden);
        GiphNet net = run.seeded([&] { return GiphNet(hidden); });
        if (!load.empty())
            loadCheckpoint(load, "giph", *net);
        net->to(device);

        const GraphData data = graphData(graph, device);
        const OptionFeatures options(graph, problem.cluster);
        Judge judge(graph, problem.cluster, problem.constraints, problem.objective, &clock);
        std::vector<int> heftStart;
        if (!given && params.choice("start") == "heft") {
            const PlacerResult heft = runPlacer(PlacerRegistry::builtin(), "heft", problem, {}, {});
            heftStart = heft.placement.devices();
            clock.countEvaluations(heft.evaluations);
        }
        auto startPlacement = [&] {
            std::vector<int> p(n);
            if (given)
                p = given->devices();
            else if (!heftStart.empty())
                p = heftStart;
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
        std::vector<float> maskValues(static_cast<size_t>(n) * k, 0.0f);
        for (int v = 0; v < n; ++v)
            if (fixedDevice[v] >= 0)
                for (int d = 0; d < k; ++d)
                    if (d != fixedDevice[v])
                        maskValues[static_cast<size_t>(v) * k + d] = -1e9f;
        auto move = [&](std::vector<int> &p, int v, int d) {
            if (cons.groupOf(v) >= 0)
                for (int u : cons.groupMembers(cons.groupOf(v)))
                    p[u] = d;
            p[v] = d;
        };
        const torch::Tensor pinMask = torch::from_blob(maskValues.data(), {n, k}, torch::kFloat32).clone().to(device);

        const int steps = params.integer("episode_steps"), episodes = params.integer("samples");
        const double gamma = params.number("gamma"), entropyWeight = params.number("entropy_weight");
        torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(params.number("lr")));

        auto outOfTime = [&] { return clock.exhausted(); };
        // One episode: moves from a start placement; returns per-step log-probs and improvements.
        auto episode = [&](const torch::Tensor &h, bool greedy, std::vector<torch::Tensor> &logps,
                           std::vector<torch::Tensor> &entropies, std::vector<double> &gains,
                           std::vector<double> &makespans) {
            std::vector<int> p = startPlacement();
            double current = judge.evaluate(p);
            const double initial = current;
            for (int s = 0; s < steps && !outOfTime(); ++s) {
                // Staying put is not a move: the current device of each op is masked too.
                const torch::Tensor opts = options.build(p).to(device);
                const torch::Tensor stay = opts.select(2, 1) * -1e9f;
                const torch::Tensor logits = (net->forward(h, opts) + pinMask + stay).reshape({-1});
                Sampled pick = greedy ? greedyRows(logits.unsqueeze(0)) : sampleRows(logits.unsqueeze(0), run.generator);
                const int64_t flat = pick.choice.item<int64_t>();
                const int v = static_cast<int>(flat / k), d = static_cast<int>(flat % k);
                move(p, v, d);
                judge.enforce(p);
                const double next = judge.evaluate(p);
                gains.push_back((current - next) / initial);
                logps.push_back(pick.logProb);
                entropies.push_back(pick.entropy);
                current = next;
            }
            makespans.push_back(judge.lastMakespan()); // where the episode ends
        };

        std::vector<double> stepBaseline(steps, 0.0);
        for (int it = 0; clock.next(it); ++it) {
            const torch::Tensor h = net->encoder(data);
            torch::Tensor loss = torch::zeros({}, h.options());
            std::vector<torch::Tensor> allEntropy;
            std::vector<double> makespans;
            std::vector<std::vector<double>> returns;
            std::vector<std::vector<torch::Tensor>> logpsAll;
            for (int e = 0; e < episodes && !outOfTime(); ++e) {
                std::vector<torch::Tensor> logps, entropies;
                std::vector<double> gains;
                episode(h, false, logps, entropies, gains, makespans);
                std::vector<double> g(gains.size());
                double running = 0;
                for (size_t t = gains.size(); t-- > 0;)
                    g[t] = running = gains[t] + gamma * running;
                returns.push_back(g);
                logpsAll.push_back(logps);
                allEntropy.insert(allEntropy.end(), entropies.begin(), entropies.end());
            }
            if (allEntropy.empty())
                break; // the budget ended before a move
            for (size_t e = 0; e < returns.size(); ++e)
                for (size_t t = 0; t < returns[e].size(); ++t)
                    loss = loss - (returns[e][t] - stepBaseline[t]) * logpsAll[e][t] / episodes;
            for (size_t t = 0; t < stepBaseline.size(); ++t) {
                double mean = 0;
                int count = 0;
                for (const auto &r : returns)
                    if (t < r.size()) {
                        mean += r[t];
                        ++count;
                    }
                if (count)
                    stepBaseline[t] = it == 0 ? mean / count : 0.9 * stepBaseline[t] + 0.1 * mean / count;
            }
            const torch::Tensor entropy = allEntropy.empty() ? torch::zeros({}) : torch::stack(allEntropy).mean();
            loss = loss - entropyWeight * entropy;
            optimizer.zero_grad();
            loss.backward();
            torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
            optimizer.step();
            clock.report(it, &judge, makespans, loss.item<double>(), entropy.item<double>());
        }
        if (!outOfTime() || judge.best().empty()) { // the trained policy's greedy episode, when budget is left
            torch::NoGradGuard noGrad;
            std::vector<torch::Tensor> logps, entropies;
            std::vector<double> gains, makespans;
            episode(net->encoder(data), true, logps, entropies, gains, makespans);
        }
        if (!params.text("save_checkpoint").empty())
            saveCheckpoint(params.text("save_checkpoint"), "giph", nlohmann::json{{"hidden", hidden}}.dump(), *net);
        PlacerOutput out;
        out.placement = Placement(judge.best());
        out.evaluations = clock.evaluations();
        if (!judge.bestFeasible())
            out.notes.push_back("giph found no placement that fits memory and constraints");
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeGiphPlacer() { return std::make_unique<GiphPlacer>(); }

} // namespace ps
