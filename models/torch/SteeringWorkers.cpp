// Steering rounds over worker processes, with a c10d TCPStore as the meeting place. See
// models/SteeringWorkers.h. Keys (all under "steer/"): graph, cluster, ready; workers (a counter
// giving each worker its number); hb/W (worker W's heartbeat counter); r/R/state, r/R/task/I,
// r/R/count (written last: the round is open), r/R/next (the claim counter), r/R/owner/I,
// r/R/result/I; stop.
#include "models/SteeringWorkers.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/io/ClusterJson.h"
#include "core/io/GraphJson.h"
#include "core/io/JsonText.h"
#include "core/steering/CandidateRunner.h"
#include "core/steering/SteeringLog.h"
#include "core/steering/SteeringSession.h"
#include "models/torch/Collective.h"

#include <nlohmann/json.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <thread>
#include <unistd.h>

namespace ps {

namespace {

using Clock = std::chrono::steady_clock;
using learn::firstLine;

using learn::storeText;
using learn::storeValue;

std::string roundKey(int round, const std::string &what)
{
    return "steer/r/" + std::to_string(round) + "/" + what;
}

c10::intrusive_ptr<c10d::TCPStore> openStore(const WorkerOptions &o, bool server)
{
    learn::quietDistributedLogging();
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(o.port);
    options.isServer = server;
    options.waitWorkers = false;
    options.timeout = std::chrono::milliseconds(static_cast<long long>(o.timeoutS * 1000));
    const std::string where = o.host + ":" + std::to_string(o.port);
    try {
        return c10::make_intrusive<c10d::TCPStore>(o.host, options);
    } catch (const std::exception &e) {
        if (server)
            throw InputError("the steer process could not open its worker store on " + where + " (" + firstLine(e) +
                             "); is the port in use? Choose another with --workers HOST:PORT");
        throw InputError("the worker could not reach the steer process at " + where + " within " +
                         messageNumber(o.timeoutS) + " s (" + firstLine(e) + "); is `steer --workers " + where +
                         "` running?");
    }
}

class StoreRunner : public CandidateRunner
{
public:
    StoreRunner(const WorkerOptions &o, const Graph &graph, const Cluster &cluster)
        : m_options(o), m_store(openStore(o, true))
    {
        m_store->set("steer/graph", storeValue(graphToJson(graph)));
        m_store->set("steer/cluster", storeValue(clusterToJson(cluster)));
        m_store->set("steer/ready", storeValue("1"));
        const auto since = Clock::now();
        while (m_store->add("steer/workers", 0) < o.waitFor) {
            if (secondsSince(since) > o.timeoutS)
                throw InputError(std::to_string(m_store->add("steer/workers", 0)) + " of " + std::to_string(o.waitFor) +
                                 " steering workers joined within " + messageNumber(o.timeoutS) + " s");
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }

    ~StoreRunner() override
    {
        try {
            m_store->set("steer/stop", storeValue("1"));
            // Give the workers a moment to read it before the store goes down.
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        } catch (...) {}
    }

    void run(std::vector<Candidate> &batch, const std::string &state, const std::function<void(Candidate &)> &local,
             const std::function<void(const Candidate &)> &remote, const RunControl &control) override
    {
        const int round = ++m_round;
        const int n = static_cast<int>(batch.size());
        m_store->set(roundKey(round, "state"), storeValue(state));
        for (int i = 0; i < n; ++i)
            m_store->set(roundKey(round, "task/" + std::to_string(i)), storeValue(candidateTaskJson(batch[i])));
        m_store->set(roundKey(round, "count"), storeValue(std::to_string(n)));

        std::vector<char> done(static_cast<size_t>(n), 0);
        // When this process first saw candidate i claimed but without an owner (the claimer names
        // itself a moment later, or died in between); unset until then.
        std::vector<std::optional<Clock::time_point>> unowned(static_cast<size_t>(n));
        auto runHere = [&](int i) {
            const auto t0 = Clock::now();
            local(batch[i]);
            tally("steer", batch[i].evaluations, secondsSince(t0));
            done[static_cast<size_t>(i)] = 1;
        };
        // This process's share: it claims like a worker.
        auto claimHere = [&] {
            for (int i; (i = static_cast<int>(m_store->add(roundKey(round, "next"), 1)) - 1) < n;) {
                m_store->set(roundKey(round, "owner/" + std::to_string(i)), storeValue("steer"));
                runHere(i);
            }
        };
        bool claimed = !m_options.coordinateOnly; // this process has claimed what was left
        if (claimed)
            claimHere();
        // The workers' results; a lost worker's candidates run here.
        const auto waiting = Clock::now();
        for (int left = static_cast<int>(std::count(done.begin(), done.end(), 0)); left > 0;) {
            if (!claimed && secondsSince(waiting) > m_options.heartbeatTimeoutS && everyWorkerLost()) {
                claimHere(); // no worker left to claim the rest
                claimed = true;
            }
            // Candidates below the claim counter were claimed; one of them still without an owner
            // a heartbeat timeout after this process first saw it so was claimed by a worker that
            // died before it said so. Those above wait for a claim.
            const int64_t taken = m_store->add(roundKey(round, "next"), 0);
            for (int i = 0; i < n; ++i) {
                if (done[static_cast<size_t>(i)])
                    continue;
                const std::string result = roundKey(round, "result/" + std::to_string(i));
                const std::string owner = roundKey(round, "owner/" + std::to_string(i));
                if (control.cancelled()) {
                    batch[i].error = "cancelled";
                } else if (m_store->check({result})) {
                    readCandidateResult(storeText(m_store->get(result)), batch[i]);
                    tally(storeText(m_store->get(owner)), batch[i].evaluations, batch[i].wallS);
                    remote(batch[i]);
                } else if (m_store->check({owner}) ? lost(storeText(m_store->get(owner)))
                                                   : i < taken && claimedLongAgo(unowned[static_cast<size_t>(i)])) {
                    ++m_requeued;
                    runHere(i);
                } else {
                    continue;
                }
                done[static_cast<size_t>(i)] = 1;
                --left;
            }
            if (left > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }

    std::string summary() const override
    {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const auto &[who, t] : m_tally)
            rows.push_back(
                {{"worker", who}, {"candidates", t.candidates}, {"evaluations", t.evaluations}, {"busy_s", t.busyS}});
        return jsonText(nlohmann::ordered_json{{"workers", rows}, {"requeued", m_requeued}});
    }

private:
    // Whether worker `who`'s heartbeat has not moved for the heartbeat timeout.
    bool lost(const std::string &who)
    {
        if (who == "steer")
            return false;
        const int64_t beat = m_store->add("steer/hb/" + who, 0);
        auto [it, fresh] = m_beats.try_emplace(who, Beat{beat, Clock::now()});
        if (!fresh && beat != it->second.value)
            it->second = Beat{beat, Clock::now()};
        return secondsSince(it->second.seen) > m_options.heartbeatTimeoutS;
    }

    // Whether a claim first seen without its owner at `since` (set now if unset) has stayed so for
    // the heartbeat timeout.
    bool claimedLongAgo(std::optional<Clock::time_point> &since) const
    {
        if (!since)
            since = Clock::now();
        return secondsSince(*since) > m_options.heartbeatTimeoutS;
    }

    bool everyWorkerLost()
    {
        const int64_t joined = m_store->add("steer/workers", 0);
        for (int64_t w = 1; w <= joined; ++w)
            if (!lost(std::to_string(w)))
                return false;
        return true;
    }

    void tally(const std::string &who, long long evaluations, double busyS)
    {
        Tally &t = m_tally[who];
        ++t.candidates;
        t.evaluations += evaluations;
        t.busyS += busyS;
    }

    struct Beat
    {
        int64_t value;
        Clock::time_point seen;
    };
    struct Tally
    {
        long long candidates = 0, evaluations = 0;
        double busyS = 0;
    };
    WorkerOptions m_options;
    c10::intrusive_ptr<c10d::TCPStore> m_store;
    int m_round = 0;
    int m_requeued = 0;
    std::map<std::string, Beat> m_beats;
    std::map<std::string, Tally> m_tally;
};

} // namespace

std::unique_ptr<CandidateRunner> makeWorkerRunner(const WorkerOptions &options, const Graph &graph,
                                                  const Cluster &cluster)
{
    return std::make_unique<StoreRunner>(options, graph, cluster);
}

int runSteeringWorker(const WorkerOptions &options, const PlacerRegistry &registry)
{
    auto store = openStore(options, false);
    const std::string where = options.host + ":" + std::to_string(options.port);
    store->wait({"steer/ready"});
    const Graph graph = parseGraphJson(storeText(store->get("steer/graph")), "the steer process's graph");
    const Cluster cluster = parseClusterJson(storeText(store->get("steer/cluster")), "the steer process's cluster");
    const std::string me = std::to_string(store->add("steer/workers", 1));

    // The heartbeat, on a connection of its own so that a long candidate does not silence it.
    std::atomic<bool> stop{false};
    auto beatStore = openStore(options, false);
    std::thread heart([&] {
        try {
            while (!stop) {
                beatStore->add("steer/hb/" + me, 1);
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            }
        } catch (...) { // the steer process has gone; the main loop notices too
        }
    });
    struct Join
    {
        std::atomic<bool> &stop;
        std::thread &t;
        ~Join()
        {
            stop = true;
            t.join();
        }
    } join{stop, heart};

    int ran = 0, claimed = 0;
    try {
        for (int round = 1;; ++round) {
            while (!store->check({roundKey(round, "count")})) {
                if (store->check({"steer/stop"}))
                    return ran;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            const int n = std::stoi(storeText(store->get(roundKey(round, "count"))));
            const SteeringLogDoc doc = parseSteeringLog(storeText(store->get(roundKey(round, "state"))), "round state");
            SteeringSession replica(graph, cluster, registry, doc.settings);
            replica.restore(doc, graph, cluster);
            replica.borrowPolicies(doc.policyDir);
            for (int i; (i = static_cast<int>(store->add(roundKey(round, "next"), 1)) - 1) < n;) {
                if (options.claimPauseMs > 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(options.claimPauseMs));
                store->set(roundKey(round, "owner/" + std::to_string(i)), storeValue(me));
                if (options.dieAfter > 0 && ++claimed >= options.dieAfter)
                    ::_exit(1); // fault injection: lost with a claimed candidate
                Candidate c = candidateFromTask(storeText(store->get(roundKey(round, "task/" + std::to_string(i)))));
                replica.runCandidate(c, RunControl{});
                store->set(roundKey(round, "result/" + std::to_string(i)), storeValue(candidateResultJson(c)));
                ++ran;
            }
        }
    } catch (const InputError &) {
        throw;
    } catch (const std::exception &e) {
        // The store went down: normal once the steer process has said stop.
        throw RunAborted("worker " + me + " lost the steer process at " + where + " (" + firstLine(e) + ")");
    }
}

} // namespace ps
