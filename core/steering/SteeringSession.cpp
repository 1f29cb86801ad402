#include "core/steering/SteeringSession.h"

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

struct SteeringSession::Arm
{
    std::string name; // a family, a composition, or "local-search" (refines earlier candidates)
    ParamSpace space;
    bool refine = false;
    bool trains = false;
    bool searches = false;   // has a local-search stage, or is `budgeted`: takes an evaluation budget
    bool budgeted = false;   // a learned placer the simulator judges: takes a share of what is left
    bool takesStart = false; // starts from a given placement (refiners, gdp, giph; not rl-seq2seq)
    double weight = 1;
    int duplicates = 0; // proposals that found an already known placement
    int earned = 0;     // learned arms: rounds in which they placed in the top three
};

namespace {

constexpr const char *kDefaultLearnedArm = "gdp"; // the learned arm weighed in by default
// ... on graphs of up to this many ops: measured to pay up to the 11.6k-op GNMT, to cost 2-3% on
// the 58k-op one (docs/performance.md, "gdp weighed in by default").
constexpr int kDefaultLearnedArmMaxOps = 20000;

uint64_t mix(uint64_t a, uint64_t b)
{
    // splitmix64 of a combination: independent streams per round and per candidate.
    uint64_t z = a * 0x9E3779B97F4A7C15ULL + b + 0x632BE59BD9B4E019ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

bool hasStage(const std::string &spec, const std::string &stage)
{
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t plus = spec.find('+', pos);
        if (plus == std::string::npos)
            plus = spec.size();
        if (spec.compare(pos, plus - pos, stage) == 0)
            return true;
        pos = plus + 1;
    }
    return false;
}

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
    : m_graph(graph), m_cluster(cluster), m_registry(registry), m_settings(std::move(settings)),
      m_constraints(Constraints::fromGraph(graph, cluster)), m_personPins(graph.nodeCount(), -1),
      m_policies(std::make_unique<PolicyStore>())
{
    if (graph.nodeCount() == 0)
        throw InputError("the graph has no nodes to place");
    if (m_settings.perRound < 1)
        throw InputError("a round needs at least one candidate");
    if (m_settings.roundEvaluations < 1)
        throw InputError("a round needs a budget of at least one simulator run");
    if (!m_constraints.unknownPins().empty())
        throw InputError("node '" + graph.id(m_constraints.unknownPins().front()) +
                         "' is pinned to a device the cluster lacks");
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
        const Placer &first = registry.require(name.substr(0, name.find('+')), "model");
        arm.refine = first.refines();
        arm.takesStart = first.takesStart() && name.find('+') == std::string::npos;
        for (size_t pos = 0; pos != std::string::npos;) {
            const size_t plus = name.find('+', pos);
            arm.trains =
                arm.trains || registry.require(name.substr(pos, plus == std::string::npos ? plus : plus - pos), "model")
                                  .info()
                                  .trains;
            pos = plus == std::string::npos ? plus : plus + 1;
        }
        const std::vector<HyperParam> declared = first.info().params;
        arm.budgeted =
            arm.trains && name.find('+') == std::string::npos &&
            std::any_of(declared.begin(), declared.end(), [](const HyperParam &h) { return h.name == "evaluations"; });
        arm.searches = hasStage(name, "local-search") || arm.budgeted;
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
    for (const auto &[v, d] : f.pins) {
        checkNode(v);
        checkDevice(d, true);
        if (d < 0 && m_graph.pin(v) >= 0)
            throw InputError("node '" + m_graph.id(v) + "' is pinned by the graph file and cannot be unpinned");
    }
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
        for (const auto &[v, d] : f.pins)
            m_personPins[v] = d;
        m_constraints = Constraints::fromGraph(m_graph, m_cluster);
        for (int v = 0; v < n; ++v)
            if (m_personPins[v] >= 0)
                m_constraints.pin(v, m_personPins[v]);
    }
    Preferences &p = m_objective.preferences;
    for (const auto &[v, d] : f.prefer) {
        p.preferDevice.erase(std::remove_if(p.preferDevice.begin(), p.preferDevice.end(),
                                            [v = v](const auto &e) { return e.first == v; }),
                             p.preferDevice.end());
        if (d >= 0)
            p.preferDevice.emplace_back(v, d);
    }
    p.together.resize(p.together.size() - static_cast<size_t>(f.dropTogether));
    p.together.insert(p.together.end(), f.together.begin(), f.together.end());
    for (int v : f.important)
        if (!p.isImportant(v))
            p.important.push_back(v);
    for (int v : f.unimportant)
        p.important.erase(std::remove(p.important.begin(), p.important.end(), v), p.important.end());
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
    rescore();
}

