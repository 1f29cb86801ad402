#pragma once
// What every model family shares, placer or partitioner, classical or learned: typed
// hyperparameters, a seed, a budget, progress reports and a cancel flag. The GUI, the CLI and
// the steering sampler discover families and their parameters from a registry.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ps {

struct HyperParam
{
    enum class Type { Int, Real, Bool, Choice, Text };
    std::string name;
    Type type = Type::Real;
    double min = 0, max = 0;          // Int and Real
    double defaultValue = 0;          // Int, Real, Bool (0/1), Choice (index)
    std::vector<std::string> choices; // Choice
    std::string description;          // one line
    std::string defaultText;          // Text (e.g. a checkpoint path; empty: none)
    // Whether a search over models (steering) may vary it, and on which scale. Threads, devices,
    // checkpoints, file names and budgets stay Fixed.
    enum class Tuning { Fixed, Linear, Log };
    Tuning tuning = Tuning::Fixed;
    bool tunable() const { return tuning != Tuning::Fixed; }
};

// Declares a parameter as one a search may vary, on a linear or a log scale.
inline HyperParam linearTuned(HyperParam h)
{
    h.tuning = HyperParam::Tuning::Linear;
    return h;
}
inline HyperParam logTuned(HyperParam h)
{
    h.tuning = HyperParam::Tuning::Log;
    return h;
}

// Values for a family's hyperparameters; anything not set takes its default.
class ParamValues
{
public:
    // Parses "key=value" against the declared parameters; throws InputError naming the problem.
    static ParamValues parse(const std::vector<HyperParam> &declared, const std::vector<std::string> &assignments);
    static ParamValues defaults(const std::vector<HyperParam> &declared);

    double number(const std::string &name) const;
    int integer(const std::string &name) const { return static_cast<int>(number(name)); }
    bool flag(const std::string &name) const { return number(name) != 0; }
    const std::string &choice(const std::string &name) const;
    const std::string &text(const std::string &name) const;
    // Whether the caller set it (else it holds the default): a budget the person gave wins over
    // a default cap (a time limit with no evaluation cap means "use the time").
    bool given(const std::string &name) const;

private:
    const HyperParam &find(const std::string &name) const;
    std::vector<HyperParam> m_declared;
    std::map<std::string, double> m_values;
    std::map<std::string, std::string> m_texts;
    std::set<std::string> m_given;
};

// Whether "key=value" params ask a learner to save its policy (save_checkpoint=FILE): such a run
// trains even where there is nothing to search (one device, one part).
bool savesAPolicy(const std::vector<std::string> &params);

struct Budget
{
    double timeLimitS = std::numeric_limits<double>::infinity();
    long long maxEvaluations = std::numeric_limits<long long>::max(); // simulator runs

    // Whether the simulator runs are bounded: the largest value means no bound, and a family that
    // is given one spends it (a learner trains until it is spent instead of for its iterations).
    bool evaluationsBounded() const { return maxEvaluations != std::numeric_limits<long long>::max(); }
    // The runs left after `spent` (and `reserved` kept for later), at least 0; unbounded stays so.
    long long evaluationsLeft(long long spent, long long reserved = 0) const
    {
        return evaluationsBounded() ? std::max(0LL, maxEvaluations - spent - reserved) : maxEvaluations;
    }
};

struct Progress
{
    double fraction = 0;                                           // 0..1 of the budget or the work
    long long evaluations = 0;                                     // simulator runs so far
    double bestMakespan = std::numeric_limits<double>::infinity(); // best feasible so far
    std::string message;
    // Learners, per training iteration (NaN where a family has no such number).
    int iteration = -1;
    double sampleMean = std::numeric_limits<double>::quiet_NaN(); // sampled makespans (s)
    double sampleBest = std::numeric_limits<double>::quiet_NaN();
    double loss = std::numeric_limits<double>::quiet_NaN();
    double entropy = std::numeric_limits<double>::quiet_NaN();
    double wallS = 0;
    // Data-parallel runs (rank 0's report): each rank's simulator runs so far, by rank.
    std::vector<long long> rankEvaluations;
    // The simulator run (counted as `evaluations`) that found bestMakespan; -1: not known.
    long long bestFoundAt = -1;
    // Each improvement of the best feasible placement since the previous report, in order: the
    // run that found it and its makespan (a report comes once an iteration; a batch may hold several).
    std::vector<std::pair<long long, double>> improvements;
};

