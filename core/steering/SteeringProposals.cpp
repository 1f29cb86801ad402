// How a steering round's candidates are chosen (SteeringSession::proposeRound and what it asks):
// each arm's share of the round, the base a refiner starts from, the partner a stalled lineage is
// recombined with, and each candidate's hyperparameters, seed and budget.
#include "core/steering/SteeringArm.h"
#include "core/steering/SteeringSession.h"

#include "core/InputError.h"
#include "core/graph/Graph.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace ps {

namespace {

uint64_t mix(uint64_t a, uint64_t b)
{
    // splitmix64 of a combination: independent streams per round and per candidate.
    uint64_t z = a * 0x9E3779B97F4A7C15ULL + b + 0x632BE59BD9B4E019ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// What the failed runs of an arm (kept candidates with an error; a cancelled one is not kept) leave
// of its share: an arm that never ran is out after two failures (a family refused on this graph
// and cluster, whatever its hyperparameters: spectral for 4,096 parts of the 58k-op GNMT had 24 of
// 56 proposals, since an arm with no result counted as unproven, the most promising kind), a tenth
// after one; an arm that also ran halves with each failure.
double failurePenalty(const std::vector<Candidate> &candidates, const std::string &arm)
{
    const ArmFailures f = armFailures(candidates, arm);
    if (f.failed < f.runs)
        return std::pow(0.5, f.failed);
    return f.failed >= 2 ? 0.0 : f.failed == 1 ? 0.1 : 1.0;
}

} // namespace

ArmFailures armFailures(const std::vector<Candidate> &candidates, const std::string &arm)
{
    ArmFailures f;
    for (const Candidate &c : candidates)
        if (c.arm == arm) {
            ++f.runs;
            if (!c.error.empty() && f.failed++ == 0)
                f.firstReason = c.error;
        }
    return f;
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
    share *= failurePenalty(m_candidates, arm.name);
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
    // Learned arms alone (`--families gdp`): nothing else will make a base or screen one, so they run
    // from their own warm starts, in whatever budget is left.
    if (active.empty())
        for (size_t i = 0; i < m_arms.size(); ++i)
            if (m_arms[i].weight > 0 && m_arms[i].budgeted && (!m_arms[i].refine || haveBase))
                active.push_back(static_cast<int>(i));
    if (active.empty()) {
        std::string refiners;
        for (const Arm &a : m_arms)
            if (a.weight > 0 && a.refine)
                refiners += (refiners.empty() ? "" : ", ") + a.name;
        if (refiners.empty())
            throw InputError("every family is excluded: give one a weight above 0");
        throw InputError("only refiners remain (" + refiners +
                         ") and nothing to refine yet: weigh in a family that places from scratch, such as heft");
    }

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
        // Nothing left to propose (searches capped, families out after failing).
        if (std::all_of(active.begin(), active.end(), [&](int i) { return share[i] <= 0; }))
            break;
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
                w.push_back(a.weight *
                            (tried ? open * std::pow(0.5, a.duplicates) * failurePenalty(m_candidates, a.name) : 1.0));
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
        // Learned runs go one a round: an arm's runs go on from one policy and one best placement,
        // and each takes a share of what the session has left, so with several threads five gdp
        // runs in one round took 2.5 times what was left (with one thread a round holds one
        // search of any kind, so this changes nothing there).
        if (m_arms[arm].budgeted)
            for (size_t i = 0; i < m_arms.size(); ++i)
                share[i] = m_arms[i].budgeted ? 0.0 : share[i];
        // Searches need length more than number: at most `searches` each round (one per thread in
        // the CLI and the app), so the round's budget makes a few long searches, not many short ones.
        picked.push_back(arm);
        if (m_arms[arm].refine || m_arms[arm].searches) {
            int searches = 0;
            for (int p : picked)
                searches += m_arms[p].refine || m_arms[p].searches;
            if (searches >= std::max(1, m_settings.searches))
                for (size_t i = 0; i < m_arms.size(); ++i)
                    if (m_arms[i].refine || m_arms[i].searches)
                        share[i] = 0;
        }
    }

