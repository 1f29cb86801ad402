#pragma once
// Private to models/torch (includes LibTorch): what the learned families share. Node features
// with a fixed schema (so a policy trained on some graphs applies to others), GraphSAGE layers,
// the judge that turns a placement into a reward through the simulator, progress reporting, and
// checkpoints that carry the family, hyperparameters and feature schema.
#include "core/cluster/Cluster.h"
#include "core/family/ModelFamily.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/placers/Placer.h"
#include "core/sim/Objective.h"
#include "core/sim/Simulator.h"

#include <nlohmann/json_fwd.hpp>
#include <torch/torch.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ps::learn {

constexpr const char *kFeatureSchema = "ps-node-features-v2";
constexpr int kOpBuckets = 16;
constexpr int kFeatureCount = kOpBuckets + 8;

// "auto" picks CUDA as autoPicksCuda (models/Learners.h) says; "cuda" without a GPU is an
// InputError.
torch::Device chooseDevice(const std::string &choice, int64_t ops);
// Intra-op threads for this run (0: leave LibTorch's default). LibTorch's OpenMP backend keeps
// the count per calling thread, so concurrent runs each keep their own.
void setThreads(int threads);

// LibTorch's random state is global to the process, yet runs go concurrently and must reproduce
// alone what they do together. So a run samples from a CPU generator of its own, on the CPU or on
// CUDA alike (drawRows), and parameters (whose initialisers draw from the global generator) are
// made under one process-wide lock right after seeding it.
std::mutex &globalRandomLock();
struct RunStart
{
    torch::Device device;
    at::Generator generator; // the run's own (a CPU generator, whatever the device)
    uint64_t seed = 1;
    std::shared_ptr<void> tensorMemory; // holdTensorMemory(): large tensors reused while the run lasts
    // A module (or anything drawing from the global generator) made from the run's seed.
    template <class Make>
    auto seeded(Make make) const
    {
        std::lock_guard<std::mutex> lock(globalRandomLock());
        torch::manual_seed(seed);
        return make();
    }
};
// What every run does first: the device it asked for, its thread count, its seed, and the reuse
// of its large tensors' memory.
RunStart startRun(const ParamValues &params, const RunControl &control, int64_t ops);
// The graphs of a `train_graphs` parameter (paths separated by ';'), loaded.
std::vector<Graph> loadTrainGraphs(const std::string &list);
// A checkpoint's device count against the cluster's (InputError naming both).
void requireDeviceCount(const std::string &checkpoint, int trained, int here);
// Refuses a run whose training step would hold more than half of this machine's memory, or more
// than 80% of what is free now (an InputError naming the estimate and `why`), before anything is
// allocated: GAP's loss on the 58k-op GNMT with a part per device of 4,096 grew past 14 GB in 30 s.
// Host memory only: on CUDA the tensors go to the GPU, whose memory is not checked.
void requireMemory(const std::string &family, double stepBytes, const std::string &why);

// n x kFeatureCount: op class (one-hot, learnerOpClass), log FLOPs, log output/parameter bytes, in and out
// degree, depth, rank, and whether the node has no inputs. Scaled by constants, never by the
// graph, so the same op looks the same in every graph.
torch::Tensor nodeFeatures(const Graph &graph);

// Mean aggregation over predecessors and over successors, as sparse row-normalized matrices.
struct GraphData
{
    torch::Tensor x, fromPred, fromSucc;
    int n = 0;
};
GraphData graphData(const Graph &graph, torch::Device device);

// GraphSAGE (Hamilton et al. 2017) with mean aggregators, both edge directions.
struct SageLayerImpl : torch::nn::Module
{
    SageLayerImpl(int in, int out);
    torch::Tensor forward(const torch::Tensor &h, const GraphData &g);
    torch::nn::Linear self{nullptr}, pred{nullptr}, succ{nullptr};
};
TORCH_MODULE(SageLayer);

struct SageEncoderImpl : torch::nn::Module
{
    SageEncoderImpl(int in, int hidden, int layers);
    torch::Tensor forward(const GraphData &g);
    // The same, asking `stop` between layers: undefined once it says so (a layer over 200,000 ops
    // takes about half a second).
    torch::Tensor forwardUntil(const GraphData &g, const std::function<bool()> &stop);
    torch::nn::ModuleList layers;
};
TORCH_MODULE(SageEncoder);

