// placement-cli steer / rank: steer many models at once (rounds of candidates across families,
// feedback scripted from a file, an ensemble at the end), replay a log, and re-rank a log under
// other weights without simulating.
#include "app/cli/CliCommands.h"

#include "app/cli/CliLoad.h"
#include "app/cli/Distributed.h"
#include "app/cli/Interrupt.h"
#include "app/cli/ProgressBar.h"
#include "core/InputError.h"
#include "core/family/Stopwatch.h"
#include "core/io/JsonText.h"
#include "core/io/PlacementJson.h"
#include "core/placement/Constraints.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Objective.h"
#include "core/steering/CandidateRunner.h"
#include "core/steering/SteeringLog.h"
#include "core/steering/SteeringSession.h"
#include "models/SteeringWorkers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <thread>
#include <tuple>

namespace ps::cli {

namespace {

using Json = nlohmann::ordered_json;

Json candidateRow(const Candidate &c, const SteeringSession *session)
{
    Json j{{"id", c.id},
           {"family", c.arm},
           {"params", c.params},
           {"seed", c.seed},
           {"refines", c.refines},
           {"partner", c.partner},
           {"score", c.score},
           {"makespan_s", c.terms.makespan},
           {"ratio", c.terms.bound > 0 ? c.terms.makespan / c.terms.bound : 1.0},
           {"moved_bytes", c.terms.movedBytes},
           {"peak_memory_share", c.terms.peakMemoryShare},
           {"imbalance_s", c.terms.imbalance},
           {"feasible", c.terms.feasible},
           {"evaluations", c.evaluations},
           {"wall_s", c.wallS}};
    if (session)
        j["agreement"] = session->agreement(c.devices);
    if (!c.notes.empty())
        j["notes"] = c.notes; // what the run said of its result, as `place` reports it
    return j;
}

// A replay: the same settings and feedback must give the same candidates, placement for
// placement. Where they do not, the first candidate that differs is named beside what the log had,
// so that a person can tell a changed proposal (another version's steering) from a changed result
// (another version of a family) and from a log edited by hand.
void compareWithLog(const std::vector<Candidate> &logged, const std::vector<Candidate> &now, Json &report,
                    std::ostream &err)
{
    const size_t common = std::min(logged.size(), now.size());
    size_t first = common;
    for (size_t i = 0; i < common && first == common; ++i) {
        const Candidate &a = logged[i], &b = now[i];
        // The placement itself, not only its hash: a log whose placements were edited (hash kept)
        // "reproduced".
        if (!(a.spec == b.spec && a.params == b.params && a.seed == b.seed && a.refines == b.refines &&
              a.partner == b.partner && a.hash == b.hash && a.devices == b.devices))
            first = i;
    }
    const bool same = first == common && logged.size() == now.size();
    report["reproduced"] = same;
    if (same)
        return;
    auto describe = [&](const std::vector<Candidate> &cs) -> Json {
        if (first >= cs.size())
            return nullptr;
        const Candidate &c = cs[first];
        std::string params;
        for (const std::string &p : c.params)
            params += (params.empty() ? "" : " ") + p;
        return Json{{"spec", c.spec},
                    {"params", params},
                    {"seed", c.seed},
                    {"refines", c.refines},
                    {"partner", c.partner},
                    {"error", c.error},
                    {"placement_hash", std::to_string(c.hash)}};
    };
    report["first_difference"] = Json{{"candidate", first},
                                      {"logged", describe(logged)},
                                      {"replayed", describe(now)},
                                      {"logged_candidates", logged.size()},
                                      {"replayed_candidates", now.size()}};
    err << "replay: candidate #" << first << " differs from the log ("
        << (first < common
                ? "its family, settings, seed, start or placement"
                : std::to_string(logged.size()) + " candidates logged, " + std::to_string(now.size()) + " replayed")
        << "); a log written by another version of placement-studio may not reproduce\n";
}

void writeBest(const std::string &path, const std::vector<int> &devices, const Candidate &from, const std::string &what,
               const Graph &graph, const Cluster &cluster, long long evaluations, double wallS, const Json &metrics)
{
    Placement p(devices);
    p.graphName = graph.name();
    p.clusterName = cluster.name();
    p.producerModel = what;
    p.producerParamsJson = paramsJson(from.params);
    p.producerSeed = from.seed;
    p.producerEvaluations = evaluations;
    p.producerWallS = wallS;
    writePlacementJson(path, toDoc(p, graph, cluster), jsonText(metrics));
}

// --workers HOST:PORT (workers started by hand join there) or --launch N (N local workers): the
// rounds' candidates run there and here. Null runner: this process's threads only.
struct SteeringWorkers
{
    std::unique_ptr<CandidateRunner> runner;
    std::optional<LocalWorkers> local;
};

void startWorkers(const CliArgs &args, const Graph &graph, const Cluster &cluster, SteeringWorkers &w)
{
    const auto launch = args.integer("launch");
    const auto at = args.value("workers");
    if (!launch && !at) {
        if (args.flag("coordinate-only"))
            throw InputError("--coordinate-only needs workers: --workers HOST:PORT or --launch N");
        return;
    }
    if (launch && at)
        throw InputError("give either --workers HOST:PORT or --launch N, not both");
    WorkerOptions o;
    o.coordinateOnly = args.flag("coordinate-only");
    if (auto t = args.real("worker-timeout")) {
        if (*t <= 0)
            throw InputError("--worker-timeout needs a positive number of seconds");
        o.heartbeatTimeoutS = *t;
    }
    if (launch) {
        if (*launch < 1 || *launch > 64)
            throw InputError("--launch needs 1 to 64 local workers");
        o.port = freeLoopbackPort();
        o.waitFor = static_cast<int>(*launch);
        std::vector<std::vector<std::string>> commands(
            static_cast<size_t>(*launch), {"steer-worker", "--master=127.0.0.1:" + std::to_string(o.port)});
        w.local.emplace(commands); // they wait for the store
    } else {
        std::tie(o.host, o.port) = hostPort(*at, "--workers");
        o.waitFor = static_cast<int>(args.integer("min-workers").value_or(0));
    }
    w.runner = makeWorkerRunner(o, graph, cluster);
}

} // namespace

int steerWorkerCommand(const CliArgs &args, std::ostream &out, std::ostream &)
{
    const auto master = args.value("master");
    if (!master)
        throw InputError("steer-worker needs --master HOST:PORT (where `steer --workers` listens)");
    const Distribution d = distributionFromArgs(args, {});
    WorkerOptions o;
    o.host = d.masterHost;
    o.port = d.masterPort;
    o.timeoutS = d.timeoutS;
    if (const char *die = std::getenv("PS_STEER_WORKER_DIE_AFTER"))
        o.dieAfter = std::atoi(die);
    if (const char *pause = std::getenv("PS_STEER_WORKER_CLAIM_PAUSE_MS"))
        o.claimPauseMs = std::atoi(pause);
    const int ran = runSteeringWorker(o, PlacerRegistry::builtin());
    out << jsonText(Json{{"candidates", ran}}) << "\n";
    return 0;
}

int steerCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 2)
        throw InputError("steer needs GRAPH CLUSTER");
    requireWritableOutputs(args, {"out", "log"});
    const auto started = std::chrono::steady_clock::now();
    const Graph graph = requireGraph(args.positionals()[0], args, err);
    const Cluster cluster = requireCluster(args.positionals()[1]);
    warnWhenNothingFits(graph, cluster, Constraints::fromGraph(graph, cluster), err);

    SteeringLogDoc replayed;
    const bool replay = args.value("replay").has_value();
    SteeringSettings settings;
    int rounds = static_cast<int>(args.integer("rounds").value_or(5));
    long long evaluations = args.integer("evaluations").value_or(10000);
    std::vector<FeedbackText> feedback;
    if (replay) {
        replayed = readSteeringLog(*args.value("replay"));
        settings = replayed.settings;
    }
    // How many candidates run at once: a core each unless told (the log's in a replay). They give
    // the same candidates on any number of threads; in a replay what is proposed, searches a round
    // included, is the log's.
    const auto threadsGiven = args.integer("threads");
    settings.threads = static_cast<int>(threadsGiven.value_or(
        replay ? settings.threads : std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 256)));
    if (settings.threads < 1 || settings.threads > 256)
        throw InputError("--threads must be between 1 and 256");
    if (replay) {
        // What the log fixes is not taken from the command line: it was ignored before, and a
        // person who passed --seed 3 to a replay got the log's seed without a word.
        for (const char *fixed : {"rounds", "per-round", "evaluations", "objective", "pins", "feedback", "families",
                                  "seed", "searches", "uniform", "random-search"})
            if (args.value(fixed) || args.flag(fixed))
                throw InputError(std::string("--") + fixed +
                                 " is the log's in a replay (--threads sets only how many run at once)");
        rounds = static_cast<int>(replayed.roundBudgets.size());
        feedback = replayed.feedback;
    } else {
        if (rounds < 1 || rounds > 100000)
            throw InputError("--rounds must be between 1 and 100000");
        // A budget below the rounds is kept too: the rounds end when it is spent, and the report says so.
        if (evaluations < 1)
            throw InputError("--evaluations needs at least 1 simulator run");
        settings.seed = args.seed();
        settings.perRound = static_cast<int>(args.integer("per-round").value_or(8));
        // As many searches a round as --threads asks for, unless told; one where neither is given,
        // so that the default's results do not depend on the machine (the figures in docs/ are at
        // one search a round).
        settings.searches = static_cast<int>(args.integer("searches").value_or(threadsGiven ? settings.threads : 1));
        if (settings.searches < 1 || settings.searches > SteeringSettings::kMaxPerRound)
            throw InputError("--searches must be between 1 and " + std::to_string(SteeringSettings::kMaxPerRound));
        if (auto families = args.value("families")) {
            settings.families = args.list("families");
            if (settings.families.empty())
                throw InputError("--families needs at least one family (leave it out for steering's own)");
        }
        if (args.flag("random-search") && args.flag("uniform"))
            throw InputError("--uniform and --random-search exclude each other: pick one baseline");
        settings.sampling = args.flag("random-search") ? Sampling::RandomSearch
                            : args.flag("uniform")     ? Sampling::Uniform
                                                       : Sampling::Guided;
        if (auto f = args.value("feedback")) {
            feedback = readFeedbackFile(*f);
            // Feedback for a round the session never reaches was dropped without a word.
            for (size_t i = 0; i < feedback.size(); ++i)
                if (feedback[i].round > rounds)
                    throw InputError(*f + " entry " + std::to_string(i + 1) + ": round " +
                                     std::to_string(feedback[i].round) + " is past the session's " +
                                     std::to_string(rounds) + " rounds (--rounds)");
        }
    }
    const long long ensembleSize = args.integer("ensemble").value_or(SteeringSettings::kDefaultEnsemble);
    if (ensembleSize < 0 || ensembleSize > SteeringSettings::kMaxEnsemble)
        throw InputError("--ensemble must be between 0 (none) and " + std::to_string(SteeringSettings::kMaxEnsemble) +
                         " members");
    // The ensemble's local search takes a tenth of the budget; the rounds share the rest.
    const long long ensembleEvaluations = ensembleSize > 0 ? evaluations / 10 : 0;
    if (!replay)
        settings.roundEvaluations = std::max(1LL, (evaluations - ensembleEvaluations) / rounds);

    SteeringSession session(graph, cluster, PlacerRegistry::builtin(), settings);
    if (replay && !replayed.graphHash.empty() && replayed.graphHash != session.graphHash())
        throw InputError(*args.value("replay") + ": made on another graph than " + args.positionals()[0] +
                         " (its ops, costs or edges differ; a model file needs the log's --batch and "
                         "--input-shape again)");
    SteeringFeedback initial;
    if (auto objective = args.value("objective")) {
        initial.setWeights = true;
        initial.weights = Objective::parse(*objective);
    }
    if (auto pins = args.value("pins")) {
        FeedbackText t;
        t.pins = pinsIn(*pins);
        initial.pins = resolveFeedback(t, graph, cluster, session, *pins).pins;
    }
    if (!initial.empty())
        session.apply(initial);

    SteeringWorkers workers;
    startWorkers(args, graph, cluster, workers);
    session.setRunner(workers.runner.get());
    RunControl control;
    control.cancel = watchInterrupts(); // Ctrl-C ends the round under way and skips the rest
    ProgressBar bar(err, "steer");
    Json roundsOut = Json::array();
    std::string spentEarly; // the rounds the budget or the lower bound left out, said in the report
    for (int r = 1; r <= rounds && !control.cancelled(); ++r) {
        for (const FeedbackText &f : feedback)
            if (f.round == r) {
                const std::string source = args.value("feedback").value_or("the log");
                const auto resolved = resolveFeedback(f, graph, cluster, session, source); // names `source`
                try {
                    session.apply(resolved);
                } catch (const InputError &e) { // (a candidate that does not exist is found only here)
                    rethrowWithContext(e, source + ", round " + std::to_string(r));
                }
            }
        // What earlier rounds left unspent (a round of constructive families spends little)
        // goes to the rounds still to come.
        if (replay)
            session.setRoundEvaluations(replayed.roundBudgets[r - 1], replayed.roundLeft[r - 1]);
        else if (!session.shareLeft(evaluations - ensembleEvaluations - session.evaluationsSpent(), rounds - r + 1)) {
            spentEarly = SteeringSession::spentNote(evaluations, r - 1, rounds);
            break;
        }
        control.progress = [&](const Progress &p) {
            bar.update((r - 1 + p.fraction) / rounds, "round " + std::to_string(r) + ": " + p.message);
        };
        const std::vector<int> ids = session.runRound(control);
        const std::vector<int> ranked = session.ranking();
        Json row{{"round", r}, {"candidates", ids.size()}, {"evaluations", session.evaluationsSpent()}};
        if (!ranked.empty())
            row["best"] = candidateRow(session.candidate(ranked.front()), &session);
        roundsOut.push_back(row);
        // Optimal under the objective, and no feedback to come that could change it: the rounds
        // left could not beat it (a replay runs the rounds its log holds).
        if (!replay && r < rounds && session.bestMeetsFloor() &&
            std::none_of(feedback.begin(), feedback.end(), [r](const FeedbackText &f) { return f.round > r; })) {
            spentEarly = SteeringSession::floorNote(r, rounds);
            break;
        }
    }
    EnsembleResult ensemble;
    // (None where the best meets the lower bound: a consensus cannot score lower.)
    const bool haveEnsemble = ensembleSize > 0 && !session.ranking().empty() && !control.cancelled() &&
                              (replay || session.evaluationsSpent() < evaluations) && !session.bestMeetsFloor();
    if (haveEnsemble)
        ensemble = session.ensemble(
            static_cast<int>(ensembleSize),
            replay ? replayed.ensemble.budget : std::max(1LL, evaluations - session.evaluationsSpent() - 1), control);
    bar.finish();
    Json workerReport;
    if (workers.runner) {
        workerReport = Json::parse(workers.runner->summary());
        session.setRunner(nullptr);
        workers.runner.reset(); // tells the workers to stop
        if (workers.local)
            if (const std::string failed = workers.local->join(2.0); !failed.empty())
                workerReport["failed"] = failed; // its candidates ran here
    }

    const std::vector<int> ranked = session.ranking();
    if (ranked.empty()) {
        // The log is not written then, so the reason is said here: the first failure, or why
        // nothing ran.
        const auto &all = session.candidates();
        const auto failed = std::find_if(all.begin(), all.end(), [](const Candidate &c) { return !c.error.empty(); });
        throw InputError(failed != all.end()
                             ? "no candidate could be evaluated; " + failed->arm + ": " + failed->error
                             : "no candidate fits a budget of " + std::to_string(evaluations) +
                                   " simulator runs: each family steered needs more (raise --evaluations, or add "
                                   "a fast placer such as heft to --families)");
    }
    const Candidate &best = session.candidate(ranked.front());
    // The ensemble is handed back only where it is at least as feasible and scores lower.
    const bool useEnsemble =
        haveEnsemble && ensemble.terms.feasible >= best.terms.feasible && ensemble.score < best.score;
    Json report{{"evaluations", session.evaluationsSpent()}, {"rounds", roundsOut}};
    if (!spentEarly.empty())
        report["notes"] = Json::array({spentEarly});
    if (!workerReport.is_null())
        report["workers"] = workerReport;
    report["best"] = candidateRow(best, &session);
    if (haveEnsemble)
        report["ensemble"] =
            Json{{"members", ensemble.members},
                 {"score", ensemble.score},
                 {"makespan_s", ensemble.terms.makespan},
                 {"ratio", ensemble.terms.bound > 0 ? ensemble.terms.makespan / ensemble.terms.bound : 1.0},
                 {"feasible", ensemble.terms.feasible},
                 {"evaluations", ensemble.evaluations},
                 {"better_than_best", useEnsemble}};
    Json top = Json::array();
    for (size_t i = 0; i < std::min<size_t>(10, ranked.size()); ++i)
        top.push_back(candidateRow(session.candidate(ranked[i]), &session));
    report["top"] = top;

    if (replay) {
        compareWithLog(replayed.candidates, session.candidates(), report, err);
    }
    if (auto outPath = args.value("out")) {
        const Json metrics{{"makespan_s", useEnsemble ? ensemble.terms.makespan : best.terms.makespan},
                           {"score", useEnsemble ? ensemble.score : best.score},
                           {"objective", session.objective().weightsText()},
                           {"steering_evaluations", session.evaluationsSpent()}};
        writeBest(*outPath, useEnsemble ? ensemble.devices : best.devices, best,
                  useEnsemble ? "steering-ensemble" : "steering:" + best.arm, graph, cluster,
                  session.evaluationsSpent(), secondsSince(started), metrics);
        report["out"] = *outPath;
    }
    if (auto logPath = args.value("log")) {
        writeSteeringLog(*logPath, session, graph, cluster, haveEnsemble ? &ensemble : nullptr);
        report["log"] = *logPath;
    }
    out << jsonText(report) << "\n";
    return replay && !report["reproduced"].get<bool>() ? 1 : 0;
}

