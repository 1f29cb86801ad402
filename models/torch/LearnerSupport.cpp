#include "models/torch/LearnerSupport.h"

#include "models/torch/PolicySupport.h"
#include "models/torch/TensorMemory.h"

#include "core/InputError.h"
#include "core/family/MachineMemory.h"
#include "core/family/Stopwatch.h"
#include "core/io/FileKind.h"
#include "core/placers/PlacerRegistry.h"
#include "models/Learners.h"

#include <ATen/CPUGeneratorImpl.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <thread>

namespace ps::learn {

torch::Device chooseDevice(const std::string &choice, int64_t ops)
{
    if (choice == "cpu")
        return torch::kCPU;
    const bool cuda = torch::cuda::is_available();
    if (choice == "cuda" && !cuda)
        throw InputError("device=cuda asked for, but LibTorch sees no CUDA GPU here");
    return choice == "cuda" || autoPicksCuda(cuda, ops) ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
}

void setThreads(int threads)
{
    if (threads > 0)
        torch::set_num_threads(threads);
}

std::mutex &globalRandomLock()
{
    static std::mutex lock;
    return lock;
}

RunStart startRun(const ParamValues &params, const RunControl &control, int64_t ops)
{
    RunStart run{chooseDevice(params.choice("device"), ops), at::detail::createCPUGenerator(control.seed), control.seed,
                 holdTensorMemory()};
    setThreads(params.integer("threads"));
    return run;
}

std::vector<Graph> loadTrainGraphs(const std::string &list)
{
    std::vector<Graph> graphs;
    for (size_t start = 0; start < list.size();) {
        const size_t semi = list.find(';', start);
        const std::string path = list.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
        if (!path.empty())
            graphs.push_back(loadGraph(path));
        start = semi == std::string::npos ? list.size() : semi + 1;
    }
    return graphs;
}

int fixedByCheckpoint(const std::string &checkpoint, const nlohmann::json &stored, const ParamValues &params,
                      const std::string &key)
{
    const int value = stored.value(key, params.integer(key));
    if (params.given(key) && params.integer(key) != value)
        throw InputError(checkpoint + ": its policy has " + key + "=" + std::to_string(value) + ", not the " + key +
                         "=" + std::to_string(params.integer(key)) + " given (leave " + key +
                         " out to use the checkpoint)");
    return value;
}

std::string settingText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string storedSettingsNote(const std::string &family, const std::string &checkpoint, const ParamValues &params,
                               const std::vector<StoredSetting> &settings)
{
    std::string used, given;
    for (const StoredSetting &s : settings)
        if (params.given(s.key) && s.given != s.stored) {
            used += (used.empty() ? "" : ", ") + s.key + "=" + s.stored;
            given += (given.empty() ? "" : ", ") + s.key + "=" + s.given;
        }
    if (used.empty())
        return {};
    // The file's name alone: a steering session's policies live in a folder of its own, and a
    // replay's notes would differ by it.
    const std::string name = std::filesystem::path(checkpoint).filename().string();
    return family + ": " + name + "'s policy learned over " + used + ", which the run kept; the " + given +
           " given went unused";
}

void requireDeviceCount(const std::string &checkpoint, int trained, int here)
{
    if (trained != here)
        throw InputError(checkpoint + ": trained for " + std::to_string(trained) + " devices; this cluster has " +
                         std::to_string(here));
}

void requireMemory(const std::string &family, double stepBytes, const std::string &why)
{
    const MachineMemory memory = machineMemory();
    // Half of the machine (or of its container's cap), and most of what is free now: the app runs
    // several models side by side, and one that the kernel kills takes every run and the unsaved
    // session with it.
    const bool fits = (memory.totalBytes < 0 || stepBytes <= 0.5 * memory.totalBytes) &&
                      (memory.availableBytes < 0 || stepBytes <= 0.8 * memory.availableBytes);
    if (fits)
        return;
    auto gb = [](double bytes) {
        char text[32];
        std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
        return std::string(bytes < 0 ? "?" : text);
    };
    throw InputError(family + ": " + why + " would need about " + gb(stepBytes) +
                     " per training step (this machine has " + gb(memory.totalBytes) + ", " +
                     gb(memory.availableBytes) + " of it free); use a classical family (metis, spectral, heft) " +
                     "or fewer devices");
}

} // namespace ps::learn

