#include "core/steering/SteeringSession.h"
#include "core/steering/SteeringArm.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Simulator.h"
#include "core/steering/CandidateRunner.h"
#include "core/steering/PolicyStore.h"
#include "core/steering/Recombination.h"
#include "core/steering/SteeringLog.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <numeric>
#include <thread>

namespace ps {

namespace {

constexpr const char *kDefaultLearnedArm = "gdp"; // the learned arm weighed in by default
// ... on graphs of up to this many ops: measured to pay up to the 11.6k-op GNMT, to cost 2-3% on
// the 58k-op one (docs/performance.md, "gdp weighed in by default").
constexpr int kDefaultLearnedArmMaxOps = 20000;

} // namespace

uint64_t placementHash(const std::vector<int> &devices)
{
    uint64_t h = 1469598103934665603ULL;
    for (int d : devices) {
        h ^= static_cast<uint64_t>(static_cast<uint32_t>(d));
        h *= 1099511628211ULL;
    }
    return h;
}

SteeringSession::SteeringSession(const Graph &graph, const Cluster &cluster, const PlacerRegistry &registry,
                                 SteeringSettings settings)
    : m_graph(graph), m_graphHash(graphContentHash(graph)), m_cluster(cluster), m_registry(registry),
      m_settings(std::move(settings)), m_constraints(Constraints::fromGraph(graph, cluster)),
      m_personPins(graph.nodeCount(), -1), m_policies(std::make_unique<PolicyStore>())
{
    if (graph.nodeCount() == 0)
        throw InputError("the graph has no nodes to place");
    if (m_settings.perRound < 1)
        throw InputError("a round needs at least one candidate");
    if (m_settings.perRound > SteeringSettings::kMaxPerRound)
        throw InputError("a round takes at most " + std::to_string(SteeringSettings::kMaxPerRound) +
                         " candidates, not " + std::to_string(m_settings.perRound));
    if (m_settings.roundEvaluations < 1)
        throw InputError("a round needs a budget of at least one simulator run");
    if (!m_constraints.unknownPins().empty())
        throw InputError("node '" + graph.id(m_constraints.unknownPins().front()) +
                         "' is pinned to a device the cluster lacks");
    if (const std::string why = m_constraints.contradiction(graph, cluster); !why.empty())
        throw InputError(why);
    // By default: every classical constructive family and local search, gdp, and the other learned
    // placers with a weight of 0 (listed, so that a person can weigh them in, but never proposed
    // until then: a candidate of theirs costs seconds where a classical one costs milliseconds).
    // gdp is weighed in on graphs up to kDefaultLearnedArmMaxOps: at 10,000 simulator runs
    // steering with it ended 0.7% lower on the geomean of the 36-case matrix (docs/performance.md),
    // and below about 4,000 runs left a learned arm is never proposed, so small sessions are
    // unchanged.
    const bool byDefault = m_settings.families.empty();
    std::vector<std::string> names = m_settings.families;
    if (byDefault) {
        for (const Placer *p : registry.all())
            if (!p->refines() && !p->info().trains && !p->info().portfolio)
                names.push_back(p->info().name);
        names.push_back("local-search");
        for (const Placer *p : registry.all())
            if (p->info().trains && !p->info().portfolio)
                names.push_back(p->info().name);
    }
    for (const std::string &name : names) {
        if (std::any_of(m_arms.begin(), m_arms.end(), [&](const Arm &a) { return a.name == name; }))
            continue;
        Arm arm;
        arm.name = name;
        arm.space = ParamSpace(registry, name); // throws on an unknown family
        const std::vector<std::string> stages = compositionStages(name);
        const Placer &first = registry.require(stages.front(), "model");
        arm.refine = first.refines();
        arm.takesStart = first.takesStart() && stages.size() == 1;
        arm.fewest = 0;
        for (const std::string &stage : stages) {
            const FamilyInfo &info = registry.require(stage, "model").info();
            arm.trains = arm.trains || info.trains;
            arm.fewest += info.fewestEvaluations;
        }
        const std::vector<HyperParam> declared = first.info().params;
        arm.budgeted =
            arm.trains && stages.size() == 1 &&
            std::any_of(declared.begin(), declared.end(), [](const HyperParam &h) { return h.name == "evaluations"; });
        arm.searches = std::find(stages.begin(), stages.end(), "local-search") != stages.end() || arm.budgeted;
        const bool weighedIn = name == kDefaultLearnedArm && graph.nodeCount() <= kDefaultLearnedArmMaxOps;
        arm.weight = byDefault && arm.trains && !weighedIn ? 0 : 1;
        m_arms.push_back(std::move(arm));
    }
    // The defaults stay unnamed in the settings (and so in a log), so that a replay or a worker
    // makes the same arms with the same weights.
}

SteeringSession::~SteeringSession() = default;

void SteeringSession::borrowPolicies(const std::string &dir)
{
    m_policies->borrow(dir);
}

std::string SteeringSession::policyDir() const
{
    return m_policies->dir();
}

std::vector<std::pair<std::string, double>> SteeringSession::arms() const
{
    std::vector<std::pair<std::string, double>> out;
    for (const Arm &a : m_arms)
        out.emplace_back(a.name, a.weight);
    return out;
}

const SteeringSession::Arm *SteeringSession::findArm(const std::string &name) const
{
    for (const Arm &a : m_arms)
        if (a.name == name)
            return &a;
    return nullptr;
}

const SteeringSession::Arm &SteeringSession::armNamed(const std::string &name) const
{
    if (const Arm *a = findArm(name))
        return *a;
    std::string known;
    for (const Arm &a : m_arms)
        known += (known.empty() ? "" : ", ") + a.name;
    throw InputError("no family '" + name + "' in this steering session (it has: " + known + ")");
}

const ParamSpace &SteeringSession::space(const std::string &arm) const
{
    return armNamed(arm).space;
}

void SteeringSession::apply(const SteeringFeedback &f)
{
    rescore(applyFeedback(f));
}

bool SteeringSession::applyFeedback(const SteeringFeedback &f)
{
    const int n = m_graph.nodeCount(), k = m_cluster.deviceCount();
    auto checkNode = [&](int v) {
        if (v < 0 || v >= n)
            throw InputError("feedback names node " + std::to_string(v) + " of a graph with " + std::to_string(n));
    };
    auto checkDevice = [&](int d, bool allowNone) {
        if (d < (allowNone ? -1 : 0) || d >= k)
            throw InputError("feedback names device " + std::to_string(d) + " of a cluster with " + std::to_string(k));
    };
    auto checkCandidate = [&](int id) {
        if (id < 0 || id >= static_cast<int>(m_candidates.size()))
            throw InputError("feedback names candidate " + std::to_string(id) + ", which does not exist");
    };
    std::vector<int> personPins = m_personPins;
    for (const auto &[v, d] : f.pins) {
        checkNode(v);
        checkDevice(d, true);
        if (d < 0 && m_graph.pin(v) >= 0)
            throw InputError("node '" + m_graph.id(v) + "' is pinned by the graph file and cannot be unpinned");
        personPins[v] = d;
    }
    Constraints constraints = Constraints::fromGraph(m_graph, m_cluster, personPins);
    if (const std::string why = constraints.contradiction(m_graph, m_cluster); !why.empty())
        throw InputError(why);
    for (const auto &[v, d] : f.prefer) {
        checkNode(v);
        checkDevice(d, true);
    }
    for (const auto &group : f.together)
        for (int v : group)
            checkNode(v);
    for (int v : f.important)
        checkNode(v);
    for (int v : f.unimportant)
        checkNode(v);
    if (f.dropTogether < 0 || f.dropTogether > static_cast<int>(m_objective.preferences.together.size()))
        throw InputError("feedback drops " + std::to_string(f.dropTogether) + " 'keep together' groups of " +
                         std::to_string(m_objective.preferences.together.size()));
    for (const auto &entry : f.familyWeights) {
        armNamed(entry.first);
        if (!(entry.second >= 0) || !std::isfinite(entry.second))
            throw InputError("the weight of family '" + entry.first + "' must be a number >= 0");
    }
    for (int id : f.accept)
        checkCandidate(id);
    for (int id : f.reject)
        checkCandidate(id);
    for (int id : f.clearVerdict)
        checkCandidate(id);

    // Everything checked: apply.
    if (f.setWeights) {
        Preferences keep = std::move(m_objective.preferences);
        m_objective = f.weights;
        m_objective.preferences = std::move(keep);
    }
    if (!f.pins.empty()) {
        m_personPins = std::move(personPins);
        m_constraints = std::move(constraints);
    }
    // One pass each, as if applied entry by entry (a node's last word wins and goes last): an
    // erase per entry was quadratic with tens of thousands of them.
    Preferences &p = m_objective.preferences;
    if (!f.prefer.empty()) {
        std::vector<int> last(static_cast<size_t>(n), -1); // the entry of f.prefer that counts per node
        for (size_t i = 0; i < f.prefer.size(); ++i)
            last[f.prefer[i].first] = static_cast<int>(i);
        p.preferDevice.erase(std::remove_if(p.preferDevice.begin(), p.preferDevice.end(),
                                            [&](const auto &e) { return last[e.first] >= 0; }),
                             p.preferDevice.end());
        for (size_t i = 0; i < f.prefer.size(); ++i)
            if (last[f.prefer[i].first] == static_cast<int>(i) && f.prefer[i].second >= 0)
                p.preferDevice.push_back(f.prefer[i]);
    }
    p.together.resize(p.together.size() - static_cast<size_t>(f.dropTogether));
    p.together.insert(p.together.end(), f.together.begin(), f.together.end());
    if (!f.important.empty() || !f.unimportant.empty()) {
        std::vector<char> marked(static_cast<size_t>(n), 0);
        for (int v : p.important)
            marked[v] = 1;
        for (int v : f.important)
            if (!marked[v]) {
                marked[v] = 1;
                p.important.push_back(v);
            }
        for (int v : f.unimportant)
            marked[v] = 2; // to go
        p.important.erase(std::remove_if(p.important.begin(), p.important.end(), [&](int v) { return marked[v] == 2; }),
                          p.important.end());
    }
    for (const auto &[name, weight] : f.familyWeights)
        for (Arm &a : m_arms)
            if (a.name == name)
                a.weight = weight;
    for (int id : f.accept)
        m_candidates[id].verdict = Candidate::Verdict::Accepted;
    for (int id : f.reject)
        m_candidates[id].verdict = Candidate::Verdict::Rejected;
    for (int id : f.clearVerdict)
        m_candidates[id].verdict = Candidate::Verdict::None;

    m_pending.push_back(f);
    return !f.pins.empty() || !f.prefer.empty() || !f.together.empty() || f.dropTogether > 0 || !f.important.empty() ||
           !f.unimportant.empty();
}

void SteeringSession::rescore(bool terms)
{
    // Zero simulator runs: what a change of weights, pins or preferences alters is either a
    // weight on a kept term or a function of the placement alone. A weight alone leaves the
    // terms as they are (a full pass reads every op of every candidate: 20 ms for 109 candidates
    // of the 58k-op GNMT, on each step of a weight slider).
    const ObjectiveJudge judge(m_graph, m_cluster, m_constraints, m_objective);
    for (Candidate &c : m_candidates) {
        if (!c.error.empty() || c.devices.empty())
            continue;
        if (!terms) {
            c.score = judge.score(c.terms);
            continue;
        }
        c.terms.preferencePenalty = judge.preferencePenalty(c.devices);
        c.terms.importantPath = judge.importantPath(c.devices);
        c.terms.feasible = constraintViolations(m_graph, m_cluster, m_constraints, c.devices,
                                                memoryUsage(m_graph, m_cluster, c.devices))
                               .empty();
        c.score = judge.score(c.terms);
    }
}

bool SteeringSession::bestMeetsFloor() const
{
    const std::vector<int> ranked = ranking();
    if (ranked.empty())
        return false;
    const Candidate &best = candidate(ranked.front());
    return meetsScoreFloor(m_objective, best.terms.bound, best.score, best.terms.feasible);
}

std::vector<int> SteeringSession::ranking() const
{
    std::vector<int> ids;
    for (const Candidate &c : m_candidates)
        if (c.usable())
            ids.push_back(c.id);
    std::sort(ids.begin(), ids.end(), [&](int a, int b) {
        const Candidate &x = m_candidates[a], &y = m_candidates[b];
        if (x.terms.feasible != y.terms.feasible)
            return x.terms.feasible;
        if (x.score != y.score)
            return x.score < y.score;
        return a < b;
    });
    return ids;
}

double SteeringSession::agreement(const std::vector<int> &devices) const
{
    const Preferences &p = m_objective.preferences;
    const ImportanceWeights weight(p.important);
    double total = 0, kept = 0;
    for (int v = 0; v < static_cast<int>(m_personPins.size()); ++v)
        if (m_personPins[v] >= 0) {
            const double w = weight(v);
            total += w;
            kept += devices[v] == m_personPins[v] ? w : 0;
        }
    for (const auto &[v, d] : p.preferDevice) {
        const double w = weight(v);
        total += w;
        kept += devices[v] == d ? w : 0;
    }
    for (const auto &group : p.together)
        if (group.size() >= 2) {
            total += 1;
            kept += 1 - Preferences::splitShare(group, devices, m_cluster.deviceCount());
        }
    return total > 0 ? kept / total : 1.0;
}

std::vector<ConfigObservation> SteeringSession::observations(const Arm &arm) const
{
    const std::vector<int> ranked = ranking();
    std::vector<ConfigObservation> obs;
    if (ranked.empty())
        return obs;
    const double best = std::max(1e-300, m_candidates[ranked.front()].score);
    for (const Candidate &c : m_candidates) {
        if (c.arm != arm.name || !c.error.empty() || c.devices.empty())
            continue;
        const Candidate &judged = c.duplicateOf >= 0 ? m_candidates[c.duplicateOf] : c;
        double value;
        if (c.refines >= 0) {
            // A refiner is judged by what it made of its start: the start's quality is not its
            // hyperparameters' doing.
            const Candidate &start = m_candidates[c.refines];
            value = std::log(std::max(judged.score, 1e-300) / std::max(start.score, 1e-300));
        } else {
            value = std::log(std::max(judged.score, best) / best);
        }
        if (!judged.terms.feasible)
            value += 1;
        obs.push_back({c.x, value});
    }
    return obs;
}

std::vector<double> SteeringSession::bestConfig(const Arm &arm) const
{
    std::vector<double> x = arm.space.defaults();
    double best = std::numeric_limits<double>::infinity();
    for (const ConfigObservation &o : observations(arm))
        if (o.value < best) {
            best = o.value;
            x = o.x;
        }
    return x;
}

std::vector<std::vector<double>> SteeringSession::rejectedPoints(const Arm &arm) const
{
    std::vector<std::vector<double>> points;
    for (const Candidate &c : m_candidates)
        if (c.arm == arm.name && c.verdict == Candidate::Verdict::Rejected)
            points.push_back(c.x);
    return points;
}

std::vector<ConfigObservation> SteeringSession::armObservations(const std::string &arm) const
{
    return observations(armNamed(arm));
}

bool SteeringSession::armRefines(const std::string &arm) const
{
    return armNamed(arm).refine;
}

ConfigEstimate SteeringSession::estimate(const std::string &arm, const std::vector<double> &x) const
{
    const Arm &a = armNamed(arm);
    return ConfigSearch(observations(a), rejectedPoints(a)).estimate(x);
}

void SteeringSession::runCandidate(Candidate &c, const RunControl &control) const
{
    try {
        const PlacementProblem problem{m_graph, m_cluster, m_constraints, m_objective};
        RunControl rc;
        rc.seed = c.seed;
        rc.cancel = control.cancel;
        rc.pause = control.pause;
        rc.progress = control.progress;
        if (c.budget > 0) // the recombination's runs come out of it
            rc.budget.maxEvaluations = std::max(1LL, c.budget - (c.partner >= 0 ? c.recombineEvaluations : 0));
        std::vector<int> startDevices =
            c.refines >= 0 ? m_candidates.at(static_cast<size_t>(c.refines)).devices : std::vector<int>{};
        long long recombined = 0;
        if (c.refines >= 0 && c.partner >= 0) {
            Recombined child = recombine(problem, startDevices, m_candidates.at(static_cast<size_t>(c.partner)).devices,
                                         c.recombineEvaluations, c.seed, rc);
            startDevices = std::move(child.devices);
            recombined = child.evaluations;
        }
        const Placement start(std::move(startDevices));
        // A learned candidate keeps its trained policy, and one that goes on from a candidate of
        // its arm continues that candidate's policy (where it was kept) rather than a fresh one.
        std::vector<std::string> params = c.params;
        const Arm *arm = findArm(c.arm); // null: a task or log names an arm this session lacks
        if (arm && arm->budgeted) {
            const std::string own = m_policies->path(c.seed);
            if (!own.empty())
                params.push_back("save_checkpoint=" + own);
            if (c.refines >= 0) {
                const Candidate &from = m_candidates.at(static_cast<size_t>(c.refines));
                const std::string kept = m_policies->path(from.seed);
                if (from.arm == c.arm && PolicyStore::exists(kept)) {
                    params.push_back("checkpoint=" + kept);
                    c.continued = true;
                }
            }
        }
        const PlacerResult r = runPlacer(m_registry, c.spec, problem, params, rc, c.refines >= 0 ? &start : nullptr);
        c.devices = r.placement.devices();
        c.terms = r.terms;
        c.score = r.score;
        c.evaluations = r.evaluations + recombined;
        c.wallS = r.wallS;
        c.notes = r.notes;
    } catch (const std::exception &e) {
        c.error = e.what();
    }
}

void SteeringSession::evaluate(std::vector<Candidate> &batch, const RunControl &control) const
{
    std::mutex lock;
    size_t done = 0;
    long long spent = 0;
    double best = std::numeric_limits<double>::infinity(), shown = 0;
    // Progress after each candidate, wherever it ran, and in between from the candidates that run
    // here (a learner's iterations, a search's reports), so that a long candidate does not freeze
    // it; the fraction never goes back while candidates run side by side.
    auto report = [&](double fraction, long long evaluations, const std::string &message) {
        shown = std::max(shown, std::min(1.0, fraction));
        Progress p;
        p.fraction = shown;
        p.evaluations = evaluations;
        p.bestMakespan = best;
        p.message = message;
        control.report(p);
    };
    auto finished = [&](const Candidate &c) {
        std::lock_guard<std::mutex> guard(lock);
        ++done;
        spent += c.evaluations;
        if (c.error.empty() && c.terms.feasible)
            best = std::min(best, c.score);
        report(double(done) / double(batch.size()), spent,
               "candidate " + std::to_string(done) + "/" + std::to_string(batch.size()) + ": " + c.spec);
    };
    auto runHere = [&](Candidate &c) {
        if (control.cancelled()) {
            c.error = "cancelled";
        } else {
            RunControl within = control;
            within.progress = [&](const Progress &q) {
                std::lock_guard<std::mutex> guard(lock);
                const double part = std::clamp(q.fraction, 0.0, 1.0);
                report((double(done) + part) / double(batch.size()), spent + q.evaluations,
                       c.spec + ": " + std::to_string(static_cast<int>(100 * part)) + "% (" + q.message + ")");
            };
            runCandidate(c, control.progress ? within : control);
        }
        finished(c);
    };
    if (m_runner) {
        m_runner->run(batch, steeringLogJson(*this, m_graph, m_cluster, nullptr, m_policies->dir()), runHere, finished,
                      control);
        return;
    }
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < batch.size(); i = next++)
            runHere(batch[i]);
    };
    const int threads = std::max(1, std::min<int>(m_settings.threads, static_cast<int>(batch.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
}

std::vector<int> SteeringSession::runRound(const RunControl &control)
{
    const int round = static_cast<int>(m_rounds.size()) + 1;
    std::vector<Candidate> batch = proposeRound(round);
    evaluate(batch, control);

    RoundRecord record;
    record.round = round;
    record.budget = m_settings.roundEvaluations;
    record.left = m_left;
    record.feedback = std::move(m_pending);
    m_pending.clear();
    for (Candidate &c : batch) {
        if (c.error == "cancelled")
            continue;
        c.id = static_cast<int>(m_candidates.size()); // ids stay dense when some were dropped
        if (c.error.empty()) {
            c.hash = placementHash(c.devices);
            for (const Candidate &o : m_candidates)
                if (o.usable() && o.hash == c.hash && o.devices == c.devices) {
                    c.duplicateOf = o.id;
                    for (Arm &a : m_arms)
                        if (a.name == c.arm)
                            ++a.duplicates;
                    break;
                }
        }
        record.evaluations += c.evaluations;
        record.candidates.push_back(c.id);
        m_candidates.push_back(std::move(c));
    }
    m_evaluations += record.evaluations;
    m_rounds.push_back(std::move(record));
    // Learned arms earn a larger training budget by placing in the top three.
    const std::vector<int> ranked = ranking();
    for (Arm &a : m_arms)
        if (a.trains)
            for (size_t i = 0; i < std::min<size_t>(3, ranked.size()); ++i)
                if (m_candidates[ranked[i]].arm == a.name && m_candidates[ranked[i]].round == round) {
                    ++a.earned;
                    break;
                }
    return m_rounds.back().candidates;
}

namespace {

// The log was made for this graph and cluster (its devices, each placement's length), and what its
// numbers refer to (candidates, devices) is there: an edited or damaged log is refused as such
// instead of indexing past what it holds.
void checkLogFits(const SteeringLogDoc &doc, const Graph &graph, const Cluster &cluster)
{
    if (cluster.deviceNames() != doc.deviceNames)
        throw InputError("the steering log was made for another cluster (its devices differ)");
    const int count = static_cast<int>(doc.candidates.size()), ops = graph.nodeCount(), devices = cluster.deviceCount();
    auto damaged = [](const std::string &what) { return InputError("the steering log is damaged: " + what); };
    auto holds = [count](int id) { return id >= 0 && id < count; };
    // A candidate refines, duplicates or recombines with an earlier one only (a candidate that
    // refined itself sent the next round's proposals round a loop for ever).
    auto candidateOrNone = [&](int id, const Candidate &c, const char *what) {
        if (id < -1 || id >= c.id)
            throw damaged("candidate " + std::to_string(c.id) + "'s " + what + " is candidate " + std::to_string(id) +
                          ", not an earlier one");
    };
    auto placesOnDevices = [&](const std::vector<int> &placement, const std::string &whose) {
        for (int d : placement)
            if (d < 0 || d >= devices)
                throw damaged(whose + " places an op on device " + std::to_string(d) + " of " +
                              std::to_string(devices));
    };
    for (size_t i = 0; i < doc.candidates.size(); ++i) {
        const Candidate &c = doc.candidates[i];
        if (c.id != static_cast<int>(i) || (c.error.empty() && static_cast<int>(c.devices.size()) != ops))
            throw InputError("the steering log was made for another graph (candidate " + std::to_string(i) +
                             " does not fit it)");
        candidateOrNone(c.duplicateOf, c, "duplicate");
        candidateOrNone(c.refines, c, "start");
        candidateOrNone(c.partner, c, "partner");
        placesOnDevices(c.devices, "candidate " + std::to_string(c.id));
    }
    for (size_t r = 0; r < doc.roundCandidates.size(); ++r)
        for (int id : doc.roundCandidates[r])
            if (!holds(id))
                throw damaged("round " + std::to_string(r + 1) + " lists candidate " + std::to_string(id) +
                              ", which it does not hold");
    if (doc.haveEnsemble) {
        if (static_cast<int>(doc.ensemble.devices.size()) != ops)
            throw damaged("its ensemble does not place every op");
        placesOnDevices(doc.ensemble.devices, "its ensemble");
        for (int id : doc.ensemble.members)
            if (!holds(id))
                throw damaged("its ensemble's member " + std::to_string(id) + " is a candidate it does not hold");
    }
}

} // namespace

void SteeringSession::restore(const SteeringLogDoc &doc, const Graph &graph, const Cluster &cluster)
{
    // Ops of the same count are not the same graph (a log of another graph of that size was taken).
    if (!doc.graphHash.empty() && doc.graphHash != m_graphHash)
        throw InputError("the steering log was made on another graph (its ops, costs or edges differ)");
    checkLogFits(doc, graph, cluster);
    m_candidates = doc.candidates;
    m_rounds.clear();
    m_pending.clear();
    m_evaluations = 0;
    for (Arm &a : m_arms)
        a.duplicates = 0;
    for (const Candidate &c : m_candidates)
        if (c.duplicateOf >= 0)
            for (Arm &a : m_arms)
                a.duplicates += a.name == c.arm;
    const int rounds = static_cast<int>(doc.roundBudgets.size());
    for (int r = 1; r <= rounds + 1; ++r) {
        for (const FeedbackText &t : doc.feedback)
            if (t.round == r)
                applyFeedback(resolveFeedback(t, graph, cluster, *this, "the steering log"));
        if (r > rounds)
            break;
        RoundRecord rec;
        rec.round = r;
        rec.budget = doc.roundBudgets[r - 1];
        rec.left = doc.roundLeft[r - 1];
        rec.candidates = doc.roundCandidates[r - 1];
        for (int id : rec.candidates)
            rec.evaluations += m_candidates.at(static_cast<size_t>(id)).evaluations;
        rec.feedback = std::move(m_pending);
        m_pending.clear();
        m_evaluations += rec.evaluations;
        m_rounds.push_back(std::move(rec));
    }
    rescore(true); // once, under the feedback of every round
}

} // namespace ps
