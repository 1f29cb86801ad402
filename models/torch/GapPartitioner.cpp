// GAP (Nazi et al. 2019): a graph partitioner trained without labels. GraphSAGE embeddings of
// the nodes feed a softmax over the k parts; the loss is the expected normalized cut (edges
// weighted by bytes) plus a balance term (nodes weighted by FLOPs). It trains on one graph or a
// set and partitions a graph in one forward pass (argmax), then by default moves the cheapest nodes
// out of parts above the imbalance tolerance (the paper's balance term alone is soft; parts of
// given shares, a placer's, against those shares) and refines the cut by moving boundary nodes,
// as multilevel partitioners refine theirs (both departures from the paper; rebalance=false
// refine=false gives its plain argmax).
#include "core/InputError.h"
#include "core/family/Stopwatch.h"
#include "core/partitioners/PartitionRefinement.h"
#include "core/partitioners/Partitioner.h"
#include "core/sim/PartitionMetrics.h"
#include "models/LearnerFamilies.h"
#include "models/Learners.h"
#include "models/Pretrained.h"
#include "models/torch/Collective.h"
#include "models/torch/GraphSegments.h"
#include "models/torch/LearnerSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace ps {

namespace {

using namespace learn;

struct GapNetImpl : torch::nn::Module
{
    GapNetImpl(int hidden, int k)
        : encoder(register_module("encoder", SageEncoder(kFeatureCount, hidden, 2))),
          mlp(register_module("mlp", torch::nn::Linear(hidden, hidden))),
          out(register_module("out", torch::nn::Linear(hidden, k)))
    {}
    torch::Tensor forward(const GraphData &g) { return head(encoder(g)); }
    // The partition module over node embeddings (GST fine-tunes it alone).
    torch::Tensor head(const torch::Tensor &embeddings) { return out(torch::relu(mlp(embeddings))); }
    SageEncoder encoder;
    torch::nn::Linear mlp, out;
};
TORCH_MODULE(GapNet);

struct GapGraph;
torch::Tensor adjacencyOf(const GapGraph &g, const torch::Tensor &edgeWeight);

// A graph prepared for the loss: the undirected weighted edges both ways, node weights.
struct GapGraph
{
    GraphData data;
    torch::Tensor src, dst, edgeWeight, degree, nodeWeight;
    torch::Tensor adjacency; // n x n, sparse: edgeWeight at (src, dst)
    double totalWeight = 0;
    // GST: segments of the topological order and the historical embeddings (in that order).
    torch::Tensor order;
    std::vector<GraphSegment> segments;
    EmbeddingHistory history;
    bool historyFinal = false; // filled by the fixed encoder of the fine-tuning
};

torch::Tensor adjacencyOf(const GapGraph &g, const torch::Tensor &edgeWeight)
{
    const int64_t n = g.data.n;
    return torch::sparse_coo_tensor(torch::stack({g.src, g.dst}), edgeWeight, {n, n}).coalesce();
}

// What training on `graph` needs beyond its GraphData (which the partition alone needs): GST's
// segments, the edges and the sparse adjacency for the loss, the node weights.
void prepareTraining(GapGraph &g, const Graph &graph, torch::Device device, int64_t gstSegment)
{
    if (gstSegment > 0) {
        const std::vector<int64_t> order(graph.topologicalOrder().begin(), graph.topologicalOrder().end());
        g.order = torch::tensor(order).to(device);
        g.segments = graphSegments(graph, g.data, order, gstSegment, 2);
    }
    const UndirectedGraph view = undirectedView(graph);
    std::vector<int64_t> src, dst;
    std::vector<float> w;
    double mean = 0;
    for (const auto &e : view.edges)
        mean += e.weight;
    mean = view.edges.empty() ? 1 : mean / static_cast<double>(view.edges.size());
    for (const auto &e : view.edges)
        for (int dir = 0; dir < 2; ++dir) {
            src.push_back(dir ? e.v : e.u);
            dst.push_back(dir ? e.u : e.v);
            w.push_back(static_cast<float>(e.weight / mean));
        }
    const int64_t m = static_cast<int64_t>(w.size());
    g.src = torch::from_blob(src.data(), {m}, torch::kInt64).clone().to(device);
    g.dst = torch::from_blob(dst.data(), {m}, torch::kInt64).clone().to(device);
    g.edgeWeight = torch::from_blob(w.data(), {m}, torch::kFloat32).clone().to(device);
    g.degree = torch::zeros({graph.nodeCount()}, torch::kFloat32).to(device).index_add_(0, g.src, g.edgeWeight);
    g.adjacency = adjacencyOf(g, g.edgeWeight);
    std::vector<float> nw(view.nodeWeight.begin(), view.nodeWeight.end());
    for (float x : nw)
        g.totalWeight += x;
    g.nodeWeight = torch::from_blob(nw.data(), {graph.nodeCount()}, torch::kFloat32).clone().to(device) /
                   static_cast<float>(g.totalWeight);
}

// Expected normalized cut plus the balance penalty (Nazi et al., eq. 3 and 4). `keep` (0/1 per
// node; undefined: all) restricts the cut to the edges between kept nodes (GST's stale embedding
// dropout); the balance always weighs every node, since a balanced subset is not the aim.
std::pair<torch::Tensor, torch::Tensor> gapLoss(const torch::Tensor &logits, const GapGraph &g, int k,
                                                const torch::Tensor &keep = {})
{
    const torch::Tensor y = torch::softmax(logits, 1);
    torch::Tensor degree = g.degree, adjacency = g.adjacency;
    if (keep.defined()) {
        const torch::Tensor edgeWeight = g.edgeWeight * keep.index_select(0, g.src) * keep.index_select(0, g.dst);
        degree = torch::zeros_like(degree).index_add_(0, g.src, edgeWeight);
        adjacency = adjacencyOf(g, edgeWeight);
    }
    // Part k's expected cut is the sum over edges (u, v) of w y_uk (1 - y_vk): the volume
    // sum_u deg_u y_uk less sum_u y_uk (A y)_uk. Formed so, through the sparse A, it holds nodes x
    // parts numbers, not edges x parts (which took 18 s and as long again backward, and 4 GB, on
    // GNMT-58k in 1,024 parts).
    const torch::Tensor volume = torch::matmul(degree.unsqueeze(0), y).squeeze(0);
    const torch::Tensor gamma = volume + 1e-6; // volume per part
    const torch::Tensor inside = (y * torch::mm(adjacency, y)).sum(0);
    const torch::Tensor cut = ((volume - inside) / gamma).sum();
    const torch::Tensor share = torch::matmul(g.nodeWeight.unsqueeze(0), y).squeeze(0) * k; // 1 when balanced
    const torch::Tensor balance = (share - 1).pow(2).sum();
    return {cut, balance};
}

// GST's logits of a whole graph for one step: the drawn segments' embeddings fresh (the encoder
// on their halos, with gradient), every other from the history; each stale segment is dropped
// from the loss with probability `staleDropout` (`keep`). With `frozen` (the prediction head's
// fine-tuning) every embedding is fresh and the encoder takes no gradient. The history is
// initialised by one pass without gradient, then written by the segments' passes, and filled
// once more when the fine-tuning fixes the encoder.
// `refreshS` (if given) adds the seconds spent filling the historical embeddings (a pass over the
// whole graph without gradients, which the backward pass does not repeat).
torch::Tensor segmentedLogits(GapNet &net, GapGraph &g, const GstSettings &gst, uint64_t seed, long long step,
                              bool frozen, torch::Tensor &keep, double *refreshS = nullptr)
{
    const int64_t total = static_cast<int64_t>(g.segments.size());
    if (g.history.empty() || (frozen && !g.historyFinal)) { // the encoder is fixed from then on
        const auto start = std::chrono::steady_clock::now();
        torch::NoGradGuard noGrad;
        g.history.refresh(net->encoder(g.data).index_select(0, g.order));
        g.historyFinal = frozen;
        if (refreshS)
            *refreshS += secondsSince(start);
    }
    keep = torch::Tensor();
    if (frozen)
        return net->head(torch::zeros_like(g.history.table()).index_copy(0, g.order, g.history.table()));
    const SegmentDraw draw = drawSegments(seed, step, 0, total, total, gst.staleDropout); // a permutation
    const int64_t fresh = std::min(gst.perStep, total);
    torch::Tensor states = g.history.table();
    std::vector<float> kept(static_cast<size_t>(g.data.n), 1.0f);
    const torch::Tensor orderCpu = g.order.cpu().contiguous();
    const int64_t *node = orderCpu.data_ptr<int64_t>();
    for (int64_t i = 0; i < total; ++i) {
        const GraphSegment &s = g.segments[static_cast<size_t>(draw.segments[static_cast<size_t>(i)])];
        if (i < fresh) {
            const torch::Tensor e = net->encoder(s.halo).index_select(0, s.rows);
            g.history.write(s.begin, e);
            states = states.index_copy(0, torch::arange(s.begin, s.end, g.order.options()), e);
        } else if (draw.dropMemory[static_cast<size_t>(i)]) {
            for (int64_t p = s.begin; p < s.end; ++p)
                kept[static_cast<size_t>(node[p])] = 0.0f;
        }
    }
    keep = torch::tensor(kept).to(g.order.device());
    return net->head(torch::zeros_like(states).index_copy(0, g.order, states));
}

class GapPartitioner : public Partitioner
{
public:
    FamilyInfo info() const override { return gapFamilyInfo(); }