namespace ps {

bool autoPicksCuda(bool gpu, long long ops)
{
    return gpu && ops >= kAutoCudaOps;
}

int learnerOpClass(const std::string &op)
{
    std::string name = op.substr(op.rfind(':') == std::string::npos ? 0 : op.rfind(':') + 1); // aten::mm -> mm
    for (char &c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](std::initializer_list<const char *> words) {
        return std::any_of(words.begin(), words.end(),
                           [&](const char *w) { return name.find(w) != std::string::npos; });
    };
    // Order matters where names overlap (logsoftmax before softmax, layernorm before everything).
    if (has({"norm"}))
        return 8;
    if (has({"softmax"}))
        return 7;
    if (has({"conv"}))
        return 0;
    if (has({"matmul", "gemm", "linear", "einsum"}) || name == "mm" || name == "bmm" || name == "addmm")
        return 1;
    if (has({"sigmoid"}))
        return 4;
    if (has({"tanh"}))
        return 5;
    if (has({"relu", "gelu", "elu", "silu", "swish", "clip", "clamp", "hardtanh"}))
        return 6;
    if (has({"pool"}))
        return 9;
    if (has({"gather", "embedding", "scatter", "topk", "index", "select"}))
        return 11;
    if (has({"concat", "cat", "split", "chunk", "reshape", "view", "transpose", "permute", "flatten", "slice",
             "squeeze", "stack", "pad", "expand"}))
        return 10;
    if (has({"add", "sub", "sum"}))
        return 2;
    if (has({"mul", "div", "pow", "sqrt", "exp", "log"}))
        return 3;
    if (has({"weight", "variable", "const", "param", "bias"}))
        return 12;
    if (has({"input", "placeholder"}))
        return 13;
    if (has({"dropout", "identity", "cast", "copy", "contiguous"}) || name == "to")
        return 14;
    return 15;
}

} // namespace ps