// Wall time, simulator evaluations and the budget of a run, counted from its first instruction
// (make it before anything else: warm starts and graph loading spend the budget too), and the
// progress report of one iteration.
class RunClock
{
public:
    // Training iterations: the `iterations` parameter, unless a time limit or (for a family the
    // simulator judges, `simulated`) an evaluation budget is given and the parameter is not: a
    // budget is there to be used, not capped by the default count. The evaluation budget is the
    // control's, or the `evaluations` parameter where that is given and smaller.
    RunClock(const RunControl &control, const ParamValues &params, bool simulated = true);
    double elapsed() const;
    // False once cancelled, out of time, of evaluations or of iterations (waits while paused).
    bool next(int iteration) const;
    // Cancelled, out of time or out of evaluations, or the target's best meets the lower bound
    // (stopAtFloor): stop before the next simulator run.
    bool exhausted() const;
    // Ends the run once `target`'s best placement meets the score floor (no placement can score
    // lower), unless the run saves its policy (save_checkpoint): that one trains its budget, as on
    // one device. The judge must outlive the clock's use.
    void stopAtFloor(const class Judge &target);
    // Whether the run ended there (its note: ObjectiveJudge::floorNote).
    bool atFloor() const;
    // Out of simulator runs (every rank's together), whatever the time.
    bool runsSpent() const { return m_evaluations + m_elsewhere >= m_maxEvaluations; }
    // Whether `iteration` (or the time or evaluations spent) lies in the last `share` of the run's
    // budget: where GST fine-tunes the prediction head.
    bool inFinalShare(int iteration, double share) const;
    // The share of the budget spent at `iteration`: the furthest of iterations, time and
    // evaluations (0 when none is bounded).
    double progress(int iteration) const;
    void countEvaluations(long long n = 1) { m_evaluations += n; }
    long long evaluations() const { return m_evaluations; }
    // The most simulator runs this run may spend (the control's or the parameter's, the smaller).
    long long maxEvaluations() const { return m_maxEvaluations; }
    const RunControl &control() const { return m_control; }
    // Every rank's simulator runs so far (by rank; this one's included): sets elsewhere() and the
    // per-rank counts of the reports.
    void setRanks(const std::vector<double> &evaluations);
    // Simulator runs of the other ranks of a data-parallel run (they share the budget, and the
    // leader's reports show the whole run's).
    long long elsewhere() const { return m_elsewhere; }
    // judge may be null (a partitioner has no simulator runs).
    void report(int iteration, const class Judge *judge, const std::vector<double> &samples, double loss,
                double entropy) const;

private:
    const RunControl &m_control;
    long long m_maxEvaluations;
    int m_iterations;
    std::chrono::steady_clock::time_point m_start;
    long long m_evaluations = 0, m_elsewhere = 0;
    std::vector<long long> m_ranks;
    mutable long long m_reported = 0; // this rank's runs at the last report
    bool m_savesPolicy = false;
    const class Judge *m_floorTarget = nullptr;
};

// Rank 0 of a data-parallel run saves its checkpoint every `everyS` seconds, so that a lost rank
// costs the last few seconds of training, not the run.
class PeriodicCheckpoint
{
public:
    PeriodicCheckpoint(std::string path, bool active, double everyS = 10);
    // Calls save() (which writes the checkpoint) when active and due.
    void maybeSave(int iteration, const std::function<void()> &save);
    // "; the checkpoint of iteration N is kept at PATH", or empty when none was saved.
    std::string keptNote() const;

private:
    std::string m_path;
    bool m_active;
    double m_everyS;
    std::chrono::steady_clock::time_point m_last;
    int m_iteration = -1;
};