    // What a candidate that does not search costs: its judgement, or (exact budgets) the most its
    // family spent before (the expert baseline simulates several layouts, a partitioner's cut
    // refinement a few), and for a family not run yet the most any such family spent.
    std::map<std::string, long long> spentMost; // by family, over the candidates so far
    long long anyMost = 1;
    if (m_settings.exactBudget)
        for (const Candidate &o : m_candidates) {
            const Arm *a = findArm(o.arm);
            if (!a || a->searches || a->refine)
                continue;
            anyMost = std::max(anyMost, o.evaluations);
            long long &most = spentMost[o.arm];
            most = std::max(most, o.evaluations);
        }
    auto reserve = [&](const Arm &arm) {
        if (!m_settings.exactBudget)
            return 1LL;
        const auto own = spentMost.find(arm.name);
        return std::max(arm.fewest, own != spentMost.end() && own->second > 0 ? own->second : anyMost);
    };
    // A session with a total spends no more than it has left: when the round's candidates would
    // cost more (a search at least one run, any other its reserve), some are left out (`steer
    // --evaluations 10` spent 94 runs before; the first round runs every family once). Searches
    // are kept longest, then each family's first run with its defaults, then its runs with a switch
    // flipped, then the round's other picks; within each, the fast placers in the order the
    // product prefers them (fastPlacers()) before the other families, and among equals the last
    // proposed goes first.
    const bool capped = m_settings.exactBudget && m_left >= 0;
    if (capped) {
        auto costOf = [&](const Arm &a) { return a.searches || a.refine ? std::max(1LL, a.fewest) : reserve(a); };
        auto cost = [&] {
            long long sum = 0;
            for (int arm : picked)
                sum += costOf(m_arms[arm]);
            return sum;
        };
        // A candidate that alone costs more than is left goes first, whatever its rank: with one run
        // left the expert baseline (two at least) had emptied the round, and heft went with it.
        auto dropSlot = [&](size_t s) {
            picked.erase(picked.begin() + static_cast<std::ptrdiff_t>(s));
            if (s < flips.size())
                flips.erase(flips.begin() + static_cast<std::ptrdiff_t>(s));
        };
        for (size_t s = picked.size(); s-- > 0;)
            if (costOf(m_arms[picked[s]]) > m_left)
                dropSlot(s);
        const std::vector<std::string> &fast = fastPlacers();
        auto keep = [&](size_t s) {
            const Arm &a = m_arms[picked[s]];
            const int tier = a.searches || a.refine ? 3 : s >= flips.size() ? 0 : flips[s] < 0 ? 2 : 1;
            const auto at = std::find(fast.begin(), fast.end(), a.name);
            return tier * 1000 + static_cast<int>(fast.end() - at); // 0 outside the fast placers
        };
        while (!picked.empty() && cost() > m_left) {
            size_t drop = picked.size() - 1;
            for (size_t s = drop; s-- > 0;)
                if (keep(s) < keep(drop))
                    drop = s;
            dropSlot(drop);
        }
    }
    int searching = 0;
    long long other = 0;
    for (int arm : picked) {
        if (m_arms[arm].searches || m_arms[arm].refine)
            ++searching;
        else
            other += reserve(m_arms[arm]);
    }
    // Local-search stages share what the others leave of the budget.
    const long long perSearch = searching ? std::max(1LL, (m_settings.roundEvaluations - other) / searching) : 0;
    // The round's learned run takes its share of what the session has left (beyond the round's
    // budget: later rounds get less); searches beside it (several threads) share the round's
    // budget, as far as what the learned run leaves of the session's allows.
    const auto learned = std::find_if(picked.begin(), picked.end(), [&](int arm) { return m_arms[arm].budgeted; });
    long long learnedTaken = learned == picked.end() ? 0 : learnedBudget(m_arms[*learned], perSearch);
    if (capped && learnedTaken > 0) // the others beside it are paid for too
        learnedTaken = std::max(1LL, std::min(learnedTaken, m_left - other - (searching - 1)));
    const int otherSearches = searching - (learned == picked.end() ? 0 : 1);
    const long long perOtherSearch =
        learned == picked.end() || otherSearches == 0 || m_left < 0
            ? perSearch
            : std::max(1LL, (std::min(m_settings.roundEvaluations, m_left - learnedTaken) - other) / otherSearches);