namespace ps::learn {

torch::Tensor nodeFeatures(const Graph &g)
{
    const int n = g.nodeCount();
    std::vector<float> f(static_cast<size_t>(n) * kFeatureCount, 0.0f);
    const double depth = std::max(1, g.depth());
    for (int v = 0; v < n; ++v) {
        float *row = &f[static_cast<size_t>(v) * kFeatureCount];
        row[learnerOpClass(g.op(v))] = 1;
        float *x = row + kOpBuckets;
        x[0] = static_cast<float>(std::log1p(g.flops(v)) / 30);
        x[1] = static_cast<float>(std::log1p(g.outBytes(v)) / 25);
        x[2] = static_cast<float>(std::log1p(g.paramBytes(v)) / 25);
        x[3] = static_cast<float>(std::log1p(g.inDegree(v)) / 3);
        x[4] = static_cast<float>(std::log1p(g.outDegree(v)) / 3);
        x[5] = static_cast<float>(g.level(v) / depth);
        x[6] = static_cast<float>(static_cast<double>(g.rank(v)) / std::max(1, n));
        x[7] = g.inDegree(v) == 0 ? 1.0f : 0.0f;
    }
    return torch::from_blob(f.data(), {n, kFeatureCount}, torch::kFloat32).clone();
}

namespace {
torch::Tensor meanMatrix(const Graph &g, bool fromPredecessors, torch::Device device)
{
    const int n = g.nodeCount();
    std::vector<int64_t> rows, cols;
    std::vector<float> values;
    for (int v = 0; v < n; ++v) {
        const auto nb = fromPredecessors ? g.predecessors(v) : g.successors(v);
        for (size_t i = 0; i < nb.size(); ++i) {
            rows.push_back(v);
            cols.push_back(nb[i]);
            values.push_back(1.0f / static_cast<float>(nb.size()));
        }
    }
    const int64_t nnz = static_cast<int64_t>(values.size());
    std::vector<int64_t> index(rows);
    index.insert(index.end(), cols.begin(), cols.end());
    auto indices = torch::from_blob(index.data(), {2, nnz}, torch::kInt64).clone();
    auto vals = torch::from_blob(values.data(), {nnz}, torch::kFloat32).clone();
    return torch::sparse_coo_tensor(indices, vals, {n, n}).coalesce().to(device);
}
} // namespace

GraphData graphData(const Graph &g, torch::Device device)
{
    GraphData d;
    d.n = g.nodeCount();
    d.x = nodeFeatures(g).to(device);
    d.fromPred = meanMatrix(g, true, device);
    d.fromSucc = meanMatrix(g, false, device);
    return d;
}

SageLayerImpl::SageLayerImpl(int in, int out)
    : self(register_module("self", torch::nn::Linear(in, out))),
      pred(register_module("pred", torch::nn::Linear(in, out))),
      succ(register_module("succ", torch::nn::Linear(in, out)))
{}

torch::Tensor SageLayerImpl::forward(const torch::Tensor &h, const GraphData &g)
{
    return torch::relu(self(h) + pred(torch::mm(g.fromPred, h)) + succ(torch::mm(g.fromSucc, h)));
}

SageEncoderImpl::SageEncoderImpl(int in, int hidden, int count)
{
    layers = register_module("layers", torch::nn::ModuleList());
    for (int i = 0; i < count; ++i)
        layers->push_back(SageLayer(i == 0 ? in : hidden, hidden));
}

torch::Tensor SageEncoderImpl::forward(const GraphData &g)
{
    return forwardUntil(g, {});
}

torch::Tensor SageEncoderImpl::forwardUntil(const GraphData &g, const std::function<bool()> &stop)
{
    torch::Tensor h = g.x;
    for (size_t i = 0; i < layers->size(); ++i) {
        if (i > 0 && stop && stop())
            return {};
        h = layers[i]->as<SageLayer>()->forward(h, g);
    }
    return h;
}

Judge::Judge(const Graph &graph, const Cluster &cluster, const Constraints &constraints, const Objective &objective,
             RunClock *clock)
    : m_graph(graph), m_cluster(cluster), m_constraints(constraints),
      m_objective(graph, cluster, constraints, objective), m_simulator(graph, cluster), m_clock(clock)
{}

double Judge::evaluate(std::vector<int> &devices)
{
    enforce(devices);
    if (m_clock)
        m_clock->countEvaluations();
    m_lastMakespan = m_simulator.makespan(devices);
    return keep(devices);
}

double Judge::evaluateBase(std::vector<int> &devices)
{
    enforce(devices);
    if (devices == m_base)
        return evaluateChanged(devices, {});
    if (m_clock)
        m_clock->countEvaluations();
    m_lastMakespan = m_simulator.setIncrementalBase(devices);
    m_base = devices;
    return keep(devices);
}

double Judge::evaluateChanged(std::vector<int> &devices, const std::vector<int> &changed)
{
    if (m_clock)
        m_clock->countEvaluations();
    m_lastMakespan = m_simulator.makespanChanged(devices, changed);
    return keep(devices);
}

std::vector<int> Judge::criticalOps(std::vector<int> devices)
{
    enforce(devices);
    if (m_clock)
        m_clock->countEvaluations();
    return m_simulator.simulate(devices).criticalOps();
}

namespace {

// A placement's rank: feasible ones first, then by score. Scores are seconds (well under 1e100):
// an infeasible placement ranks after every feasible one, and among infeasible ones by score.
double rankKey(bool none, double score, bool feasible)
{
    return none ? std::numeric_limits<double>::infinity() : feasible ? score : 1e100 * (1 + score);
}

// Whether (score, feasible) beats an incumbent (whose score is +inf while there is none).
bool beats(double score, bool feasible, double incumbent, bool incumbentFeasible)
{
    return feasible ? !incumbentFeasible || score < incumbent : !incumbentFeasible && score < incumbent;
}

} // namespace

double Judge::bestKey() const
{
    return rankKey(m_best.empty(), m_bestScore, m_bestFeasible);
}

double Judge::segmentBestKey() const
{
    return rankKey(m_segment.devices.empty(), m_segment.score, m_segment.feasible);
}

double Judge::keep(const std::vector<int> &devices)
{
    const std::vector<double> usage = memoryUsage(m_graph, m_cluster, devices);
    const ObjectiveTerms terms =
        m_objective.terms(m_lastMakespan, m_simulator.lastMovedBytes(), usage, m_objective.busyTime(devices), devices);
    m_lastFeasible = terms.feasible;
    const double score = m_objective.score(terms);
    if (!std::isfinite(score)) // as Simulator::simulate says of such a placement (spec section 5)
        throw InputError("a cost or result overflows a double");
    if (beats(score, m_lastFeasible, m_segment.score, m_segment.feasible))
        m_segment = Incumbent{devices, score, m_lastFeasible};
    if (beats(score, m_lastFeasible, m_bestScore, m_bestFeasible)) {
        m_best = devices;
        m_bestMakespan = m_lastMakespan;
        m_bestScore = score;
        m_bestFeasible = m_lastFeasible;
        if (m_bestFeasible)
            m_improvements.emplace_back(m_clock ? m_clock->evaluations() : m_simulator.evaluations(), m_bestMakespan);
    }
    return score;
}

namespace {

// (`simulated`: the family declares `evaluations`.)
long long evaluationBudget(const RunControl &control, const ParamValues &params, bool simulated)
{
    long long budget = control.budget.maxEvaluations;
    if (simulated && params.given("evaluations") && params.number("evaluations") > 0)
        budget = std::min(budget, static_cast<long long>(params.number("evaluations")));
    return budget;
}

} // namespace

RunClock::RunClock(const RunControl &control, const ParamValues &params, bool simulated)
    : m_control(control), m_maxEvaluations(evaluationBudget(control, params, simulated)),
      m_iterations(params.given("iterations") ||
                           !(std::isfinite(control.budget.timeLimitS) ||
                             (simulated && m_maxEvaluations != std::numeric_limits<long long>::max()))
                       ? params.integer("iterations")
                       : std::numeric_limits<int>::max()),
      m_start(std::chrono::steady_clock::now()), m_savesPolicy(!params.text("save_checkpoint").empty())
{}

void RunClock::stopAtFloor(const Judge &target)
{
    if (!m_savesPolicy)
        m_floorTarget = &target;
}

bool RunClock::atFloor() const
{
    return m_floorTarget && m_floorTarget->bestAtFloor();
}

double RunClock::elapsed() const
{
    return secondsSince(m_start);
}

bool RunClock::next(int iteration) const
{
    if (!m_control.waitWhilePaused())
        return false;
    return iteration < m_iterations && !exhausted();
}

bool RunClock::exhausted() const
{
    return m_control.exhausted(elapsed(), m_evaluations + m_elsewhere) || runsSpent() || atFloor();
}

bool RunClock::inFinalShare(int iteration, double share) const
{
    return share > 0 && progress(iteration) >= 1 - share;
}

double RunClock::progress(int iteration) const
{
    const Budget &b = m_control.budget;
    double p = 0;
    if (m_iterations != std::numeric_limits<int>::max() && m_iterations > 0)
        p = std::max(p, double(iteration) / m_iterations);
    if (std::isfinite(b.timeLimitS) && b.timeLimitS > 0)
        p = std::max(p, elapsed() / b.timeLimitS);
    if (m_maxEvaluations != std::numeric_limits<long long>::max() && m_maxEvaluations > 0)
        p = std::max(p, static_cast<double>(m_evaluations + m_elsewhere) / static_cast<double>(m_maxEvaluations));
    return p;
}

void RunClock::setRanks(const std::vector<double> &evaluations)
{
    m_ranks.assign(evaluations.begin(), evaluations.end());
    long long all = 0;
    for (long long e : m_ranks)
        all += e;
    m_elsewhere = all - m_evaluations;
}

PeriodicCheckpoint::PeriodicCheckpoint(std::string path, bool active, double everyS)
    : m_path(std::move(path)), m_active(active && !m_path.empty()), m_everyS(everyS),
      m_last(std::chrono::steady_clock::now())
{}

void PeriodicCheckpoint::maybeSave(int iteration, const std::function<void()> &save)
{
    const auto now = std::chrono::steady_clock::now();
    if (!m_active || std::chrono::duration<double>(now - m_last).count() < m_everyS)
        return;
    save();
    m_last = now;
    m_iteration = iteration;
}

std::string PeriodicCheckpoint::keptNote() const
{
    if (m_iteration < 0)
        return {};
    return "; the checkpoint of iteration " + std::to_string(m_iteration + 1) + " is kept at " + m_path;
}

void RunClock::report(int iteration, const Judge *judge, const std::vector<double> &samples, double loss,
                      double entropy) const
{
    Progress p;
    p.iteration = iteration;
    p.evaluations = m_evaluations + m_elsewhere; // the warm start's and every training graph's runs too
    if (m_ranks.size() > 1)
        p.rankEvaluations = m_ranks;
    p.wallS = elapsed();
    p.fraction = std::max(static_cast<double>(iteration + 1) / std::max(1, m_iterations),
                          std::isfinite(m_control.budget.timeLimitS) ? p.wallS / m_control.budget.timeLimitS : 0.0);
    if (m_maxEvaluations != std::numeric_limits<long long>::max())
        p.fraction = std::max(p.fraction, static_cast<double>(p.evaluations) / static_cast<double>(m_maxEvaluations));
    p.fraction = std::min(1.0, p.fraction);
    if (judge && judge->bestFeasible()) {
        p.bestMakespan = judge->bestMakespan();
        if (m_ranks.size() <= 1) { // over ranks, when another rank found it is not known here
            p.bestFoundAt = judge->bestFoundAt();
            const auto &all = judge->improvements();
            auto first = std::upper_bound(all.begin(), all.end(), m_reported,
                                          [](long long run, const auto &i) { return run < i.first; });
            p.improvements.assign(first, all.end());
        }
    }
    m_reported = m_evaluations;
    if (!samples.empty()) {
        double sum = 0, best = samples[0];
        for (double s : samples) {
            sum += s;
            best = std::min(best, s);
        }
        p.sampleMean = sum / static_cast<double>(samples.size());
        p.sampleBest = best;
    }
    p.loss = loss;
    p.entropy = entropy;
    m_control.report(p);
}

namespace {
// Reads path into archive and checks its header (family, feature schema); returns the header's
// hyperparameters. (A damaged archive fails in LibTorch's JIT as well as in c10: "Unknown type
// name ...".)
nlohmann::json openCheckpoint(torch::serialize::InputArchive &archive, const std::string &path,
                              const std::string &family)
{
    try {
        archive.load_from(path);
    } catch (const std::exception &e) {
        throw InputError(path + ": not a readable checkpoint (" + firstLine(e) + ")");
    }
    c10::IValue header;
    if (!archive.try_read("placement_studio_header", header) || !header.isString())
        throw InputError(path + ": not a Placement Studio checkpoint (no header)");
    const auto j = nlohmann::json::parse(header.toStringRef(), nullptr, false);
    if (!j.is_object())
        throw InputError(path + ": a damaged checkpoint (its header is not JSON)");
    if (j.value("family", "") != family)
        throw InputError(path + ": a checkpoint of '" + j.value("family", "?") + "', not of '" + family + "'");
    if (j.value("feature_schema", "") != kFeatureSchema)
        throw InputError(path + ": its feature schema '" + j.value("feature_schema", "?") + "' is not " +
                         kFeatureSchema);
    return j.value("params", nlohmann::json::object());
}
} // namespace

void saveCheckpoint(const std::string &path, const std::string &family, const std::string &paramsJson,
                    torch::nn::Module &module)
{
    nlohmann::json header{{"family", family},
                          {"feature_schema", kFeatureSchema},
                          {"features", kFeatureCount},
                          {"params", nlohmann::json::parse(paramsJson)}};
    torch::serialize::OutputArchive archive;
    module.save(archive);
    archive.write("placement_studio_header", c10::IValue(header.dump()));
    const std::string tmp = path + ".tmp";
    try {
        archive.save_to(tmp);
    } catch (const c10::Error &e) {
        throw InputError(path + ": cannot write the checkpoint");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw InputError(path + ": cannot write the checkpoint");
}

std::string checkpointParams(const std::string &path, const std::string &family)
{
    torch::serialize::InputArchive archive;
    return openCheckpoint(archive, path, family).dump();
}

std::string loadCheckpoint(const std::string &path, const std::string &family, torch::nn::Module &module)
{
    torch::serialize::InputArchive archive; // read once: the header and the weights
    const nlohmann::json params = openCheckpoint(archive, path, family);
    try {
        module.load(archive);
    } catch (const std::exception &e) {
        throw InputError(path + ": does not fit this model (" + firstLine(e) + ")");
    }
    // Bytes flipped on disk turn weights into NaN or infinity (the archive keeps no checksum that
    // LibTorch checks): every sample's probabilities were NaN, and LibTorch's multinomial said so
    // with a stack trace.
    torch::NoGradGuard noGrad;
    for (const torch::Tensor &t : module.parameters())
        if (!torch::isfinite(t).all().item<bool>())
            throw InputError(path + ": a damaged checkpoint (its weights hold NaN or infinite values)");
    return params.dump();
}

PlacerResult warmStartPlacement(const PlacementProblem &problem, bool best, const RunClock &clock,
                                std::vector<std::vector<int>> *others)
{
    // What the run has left: its preparation came first (0.16 s of features on the 58k-op GNMT,
    // and gdp's warm start then ran its whole limit from there), and HEFT alone had no limit and
    // no cancel at all.
    const RunControl left = clock.control().within(clock.elapsed(), clock.evaluations(), clock.maxEvaluations());
    if (best && clock.maxEvaluations() >= 100) {
        std::vector<PlacerResult> rest;
        PlacerResult r = bestFastPlacement(problem, left, others ? &rest : nullptr);
        if (others)
            *others = distinctStarts(r, rest, r.placement.devices());
        return r;
    }
    return runPlacer(PlacerRegistry::builtin(), "heft", problem, {}, left);
}

} // namespace ps::learn

#include "models/torch/PolicySupport.h"

namespace ps::learn {

torch::Tensor drawRows(const torch::Tensor &probs, const at::Generator &generator)
{
    const torch::Tensor host = probs.is_cpu() ? probs : probs.cpu();
    torch::Tensor choice;
    try {
        choice = torch::multinomial(host, 1, false, generator).squeeze(-1);
    } catch (const c10::Error &e) { // NaN or infinite probabilities: said plainly, not with LibTorch's stack
        throw InputError("the policy's probabilities cannot be sampled (" + firstLine(e) +
                         "): its weights (a damaged checkpoint?) or the costs overflowed a float");
    }
    return probs.is_cpu() ? choice : choice.to(probs.device());
}

Sampled sampleRows(const torch::Tensor &logits, const at::Generator &generator)
{
    const torch::Tensor logp = torch::log_softmax(logits, -1);
    const torch::Tensor choice = drawRows(logp.exp(), generator);
    Sampled s;
    s.choice = choice;
    s.logProb = logp.gather(-1, choice.unsqueeze(-1)).sum();
    s.entropy = -(logp.exp() * logp).sum(-1).mean();
    return s;
}

Sampled greedyRows(const torch::Tensor &logits)
{
    const torch::Tensor logp = torch::log_softmax(logits, -1);
    Sampled s;
    s.choice = logp.argmax(-1);
    s.logProb = logp.gather(-1, s.choice.unsqueeze(-1)).sum();
    s.entropy = -(logp.exp() * logp).sum(-1).mean();
    return s;
}

std::vector<int> toVector(const torch::Tensor &choice)
{
    const torch::Tensor c = choice.to(torch::kCPU).to(torch::kInt32).contiguous();
    return std::vector<int>(c.data_ptr<int>(), c.data_ptr<int>() + c.numel());
}

void shareResult(Collective &collective, Judge &judge, RunClock &clock)
{
    const std::vector<int> best = collective.bestOf(judge.bestKey(), judge.best());
    if (best != judge.best())
        judge.offer(best);
    if (collective.size() > 1)
        clock.setRanks(collective.perRank(static_cast<double>(clock.evaluations())));
    collective.barrier();
}

PlacerOutput judgedOutput(const std::string &family, const Judge &judge, long long evaluations, bool searched,
                          bool atFloor)
{
    PlacerOutput out;
    out.placement = Placement(judge.best());
    out.evaluations = evaluations;
    if (!judge.bestFeasible())
        out.notes.push_back(family + " found no placement that fits memory and constraints");
    else if (atFloor)
        out.notes.push_back(ObjectiveJudge::floorNote(family, evaluations));
    else if (searched && judge.improvements().size() == 1 && evaluations > 1) // the start was never beaten
        out.notes.push_back(family + ": nothing it tried beat its start in " + std::to_string(evaluations) +
                            " simulator runs; the start is the result");
    return out;
}

PlacerOutput learnerOutput(const std::string &family, const Judge &judge, const RunClock &clock,
                           const Collective &collective, bool searched)
{
    PlacerOutput out = judgedOutput(family, judge, clock.evaluations() + clock.elsewhere(), searched, clock.atFloor());
    if (collective.size() > 1)
        out.notes.insert(out.notes.begin(), collective.note());
    return out;
}

} // namespace ps::learn