using ProgressCallback = std::function<void(const Progress &)>;

// Data-parallel training over processes (torch.distributed's c10d underneath): this process's
// rank among worldSize, and where rank 0 keeps the rendezvous. One process: worldSize 1.
struct Distribution
{
    int worldSize = 1;
    int rank = 0;
    std::string masterHost = "127.0.0.1";
    int masterPort = 29500;
    double timeoutS = 60; // joining, and waiting on another rank inside a step
    // "key=value" lines every rank must agree on (model, graph files, cluster, hyperparameters,
    // seed); a rank that differs is refused, naming the first key that differs.
    std::string fingerprint;
    bool distributed() const { return worldSize > 1; }
    bool leader() const { return rank == 0; }
};

// How a run is steered and stopped; shared by every family.
struct RunControl
{
    uint64_t seed = 1;
    Budget budget;
    ProgressCallback progress;                 // may be empty
    const std::atomic<bool> *cancel = nullptr; // may be null
    const std::atomic<bool> *pause = nullptr;  // may be null; learners wait while it is set
    Distribution distribution;                 // families with FamilyInfo::distributes

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    // Cancelled, or `usedS` seconds spend the time limit: for work that runs no simulator.
    bool outOfTime(double usedS) const { return cancelled() || usedS >= budget.timeLimitS; }
    // The same, or `evaluations` simulator runs spend the budget: a run stops before its next
    // simulator run.
    bool exhausted(double usedS, long long evaluations) const
    {
        return outOfTime(usedS) || evaluations >= budget.maxEvaluations;
    }
    // The seconds of the time limit left after `usedS`, and the same control with only those.
    double timeLeftS(double usedS) const { return std::max(0.0, budget.timeLimitS - usedS); }
    RunControl after(double usedS) const
    {
        RunControl rest = *this;
        rest.budget.timeLimitS = timeLeftS(usedS);
        return rest;
    }
    // For work run inside this run (a portfolio's placers, a learner's warm start): this cancel,
    // the time `usedS` leaves and the simulator runs `spent` leaves of `maxEvaluations` (this
    // budget's unless given); no progress, pause, seed or distribution of its own.
    RunControl within(double usedS, long long spent, std::optional<long long> maxEvaluations = {}) const
    {
        RunControl rest;
        rest.cancel = cancel;
        rest.budget.timeLimitS = timeLeftS(usedS);
        rest.budget.maxEvaluations = maxEvaluations.value_or(budget.maxEvaluations);
        rest.budget.maxEvaluations = rest.budget.evaluationsLeft(spent);
        return rest;
    }
    // The same control, its reports' fractions mapped into [from, to]: one stage of a run's progress.
    RunControl reportingWithin(double from, double to) const
    {
        RunControl stage = *this;
        if (progress)
            stage.progress = [outer = progress, from, to](const Progress &p) {
                Progress q = p;
                q.fraction = from + (to - from) * std::clamp(p.fraction, 0.0, 1.0);
                outer(q);
            };
        return stage;
    }
    // Blocks while paused (polling every 50 ms); returns false when cancelled meanwhile.
    bool waitWhilePaused() const;
    void report(const Progress &p) const
    {
        if (progress)
            progress(p);
    }
};

// Describes a family for registries, --help texts and the GUI.
struct FamilyInfo
{
    std::string name;
    std::string description;
    std::vector<HyperParam> params;
    bool trains = false;      // a learned family: expensive per run, budgeted by iterations
    bool distributes = false; // trains data-parallel over processes (RunControl::distribution)
    bool portfolio = false;   // runs other families and keeps the best (steering runs those itself)
    // The fewest simulator runs any run of the family costs, the judgement of its result
    // included: human's first layout, a search's start, a learner's warm start and its judgement.
    // A smaller budget given to the command line is refused (it could not be kept).
    long long fewestEvaluations = 1;
};

std::string hyperParamTypeName(HyperParam::Type type);

} // namespace ps