int rankCommand(const CliArgs &args, std::ostream &out, std::ostream &)
{
    if (args.positionals().size() != 1)
        throw InputError("rank needs STEER.json (a log written by steer --log)");
    SteeringLogDoc doc = readSteeringLog(args.positionals()[0]);
    const std::optional<std::string> asked = args.value("objective");
    const Objective objective = asked ? Objective::parse(*asked) : Objective::parse(doc.objective, true);
    std::vector<Candidate *> usable;
    for (Candidate &c : doc.candidates)
        if (c.usable()) {
            c.score = objectiveScore(objective, c.terms);
            usable.push_back(&c);
        }
    std::sort(usable.begin(), usable.end(), [](const Candidate *a, const Candidate *b) {
        if (a->terms.feasible != b->terms.feasible)
            return a->terms.feasible;
        return a->score != b->score ? a->score < b->score : a->id < b->id;
    });
    const long long topGiven = args.integer("top").value_or(10);
    if (topGiven < 1)
        throw InputError("--top needs at least 1 candidate to list");
    const size_t top = static_cast<size_t>(topGiven);
    Json rows = Json::array();
    for (size_t i = 0; i < std::min(top, usable.size()); ++i)
        rows.push_back(candidateRow(*usable[i], nullptr));
    out << jsonText(Json{{"objective", objective.weightsText()},
                         {"simulations", 0},
                         {"candidates", usable.size()},
                         {"ranking", rows}})
        << "\n";
    return 0;
}

} // namespace ps::cli