void SteeringSession::rescore()
{
    // Zero simulator runs: what a change of weights, pins or preferences alters is either a
    // weight on a kept term or a function of the placement alone.
    const ObjectiveJudge judge(m_graph, m_cluster, m_constraints, m_objective);
    for (Candidate &c : m_candidates) {
        if (!c.error.empty() || c.devices.empty())
            continue;
        c.terms.preferencePenalty = judge.preferencePenalty(c.devices);
        c.terms.importantPath = judge.importantPath(c.devices);
        c.terms.feasible = constraintViolations(m_graph, m_cluster, m_constraints, c.devices,
                                                memoryUsage(m_graph, m_cluster, c.devices))
                               .empty();
        c.score = judge.score(c.terms);
    }
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
    double total = 0, kept = 0;
    for (int v = 0; v < static_cast<int>(m_personPins.size()); ++v)
        if (m_personPins[v] >= 0) {
            const double w = p.isImportant(v) ? Preferences::kImportantWeight : 1;
            total += w;
            kept += devices[v] == m_personPins[v] ? w : 0;
        }
    for (const auto &[v, d] : p.preferDevice) {
        const double w = p.isImportant(v) ? Preferences::kImportantWeight : 1;
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

ConfigEstimate SteeringSession::estimate(const std::string &arm, const std::vector<double> &x) const
{
    const Arm &a = armNamed(arm);
    return ConfigSearch(observations(a), rejectedPoints(a)).estimate(x);
}

double SteeringSession::armShare(const Arm &arm, double bestScore) const
{
    if (arm.weight <= 0)
        return 0;
    double best = std::numeric_limits<double>::infinity();
    bool any = false;
    for (const Candidate &c : m_candidates)
        if (c.arm == arm.name && c.usable()) {
            any = true;
            best = std::min(best, c.terms.feasible ? c.score : 10 * c.score);
        }
    // Unproven arms count as promising; proven ones by how close their best came to the best.
    double share = any ? std::exp(-(best / std::max(bestScore, 1e-300) - 1) / 0.05) : 1.0;
    share = std::max(share, 1e-3);
    // An arm that keeps finding known placements has little left to give (a refiner's repeat
    // only says its start was a local optimum, so it is penalised less).
    share *= std::pow(arm.refine ? 0.7 : 0.1, arm.duplicates);
    if (any && arm.space.dimension() == 0 && !arm.refine)
        share *= 0.2; // nothing to tune: another run differs only by its seed
    if (arm.trains)
        share *= arm.earned > 0 ? 1.0 : 0.25; // expensive until they earn their place
    return arm.weight * share;
}

int SteeringSession::chooseBase(std::mt19937_64 &rng, const std::vector<Candidate> &batch, bool *screening) const
{
    constexpr size_t kScreened = 3; // lineages screened before any is favoured (4 measured worse)
    if (screening)
        *screening = false;
    // Accepted candidates first, then the rest by rank; rejected ones are never refined.
    const std::vector<int> all = ranking();
    std::vector<int> ranked;
    for (int id : all)
        if (m_candidates[id].verdict == Candidate::Verdict::Accepted)
            ranked.push_back(id);
    for (int id : all)
        if (m_candidates[id].verdict == Candidate::Verdict::None)
            ranked.push_back(id);
    if (ranked.empty())
        return -1;
    // Searches form lineages (a start and what refined it). The best start is not always the
    // best placement, so bases are the heads (best members) of the five best lineages (one per
    // family of their start): each of the top three is searched once (this round's batch
    // included) before any is favoured, then the heads by rank (80/10/5/3/2%), a head whose
    // refinement already came back unchanged (a local optimum) a third as often.
    // One lineage per family: variants of one family (metis at two imbalances) often make
    // placements that differ in name only, and would crowd another family's start out.
    std::vector<int> heads, roots;
    for (int id : ranked) {
        const int r = lineageRoot(id);
        // (r's own lineage, once seen, is seen through its family too.)
        const bool familySeen =
            std::any_of(roots.begin(), roots.end(), [&](int o) { return m_candidates[o].arm == m_candidates[r].arm; });
        if (!familySeen) {
            roots.push_back(r);
            heads.push_back(id);
        }
        if (heads.size() == 5)
            break;
    }
    for (size_t i = 0; i < std::min<size_t>(kScreened, heads.size()); ++i) {
        auto refinesRoot = [&](const Candidate &c) { return c.refines >= 0 && lineageRoot(c.refines) == roots[i]; };
        const bool searched = std::any_of(m_candidates.begin(), m_candidates.end(), refinesRoot) ||
                              std::any_of(batch.begin(), batch.end(), refinesRoot);
        if (!searched) {
            if (screening)
                *screening = true;
            return heads[i];
        }
    }
    static const double kWeights[] = {0.8, 0.1, 0.05, 0.03, 0.02};
    std::vector<double> w(kWeights, kWeights + heads.size());
    for (size_t i = 0; i < heads.size(); ++i) {
        // A plain search's stall counts once no other lineage is left to recombine the head with.
        const bool partnerLeft = choosePartner(heads[i], batch) >= 0;
        for (const Candidate &c : m_candidates)
            if (c.refines == heads[i] && c.duplicateOf == heads[i] && (c.partner >= 0 || !partnerLeft))
                w[i] *= 0.3;
    }
    return heads[std::discrete_distribution<size_t>(w.begin(), w.end())(rng)];
}

int SteeringSession::lineageRoot(int id) const
{
    while (m_candidates[static_cast<size_t>(id)].refines >= 0)
        id = m_candidates[static_cast<size_t>(id)].refines;
    return id;
}

int SteeringSession::choosePartner(int base, const std::vector<Candidate> &batch) const
{
    auto stalled = [&](const Candidate &c) { return c.refines == base && c.duplicateOf == base; };
    if (std::none_of(m_candidates.begin(), m_candidates.end(), stalled))
        return -1;
    auto tried = [&](int partner) {
        auto same = [&](const Candidate &c) { return c.refines == base && c.partner == partner; };
        return std::any_of(m_candidates.begin(), m_candidates.end(), same) ||
               std::any_of(batch.begin(), batch.end(), same);
    };
    const int root = lineageRoot(base);
    for (int id : ranking())
        if (m_candidates[static_cast<size_t>(id)].verdict != Candidate::Verdict::Rejected && lineageRoot(id) != root &&
            !tried(id))
            return id;
    return -1;
}

std::vector<Candidate> SteeringSession::propose() const
{
    return proposeRound(static_cast<int>(m_rounds.size()) + 1);
}

std::vector<Candidate> SteeringSession::proposeRound(int round) const
{
    std::mt19937_64 rng(mix(m_settings.seed, static_cast<uint64_t>(round)));
    const std::vector<int> ranked = ranking();
    const double bestScore = ranked.empty() ? 1.0 : m_candidates[ranked.front()].score;
    const bool haveBase = chooseBase(rng, {}) >= 0;
    // Whether the best lineages have all had their first search (a copy of the stream: asking
    // must not change the round's draws).
    bool screeningLeft = false;
    std::mt19937_64 asking = rng;
    chooseBase(asking, {}, &screeningLeft);
    // Only a refiner searches them: with none weighed in, learned arms do not wait for it.
    if (std::none_of(m_arms.begin(), m_arms.end(), [](const Arm &a) { return a.refine && a.weight > 0; }))
        screeningLeft = false;

    // A learned placer learns little in fewer runs than this (gdp: docs/performance.md, "Steering
    // with gdp"), so it is not proposed when its share of what is left would be smaller. It joins
    // once the best lineages were searched, so that its first run is judged against searched
    // placements, not against raw starts.
    constexpr long long kLearnedRuns = 1000;
    auto learnedBudget = [&](const Arm &a, long long perSearch) {
        if (m_left < 0)
            return perSearch;
        return std::min(m_left, std::max(perSearch, m_left / (a.earned > 0 ? 2 : 4)));
    };
    std::vector<int> active;
    for (size_t i = 0; i < m_arms.size(); ++i)
        if (m_arms[i].weight > 0 && (!m_arms[i].refine || haveBase) &&
            !(m_arms[i].budgeted &&
              (!haveBase || screeningLeft || (m_left >= 0 && learnedBudget(m_arms[i], 0) < kLearnedRuns))))
            active.push_back(static_cast<int>(i));
    if (active.empty())
        throw InputError("every family is excluded (or only refiners remain and nothing to refine yet)");

    const int slots = m_settings.perRound;
    const int explore = slots >= 2 ? static_cast<int>(std::lround(slots * m_settings.exploration)) : 0;
    std::vector<double> share(m_arms.size(), 0.0);
    for (int i : active)
        share[i] = armShare(m_arms[i], bestScore);
    // Probes first: a constructive family not run yet costs one simulator run and tells where
    // searches should start, so every such family runs once, beside the round's slots.
    std::vector<int> picked;
    // A switch (a tuned bool) can change a family's placement wholesale (a partition placer's cut
    // refinement), so a probe runs each with its defaults and then with each switch flipped:
    // flips[slot] is the coordinate a probe flips (-1: none).
    std::vector<int> flips;
    auto armTried = [&](int i) {
        return std::any_of(m_candidates.begin(), m_candidates.end(),
                           [&](const Candidate &c) { return c.arm == m_arms[i].name; });
    };
    for (int i : active) {
        const Arm &a = m_arms[i];
        if (!armTried(i) && !a.refine && !a.searches && !a.trains) {
            picked.push_back(i);
            flips.push_back(-1);
            share[i] *= 0.05;
            for (int j = 0; j < a.space.dimension(); ++j)
                if (a.space.params()[j].type == HyperParam::Type::Bool) {
                    picked.push_back(i);
                    flips.push_back(j);
                }
        }
    }
    const int probes = static_cast<int>(picked.size());
    for (int s = 0; s < slots; ++s) {
        int arm = -1;
        // A learned placer is screened in the first round it may run in (it makes its own warm
        // start from the fast placers), taking the round's first search slot.
        if (s == 0)
            for (int i : active)
                if (m_arms[i].budgeted && share[i] > 0 && !armTried(i)) {
                    arm = i;
                    break;
                }
        if (arm < 0 && s >= slots - explore && probes == 0) {
            // Exploration ignores scores, not what arms have shown: unproven arms first, then
            // arms with something to tune, then repeats.
            std::vector<double> w;
            for (int i : active) {
                const Arm &a = m_arms[i];
                if (share[i] <= 0) {
                    w.push_back(0);
                    continue;
                }
                const bool tried = armTried(i) || std::count(picked.begin(), picked.end(), i) > 0;
                const double open = a.space.dimension() > 0 || a.refine ? 0.3 : 0.01;
                w.push_back(a.weight * (tried ? open * std::pow(0.5, a.duplicates) : 1.0));
            }
            arm = active[std::discrete_distribution<size_t>(w.begin(), w.end())(rng)];
        } else if (arm < 0) {
            std::vector<double> w;
            for (int i : active)
                w.push_back(share[i]);
            arm = active[std::discrete_distribution<size_t>(w.begin(), w.end())(rng)];
        }
        // A family with nothing to tune gives the same placement again: pick it once a round.
        if (m_arms[arm].space.dimension() == 0 && !m_arms[arm].refine)
            share[arm] *= 0.05;
        // Searches need length more than number: at most one per thread each round, so the
        // round's budget makes a few long searches rather than many short ones.
        picked.push_back(arm);
        if (m_arms[arm].refine || m_arms[arm].searches) {
            int searches = 0;
            for (int p : picked)
                searches += m_arms[p].refine || m_arms[p].searches;
            if (searches >= std::max(1, m_settings.threads))
                for (size_t i = 0; i < m_arms.size(); ++i)
                    if (m_arms[i].refine || m_arms[i].searches)
                        share[i] = 0;
        }
        if (std::all_of(active.begin(), active.end(), [&](int i) { return share[i] <= 0; }))
            break;
    }

    int searching = 0, other = 0;
    for (int arm : picked)
        (m_arms[arm].searches || m_arms[arm].refine ? searching : other) += 1;
    // Local-search stages share what the others (one judgement each) leave of the budget.
    const long long perSearch = searching ? std::max(1LL, (m_settings.roundEvaluations - other) / searching) : 0;

    std::vector<Candidate> batch;
    const int firstId = static_cast<int>(m_candidates.size());
    for (size_t s = 0; s < picked.size(); ++s) {
        const Arm &arm = m_arms[picked[s]];
        Candidate c;
        c.id = firstId + static_cast<int>(s);
        c.round = round;
        c.arm = arm.name;
        c.spec = arm.name;
        c.seed = mix(m_settings.seed ^ 0xA5A5A5A5ULL, static_cast<uint64_t>(c.id));
        const bool firstOfArm =
            std::none_of(m_candidates.begin(), m_candidates.end(),
                         [&](const Candidate &o) { return o.arm == arm.name; }) &&
            std::none_of(batch.begin(), batch.end(), [&](const Candidate &o) { return o.arm == arm.name; });
        bool screening = false;
        if (arm.refine)
            c.refines = chooseBase(rng, batch, &screening);
        // A learned placer's later runs go on from the best placement it made, and continue the
        // policy that made it (runCandidate); one that cannot start from a given placement
        // (rl-seq2seq) makes its own start each time.
        if (arm.budgeted && arm.takesStart && !firstOfArm)
            for (int id : ranked)
                if (m_candidates[static_cast<size_t>(id)].arm == arm.name) {
                    c.refines = id;
                    break;
                }
        // A base whose search came back unchanged is recombined with another lineage's best
        // first; the recombination takes a quarter of the search's budget.
        if (arm.refine && !screening && c.refines >= 0 && perSearch >= 40) {
            c.partner = choosePartner(c.refines, batch);
            if (c.partner >= 0)
                c.recombineEvaluations = perSearch / 4;
        }
        // A lineage's first search is judged by its start, so it runs the best settings known, not
        // a gamble; later searches of a lineage take them half of the time (guided mode). A learned
        // arm runs a few times a session at a thousand runs or more each, too few to learn its
        // settings from: it always runs its best (and goes on training the policy made with them).
        if (s < flips.size() && flips[s] >= 0) {
            c.x = arm.space.defaults();
            c.x[flips[s]] = c.x[flips[s]] >= 0.5 ? 0.0 : 1.0;
        } else if (firstOfArm)
            c.x = arm.space.defaults();
        else if (screening || arm.budgeted ||
                 (arm.refine && m_settings.guided && std::uniform_real_distribution<double>(0.0, 1.0)(rng) < 0.5))
            c.x = m_settings.guided ? bestConfig(arm) : arm.space.defaults();
        else
            c.x = ConfigSearch(observations(arm), rejectedPoints(arm))
                      .propose(arm.space.dimension(), rng, m_settings.guided);
        c.params = arm.space.assignments(c.x);
        if (arm.searches || arm.refine) {
            // A screening search (a lineage's first while the top three are screened) runs half a
            // search: enough to rank the lineage, and what it leaves goes to later rounds, where the
            // best lineage is searched further (a quarter ranked lineages worse; measured on ten cases).
            const long long budget = arm.budgeted ? learnedBudget(arm, perSearch)
                                     : screening  ? std::max(1LL, perSearch / 2)
                                                  : perSearch;
            c.params.push_back("evaluations=" + std::to_string(budget - c.recombineEvaluations));
        }
        if (arm.trains) {
            if (!arm.budgeted)
                c.params.push_back("iterations=" + std::to_string(4 << std::min(arm.earned, 6)));
            c.params.push_back("threads=1");
        }
        batch.push_back(std::move(c));
    }
    return batch;
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

void SteeringSession::restore(const SteeringLogDoc &doc, const Graph &graph, const Cluster &cluster)
{
    std::vector<std::string> names;
    for (int d = 0; d < cluster.deviceCount(); ++d)
        names.push_back(cluster.device(d).name);
    if (names != doc.deviceNames)
        throw InputError("the steering log was made for another cluster (its devices differ)");
    for (size_t i = 0; i < doc.candidates.size(); ++i) {
        const Candidate &c = doc.candidates[i];
        if (c.id != static_cast<int>(i) || (c.error.empty() && static_cast<int>(c.devices.size()) != graph.nodeCount()))
            throw InputError("the steering log was made for another graph (candidate " + std::to_string(i) +
                             " does not fit it)");
    }
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
                apply(resolveFeedback(t, graph, cluster, *this, "the steering log"));
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
    rescore();
}

} // namespace ps