    // Each candidate that does not search may spend its reserve and an even share of what the
    // searches and the reserves leave of the session (a family not run before may spend more than
    // its reserve: the expert baseline simulates up to six layouts, a partition placer three).
    long long otherCap = 0;
    if (capped) {
        const long long searchesMost = learnedTaken + otherSearches * perOtherSearch;
        const long long slack = std::max(0LL, m_left - other - searchesMost);
        const long long others = static_cast<long long>(picked.size()) - searching;
        otherCap = others > 0 ? slack / others : 0;
    }

    const bool guided = m_settings.sampling == Sampling::Guided;
    constexpr int kRaceStarts = 8;             // as best-fast+local-search races
    constexpr const char *kRaceShare = "0.75"; // 0.25 (the pipeline's) was level over 20 cases
    auto refiner = [&](const Candidate &o) {
        const Arm *a = findArm(o.arm);
        return a && a->refine;
    };
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
        if (arm.refine && !screening && c.refines >= 0 && perOtherSearch >= 40) {
            c.partner = choosePartner(c.refines, batch);
            if (c.partner >= 0)
                c.recombineEvaluations = perOtherSearch / 4;
        }
        // A lineage's first search is judged by its start, so it runs the best settings known, not
        // a gamble; later searches of a lineage take them half of the time (guided mode). A learned
        // arm runs a few times a session at a thousand runs or more each, too few to learn its
        // settings from: it always runs its best (and goes on training the policy made with them).
        if (m_settings.sampling == Sampling::RandomSearch)
            c.x = ConfigSearch({}, {}).propose(arm.space.dimension(), rng, false);
        else if (s < flips.size() && flips[s] >= 0) {
            c.x = arm.space.defaults();
            c.x[flips[s]] = c.x[flips[s]] >= 0.5 ? 0.0 : 1.0;
        } else if (firstOfArm)
            c.x = arm.space.defaults();
        else if (screening || arm.budgeted ||
                 (arm.refine && guided && std::uniform_real_distribution<double>(0.0, 1.0)(rng) < 0.5))
            c.x = guided ? bestConfig(arm) : arm.space.defaults();
        else
            c.x = ConfigSearch(observations(arm), rejectedPoints(arm)).propose(arm.space.dimension(), rng, guided);
        c.params = arm.space.assignments(c.x);
        // The session's first search races: besides its start it runs the fast placers and
        // searches from their distinct placements in turn (local search's race_starts), for three
        // quarters of a whole search, then goes on from the best found. Basins differ, and the
        // best fast start is not always the best place to search from (GNMT, MoE on two nodes);
        // the other lineages are then screened as before (docs/performance.md, "Steering against
        // the strongest single family"). The fast placers' placements honour the session's pins.
        const bool racing = arm.refine && screening &&
                            std::none_of(m_candidates.begin(), m_candidates.end(), refiner) &&
                            std::none_of(batch.begin(), batch.end(), refiner);
        if (racing) {
            c.params.push_back("race_starts=" + std::to_string(kRaceStarts));
            c.params.push_back(std::string("race_share=") + kRaceShare);
        }
        if (arm.searches || arm.refine) {
            // A screening search (a lineage's first while the top three are screened) runs half a
            // search: enough to rank the lineage, and what it leaves goes to later rounds, where the
            // best lineage is searched further (a quarter ranked lineages worse; measured on ten cases).
            const long long budget = arm.budgeted           ? learnedTaken
                                     : screening && !racing ? std::max(1LL, perOtherSearch / 2)
                                                            : perOtherSearch;
            c.params.push_back("evaluations=" + std::to_string(budget - c.recombineEvaluations));
            if (m_settings.exactBudget)
                c.budget = budget;
        } else if (capped)
            c.budget = reserve(arm) + otherCap;
        if (arm.trains) {
            if (!arm.budgeted)
                c.params.push_back("iterations=" + std::to_string(4 << std::min(arm.earned, 6)));
            c.params.push_back("threads=1");
        }
        batch.push_back(std::move(c));
    }
    return batch;
}

} // namespace ps