    Partition partition(const PartitionProblem &problem, const ParamValues &params,
                        const RunControl &control) const override
    {
        // With the refinement on, training leaves it the last tenth of a time limit.
        RunControl training = control;
        if (params.flag("refine"))
            training.budget.timeLimitS *= 0.9;
        RunClock clock(training, params, false);
        const std::vector<Graph> extra = loadTrainGraphs(params.text("train_graphs")); // beyond the problem's graph
        // The loss holds about eight nodes x parts tensors with their gradients (measured: 1.9 GB
        // at the peak of a step on GNMT-58k in 1,024 parts; 4.9 GB when the cut was formed over
        // edges x parts), one graph at a time (each graph's backward frees them): the largest
        // graph trained on counts.
        const Graph *largest = &problem.graph;
        auto lossTerms = [](const Graph &g) { return 8.0 * g.nodeCount(); };
        for (const Graph &g : extra)
            if (lossTerms(g) > lossTerms(*largest))
                largest = &g;
        requireMemory("gap", 4.0 * problem.k * lossTerms(*largest),
                      std::to_string(problem.k) + " parts on " + std::to_string(largest->nodeCount()) + " nodes");
        const RunStart run = startRun(params, control, problem.graph.nodeCount());
        Collective collective(control.distribution);
        const torch::Device device = run.device;
        int hidden = params.integer("hidden");
        std::string load = params.text("checkpoint");
        if (load == "pretrained")
            load = pretrainedCheckpoint("gap", problem.k);
        if (!load.empty()) {
            const auto stored = nlohmann::json::parse(checkpointParams(load, "gap"));
            hidden = fixedByCheckpoint(load, stored, params, "hidden");
            if (stored.value("k", problem.k) != problem.k)
                throw InputError(load + ": trained for k=" + std::to_string(stored.value("k", 0)) +
                                 ", not k=" + std::to_string(problem.k));
        }
        GapNet net = run.seeded([&] { return GapNet(hidden, problem.k); });
        if (!load.empty())
            loadCheckpoint(load, "gap", *net);
        collective.shareParameters(net->parameters());
        net->to(device);

        const GstSettings gst = GstSettings::from(params);
        std::vector<GapGraph> train(1 + extra.size());
        train[0].data = graphData(problem.graph, device);

        torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(params.number("lr")));
        const double lambda = params.number("balance_weight");
        const int perStep = params.integer("graphs_per_step");
        const std::string saveTo = params.text("save_checkpoint");
        const nlohmann::json stored{{"hidden", hidden}, {"k", problem.k}};
        auto save = [&] { saveCheckpoint(saveTo, "gap", stored.dump(), *net); };
        PeriodicCheckpoint periodic(saveTo, collective.leader() && collective.size() > 1,
                                    params.number("checkpoint_every"));
        // The network's partition: the head's argmax over blocks of rows, about a million logits
        // each. The n x parts logits at once (237 MB on GNMT-58k in 1,024 parts) took 1.3 s, and
        // blocks of 4,096 rows in 4,096 parts (64 MB each) 2.9 s, mostly in fresh pages.
        // (undefined when `stop` said so between the encoder's layers)
        auto encode = [&](const std::function<bool()> &stop = {}) {
            torch::NoGradGuard noGrad;
            return net->encoder->forwardUntil(train[0].data, stop);
        };
        auto partsOf = [&](const torch::Tensor &embeddings) {
            torch::NoGradGuard noGrad;
            const int64_t n = embeddings.size(0), block = std::max<int64_t>(1, (int64_t(1) << 20) / problem.k);
            std::vector<torch::Tensor> blocks;
            for (int64_t from = 0; from < n; from += block)
                blocks.push_back(net->head(embeddings.slice(0, from, std::min(n, from + block))).argmax(1));
            const torch::Tensor parts = (blocks.empty() ? torch::zeros({0}, torch::kInt64) : torch::cat(blocks))
                                            .to(torch::kCPU)
                                            .to(torch::kInt32)
                                            .contiguous();
            return std::vector<int>(parts.data_ptr<int>(), parts.data_ptr<int>() + parts.numel());
        };
        // Under a time limit a step starts only when it should end inside the limit (one step on
        // GNMT-58k in 1,024 parts takes 9 s): a step is judged by the step before, and the first
        // by the network's partition before training, timed, which is the result when no step
        // fits: with many nodes x parts numbers (a step of seconds) as 16 of its passes (a step
        // took 12-22 times as long there); where GST segments the graph, as one (the pass is what
        // its first step would begin with, filling the historical embeddings, and they are filled
        // from it: 1.2 s of that step's forward half on 200,000 ops in 8 parts). Elsewhere the
        // first step starts, and the check after its forward half (below) keeps it inside the
        // limit.
        const double trainingLimit = training.budget.timeLimitS;
        const bool manyNumbers = static_cast<double>(problem.graph.nodeCount()) * problem.k > (1 << 24);
        const int64_t segment = gst.segmentFor(problem.graph); // 0: GST off for this graph
        const bool segmented = segment > 0;
        std::vector<int> untrained;
        torch::Tensor untrainedEmbeddings;
        double stepS = 0;
        bool passCut = false; // the limit came inside that pass (200,000 ops under 0.5 s: 1 s a pass)
        if (std::isfinite(trainingLimit) && (manyNumbers || segmented)) {
            const double before = clock.elapsed();
            untrainedEmbeddings = encode([&] { return control.outOfTime(clock.elapsed()); });
            passCut = !untrainedEmbeddings.defined();
            if (!passCut)
                untrained = partsOf(untrainedEmbeddings);
            stepS =
                passCut ? std::numeric_limits<double>::infinity() : (manyNumbers ? 16 : 1) * (clock.elapsed() - before);
        }
        auto stepFits = [&] { return !std::isfinite(trainingLimit) || clock.elapsed() + stepS <= trainingLimit; };
        // What training needs beyond the partition, only where a step may follow (on 200,000 ops:
        // 1 s, GST's segments most of it). Where it is left out, no step fits on this rank, so
        // none is taken on any.
        if (stepFits()) {
            prepareTraining(train[0], problem.graph, device, segment);
            if (segmented && untrainedEmbeddings.defined())
                train[0].history.refresh(untrainedEmbeddings.index_select(0, train[0].order));
            for (size_t i = 0; i < extra.size(); ++i) {
                train[i + 1].data = graphData(extra[i], device);
                prepareTraining(train[i + 1], extra[i], device, gst.segmentFor(extra[i]));
            }
        }
        // A step fine-tunes the partition module alone only when every training graph is segmented.
        const bool everySegmented =
            std::all_of(train.begin(), train.end(), [](const GapGraph &g) { return !g.segments.empty(); });
        int steps = 0;
        bool abandoned = false; // a step given up before its backward pass
        try {
            for (int it = 0; !collective.any(!clock.next(it) || !stepFits()); ++it, ++steps) {
                const double stepStart = clock.elapsed();
                // Step it's graphs are it*B .. it*B+B-1 (round the training set); graph b of the
                // step is rank b mod N's. The loss is their mean.
                optimizer.zero_grad();
                double loss = 0;
                const bool frozen = collective.any(clock.inFinalShare(it, gst.finetuneShare)); // ranks agree
                for (int b = 0; b < perStep; ++b) {
                    if (!collective.mine(b))
                        continue;
                    const long long item = static_cast<long long>(it) * perStep + b;
                    GapGraph &g = train[static_cast<size_t>(item) % train.size()];
                    torch::Tensor keep;
                    double refreshS = 0;
                    const torch::Tensor logits =
                        g.segments.empty() ? net->forward(g.data)
                                           : segmentedLogits(net, g, gst, run.seed, item, frozen, keep, &refreshS);
                    auto [cut, balance] = gapLoss(logits, g, problem.k, keep);
                    const torch::Tensor part = (cut + lambda * balance) / perStep;
                    // One process also judges the step by its forward half: the backward took
                    // 2.5 times as long (a step in 2,048 parts ran 22 times the partition's pass),
                    // GST's refresh of the historical embeddings not counted (it has no backward:
                    // on 200,000 ops in 8 parts it was 1.2 s of the first step's 2.2 s forward).
                    const double forwardS = clock.elapsed() - stepStart - refreshS;
                    if (collective.size() == 1 && std::isfinite(trainingLimit) &&
                        clock.elapsed() + 2.5 * forwardS > trainingLimit) {
                        abandoned = true;
                        stepS = 3.5 * forwardS;
                        break;
                    }
                    part.backward();
                    loss += part.item<double>();
                }
                if (abandoned)
                    break;
                collective.sumGradients(net->parameters());
                if (frozen && everySegmented)
                    holdStill(net->encoder->parameters());
                optimizer.step();
                clock.report(it, nullptr, {}, collective.sum({loss})[0], std::nan(""));
                periodic.maybeSave(it, save);
                stepS = clock.elapsed() - stepStart;
            }
            collective.barrier();
        } catch (const LostRank &e) {
            throw LostRank(e.what() + periodic.keptNote());
        }
        if (!saveTo.empty() && collective.leader())
            save();
        net->eval();
        std::vector<std::string> notes;
        // Said only where the time stopped it (not zero iterations asked for, as a zero-shot run does).
        const bool timeStopped = abandoned || !stepFits() || clock.exhausted();
        if (passCut)
            notes.push_back(
                "gap: the time limit (or a cancel) came inside the network's first pass over the graph; the parts are "
                "runs of the topological order sized to the FLOPs");
        else if (steps == 0 && std::isfinite(trainingLimit) && timeStopped && !control.cancelled()) {
            char note[200];
            std::snprintf(note, sizeof note,
                          "gap: no training step fitted in the time limit (one was judged to take %.3g s); the "
                          "partition is the %s network's",
                          stepS, load.empty() ? "untrained" : "loaded");
            notes.push_back(note);
        }
        untrainedEmbeddings = torch::Tensor();
        std::vector<int> out = passCut                            ? topologicalChunks(problem.graph, problem.k)
                               : steps == 0 && !untrained.empty() ? std::move(untrained)
                                                                  : partsOf(encode());
        if (params.flag("rebalance") || params.flag("refine")) {
            // To the shares asked for (a placer's: the devices' speeds), which the network's balance
            // term does not know: an even partition left a CPU 70 times slower than the GPU beside
            // it as much work (the 538-op RNN LM on hetero-edge: 28.5 times the lower bound).
            const UndirectedGraph view = undirectedView(problem.graph);
            rebalanceAndRefine(view, out, problem.k, problem.imbalance, control.after(clock.elapsed()),
                               problem.targetShares, {params.flag("rebalance"), params.flag("refine")});
            // The limit (or a cancel) ended the rebalancing before the tolerance held (200,000 ops
            // in 8 parts under 2 s: the untrained pass took the time, and the network's parts were
            // left at 6.97 times the mean): runs of the topological order, balanced by construction
            // (up to the heaviest op), replace parts that break it if they are more even.
            if (params.flag("rebalance") && control.outOfTime(clock.elapsed())) {
                std::string note = evenOutStoppedParts(problem.graph, view, out, problem.k, problem.imbalance,
                                                       problem.targetShares, "gap");
                if (!note.empty())
                    notes.push_back(std::move(note));
            }
        }
        Partition result(problem.k, out);
        result.graphName = problem.graph.name();
        result.notes = std::move(notes);
        return result;
    }
};

} // namespace

std::unique_ptr<Partitioner> makeGapPartitioner()
{
    return std::make_unique<GapPartitioner>();
}

} // namespace ps