// Judges placements with the simulator: pins and colocation are enforced first (a learner's
// choice for a pinned node is overridden), the reward is the problem's objective score (the
// penalized makespan of spec section 6 under the default weights), and the best placement is
// kept (a feasible one over any infeasible one, then the lower score). Every simulator run is
// counted on the run's clock, when one is given.
class Judge
{
public:
    Judge(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
          const Objective &objective = Objective{}, RunClock *clock = nullptr);
    void enforce(std::vector<int> &devices) const { enforceConstraints(m_constraints, devices); }
    // Objective score of devices (enforced in place).
    double evaluate(std::vector<int> &devices);
    // The same, incrementally (spec-exact, as Simulator::makespanChanged): evaluateBase judges a
    // placement and makes it the base (simulated with snapshots unless it already is the base);
    // evaluateChanged judges one that differs from the base only in `changed` nodes, resuming
    // from the last snapshot before they matter. Moves from a start placement (giph) cost a
    // fraction of a full run on large graphs.
    double evaluateBase(std::vector<int> &devices);
    double evaluateChanged(std::vector<int> &devices, const std::vector<int> &changed);
    // The ops on the critical path of a placement (enforced first), from the op that finishes
    // last back to time 0: one full simulator run, counted like any other.
    std::vector<int> criticalOps(std::vector<int> devices);
    double lastMakespan() const { return m_lastMakespan; }
    bool lastFeasible() const { return m_lastFeasible; }
    const std::vector<int> &best() const { return m_best; }
    double bestMakespan() const { return m_bestMakespan; }
    // Whether the best placement fits and scores the objective's floor: nothing can beat it.
    bool bestAtFloor() const { return m_objective.meetsFloor(m_bestScore, m_bestFeasible); }
    bool bestFeasible() const { return m_bestFeasible; }
    // Every improvement of the best feasible placement, in order: (the run that found it, counted
    // as the run's clock counts, warm start included (without a clock, this judge's runs), and
    // its makespan).
    const std::vector<std::pair<long long, double>> &improvements() const { return m_improvements; }
    // The run that found the best feasible placement; -1 before any.
    long long bestFoundAt() const { return m_improvements.empty() ? -1 : m_improvements.back().first; }
    // The best placement's rank among all judged: feasible ones first, then by score (lower is
    // better); +inf when nothing was judged.
    double bestKey() const;
    long long evaluations() const { return m_simulator.evaluations(); }
    const Graph &graph() const { return m_graph; }
    const Cluster &cluster() const { return m_cluster; }
    // Offers a placement found another way (e.g. a classical seed).
    void offer(std::vector<int> devices) { evaluate(devices); }
    // The best placement judged since the last startSegment() (or since the start), by the same
    // order as best(): a search that starts again from another placement keeps its own incumbent.
    void startSegment() { m_segment = Incumbent{}; }
    const std::vector<int> &segmentBest() const { return m_segment.devices; }
    double segmentBestKey() const;

private:
    const Graph &m_graph;
    const Cluster &m_cluster;
    const Constraints &m_constraints;
    ObjectiveJudge m_objective;
    Simulator m_simulator;
    RunClock *m_clock;
    std::vector<int> m_base;
    double keep(const std::vector<int> &devices); // scores the last run, keeps the best
    struct Incumbent
    {
        std::vector<int> devices;
        double score = std::numeric_limits<double>::infinity();
        bool feasible = false;
    } m_segment;
    std::vector<int> m_best;
    double m_bestMakespan = std::numeric_limits<double>::infinity(), m_bestScore = m_bestMakespan;
    bool m_bestFeasible = false;
    std::vector<std::pair<long long, double>> m_improvements;
    double m_lastMakespan = 0;
    bool m_lastFeasible = false;
};

// Checkpoints: the module's tensors plus a JSON header (family, hyperparameters, schema).
void saveCheckpoint(const std::string &path, const std::string &family, const std::string &paramsJson,
                    torch::nn::Module &module);
// Loads into module (same architecture); InputError when the file is not a checkpoint of this
// family and schema. Returns the stored hyperparameters (JSON).
std::string loadCheckpoint(const std::string &path, const std::string &family, torch::nn::Module &module);
// The hyperparameters stored in a checkpoint (to rebuild the architecture before loading).
std::string checkpointParams(const std::string &path, const std::string &family);
// A size the stored policy fixes (`key` of `stored`, its checkpointParams parsed; the caller's value
// where the checkpoint lacks it). A different value the caller gave is refused, naming both: it was
// overridden without a word (hidden=32 with a policy of 64 ran at 64).
int fixedByCheckpoint(const std::string &checkpoint, const nlohmann::json &stored, const ParamValues &params,
                      const std::string &key);
// A setting a stored policy learned over (its prior, warm start, ...) and the run keeps, as text
// (settingText for numbers): the value given and the checkpoint's.
struct StoredSetting
{
    std::string key, given, stored;
};
std::string settingText(double value);
// A note naming the settings given that the checkpoint's (named by its file name) replaced, or ""
// when none did. They are not refused: a steering candidate that continues its parent's policy
// carries its own sampled prior, and keeps the parent's; but it was said nowhere that a given
// value went unused.
std::string storedSettingsNote(const std::string &family, const std::string &checkpoint, const ParamValues &params,
                               const std::vector<StoredSetting> &settings);

// A learner's warm start: the best of the fast placers (bestFastPlacement), or HEFT's placement
// when `best` is false or the run's evaluation budget (the clock's: the control's or the
// `evaluations` parameter, whichever is smaller) is under 100 (the best costs a few dozen simulator
// runs). It runs in what is left of the clock's budget (time, simulator runs) and stops on its
// cancel; its evaluations are what it cost.
// With `others` (and the best of the fast placers), the other fast placers' placements that differ
// from it and from each other go there, best first.
PlacerResult warmStartPlacement(const PlacementProblem &problem, bool best, const RunClock &clock,
                                std::vector<std::vector<int>> *others = nullptr);

} // namespace ps::learn
