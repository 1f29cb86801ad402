// The learned families: registered with the classical ones, honour pins and colocation, report
// per-iteration progress, stop on cancel with the best placement so far, wait while paused,
// save and reload checkpoints (zero-shot gives the same placement every time), and GAP finds the
// obvious cut of a graph made of two communities.
#include "common/Notes.h"
#include "common/PresetProblem.h"
#include "common/SeedPairs.h"
#include "common/TestFiles.h"
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/family/MachineMemory.h"
#include "core/family/Stopwatch.h"
#include "core/generators/Generators.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/ClusterJson.h"
#include "core/io/GraphJson.h"
#include "core/partitioners/PartitionRefinement.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/PartitionMetrics.h"
#include "core/sim/Simulator.h"
#include "core/steering/SteeringLog.h"
#include "core/steering/SteeringSession.h"
#include "models/Learners.h"
#include "models/ModelImporters.h"
#include "models/Pretrained.h"
#include "models/StartRace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>

using namespace ps;

namespace {

// The progress report of a run's first training iteration (seed 1).
Progress firstIteration(const std::string &model, const PlacementProblem &problem,
                        const std::vector<std::string> &params)
{
    std::vector<Progress> reports;
    RunControl control;
    control.seed = 1;
    control.progress = [&](const Progress &p) {
        if (p.iteration >= 0)
            reports.push_back(p);
    };
    runPlacer(PlacerRegistry::builtin(), model, problem, params, control);
    return reports.at(0);
}

// What is wrong with the best's history that a run's reports give (empty: nothing): over all
// reports, each improvement is found by a later run than the one before, at or before its report,
// and is faster; the last is the best the last report names.
QString badBestHistory(const std::vector<Progress> &reports, std::vector<std::pair<long long, double>> &history)
{
    history.clear();
    for (const Progress &p : reports) {
        for (const auto &i : p.improvements)
            if (i.first > p.evaluations ||
                (!history.empty() && (i.first <= history.back().first || i.second >= history.back().second)))
                return QString("improvement %1:%2 in report %3").arg(i.first).arg(i.second).arg(p.iteration);
        history.insert(history.end(), p.improvements.begin(), p.improvements.end());
    }
    if (history.empty())
        return "no improvement reported";
    if (history.back().first != reports.back().bestFoundAt || history.back().second != reports.back().bestMakespan)
        return QString("the last improvement %1:%2, the last report's best %3:%4")
            .arg(history.back().first)
            .arg(history.back().second)
            .arg(reports.back().bestFoundAt)
            .arg(reports.back().bestMakespan);
    return {};
}

// A small two-branch graph with one pinned op and one colocation group.
Graph smallGraph()
{
    GraphBuilder b("small");
    auto node = [&](const std::string &id, double flops, const std::string &colocate = {},
                    const std::string &pin = {}) {
        GraphBuilder::NodeSpec s;
        s.id = id;
        s.op = "MatMul";
        s.flops = flops;
        s.outBytes = 4e6;
        s.scope = id.substr(0, 1);
        if (!colocate.empty())
            s.colocate = colocate;
        if (!pin.empty())
            s.pin = pin;
        b.addNode(s);
    };
    node("in", 1e9);
    for (int i = 0; i < 6; ++i) {
        node("a" + std::to_string(i), 4e10, i < 2 ? "g" : "");
        node("b" + std::to_string(i), 4e10, "", i == 3 ? "gpu:1" : "");
    }
    node("out", 1e9);
    for (int i = 0; i < 6; ++i) {
        b.addEdge(i ? "a" + std::to_string(i - 1) : "in", "a" + std::to_string(i));
        b.addEdge(i ? "b" + std::to_string(i - 1) : "in", "b" + std::to_string(i));
    }
    b.addEdge("a5", "out");
    b.addEdge("b5", "out");
    return b.build();
}

// Twelve equal ops in a chain: on equal GPUs, every op on one device is the best placement.
Graph chainGraph()
{
    GraphBuilder b("chain");
    for (int i = 0; i < 12; ++i) {
        b.addNode({"op" + std::to_string(i), "MatMul", 1e10, 4e6, 0});
        if (i > 0)
            b.addEdge("op" + std::to_string(i - 1), "op" + std::to_string(i));
    }
    return b.build();
}

Cluster gpus(int k)
{
    ClusterBuilder b("gpus");
    for (int d = 0; d < k; ++d)
        b.addDevice({"gpu:" + std::to_string(d), "gpu", 1e13, 16e9, 1e-5});
    b.setDefaultLink({1e10, 1e-5});
    return b.build();
}

// One fast device and two ten times slower: a clear signal for a policy to learn in seconds.
Cluster skewed()
{
    ClusterBuilder b("skewed");
    b.addDevice({"gpu:0", "gpu", 1e13, 16e9, 1e-5});
    b.addDevice({"gpu:1", "gpu", 1e12, 16e9, 1e-5});
    b.addDevice({"gpu:2", "gpu", 1e12, 16e9, 1e-5});
    b.setDefaultLink({1e10, 1e-5});
    return b.build();
}

const std::vector<std::string> kQuick = {"iterations=4", "samples=2", "hidden=16"};

// A gdp policy trained a few quick iterations on `problem`, saved as `name` in `dir`; its path.
std::string quickGdpCheckpoint(const QTemporaryDir &dir, const QString &name, const PlacementProblem &problem)
{
    const std::string path = dir.filePath(name).toStdString();
    std::vector<std::string> train = kQuick;
    train.push_back("save_checkpoint=" + path);
    runPlacer(PlacerRegistry::builtin(), "gdp", problem, train, {});
    return path;
}

// A data column "model" with one row per learned placer (and `more`).
void addLearnerRows(std::initializer_list<const char *> more = {})
{
    QTest::addColumn<QString>("model");
    for (const char *m : {"rl-seq2seq", "gdp", "giph"})
        QTest::newRow(m) << m;
    for (const char *m : more)
        QTest::newRow(m) << m;
}

std::vector<std::string> withParams(std::vector<std::string> base, const std::vector<std::string> &more)
{
    base.insert(base.end(), more.begin(), more.end());
    return base;
}

} // namespace

class TestLearners : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { installModelImporters(); }

    void registeredWithTheClassics()
    {
        for (const char *name : {"rl-seq2seq", "gdp", "giph"})
            QVERIFY2(PlacerRegistry::builtin().find(name), name);
        QVERIFY(PartitionerRegistry::builtin().find("gap"));
        QVERIFY(PartitionerRegistry::builtin().find("metis"));
    }

    void placesHonouringConstraints_data()
    {
        addLearnerRows({"gdp+local-search"});
        // A move's options from 4 of the 14 ops: the pin and the group masked through the subset.
        QTest::newRow("giph, candidate ops") << "giph candidates=4 candidates_above=4";
    }
    void placesHonouringConstraints()
    {
        QFETCH(QString, model);
        const Graph g = smallGraph();
        const Cluster c = gpus(3);
        const Constraints cons = Constraints::fromGraph(g, c);
        RunControl control;
        std::vector<Progress> reports;
        control.progress = [&](const Progress &p) {
            if (p.iteration >= 0)
                reports.push_back(p);
        };
        const QStringList words = model.split(' ');
        std::vector<std::string> params = kQuick;
        for (int i = 1; i < words.size(); ++i)
            params.push_back(words[i].toStdString());
        const PlacerResult r =
            runPlacer(PlacerRegistry::builtin(), words[0].toStdString(), {g, c, cons, {}}, params, control);
        QCOMPARE(r.placement.nodeCount(), g.nodeCount());
        QCOMPARE(r.placement.device(g.findNode("b3")), 1);                                    // pinned
        QCOMPARE(r.placement.device(g.findNode("a0")), r.placement.device(g.findNode("a1"))); // colocated
        QVERIFY(r.feasible);
        QVERIFY(r.evaluations > 4);
        QCOMPARE(static_cast<int>(reports.size()), 4);
        for (const Progress &p : reports) {
            QVERIFY(std::isfinite(p.loss));
            QVERIFY(std::isfinite(p.entropy) && p.entropy >= 0);
            QVERIFY(std::isfinite(p.sampleMean) && p.sampleBest <= p.sampleMean);
            QVERIFY(p.wallS > 0);
        }
        QCOMPARE(reports.back().iteration, 3);
        // A report counts every simulator run since the run began, the warm start's too, and names
        // the run that found its best: one run, at or before the report, moving only with the best.
        QVERIFY2(reports.front().evaluations > bestFastPlacement({g, c, cons, {}}).evaluations,
                 qPrintable(QString::number(reports.front().evaluations)));
        QVERIFY(reports.back().evaluations <= r.evaluations);
        // The best's history begins with the warm start, judged after the fast placers' runs (and,
        // for giph's candidate ops, the critical path's run).
        std::vector<std::pair<long long, double>> history;
        const QString bad = badBestHistory(reports, history);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        const PlacerResult start = bestFastPlacement({g, c, cons, {}});
        QCOMPARE(history.front().first, start.evaluations + 1 + (model.contains("candidates") ? 1 : 0));
        QCOMPARE(history.front().second, start.makespan);
        for (size_t i = 0; i < reports.size(); ++i) {
            const Progress &p = reports[i];
            QVERIFY2(p.bestFoundAt >= 1 && p.bestFoundAt <= p.evaluations, qPrintable(QString::number(p.bestFoundAt)));
            if (i > 0 && p.bestMakespan < reports[i - 1].bestMakespan)
                QVERIFY(p.bestFoundAt > reports[i - 1].evaluations);
            else if (i > 0)
                QCOMPARE(p.bestFoundAt, reports[i - 1].bestFoundAt);
        }
    }

    // Training must pay off: the placements sampled late are better than the early ones.
    // With no time limit and no evaluation budget, a learner trains for its `iterations` default
    // (before, a composition handed each stage "all but the runs spent" as a bound, and a learner
    // given a bound trains until it is spent: `place --model gdp` ran until interrupted). A
    // watchdog cancels after 60 s, so the failure is a wrong count, not a hang.
    void aLearnerWithoutABudgetTrainsItsDefaultIterations()
    {
        const Graph g = smallGraph();
        const Cluster c = skewed();
        const Constraints cons = Constraints::fromGraph(g, c);
        for (const char *model : {"gdp", "rl-seq2seq"}) {
            int defaultIterations = -1;
            for (const HyperParam &h : PlacerRegistry::builtin().find(model)->info().params)
                if (h.name == "iterations")
                    defaultIterations = static_cast<int>(h.defaultValue);
            QVERIFY(defaultIterations > 0);
            std::atomic<bool> cancel{false}, done{false};
            std::thread watchdog([&] {
                for (int i = 0; i < 600 && !done; ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                cancel = true;
            });
            RunControl control;
            control.cancel = &cancel;
            int lastIteration = -1;
            control.progress = [&](const Progress &p) { lastIteration = std::max(lastIteration, p.iteration); };
            runPlacer(PlacerRegistry::builtin(), model, {g, c, cons, {}}, {"hidden=16"}, control);
            done = true;
            watchdog.join();
            QVERIFY2(lastIteration + 1 == defaultIterations,
                     qPrintable(QString("%1: %2 iterations").arg(model).arg(lastIteration + 1)));
        }
    }

    void learningImprovesTheObjective_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("params");
        QTest::addColumn<int>("iterations");
        QTest::newRow("rl-seq2seq") << "rl-seq2seq"
                                    << "samples=4 hidden=32 lr=0.01 warm_start=none" << 60;
        QTest::newRow("gdp") << "gdp"
                             << "samples=4 hidden=32 lr=0.01 warm_start=none" << 60;
        // GST: each epoch trains on one of two segments (the other's states from the history).
        QTest::newRow("gdp with GST") << "gdp"
                                      << "samples=4 hidden=32 lr=0.01 warm_start=none gst=on segment=8 "
                                         "gst_segment=8 gst_segments=1"
                                      << 60;
        QTest::newRow("giph") << "giph"
                              << "samples=2 hidden=32 lr=0.01 start=random episode_steps=8" << 60;
        // Moves among the options of 8 of the 14 ops (the start's critical path, then random ops each move).
        QTest::newRow("giph, candidate ops")
            << "giph"
            << "samples=2 hidden=32 lr=0.01 start=round-robin episode_steps=8 candidates=8 candidates_above=8" << 60;
    }
    void learningImprovesTheObjective()
    {
        QFETCH(QString, model);
        QFETCH(QString, params);
        QFETCH(int, iterations);
        const Graph g = smallGraph();
        const Cluster c = skewed();
        const Constraints cons = Constraints::fromGraph(g, c);
        std::vector<double> sampled, entropy;
        std::vector<Progress> reports;
        RunControl control;
        control.seed = 1;
        control.progress = [&](const Progress &p) {
            if (p.iteration >= 0) {
                sampled.push_back(p.sampleMean);
                entropy.push_back(p.entropy);
                reports.push_back(p);
            }
        };
        std::vector<std::string> list = {"iterations=" + std::to_string(iterations)};
        for (const QString &p : params.split(' '))
            list.push_back(p.toStdString());
        const PlacerResult r =
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, c, cons, {}}, list, control);
        QCOMPARE(static_cast<int>(sampled.size()), iterations);
        auto mean = [](auto first, auto last) {
            return std::accumulate(first, last, 0.0) / std::distance(first, last);
        };
        const double early = mean(sampled.begin(), sampled.begin() + 10),
                     late = mean(sampled.end() - 10, sampled.end());
        qInfo("%s: sampled makespan %.4g ms early, %.4g ms late; result %.4g ms; entropy %.3g -> %.3g",
              qPrintable(model), early * 1e3, late * 1e3, r.makespan * 1e3, entropy.front(), entropy.back());
        QVERIFY2(late < 0.9 * early, qPrintable(QString("early %1 late %2").arg(early).arg(late)));
        std::vector<std::pair<long long, double>> history; // from scratch, the best improves several times
        const QString bad = badBestHistory(reports, history);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        QVERIFY2(history.size() >= 2, qPrintable(QString::number(history.size())));
        QVERIFY(r.makespan <= *std::min_element(sampled.begin(), sampled.end()) + 1e-12);
        const bool restricted = params.contains("candidates=");
        QCOMPARE(test::hasNote(r, "among the options of 8 of 14 ops"), restricted);
    }

    // A real trade-off, not one fast device: two equal GPUs, two chains of 4 ms ops whose edges
    // take 0.4 ms to cross. Splitting the chains halves the time; scattering ops pays transfers
    // and waits. Trained from scratch (the paper's start, no warm start to lean on), each policy
    // must beat the mean of uniformly random placements by a wide margin and match HEFT.
    void fromScratchBeatsRandomAndMatchesHeft_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("params");
        QTest::newRow("gdp") << "gdp"
                             << "iterations=200 samples=16 hidden=32 lr=0.01 warm_start=none entropy_weight=0.05";
        QTest::newRow("rl-seq2seq")
            << "rl-seq2seq"
            << "iterations=200 samples=16 hidden=32 lr=0.01 warm_start=none entropy_weight=0.05";
        QTest::newRow("giph") << "giph"
                              << "iterations=60 samples=4 hidden=32 lr=0.01 start=random episode_steps=16";
    }
    void fromScratchBeatsRandomAndMatchesHeft()
    {
        QFETCH(QString, model);
        QFETCH(QString, params);
        const Graph g = smallGraph();
        const Cluster c = gpus(2);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult heft = runPlacer(PlacerRegistry::builtin(), "heft", {g, c, cons, {}}, {}, {});
        Simulator sim(g, c);
        std::mt19937_64 rng(3);
        double random = 0;
        for (int i = 0; i < 50; ++i) {
            std::vector<int> p(g.nodeCount());
            for (int &d : p)
                d = static_cast<int>(rng() % 2);
            enforceConstraints(cons, p);
            random += sim.makespan(p) / 50;
        }
        std::vector<std::string> list;
        for (const QString &p : params.split(' '))
            list.push_back(p.toStdString());
        // Three seeds: each beats random placements clearly, and the median reaches HEFT (one seed
        // can stop short of it where the BLAS kernels differ: measured here, gdp's seed 1 ends at
        // 25.10 ms against HEFT's 24.69 ms, seeds 2-4 at 24.69 ms).
        std::vector<double> makespans;
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            RunControl control;
            control.seed = seed;
            const PlacerResult r =
                runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, c, cons, {}}, list, control);
            qInfo("%s, seed %d: %.4g ms; HEFT %.4g ms; random placements %.4g ms on average", qPrintable(model),
                  int(seed), r.makespan * 1e3, heft.makespan * 1e3, random * 1e3);
            QVERIFY2(r.makespan < 0.8 * random, qPrintable(QString("%1 vs random %2").arg(r.makespan).arg(random)));
            makespans.push_back(r.makespan);
        }
        std::sort(makespans.begin(), makespans.end());
        QVERIFY2(makespans[1] <= heft.makespan * (1 + 1e-9),
                 qPrintable(QString("median %1 vs HEFT %2").arg(makespans[1]).arg(heft.makespan)));
    }

    void gapLossFalls()
    {
        const Graph g = smallGraph();
        std::vector<double> loss;
        RunControl control;
        control.progress = [&](const Progress &p) {
            if (p.iteration >= 0)
                loss.push_back(p.loss);
        };
        runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 2, 1.03, {}, {}}, {"iterations=100", "hidden=16"},
                       control);
        QCOMPARE(static_cast<int>(loss.size()), 100);
        QVERIFY2(loss.back() < 0.5 * loss.front(), qPrintable(QString("%1 -> %2").arg(loss.front()).arg(loss.back())));
    }

    void gapRebalancesToTheTolerance()
    {
        // A chain of 40 equal ops: few iterations leave the softmax unbalanced; the rebalancing
        // step must bring every part within 1.03 of the mean, and without it GAP may not.
        GraphBuilder b("chain");
        for (int i = 0; i < 40; ++i) {
            GraphBuilder::NodeSpec s;
            s.id = "n" + std::to_string(i);
            s.op = "Add";
            s.flops = 1e6;
            s.outBytes = 1e3;
            b.addNode(s);
            if (i > 0)
                b.addEdge("n" + std::to_string(i - 1), s.id);
        }
        const Graph g = b.build();
        for (int k : {2, 4, 8}) {
            const Partition p = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, k, 1.03, {}, {}},
                                               {"iterations=3", "hidden=8"}, {});
            const PartitionMetrics m = partitionMetrics(g, p.parts(), k);
            QVERIFY2(m.imbalance <= 1.03 + 1e-9, qPrintable(QString::number(m.imbalance)));
        }
        // Parts of given shares (a placer's: the devices' speeds) hold the tolerance against those
        // shares; they were balanced evenly, leaving a device a tenth as fast a quarter of the work.
        const std::vector<double> shares{0.7, 0.1, 0.1, 0.1};
        const Partition sized = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 4, 1.03, shares, {}},
                                               {"iterations=3", "hidden=8"}, {});
        const PartitionMetrics sizedMetrics = partitionMetrics(g, sized.parts(), 4);
        double total = 0;
        for (double w : sizedMetrics.partWeights)
            total += w;
        for (int d = 0; d < 4; ++d)
            QVERIFY2(
                sizedMetrics.partWeights[d] <= 1.03 * shares[d] * total + 1e-9,
                qPrintable(QString("part %1 holds %2 of the weight").arg(d).arg(sizedMetrics.partWeights[d] / total)));
        const Partition raw = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 8, 1.03, {}, {}},
                                             {"iterations=3", "hidden=8", "rebalance=false", "refine=false"}, {});
        QVERIFY(partitionMetrics(g, raw.parts(), 8).imbalance > 1.03);

        // Stopped before the rebalancing could hold the tolerance (a cancel from the start here; a
        // time limit spent by the untrained pass on 200,000 ops left 6.97 times the mean), the
        // parts are the topological order's runs, which hold it, and a note says so.
        std::atomic<bool> cancel{true};
        RunControl stopped;
        stopped.cancel = &cancel;
        const Partition p = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 8, 1.03, {}, {}},
                                           {"iterations=3", "hidden=8"}, stopped);
        QVERIFY2(partitionMetrics(g, p.parts(), 8).imbalance <= 1.03 + 1e-9,
                 qPrintable(QString::number(partitionMetrics(g, p.parts(), 8).imbalance)));
        QCOMPARE(p.parts(), topologicalChunks(g, 8));
        QVERIFY(test::hasNote(p, "gap: stopped (time limit or cancel) with a part at"));

        // A time limit that ends inside the network's first pass (the layers ask between them; on
        // 200,000 ops a pass takes about a second): the topological runs, with a note, and no
        // second pass after it.
        RunControl instant;
        instant.budget.timeLimitS = 1e-6;
        const Partition cut = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 8, 1.03, {}, {}},
                                             {"hidden=8", "gst=on"}, instant);
        QCOMPARE(cut.parts(), topologicalChunks(g, 8));
        QVERIFY(test::hasNote(cut, "gap: the time limit (or a cancel) came inside the network's first pass"));
    }

    void cancelKeepsTheBestSoFar()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(2);
        const Constraints cons = Constraints::fromGraph(g, c);
        std::atomic<bool> cancel{false};
        int seen = 0;
        RunControl control;
        control.cancel = &cancel;
        control.progress = [&](const Progress &p) {
            if (p.iteration >= 1)
                cancel = true;
            seen = std::max(seen, p.iteration + 1);
        };
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), "rl-seq2seq", {g, c, cons, {}},
                                         {"iterations=1000", "samples=2", "hidden=16"}, control);
        QCOMPARE(seen, 2);
        QCOMPARE(r.placement.nodeCount(), g.nodeCount());
        QVERIFY(std::isfinite(r.makespan));
    }

    void pauseWaitsUntilResumed()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(2);
        const Constraints cons = Constraints::fromGraph(g, c);
        std::atomic<bool> pause{true};
        std::atomic<int> iterations{0};
        RunControl control;
        control.pause = &pause;
        control.progress = [&](const Progress &p) {
            if (p.iteration >= 0)
                ++iterations;
        };
        PlacerResult r;
        std::thread worker([&] { r = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, kQuick, control); });
        QTest::qWait(400);
        QCOMPARE(iterations.load(), 0);
        pause = false;
        worker.join();
        QCOMPARE(iterations.load(), 4);
    }

    // A checkpoint damaged on disk (cut short, bytes overwritten, bytes flipped) is an InputError
    // naming what is wrong. Before, flipped bytes gave NaN weights and LibTorch's "probability
    // tensor contains either inf, nan or element < 0", or its JIT's "Unknown type name", each as
    // an internal error with a C++ stack trace.
    void damagedCheckpointsSaySo()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(2);
        const Constraints cons = Constraints::fromGraph(g, c);
        const QByteArray intact = test::readFile(quickGdpCheckpoint(m_dir, "intact.ckpt", {g, c, cons, {}}));
        std::vector<QByteArray> damaged = {intact.left(intact.size() / 2)};
        for (double at : {0.3, 0.5, 0.6, 0.7, 0.8}) { // runs of 0xFF: NaN where they land in a tensor
            QByteArray d = intact;
            d.replace(static_cast<qsizetype>(at * d.size()), 64, QByteArray(64, '\xff'));
            damaged.push_back(d);
        }
        std::mt19937 rng(1);
        for (int copy = 0; copy < 6; ++copy) { // 20 random bytes each
            QByteArray d = intact;
            for (int i = 0; i < 20; ++i)
                d[static_cast<qsizetype>(rng() % d.size())] = static_cast<char>(rng() % 256);
            damaged.push_back(d);
        }
        for (size_t i = 0; i < damaged.size(); ++i) {
            const std::string file = test::writeFile(m_dir, "damaged.ckpt", damaged[i]);
            try {
                const PlacerResult r = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}},
                                                 {"iterations=0", "samples=8", "checkpoint=" + file}, {});
                QVERIFY(std::isfinite(r.score)); // a flip that changed nothing that matters
            } catch (const InputError &e) {
                const std::string what = e.what();
                const bool named = what.find("checkpoint") != std::string::npos || what.find("damaged.ckpt") == 0 ||
                                   what.find(file) == 0;
                QVERIFY2(named && what.find("frame #") == std::string::npos,
                         qPrintable(QString("damage %1: %2").arg(i).arg(e.what())));
            }
        }
    }

    void checkpointsZeroShot()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(2);
        const Constraints cons = Constraints::fromGraph(g, c);
        const std::string path = quickGdpCheckpoint(m_dir, "gdp.ckpt", {g, c, cons, {}});
        QVERIFY(QFile::exists(QString::fromStdString(path)));
        const std::vector<std::string> zeroShot = {"iterations=0", "checkpoint=" + path, "samples=8"};
        const PlacerResult a = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, zeroShot, {});
        const PlacerResult b = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, zeroShot, {});
        QCOMPARE(a.placement.devices(), b.placement.devices());
        // Zero-shot on a graph the policy never saw (another shape, size and op mix).
        GraphBuilder other("unseen");
        for (int i = 0; i < 30; ++i) {
            GraphBuilder::NodeSpec s;
            s.id = "n" + std::to_string(i);
            s.op = i % 3 ? "Conv" : "Relu";
            s.flops = 1e9 * (1 + i % 5);
            s.outBytes = 1e6;
            other.addNode(s);
            if (i > 0)
                other.addEdge("n" + std::to_string(i / 2), s.id);
        }
        const Graph unseen = other.build();
        const PlacerResult z = runPlacer(PlacerRegistry::builtin(), "gdp",
                                         {unseen, c, Constraints::fromGraph(unseen, c), {}}, zeroShot, {});
        QCOMPARE(z.placement.nodeCount(), 30);
        QVERIFY(std::isfinite(z.makespan) && z.makespan > 0);
        // The warm start's placers for the prior, that start offered, the greedy placement, the 8
        // placements sampled from the policy (`samples`), the final check.
        QCOMPARE(a.evaluations, bestFastPlacement({g, c, cons, {}}).evaluations + 3 + 8);
        try {
            runPlacer(PlacerRegistry::builtin(), "rl-seq2seq", {g, c, cons, {}}, {"checkpoint=" + path}, {});
            QFAIL("a gdp checkpoint was accepted by rl-seq2seq");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("a checkpoint of 'gdp'"), e.what());
        }
        const Cluster four = gpus(4);
        const Constraints cons4 = Constraints::fromGraph(g, four);
        QVERIFY_EXCEPTION_THROWN(runPlacer(PlacerRegistry::builtin(), "gdp", {g, four, cons4, {}}, zeroShot, {}),
                                 InputError);
        // The sizes the policy was built with are its own: the same value given is fine, another
        // is refused naming both (it was overridden without a word).
        std::vector<std::string> sameSize = zeroShot, otherSize = zeroShot;
        sameSize.push_back("hidden=16");
        otherSize.push_back("hidden=32");
        QCOMPARE(runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, sameSize, {}).placement.devices(),
                 a.placement.devices());
        try {
            runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, otherSize, {});
            QFAIL("hidden=32 was taken with a policy of 16");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).endsWith("gdp.ckpt: its policy has hidden=16, not the hidden=32 given (leave "
                                                "hidden out to use the checkpoint)"),
                     e.what());
        }
        // What it learned over (its prior, warm start) is kept too, and a different value given
        // is said in a note (it went unused without a word); the same value given says nothing.
        auto noteOf = [](const PlacerResult &r) {
            for (const std::string &n : r.notes)
                if (n.find("policy learned over") != std::string::npos)
                    return QString::fromStdString(n);
            return QString();
        };
        QCOMPARE(noteOf(runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, sameSize, {})), QString());
        std::vector<std::string> otherPrior = zeroShot;
        otherPrior.insert(otherPrior.end(), {"prior=7", "warm_start=heft"});
        const PlacerResult kept = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, otherPrior, {});
        QCOMPARE(kept.placement.devices(), a.placement.devices());
        QVERIFY2(noteOf(kept).contains("gdp.ckpt's policy learned over prior=") &&
                     noteOf(kept).endsWith("which the run kept; the prior=7, warm_start=heft given went unused"),
                 qPrintable(noteOf(kept)));
        const std::string junk = m_dir.filePath("junk.ckpt").toStdString();
        QFile f(QString::fromStdString(junk));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a checkpoint");
        f.close();
        QVERIFY_EXCEPTION_THROWN(
            runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, {"checkpoint=" + junk}, {}), InputError);
    }

    void giphCancelledAtOnceReturnsItsStartJudgedOnce()
    {
        // A cancel already set: the fast placers stop after m-etf, stopped before its first op
        // (every op placed by the near rule), giph's warm start; no episode is judged, so the
        // start is judged once more and is the result (a greedy episode of the policy used to
        // run here, past the limit).
        const Graph g = ps::generate("inception-v3", {}, 1);
        const Cluster c = gpus(4);
        const PlacementProblem problem{g, c, Constraints::fromGraph(g, c), {}};
        std::atomic<bool> cancel{true};
        RunControl control;
        control.cancel = &cancel;
        const PlacerResult start = runPlacer(PlacerRegistry::builtin(), "m-etf", problem, {}, control);
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), "giph", problem, {}, control);
        QCOMPARE(r.placement.devices(), start.placement.devices());
        // m-etf's judgement, giph's judgement of it, and runPlacer's own of giph's result.
        QVERIFY2(r.evaluations <= 3, qPrintable(QString::number(r.evaluations)));
    }

    void giphIgnoresTheDeviceCount()
    {
        const Graph g = smallGraph();
        const Cluster two = gpus(2), five = gpus(5);
        const std::string path = m_dir.filePath("giph.ckpt").toStdString();
        runPlacer(PlacerRegistry::builtin(), "giph", {g, two, Constraints::fromGraph(g, two), {}},
                  {"iterations=2", "samples=1", "episode_steps=4", "hidden=16", "save_checkpoint=" + path}, {});
        const PlacerResult r =
            runPlacer(PlacerRegistry::builtin(), "giph", {g, five, Constraints::fromGraph(g, five), {}},
                      {"iterations=0", "episode_steps=4", "checkpoint=" + path}, {});
        QCOMPARE(r.placement.nodeCount(), g.nodeCount());
        QVERIFY(*std::max_element(r.placement.devices().begin(), r.placement.devices().end()) < 5);
    }

    void gapFindsTheBridge_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::newRow("whole graph") << "";
        // GST: one of three segments fresh per step, the rest from the history, stale ones dropped
        // half the time, the head fine-tuned at the end. Stale embeddings want a smaller step:
        // at lr=0.01 (300 steps) the cut was 18e6 to 42e6, at 0.003 (1,000 steps) the bridge for
        // seeds 1, 2 and 3.
        QTest::newRow("GST") << "gst=on gst_segment=8 gst_segments=1 lr=0.003 iterations=1000";
    }
    void gapFindsTheBridge()
    {
        QFETCH(QString, extra);
        // Two dense communities of 10 ops joined by one light edge: the cut is that edge.
        GraphBuilder b("two-communities");
        for (int side = 0; side < 2; ++side)
            for (int i = 0; i < 10; ++i) {
                GraphBuilder::NodeSpec s;
                s.id = std::string(side ? "r" : "l") + std::to_string(i);
                s.op = "Add";
                s.flops = 1e6;
                s.outBytes = 1e6;
                b.addNode(s);
            }
        for (int side = 0; side < 2; ++side)
            for (int i = 0; i < 10; ++i)
                for (int j = i + 1; j < 10; ++j)
                    b.addEdge(std::string(side ? "r" : "l") + std::to_string(i),
                              std::string(side ? "r" : "l") + std::to_string(j));
        b.addEdge("l9", "r0", 1e3);
        const Graph g = b.build();
        std::vector<std::string> params = {"iterations=300", "hidden=32", "lr=0.01"};
        for (const QString &p : extra.split(' ', Qt::SkipEmptyParts))
            params.push_back(p.toStdString());
        const Partition p = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 2, 1.03, {}, {}}, params, {});
        const PartitionMetrics m = partitionMetrics(g, p.parts(), 2);
        QCOMPARE(m.edgeCut, 1e3);
        QCOMPARE(m.imbalance, 1.0);
    }

    // Every family, classical and learned, stops within its time limit counted from the call
    // (warm starts, HEFT runs and graph preparation included): T + 10% + 1 s for the step in
    // flight and the final judgement.
    // METIS runs in a forked child process (so that a limit or a cancel can stop it), and a
    // learner's matrix products run on OpenBLAS's worker threads. Forking shuts those threads
    // down (OpenBLAS's fork handler), and a product being handed to them in another thread then
    // spun for ever: `steer` on two threads hung on MoE x 4gpu (a gdp candidate beside a METIS
    // one), as would the app with a learner and METIS running side by side. A watchdog turns a
    // hang into a failure.
    void learnersRunBesideForkingMetis()
    {
        const Graph learnt = generate("rnnlm", {}, 1), cut = generate("inception-v3", {}, 1);
        const Cluster c = gpus(4);
        const Constraints learntCons = Constraints::fromGraph(learnt, c), cutCons = Constraints::fromGraph(cut, c);
        std::atomic<bool> learnerDone{false}, allDone{false};
        std::atomic<int> metisRuns{0};
        std::thread watchdog([&] {
            for (int i = 0; i < 1200 && !allDone; ++i) // 120 s
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (!allDone) {
                std::fprintf(stderr, "FAIL: a learner beside forking METIS hung (%d METIS runs, learner %s)\n",
                             metisRuns.load(), learnerDone ? "done" : "running");
                std::_Exit(1);
            }
        });
        std::thread metis([&] {
            while (!learnerDone) {
                RunControl control;
                control.budget.timeLimitS = 30; // a limit: METIS runs in a child process
                runPlacer(PlacerRegistry::builtin(), "metis", {cut, c, cutCons, {}}, {}, control);
                ++metisRuns;
            }
        });
        RunControl control;
        control.budget.timeLimitS = 8;
        const PlacerResult r =
            runPlacer(PlacerRegistry::builtin(), "gdp", {learnt, c, learntCons, {}}, {"threads=1"}, control);
        learnerDone = true;
        metis.join();
        allDone = true;
        watchdog.join();
        QVERIFY(r.feasible);
        QVERIFY2(metisRuns > 20, qPrintable(QString::number(metisRuns.load())));
    }

    void timeLimitHoldsForEveryFamily()
    {
        const Graph g = generate("rnnlm", {}, 1);
        const Cluster c = gpus(4);
        const Constraints cons = Constraints::fromGraph(g, c);
        const double limit = 1.0;
        auto within = [&](const std::string &name, auto run) {
            const auto t0 = std::chrono::steady_clock::now();
            run();
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            QVERIFY2(wall <= limit * 1.1 + 1.0, qPrintable(QString("%1 took %2 s").arg(name.c_str()).arg(wall)));
        };
        for (const Placer *f : PlacerRegistry::builtin().all()) {
            const std::string name = f->info().name;
            RunControl control;
            control.budget.timeLimitS = limit;
            // No iteration or evaluation count: the time limit is the budget (and is used).
            PlacerResult r;
            within(name, [&] { r = runPlacer(PlacerRegistry::builtin(), name, {g, c, cons, {}}, {}, control); });
            if (name == "local-search")
                QVERIFY2(r.evaluations > 2001, qPrintable(QString::number(r.evaluations)));
            if (f->info().trains)
                QVERIFY2(r.wallS > 0.5 * limit,
                         qPrintable(QString("%1 stopped at %2 s").arg(name.c_str()).arg(r.wallS)));
        }
        RunControl control;
        control.budget.timeLimitS = limit;
        within("gap", [&] {
            runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 4, 1.05, {}, {}}, {}, control);
        });
        // Where one training step outlasts the limit, gap does not start it: on GNMT-58k in 512
        // parts a step took 4-5 s (the first ran 31 s under a 2 s limit in 1,024 parts). The
        // partition is then the untrained network's, refined, and a note says so.
        const Graph big = generate("gnmt", {{"source_steps", 250}, {"target_steps", 250}}, 1);
        RunControl short3;
        short3.budget.timeLimitS = 3;
        const auto t0 = std::chrono::steady_clock::now();
        const Partition p = runPartitioner(PartitionerRegistry::builtin(), "gap", {big, 512, 1.05, {}, {}}, {}, short3);
        const double wall = secondsSince(t0);
        QVERIFY2(wall <= 3 * 1.1 + 1.0, qPrintable(QString("gap in 512 parts took %1 s").arg(wall)));
        QCOMPARE(p.nodeCount(), big.nodeCount());
        QCOMPARE(p.notes.size(), size_t(1));
        QVERIFY2(QString(p.notes[0].c_str())
                     .startsWith("gap: no training step fitted in the time limit (one was "
                                 "judged to take "),
                 p.notes[0].c_str());
        // Zero iterations asked for (a zero-shot run) under a limit: nothing to say.
        const Partition zero =
            runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 4, 1.05, {}, {}}, {"iterations=0"}, control);
        QVERIFY2(zero.notes.empty(), zero.notes.empty() ? "" : zero.notes[0].c_str());
        // A count the caller sets still caps the run (beyond the human start it refines).
        const PlacerResult start = runPlacer(PlacerRegistry::builtin(), "human", {g, c, cons, {}}, {}, {});
        const PlacerResult capped =
            runPlacer(PlacerRegistry::builtin(), "local-search", {g, c, cons, {}}, {"evaluations=50"}, control);
        QVERIFY2(capped.evaluations <= start.evaluations + 50 + 1, qPrintable(QString::number(capped.evaluations)));
    }

    // On thousands of devices the warm start can spend the whole limit; gdp then hands it back at
    // once instead of building its n x devices tensors (GNMT-58k x 4,096: 19 s under a 10 s limit).
    void gdpWhoseWarmStartSpentTheLimitReturnsIt()
    {
        const Graph g = generate("gnmt", {{"source_steps", 250}, {"target_steps", 250}}, 1);
        const Cluster c = gpus(2048);
        const Constraints cons = Constraints::fromGraph(g, c);
        RunControl control;
        control.budget.timeLimitS = 0.5;
        const auto t0 = std::chrono::steady_clock::now();
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, {}, control);
        const double wall = secondsSince(t0);
        QVERIFY2(wall <= 0.5 * 1.1 + 1.0, qPrintable(QString("gdp took %1 s").arg(wall)));
        QCOMPARE(r.placement.nodeCount(), g.nodeCount());
        QVERIFY(test::hasNote(r, "gdp: the warm start spent the time limit; it is the result, untrained"));
        // Under 100 simulator runs the warm start is HEFT's, which had neither limit nor cancel
        // (2.06 s here); and what the run spent before its warm start counts (0.97 s before).
        control.budget.maxEvaluations = 50;
        const auto t1 = std::chrono::steady_clock::now();
        const PlacerResult h = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, {}, control);
        const double heftWall = secondsSince(t1);
        QVERIFY2(heftWall <= 0.5 * 1.1 + 1.0,
                 qPrintable(QString("gdp with HEFT's warm start took %1 s").arg(heftWall)));
        QVERIFY(test::hasNote(h, "gdp: the warm start spent the time limit; it is the result, untrained"));
        // Spent by its own cap of simulator runs, the note says so (it said "the time limit").
        const Graph small = generate("rnnlm", {}, 1);
        const Cluster four = gpus(4);
        const PlacerResult one =
            runPlacer(PlacerRegistry::builtin(), "gdp", {small, four, Constraints::fromGraph(small, four), {}},
                      {"evaluations=1"}, {});
        QCOMPARE(one.evaluations, 3LL); // the warm start's run, its judgement as the start, the final
        QVERIFY(test::hasNote(one, "gdp: the warm start spent the run's simulator runs; it is the result, untrained"));
    }

    // A part per device of thousands on a large graph: GAP's loss would outgrow the machine (on
    // the 58k-op GNMT with 4,096 parts it passed 14 GB in 30 s). Refused up front, saying why.
    void gapRefusesWhatWouldOutgrowTheMachine()
    {
        const Graph g = generate("layered-random", {{"nodes", 300000}, {"out_degree", 3}}, 1);
        QVERIFY(g.edgeCount() > 800000);
        const auto t0 = std::chrono::steady_clock::now();
        try {
            runPartitioner(PartitionerRegistry::builtin(), "gap", {g, 4096, 1.05, {}, {}}, {}, {});
            QFAIL("gap ran");
        } catch (const InputError &e) {
            const QString why = e.what();
            QVERIFY2(why.startsWith("gap: 4096 parts on ") && why.contains(" GB per training step (this machine has "),
                     qPrintable(why));
            QVERIFY2(why.contains("use a classical family"), qPrintable(why));
        }
        QVERIFY(secondsSince(t0) < 5); // before any tensor
        // The same graph among the training graphs of a small problem: the largest graph counts.
        const std::string big = m_dir.filePath("big.graph.json").toStdString();
        writeGraphJson(big, g);
        const Graph small = generate("layered-random", {{"nodes", 100}}, 1);
        try {
            runPartitioner(PartitionerRegistry::builtin(), "gap", {small, 4096, 1.05, {}, {}}, {"train_graphs=" + big},
                           {});
            QFAIL("gap ran");
        } catch (const InputError &e) {
            const QString why = e.what();
            QVERIFY2(why.startsWith(QString("gap: 4096 parts on %1 nodes").arg(g.nodeCount())), qPrintable(why));
        }
    }

    // gdp's n x devices tensors and giph's (scored ops) x devices x hidden activations the same:
    // refused up front with the estimate, not run until the machine gives out.
    void placersRefuseWhatWouldOutgrowTheMachine_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QStringList>("params");
        QTest::addColumn<QString>("why");
        // 48 bytes x 600,000 ops x 4,096 devices: 118 GB
        QTest::newRow("gdp") << "gdp" << 600000 << QStringList{}
                             << "gdp: 4096 devices for 600000 ops would need about ";
        // 32 bytes x 1,000 ops x 4,096 devices x 1,024 hidden units: 134 GB
        QTest::newRow("giph") << "giph" << 1000 << QStringList{"hidden=1024"}
                              << "giph: scoring 1000 ops x 4096 devices a move with hidden=1024 would need about ";
    }
    void placersRefuseWhatWouldOutgrowTheMachine()
    {
        QFETCH(QString, model);
        QFETCH(int, nodes);
        QFETCH(QStringList, params);
        QFETCH(QString, why);
        if (static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE)) > 200e9)
            QSKIP("this machine could hold it");
        const Graph g = generate("layered-random", {{"nodes", nodes}, {"out_degree", 1}}, 1);
        const Cluster c = gpus(4096);
        const Constraints cons = Constraints::fromGraph(g, c);
        std::vector<std::string> values;
        for (const QString &p : params)
            values.push_back(p.toStdString());
        RunControl control; // without the check, it returns (and fails) or gives out
        control.budget.timeLimitS = 2;
        const auto t0 = std::chrono::steady_clock::now();
        try {
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, c, cons, {}}, values, control);
            QFAIL("it ran");
        } catch (const InputError &e) {
            const QString what = e.what();
            QVERIFY2(what.startsWith(why) && what.contains(" GB per training step (this machine has "),
                     qPrintable(what));
        }
        QVERIFY(secondsSince(t0) < 5); // before any tensor or warm start
    }

    // What the memory check counts on: the machine, or a container's cap where lower (cgroup v2
    // and v1, in a namespace or not), read from a fake /proc and /sys tree.
    void memoryCountsAContainersCap()
    {
        QTemporaryDir root;
        auto write = [&](const QString &path, const QByteArray &text) {
            QVERIFY(QDir(root.path()).mkpath(QFileInfo(root.filePath(path)).path()));
            QFile f(root.filePath(path));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        };
        const double gib = 1024.0 * 1024 * 1024;
        auto read = [&] { return machineMemory(root.path().toStdString()); };
        write("proc/meminfo", "MemTotal:       33554432 kB\nMemFree:  1 kB\nMemAvailable:   16777216 kB\n");
        write("proc/self/cgroup", "0::/app.slice/run\n");
        QCOMPARE(read().totalBytes, 32 * gib); // no group files: the machine's
        QCOMPARE(read().availableBytes, 16 * gib);
        write("sys/fs/cgroup/app.slice/run/memory.max", "max\n");
        QCOMPARE(read().totalBytes, 32 * gib); // no cap
        write("sys/fs/cgroup/app.slice/run/memory.max", "4294967296\n");
        write("sys/fs/cgroup/app.slice/run/memory.current", "1073741824\n");
        QCOMPARE(read().totalBytes, 4 * gib);
        QCOMPARE(read().availableBytes, 3 * gib);
        write("proc/self/cgroup", "0::/\n"); // inside the container's namespace
        write("sys/fs/cgroup/memory.max", "8589934592\n");
        QCOMPARE(read().totalBytes, 8 * gib);
        QCOMPARE(read().availableBytes, 16 * gib); // no memory.current at the top: MemAvailable
        write("proc/self/cgroup", "12:pids:/x\n4:cpu,memory:/docker/abc\n0::/\n");
        QVERIFY(QFile::remove(root.filePath("sys/fs/cgroup/memory.max")));
        write("sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "2147483648\n");
        write("sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes", "536870912\n");
        QCOMPARE(read().totalBytes, 2 * gib);
        QCOMPARE(read().availableBytes, 1.5 * gib);
        const MachineMemory none = machineMemory(root.filePath("nothing-here").toStdString());
        QCOMPARE(none.totalBytes, -1.0);
        QCOMPARE(none.availableBytes, -1.0);
        const MachineMemory here = machineMemory(); // this machine: known, and what is free within it
        QVERIFY(here.totalBytes > 0 && here.availableBytes > 0 && here.availableBytes <= here.totalBytes);
    }

    // A chain on identical devices: one device is best, and the warm start (HEFT's, or the best
    // fast placement) already has it. Nothing a learner samples can beat it, and the result says
    // so rather than passing the start off as learned; where the search does gain, it does not.
    // One device leaves one placement, and k = 1 one partition: every family hands it back at once,
    // judged once and saying so, instead of searching (gdp trained 47 s on GNMT x one GPU, gap
    // 13.5 s at k = 1, to return what they started from). A learner asked to save its policy
    // still trains.
    void oneDeviceOrOnePartRunsNothing()
    {
        const Graph g = generate("rnnlm", {}, 1);
        const Cluster c = gpus(1);
        const Constraints cons = Constraints::fromGraph(g, c);
        auto allZero = [](const std::vector<int> &v) {
            return std::all_of(v.begin(), v.end(), [](int d) { return d == 0; });
        };
        for (const Placer *p : PlacerRegistry::builtin().all()) {
            const std::string name = p->info().name;
            const PlacerResult r = runPlacer(PlacerRegistry::builtin(), name, {g, c, cons, {}}, {}, {});
            QCOMPARE(r.evaluations, 1LL);
            QVERIFY(allZero(r.placement.devices()));
            QVERIFY2(test::hasNote(r, "one device: every op goes on it ('" + name + "' was not run)"), name.c_str());
        }
        for (const char *name : {"gap", "metis", "spectral"}) {
            const PartitionProblem problem{g, 1, 1.03, {}, {}};
            const Partition part = runPartitioner(PartitionerRegistry::builtin(), name, problem, {}, RunControl{});
            QCOMPARE(part.k(), 1);
            QVERIFY(allZero(part.parts()));
            QVERIFY2(test::hasNote(part, "one part: every op goes in it"), name);
        }
        QTemporaryDir dir;
        const std::string checkpoint = dir.filePath("one-device.pt").toStdString();
        const PlacerResult trained =
            runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}},
                      {"iterations=1", "samples=2", "hidden=16", "save_checkpoint=" + checkpoint}, {});
        QVERIFY(trained.evaluations > 1);
        QVERIFY(QFile::exists(QString::fromStdString(checkpoint)));
    }

    void learnersSayWhenNothingBeatTheirStart_data() { addLearnerRows(); }
    void learnersSayWhenNothingBeatTheirStart()
    {
        QFETCH(QString, model);
        const Graph g = chainGraph();
        const Cluster c = gpus(3);
        const Constraints cons = Constraints::fromGraph(g, c);
        std::vector<std::string> small = {"iterations=4", "samples=4", "hidden=16"};
        if (model == "giph")
            small.push_back("episode_steps=3");
        // The chain on one device is the best placement, but a slight weight on memory keeps its
        // score above the floor (learnersStopAtTheLowerBound), so the learners search.
        Objective memoryToo;
        memoryToo.memoryWeight = 1e-6;
        const PlacerResult r =
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, c, cons, memoryToo}, small, {});
        QVERIFY(r.evaluations > 1);
        // (the count is the learner's; the result adds runPlacer's final judgement)
        const std::string note = model.toStdString() + ": nothing it tried beat its start in " +
                                 std::to_string(r.evaluations - 1) + " simulator runs; the start is the result";
        QVERIFY2(test::hasNote(r, note), qPrintable(QString::fromStdString(r.notes.empty() ? "" : r.notes.back())));
        // The skewed cluster: moving the chain to the fast device is a gain the learners find.
        const Cluster fast = skewed();
        const PlacerResult gained =
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, fast, Constraints::fromGraph(g, fast), {}},
                      withParams(small, {model == "giph" ? "start=random" : "warm_start=none"}), {});
        QVERIFY(!test::hasNote(gained, model.toStdString() + ": nothing it tried beat its start"));
    }

    // A learner whose best placement meets the lower bound stops there: nothing can score lower.
    // A chain on equal GPUs, every op on one device (the warm start) is such a placement. A run
    // that saves its policy trains its budget all the same.
    void learnersStopAtTheLowerBound_data() { addLearnerRows(); }
    void learnersStopAtTheLowerBound()
    {
        QFETCH(QString, model);
        const std::string family = model.toStdString();
        const Graph g = chainGraph();
        const Cluster c = gpus(3);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacementProblem problem{g, c, cons, {}};
        std::vector<std::string> small = {"samples=4", "hidden=16", "evaluations=600"};
        if (model == "giph")
            small.push_back("episode_steps=3");
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), family, problem, small, {});
        QVERIFY(r.makespan <= r.lowerBound * (1 + 1e-9));
        QVERIFY2(r.evaluations < 20, qPrintable(QString::number(r.evaluations)));
        // (the count is the learner's; the result adds runPlacer's final judgement)
        const std::string note = family + ": stopped after " + std::to_string(r.evaluations - 1) +
                                 " simulator runs: its best placement meets the lower bound";
        QVERIFY2(test::hasNote(r, note), qPrintable(QString::fromStdString(r.notes.empty() ? "" : r.notes.back())));
        QVERIFY(!test::hasNote(r, "nothing it tried beat its start"));
        const std::string saved = m_dir.filePath(model + "-floor.pt").toStdString();
        const PlacerResult trained =
            runPlacer(PlacerRegistry::builtin(), family, problem, withParams(small, {"save_checkpoint=" + saved}), {});
        QVERIFY2(trained.evaluations >= 590, qPrintable(QString::number(trained.evaluations)));
        QVERIFY(!test::hasNote(trained, "meets the lower bound"));
        QCOMPARE(trained.placement.devices(), r.placement.devices());
    }

    // An evaluation budget holds too, all simulator runs counted (HEFT's for a warm start, the
    // final judgement).
    void evaluationBudgetHolds_data() { addLearnerRows({"gdp+local-search"}); }
    void evaluationBudgetHolds()
    {
        QFETCH(QString, model);
        const Graph g = smallGraph();
        const Cluster c = gpus(3);
        const Constraints cons = Constraints::fromGraph(g, c);
        for (long long budget : {3LL, 25LL}) {
            RunControl control;
            control.budget.maxEvaluations = budget;
            const PlacerResult r = runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, c, cons, {}},
                                             {"iterations=1000", "samples=2", "hidden=16"}, control);
            QVERIFY2(r.evaluations <= budget, qPrintable(QString("%1 > %2").arg(r.evaluations).arg(budget)));
            QVERIFY(r.evaluations >= budget - 3); // and it is used
            QCOMPARE(r.placement.nodeCount(), g.nodeCount());
        }
    }

    // The `evaluations` parameter (what steering gives a learned candidate) is a budget to use:
    // with no `iterations` given, training runs past the default count until it is spent, and
    // never beyond it; with `iterations` given, that count still caps the run.
    void evaluationsParameterIsABudgetToUse_data() { addLearnerRows(); }
    void evaluationsParameterIsABudgetToUse()
    {
        QFETCH(QString, model);
        const Graph g = smallGraph();
        const Cluster c = gpus(3);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacementProblem problem{g, c, cons, {}};
        std::vector<std::string> small = {"samples=2", "hidden=16"};
        if (model == "giph")
            small.push_back("episode_steps=2");
        const PlacerResult capped =
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), problem, withParams(small, {"iterations=3"}), {});
        // The default count of iterations (50-200) at 2 samples spends a few hundred runs at most.
        const long long budget = 1200;
        const PlacerResult used = runPlacer(PlacerRegistry::builtin(), model.toStdString(), problem,
                                            withParams(small, {"evaluations=" + std::to_string(budget)}), {});
        QVERIFY2(used.evaluations <= budget + 1, qPrintable(QString::number(used.evaluations))); // + judgement
        QVERIFY2(used.evaluations >= budget - 3, qPrintable(QString::number(used.evaluations)));
        const PlacerResult both =
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), problem,
                      withParams(small, {"iterations=3", "evaluations=" + std::to_string(budget)}), {});
        QCOMPARE(both.evaluations, capped.evaluations);
        // A control's smaller budget wins over the parameter.
        RunControl control;
        control.budget.maxEvaluations = 40;
        const PlacerResult tighter = runPlacer(PlacerRegistry::builtin(), model.toStdString(), problem,
                                               withParams(small, {"evaluations=" + std::to_string(budget)}), control);
        QVERIFY2(tighter.evaluations <= 40 && tighter.evaluations >= 37,
                 qPrintable(QString::number(tighter.evaluations)));
        // The parameter and the control's budget are one budget: under 100 runs either makes the
        // warm start HEFT's (one run) rather than the best fast placer's (a dozen), so one
        // iteration costs the same either way.
        const std::vector<std::string> once = withParams(small, {"iterations=1"});
        const PlacerResult byControl =
            runPlacer(PlacerRegistry::builtin(), model.toStdString(), problem, once, control);
        const PlacerResult byParam = runPlacer(PlacerRegistry::builtin(), model.toStdString(), problem,
                                               withParams(once, {"evaluations=40"}), {});
        QCOMPARE(byParam.evaluations, byControl.evaluations);
        QCOMPARE(byParam.placement.devices(), byControl.placement.devices());
    }

    // A warm-started learner never hands back worse than the placement it started from, even
    // when it trains for two iterations only, on a graph where HEFT is far from the best.
    void neverWorseThanTheWarmStart_data()
    {
        QTest::addColumn<QString>("params");
        QTest::addColumn<bool>("fromBest"); // the start: the best fast placer's, else HEFT's
        QTest::newRow("gdp best (default)") << "gdp" << true;
        QTest::newRow("gdp heft prior") << "gdp warm_start=heft" << false;
        QTest::newRow("gdp imitate") << "gdp warm_start=imitate" << false;
        QTest::newRow("gdp with GST") << "gdp gst=on gst_segment=64 segment=32" << true;
        QTest::newRow("rl-seq2seq best (default)") << "rl-seq2seq" << true;
        QTest::newRow("rl-seq2seq heft, weak prior") << "rl-seq2seq warm_start=heft prior=0.5" << false;
        QTest::newRow("rl-seq2seq heft, by scope") << "rl-seq2seq warm_start=heft grouping=scope" << false;
        QTest::newRow("giph best (default)") << "giph episode_steps=4" << true;
        QTest::newRow("giph heft") << "giph start=heft episode_steps=4" << false;
    }
    void neverWorseThanTheWarmStart()
    {
        QFETCH(QString, params);
        QFETCH(bool, fromBest);
        QStringList list = params.split(' ');
        const std::string model = list.takeFirst().toStdString();
        std::vector<std::string> values = {"iterations=2", "samples=2", "hidden=16", "lr=0.05"};
        for (const QString &p : list)
            values.push_back(p.toStdString());
        const Graph g = generate("rnnlm", {}, 1);
        const Cluster c = gpus(4);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult heft = fromBest ? bestFastPlacement({g, c, cons, {}})
                                           : runPlacer(PlacerRegistry::builtin(), "heft", {g, c, cons, {}}, {}, {});
        for (uint64_t seed : {1, 2, 3}) {
            RunControl control;
            control.seed = seed;
            const PlacerResult r = runPlacer(PlacerRegistry::builtin(), model, {g, c, cons, {}}, values, control);
            QVERIFY2(r.score <= heft.score * (1 + 1e-12),
                     qPrintable(QString("seed %1: %2 > its start %3").arg(seed).arg(r.score).arg(heft.score)));
        }
    }

    // Links that take forever (1e-30 and 1e-100 bytes/s: a transfer takes 1e36 to 1e106 s): every
    // learner still places, never worse than HEFT; at 1e-300 bytes/s a placement that moves a
    // tensor overflows a double, and a learner that tries one says so, as the simulator does.
    // Before, rl-seq2seq and giph ended in LibTorch's "probability tensor contains either inf,
    // nan or element < 0": a gain of 1e37 overflowed their float loss (giph's features, at 1e-300).
    void linksThatTakeForever()
    {
        const Graph g = generate("rnnlm", {}, 1);
        for (double bandwidth : {1e-30, 1e-100, 1e-300}) {
            ClusterBuilder b("slow links");
            for (int d = 0; d < 4; ++d)
                b.addDevice({"gpu:" + std::to_string(d), "gpu", 1e13, 16e9, 1e-5});
            b.setDefaultLink({bandwidth, 1e-5});
            const Cluster c = b.build();
            const Constraints cons = Constraints::fromGraph(g, c);
            const PlacerResult heft = runPlacer(PlacerRegistry::builtin(), "heft", {g, c, cons, {}}, {}, {});
            for (const char *model : {"rl-seq2seq", "giph", "gdp"}) {
                const QString what = QString("%1 at %2 bytes/s").arg(model).arg(bandwidth);
                try {
                    const PlacerResult r =
                        runPlacer(PlacerRegistry::builtin(), model, {g, c, cons, {}}, {"evaluations=400"}, {});
                    QVERIFY2(std::isfinite(r.score) && r.score <= heft.score, qPrintable(what));
                } catch (const InputError &e) {
                    QVERIFY2(bandwidth == 1e-300, qPrintable(what + ": " + e.what()));
                    QCOMPARE(std::string(e.what()), std::string("a cost or result overflows a double"));
                }
            }
        }
    }

    // rl-seq2seq starts *at* its warm start: with a strong prior its very first samples are the
    // start's placement (or one a few ops away), not the random placements of an untrained policy.
    void rlSeq2SeqSamplesItsWarmStartFirst()
    {
        const Graph g = generate("rnnlm", {}, 1);
        const Cluster c = gpus(4);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult heft = runPlacer(PlacerRegistry::builtin(), "heft", {g, c, cons, {}}, {}, {});
        auto firstSamples = [&](const std::string &warm) {
            return firstIteration("rl-seq2seq", {g, c, cons, {}},
                                  {"iterations=1", "samples=4", "hidden=16", "prior=8", "warm_start=" + warm});
        };
        const Progress warm = firstSamples("heft"), cold = firstSamples("none");
        QVERIFY2(std::abs(warm.sampleBest - heft.makespan) <= 1e-9 * heft.makespan,
                 qPrintable(QString("%1 vs HEFT's %2").arg(warm.sampleBest).arg(heft.makespan)));
        QVERIFY2(warm.sampleMean <= 1.05 * heft.makespan, qPrintable(QString::number(warm.sampleMean)));
        QVERIFY2(cold.sampleMean > 1.2 * heft.makespan, qPrintable(QString::number(cold.sampleMean)));
    }

    // gdp's prior is sized by the graph: an untrained sample moves about `moves` ops off the start,
    // so its first samples are near the start; a weak fixed margin scatters them.
    void gdpSamplesMoveAFewOpsOffTheStart()
    {
        const Graph g = generate("rnnlm", {}, 1);
        const Cluster c = gpus(4);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult heft = runPlacer(PlacerRegistry::builtin(), "heft", {g, c, cons, {}}, {}, {});
        auto firstSamples = [&](const std::string &moves, const std::string &prior) {
            return firstIteration(
                "gdp", {g, c, cons, {}},
                {"iterations=1", "samples=8", "hidden=16", "warm_start=heft", "moves=" + moves, "prior=" + prior});
        };
        const Progress few = firstSamples("1", "0"), many = firstSamples("1e6", "1");
        qInfo("first samples' mean: %.4g (moves=1), %.4g (margin 1), HEFT %.4g", few.sampleMean, many.sampleMean,
              heft.makespan);
        QVERIFY2(few.sampleMean <= 1.1 * heft.makespan, qPrintable(QString::number(few.sampleMean)));
        QVERIFY2(many.sampleMean > 1.2 * heft.makespan, qPrintable(QString::number(many.sampleMean)));
    }

    // Over two nodes (50 GB/s within, 1.25 GB/s between), the untrained prior's moves to the other
    // node put tensors on the slow link. With link_prior a move goes rather within its node, so the
    // first samples are far nearer the start; on a cluster whose links are all alike it changes
    // nothing.
    void gdpMovesGoRatherOverFastLinks()
    {
        auto firstMean = [](const PlacementProblem &problem, const std::string &links) {
            return firstIteration("gdp", problem, {"iterations=1", "samples=16", "hidden=16", "link_prior=" + links})
                .sampleMean;
        };
        const test::PresetProblem twoNodes("moe", {}, "8gpu-2node");
        const double plain = firstMean(twoNodes.problem, "0"), near = firstMean(twoNodes.problem, "1");
        qInfo("first samples' mean over two nodes: %.4g ms, %.4g ms with link_prior=1", plain * 1e3, near * 1e3);
        QVERIFY2(near < 0.7 * plain, qPrintable(QString("%1 %2").arg(near).arg(plain)));
        const test::PresetProblem alike("moe", {}, "4gpu");
        QCOMPARE(firstMean(alike.problem, "1"), firstMean(alike.problem, "0"));
        // A checkpoint keeps the link prior its policy learned over, and loading it restores that
        // prior whatever the run is given (the shipped policies, saved before it existed, read 0).
        auto saved = [&](const std::string &links) {
            const std::string path = m_dir.filePath(QString("links-%1.ckpt").arg(links.c_str())).toStdString();
            runPlacer(PlacerRegistry::builtin(), "gdp", twoNodes.problem,
                      {"iterations=1", "samples=2", "hidden=16", "link_prior=" + links, "save_checkpoint=" + path}, {});
            return path;
        };
        const std::string fast = saved("1"), plainLinks = saved("0");
        auto loadedMean = [&](const std::string &path, const std::string &links) {
            return firstIteration("gdp", twoNodes.problem,
                                  {"iterations=1", "samples=16", "checkpoint=" + path, "link_prior=" + links})
                .sampleMean;
        };
        const double storedNear = loadedMean(fast, "0");
        QCOMPARE(storedNear, loadedMean(fast, "1"));
        QVERIFY2(storedNear < 0.7 * loadedMean(plainLinks, "1"),
                 qPrintable(QString("%1 %2").arg(storedNear).arg(loadedMean(plainLinks, "1"))));
    }

    // After another stage ("round-robin+gdp", "best-fast+local-search+gdp"), gdp's residual prior
    // anchors at that stage's placement, not at a warm start of its own: its first samples are near
    // round-robin's placement (far worse than HEFT's on the RNN LM), and alone they are near the
    // best fast placement.
    void gdpAfterAStageStartsAtItsPlacement()
    {
        const Graph g = generate("rnnlm", {}, 1);
        const Cluster c = gpus(4);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult robin = runPlacer(PlacerRegistry::builtin(), "round-robin", {g, c, cons, {}}, {}, {});
        const PlacerResult best = bestFastPlacement({g, c, cons, {}});
        QVERIFY(robin.makespan > 1.5 * best.makespan);
        // Single-op samples (no blocks carried): their mean says where the policy is anchored.
        const std::vector<std::string> params = {"iterations=1", "samples=8", "hidden=16", "moves=1", "block_share=0"};
        const Progress after = firstIteration("round-robin+gdp", {g, c, cons, {}}, params),
                       alone = firstIteration("gdp", {g, c, cons, {}}, params);
        qInfo("first samples' mean: %.4g after round-robin (its makespan %.4g), %.4g alone (start %.4g)",
              after.sampleMean, robin.makespan, alone.sampleMean, best.makespan);
        QVERIFY2(after.sampleMean > 1.3 * best.makespan && after.sampleMean <= 1.1 * robin.makespan,
                 qPrintable(QString::number(after.sampleMean)));
        QVERIFY2(alone.sampleMean <= 1.1 * best.makespan, qPrintable(QString::number(alone.sampleMean)));
        // A start the caller gives (`place --model gdp --start P`) is an anchor too; so for giph.
        for (const char *model : {"gdp", "giph"}) {
            const PlacerResult given = runPlacer(PlacerRegistry::builtin(), model, {g, c, cons, {}}, {"iterations=0"},
                                                 RunControl{}, &robin.placement);
            QVERIFY2(std::abs(given.makespan - robin.makespan) <= 1e-12 * robin.makespan,
                     qPrintable(QString("%1 from round-robin's placement: %2, not %3")
                                    .arg(model)
                                    .arg(given.makespan)
                                    .arg(robin.makespan)));
        }
        // gdp's imitation learns the given placement, not HEFT's: HEFT's is not judged (it would
        // be the result, far better than round-robin's), and the given one is.
        const PlacerResult imitated = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}},
                                                {"iterations=0", "warm_start=imitate"}, RunControl{}, &robin.placement);
        QVERIFY2(imitated.makespan <= robin.makespan * (1 + 1e-12) && imitated.makespan > 1.3 * best.makespan,
                 qPrintable(QString::number(imitated.makespan)));
    }

    // gdp's samples carry blocks: the best fast placement of the 2-layer RNN LM on two GPUs is
    // one that no move of a few single ops improves (gdp's samples without blocks return it for
    // every seed); an op the policy moves taking the stretch of its layer along gets out of it.
    void gdpSamplesCarryBlocks()
    {
        const test::PresetProblem rnnlm("rnnlm", {}, "2gpu");
        const PlacementProblem &problem = rnnlm.problem;
        const double start = bestFastPlacement(problem).makespan;
        double bestWithBlocks = std::numeric_limits<double>::infinity();
        for (uint64_t seed : {1, 2, 3}) {
            RunControl control;
            control.seed = seed;
            auto gdp = [&](const char *blockShare) {
                return runPlacer(PlacerRegistry::builtin(), "gdp", problem,
                                 {"iterations=30", std::string("block_share=") + blockShare}, control);
            };
            const PlacerResult single = gdp("0"), blocks = gdp("0.5");
            qInfo("seed %d: %.4g without blocks, %.4g with, of the start", static_cast<int>(seed),
                  single.makespan / start, blocks.makespan / start);
            QVERIFY2(single.makespan > 0.99 * start, qPrintable(QString::number(single.makespan / start)));
            QVERIFY(blocks.makespan <= start * (1 + 1e-12));
            QCOMPARE(blocks.evaluations, single.evaluations); // the same iterations, the same runs
            bestWithBlocks = std::min(bestWithBlocks, blocks.makespan);
        }
        QVERIFY2(bestWithBlocks < 0.9 * start, qPrintable(QString::number(bestWithBlocks / start)));
    }

    // Half of the blocks gdp's samples carry are the moved op's scope (`scope_share`, default 0.5):
    // an expert or a layer changes device whole, which connected blocks rarely make of it. A MoE
    // of 5 steps on four GPUs, 30 iterations, seeds 1-3: with scope blocks every seed ends lower
    // than without, for the same simulator runs (0.95 of it on the mean; 7 of seeds 1-8 lower).
    void gdpSamplesCarryScopes()
    {
        const test::PresetProblem moe("moe", {{"steps", 5}}, "4gpu");
        const std::vector<test::SeedPair> pairs = test::runSeedPairs(
            "gdp", moe.problem, {"iterations=30", "race_starts=1"}, "scope_share=0", "scope_share=0.5");
        const std::string failed = test::lowerOnEverySeed(pairs, 0.97, "of the makespan without scope blocks");
        QVERIFY2(failed.empty(), failed.c_str());
    }

    // Starts race: on MoE x 8gpu-2node the best fast placement (m-etf's) lies in a poorer basin
    // than heft-c's (fifth of the fast ones), from which gdp gets far lower in the same runs. With
    // 5 starts raced for half of 6,000 simulator runs, every seed ends lower than from the best
    // fast start alone, for the same runs.
    void gdpRacesTheFastStarts()
    {
        const test::PresetProblem moe("moe", {}, "8gpu-2node");
        const std::vector<test::SeedPair> pairs = test::runSeedPairs(
            "gdp", moe.problem, {"evaluations=6000", "race_share=0.5"}, "race_starts=1", "race_starts=5");
        const std::string failed =
            test::lowerOnEverySeed(pairs, 0.93, "of the makespan from the best fast start alone");
        QVERIFY2(failed.empty(), failed.c_str());
        for (const test::SeedPair &p : pairs) {
            QVERIFY(test::hasNote(p.after, "searched from 5 of the fast placers'"));
            QVERIFY(!test::hasNote(p.before, "searched from"));
        }
    }

    // The schedule of gdp's race and restarts, step by step: each racing start gets its part of the
    // race's share (at least two iterations), the race ends with its share, a collapse or a stall
    // restarts only after the race, and a rank whose part is not over follows the others.
    void startRaceSchedule()
    {
        using N = StartRace::Next;
        auto alone = [](bool mine) { return mine; };
        // No race: a collapse of 2 iterations in a row restarts, and so does a stall of 3.
        StartRace plain(1, 0.25, 0.0, 2, 3);
        QVERIFY(!plain.racing());
        QCOMPARE(plain.after(1.0, true, 0.1, alone), N::Go);
        QCOMPARE(plain.after(2.0, true, 0.2, alone), N::Restart);
        QCOMPARE(plain.after(2.0, false, 0.3, alone), N::Go); // stalled 1
        QCOMPARE(plain.after(1.5, false, 0.4, alone), N::Go); // stalled 2
        QCOMPARE(plain.after(2.0, false, 0.5, alone), N::Restart);
        QCOMPARE(plain.after(3.0, false, 0.6, alone), N::Go); // better than any before
        QCOMPARE(plain.restarts(), 2);
        // Three starts sharing 0.3 of the budget: parts of 0.1, each of at least two iterations.
        StartRace race(3, 0.3, 0.0, 0, 0);
        QVERIFY(race.racing());
        QCOMPARE(race.current(), size_t(0));
        QCOMPARE(race.after(1.0, false, 0.15, alone), N::Go); // one iteration only
        QCOMPARE(race.after(1.0, false, 0.16, alone), N::NextStart);
        QCOMPARE(race.current(), size_t(1));
        race.startBegan(0.17);
        QCOMPARE(race.after(1.0, false, 0.20, alone), N::Go);
        QCOMPARE(race.after(1.0, false, 0.26, alone), N::Go); // 0.09 of its part
        QCOMPARE(race.after(1.0, false, 0.27, alone), N::NextStart);
        QCOMPARE(race.current(), size_t(2));
        race.startBegan(0.28);
        QCOMPARE(race.after(1.0, false, 0.30, alone), N::Go);
        QCOMPARE(race.after(1.0, false, 0.40, alone), N::Incumbent);
        QVERIFY(!race.racing());
        QCOMPARE(race.raced(), 2);
        QCOMPARE(race.restarts(), 0);
        // The race's share spent before every start had its part: the rest are left out.
        StartRace short_(8, 0.25, 0.1, 0, 0);
        QCOMPARE(short_.after(1.0, false, 0.2, alone), N::Go);
        QCOMPARE(short_.after(1.0, false, 0.4, alone), N::Incumbent);
        QCOMPARE(short_.raced(), 0);
        // During the race a collapse moves on to the next start rather than restarting in place.
        StartRace collapse(4, 0.5, 0.0, 1, 0);
        QCOMPARE(collapse.after(1.0, true, 0.01, alone), N::NextStart);
        QCOMPARE(collapse.restarts(), 0);
        // Another rank's part is over: this one moves on with it, to the same start.
        StartRace follower(4, 0.4, 0.0, 0, 0);
        std::vector<bool> asked;
        auto others = [&](bool mine) {
            asked.push_back(mine);
            return true;
        };
        QCOMPARE(follower.after(1.0, false, 0.01, others), N::Incumbent); // the others say the share is spent
        QCOMPARE(asked, (std::vector<bool>{false, false}));
    }

    // A policy that has collapsed onto one placement, or stalls, starts again from the incumbent:
    // Inception-V3 x 4gpu, 80 iterations, seeds 1-3. With restarts every seed ends at least as
    // well as without, and better on the mean, for the same simulator runs.
    void gdpStartsAgainAfterAStall()
    {
        const test::PresetProblem inception("inception-v3", {}, "4gpu");
        double sum = 0;
        for (uint64_t seed : {1, 2, 3}) {
            RunControl control;
            control.seed = seed;
            auto gdp = [&](const char *stall, const char *collapse) {
                return runPlacer(PlacerRegistry::builtin(), "gdp", inception.problem,
                                 {"iterations=80", "ppo_epochs=1", "race_starts=1",
                                  std::string("stall_restart=") + stall, std::string("restart_after=") + collapse},
                                 control);
            };
            const PlacerResult never = gdp("0", "0"), again = gdp("10", "2");
            qInfo("seed %d: %.4g with restarts, %.4g without", static_cast<int>(seed), again.makespan, never.makespan);
            QVERIFY(never.notes.empty());
            QVERIFY(!again.notes.empty() && QString::fromStdString(again.notes.back()).contains("started again"));
            QCOMPARE(again.evaluations, never.evaluations);
            QVERIFY2(again.makespan <= never.makespan * (1 + 1e-12),
                     qPrintable(QString::number(again.makespan / never.makespan)));
            sum += again.makespan / never.makespan;
        }
        QVERIFY2(sum / 3 < 0.995, qPrintable(QString::number(sum / 3)));
    }

    // The shipped policies: one per device count, found by name, zero-shot on a graph outside
    // their corpus, never worse than the best fast placement they start from; a device count
    // with none is refused with the counts that are shipped.
    void pretrainedPolicies()
    {
        QCOMPARE(pretrainedDeviceCounts("gdp"), (std::vector<int>{2, 4, 8}));
        QCOMPARE(pretrainedDeviceCounts("gap"), (std::vector<int>{2, 4, 8}));
        const Graph g = generate("transformer", {}, 1);
        for (int k : {2, 4, 8}) {
            const Cluster c = gpus(k);
            const Constraints cons = Constraints::fromGraph(g, c);
            const PlacerResult start = bestFastPlacement({g, c, cons, {}});
            const PlacerResult r = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}},
                                             {"checkpoint=pretrained", "iterations=0"}, {});
            QVERIFY2(r.score <= start.score * (1 + 1e-12), qPrintable(QString("%1 devices").arg(k)));
            const Partition parts = runPartitioner(PartitionerRegistry::builtin(), "gap", {g, k, 1.05, {}, {}},
                                                   {"checkpoint=pretrained", "iterations=0"}, {});
            QCOMPARE(static_cast<int>(parts.parts().size()), g.nodeCount());
            QVERIFY(*std::max_element(parts.parts().begin(), parts.parts().end()) < k);
        }
        const Cluster three = gpus(3);
        try {
            runPlacer(PlacerRegistry::builtin(), "gdp", {g, three, Constraints::fromGraph(g, three), {}},
                      {"checkpoint=pretrained"}, {});
            QFAIL("a pretrained policy for 3 devices was found");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("no pretrained gdp policy for 3 devices (shipped: 2, 4, 8"), e.what());
        }
    }

    // The pretrained policy learned its corrections on graphs of at most 2,500 ops. On a larger
    // graph they are scaled down, so that fine-tuning starts from samples near the start (without
    // the scaling, the first samples on GNMT averaged 2.3x the start's makespan).
    void pretrainedGdpStaysNearItsStartOnALargerGraph()
    {
        const Graph g = generate("gnmt", {{"source_steps", 20}, {"target_steps", 20}}, 1);
        QVERIFY(g.nodeCount() > 4000);
        const Cluster c = gpus(4);
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult start = bestFastPlacement({g, c, cons, {}});
        double firstMean = 0;
        RunControl control;
        control.seed = 1;
        control.progress = [&](const Progress &p) {
            if (p.iteration == 0)
                firstMean = p.sampleMean;
        };
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}},
                                         {"checkpoint=pretrained", "iterations=1"}, control);
        qInfo("first samples %.4g ms on average; start %.4g ms", firstMean * 1e3, start.makespan * 1e3);
        QVERIFY(firstMean > 0);
        QVERIFY2(firstMean <= 1.5 * start.makespan, qPrintable(QString::number(firstMean / start.makespan)));
        QVERIFY(test::hasNote(r, "corrections were scaled by"));
    }

    // LibTorch's random state and thread count are process-wide; runs going concurrently must
    // still place exactly as each does alone.
    void concurrentRunsReproduceRunsAlone_data() { addLearnerRows(); }
    void concurrentRunsReproduceRunsAlone()
    {
        QFETCH(QString, model);
        const Graph g = smallGraph();
        const Cluster c = gpus(3);
        const Constraints cons = Constraints::fromGraph(g, c);
        const std::vector<std::string> params = {"iterations=6", "samples=3", "hidden=16", "threads=1"};
        auto run = [&](uint64_t seed) {
            RunControl control;
            control.seed = seed;
            return runPlacer(PlacerRegistry::builtin(), model.toStdString(), {g, c, cons, {}}, params, control)
                .placement.devices();
        };
        const std::vector<int> alone1 = run(1), alone2 = run(2);
        std::vector<int> together1, together2;
        std::thread a([&] { together1 = run(1); });
        std::thread b([&] { together2 = run(2); });
        a.join();
        b.join();
        QCOMPARE(together1, alone1);
        QCOMPARE(together2, alone2);
    }

    // Steering with learned arms, two candidates at a time: replaying the log reproduces every
    // candidate placement for placement (the learners' randomness is per run, not per process).
    void steeringReplayWithLearnedArms()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(3);
        SteeringSettings settings;
        settings.perRound = 4;
        settings.roundEvaluations = 400;
        settings.seed = 5;
        settings.threads = 2;
        settings.searches = 2;
        settings.families = {"heft", "m-etf", "gdp", "giph", "local-search"};
        SteeringSession first(g, c, PlacerRegistry::builtin(), settings);
        int learned = 0;
        for (int r = 0; r < 8 && learned < 2; ++r) {
            first.setRoundEvaluations(400, 16000 - first.evaluationsSpent());
            learned = 0;
            for (int id : first.runRound(RunControl{}))
                learned += first.candidate(id).spec == "gdp" || first.candidate(id).spec == "giph";
            for (const Candidate &cand : first.candidates())
                learned +=
                    cand.round < static_cast<int>(first.rounds().size()) && (cand.spec == "gdp" || cand.spec == "giph");
        }
        QVERIFY2(learned >= 2, qPrintable(QString::number(learned)));
        const std::string path = m_dir.filePath("steer.json").toStdString();
        writeSteeringLog(path, first, g, c, nullptr);
        const SteeringLogDoc doc = readSteeringLog(path);
        SteeringSession again(g, c, PlacerRegistry::builtin(), doc.settings);
        QCOMPARE(doc.roundLeft.size(), doc.roundBudgets.size());
        for (size_t r = 0; r < doc.roundBudgets.size(); ++r) {
            again.setRoundEvaluations(doc.roundBudgets[r], doc.roundLeft[r]);
            again.runRound(RunControl{});
        }
        QCOMPARE(again.candidates().size(), first.candidates().size());
        for (size_t i = 0; i < first.candidates().size(); ++i) {
            const Candidate &a = first.candidates()[i], &b = again.candidates()[i];
            QCOMPARE(b.spec, a.spec);
            QCOMPARE(b.params, a.params);
            QVERIFY2(b.devices == a.devices, (a.spec + " differs on replay").c_str());
            QCOMPARE(b.score, a.score);
        }
    }

    // A learned placer the simulator judges is a steering arm with an evaluation budget: it joins
    // once the best lineages have had their first search, with a quarter of what the session has
    // left (not `iterations`), its later runs go on from the best placement it made, and it is not
    // proposed when its share would be under a thousand runs.
    // Every learned candidate kept its policy in the session's policy directory, and a candidate
    // that goes on from one continues that policy: it runs as gdp given the kept checkpoint does,
    // and a kept file that is not a policy makes it fail, naming the file.
    static void checkContinuesThePolicy(const SteeringSession &session, const Candidate &next, const Graph &g,
                                        const Cluster &c)
    {
        const QDir dir(QString::fromStdString(session.policyDir()));
        int learned = 0;
        for (const Candidate &x : session.candidates())
            learned += x.arm == "gdp";
        QCOMPARE(static_cast<int>(dir.entryList({"policy-*.ckpt"}, QDir::Files).size()), learned);
        const Candidate &from = session.candidate(next.refines);
        const QString kept = dir.filePath(QString("policy-%1.ckpt").arg(from.seed, 16, 16, QChar('0')));
        QFile file(kept);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(kept));
        const QByteArray policy = file.readAll();
        file.close();
        Candidate run = next;
        session.runCandidate(run, RunControl{});
        QVERIFY2(run.error.empty(), run.error.c_str());
        RunControl control;
        control.seed = next.seed;
        const Placement start(from.devices);
        std::vector<std::string> params = next.params;
        params.push_back("checkpoint=" + kept.toStdString());
        const Constraints cons = Constraints::fromGraph(g, c);
        const PlacerResult direct =
            runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, params, control, &start);
        QCOMPARE(run.devices, direct.placement.devices());
        QCOMPARE(run.evaluations, direct.evaluations);
        // Not a policy where the kept one was: the continuation fails and names the file.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("not a policy");
        file.close();
        Candidate broken = next;
        session.runCandidate(broken, RunControl{});
        QVERIFY2(broken.error.find(kept.toStdString()) != std::string::npos, broken.error.c_str());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(policy);
    }

    void steeringGivesLearnedArmsAShareOfWhatIsLeft()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(3);
        SteeringSettings settings;
        settings.perRound = 4;
        settings.seed = 3;
        settings.families = {"heft", "m-etf", "round-robin", "gdp", "local-search"};
        SteeringSession session(g, c, PlacerRegistry::builtin(), settings);
        auto gdpIn = [](const std::vector<Candidate> &batch) {
            return std::find_if(batch.begin(), batch.end(), [](const Candidate &x) { return x.arm == "gdp"; });
        };
        const long long total = 40000;
        int joined = 0;
        for (int round = 1; round <= 6 && !joined; ++round) {
            const long long left = total - session.evaluationsSpent();
            session.setRoundEvaluations(100, left);
            const std::vector<Candidate> next = session.propose();
            const auto gdp = gdpIn(next);
            if (gdp == next.end()) {
                session.runRound(RunControl{});
                continue;
            }
            joined = round;
            QVERIFY2(round > 1, "not before a lineage was searched");
            QVERIFY(std::find(gdp->params.begin(), gdp->params.end(), "evaluations=" + std::to_string(left / 4)) !=
                    gdp->params.end());
            QVERIFY(std::none_of(gdp->params.begin(), gdp->params.end(),
                                 [](const std::string &p) { return p.rfind("iterations=", 0) == 0; }));
            QCOMPARE(gdp->refines, -1); // its first run makes its own warm start
            // The round's progress moves while gdp trains (its iterations), and never goes back.
            std::vector<Progress> reports;
            RunControl watched;
            watched.progress = [&](const Progress &p) { reports.push_back(p); };
            const std::vector<int> ran = session.runRound(watched);
            QVERIFY2(reports.size() > ran.size() + 2, qPrintable(QString::number(reports.size())));
            int during = 0;
            for (size_t i = 0; i < reports.size(); ++i) {
                during += reports[i].message.rfind("gdp: ", 0) == 0;
                if (i > 0)
                    QVERIFY(reports[i].fraction >= reports[i - 1].fraction);
            }
            QVERIFY2(during >= 2, qPrintable(QString::number(during)));
            QCOMPARE(reports.back().fraction, 1.0);
            for (int id : ran)
                if (session.candidate(id).arm == "gdp") {
                    QVERIFY2(session.candidate(id).evaluations <= left / 4 + 1, // + the judgement
                             qPrintable(QString::number(session.candidate(id).evaluations)));
                    // A run that goes on from this one continues its policy.
                    Candidate next = session.candidate(id);
                    next.refines = id;
                    next.seed ^= 0x5A5A;
                    next.params = {"evaluations=300"};
                    checkContinuesThePolicy(session, next, g, c);
                }
        }
        QVERIFY2(joined > 0, "gdp joins within six rounds");
        // Later runs start from gdp's best placement (local search excluded, so that gdp is the
        // only arm that searches).
        SteeringFeedback onlyGdp;
        onlyGdp.familyWeights = {{"local-search", 0.0}};
        session.apply(onlyGdp);
        bool again = false;
        for (int round = 0; round < 12 && !again; ++round) {
            session.setRoundEvaluations(100, total - session.evaluationsSpent());
            const std::vector<Candidate> next = session.propose();
            if (const auto gdp = gdpIn(next); gdp != next.end()) {
                int best = -1; // gdp's best placement (none when it only found known ones)
                for (int id : session.ranking())
                    if (session.candidate(id).arm == "gdp") {
                        best = id;
                        break;
                    }
                QCOMPARE(gdp->refines, best);
                // With the settings of its best run, the first run's defaults here (a random draw
                // for an arm that runs a few times a session wasted its runs).
                int before = 0;
                for (const Candidate &earlier : session.candidates())
                    if (earlier.arm == "gdp") {
                        QCOMPARE(earlier.x, gdp->x);
                        ++before;
                    }
                QVERIFY2(before >= 1, qPrintable(QString::number(before)));
                again = true;
                continue;
            }
            session.runRound(RunControl{});
        }
        QVERIFY(again);
        // With too little left, no learned candidate.
        session.setRoundEvaluations(100, 3000);
        const std::vector<Candidate> late = session.propose();
        QVERIFY(gdpIn(late) == late.end());
        // A session's policies go with it.
        QString policies;
        {
            const SteeringSession other(g, c, PlacerRegistry::builtin(), settings);
            policies = QString::fromStdString(other.policyDir());
            QVERIFY2(QFileInfo(policies).isDir(), qPrintable(policies));
        }
        QVERIFY2(!QFileInfo::exists(policies), qPrintable(policies));
    }

    // rl-seq2seq cannot start from a given placement: its later steering runs make their own
    // start (they went on from its best placement and failed before). With only learned arms
    // weighed in, they are proposed (no refiner is there to screen the lineages first).
    // By default gdp is a steering arm with weight 1 on graphs up to 20,000 ops (where it was
    // measured to pay), with weight 0 above, and the other learned families with weight 0.
    void steeringWeighsGdpInByDefaultUpToALargeGraph()
    {
        const Cluster c = gpus(4);
        auto weightOf = [&](const Graph &g, const std::string &family) {
            const SteeringSession s(g, c, PlacerRegistry::builtin(), SteeringSettings{});
            for (const auto &[name, weight] : s.arms())
                if (name == family)
                    return weight;
            return -1.0;
        };
        const Graph small = generate("layered-random", {{"nodes", 20000.0}}, 1);
        QCOMPARE(small.nodeCount(), 20000);
        QCOMPARE(weightOf(small, "gdp"), 1.0);
        QCOMPARE(weightOf(small, "giph"), 0.0);
        QCOMPARE(weightOf(small, "rl-seq2seq"), 0.0);
        QCOMPARE(weightOf(small, "gap"), 0.0);
        const Graph large = generate("layered-random", {{"nodes", 20001.0}}, 1);
        QCOMPARE(weightOf(large, "gdp"), 0.0);
        SteeringSettings named;
        named.families = {"heft", "gdp"};
        QCOMPARE(SteeringSession(large, c, PlacerRegistry::builtin(), named).arms().back().second, 1.0);
    }

    // gap is a placer too (its partition, part i on device i, then pins, groups and memory), as
    // metis and spectral are: `place`, the Models dock and steering run it. Steering could not
    // (it knew placers only), though its rounds already gave such learned arms a training budget
    // in iterations, doubled each time they place in the top three.
    void gapPlacesAndSteers()
    {
        const Graph g = generate("rnnlm", {{"steps", 4}}, 1);
        const Cluster c = gpus(4);
        Constraints cons = Constraints::fromGraph(g, c);
        cons.pin(3, 2);
        const Placer *gap = PlacerRegistry::builtin().find("gap");
        QVERIFY(gap);
        QVERIFY(gap->info().trains);
        QVERIFY(!gap->info().distributes); // across processes it trains as the partitioner
        const PlacerResult r =
            runPlacer(PlacerRegistry::builtin(), "gap", {g, c, cons, {}}, {"iterations=5", "lr=1.5e-6"}, {});
        QVERIFY(r.feasible);
        QCOMPARE(r.placement.device(3), 2);
        QVERIFY(r.evaluations >= 1);

        SteeringSettings settings;
        settings.perRound = 4;
        settings.seed = 2;
        settings.families = {"heft", "gap"};
        SteeringSession session(g, c, PlacerRegistry::builtin(), settings);
        for (int round = 0; round < 3; ++round)
            session.runRound(RunControl{});
        std::vector<const Candidate *> ran;
        for (const Candidate &x : session.candidates()) {
            QVERIFY2(x.error.empty(), x.error.c_str());
            if (x.arm == "gap")
                ran.push_back(&x);
        }
        QVERIFY2(ran.size() >= 3, qPrintable(QString::number(ran.size())));
        const std::vector<std::string> &first = ran.front()->params; // the defaults, a short training
        QVERIFY(std::count(first.begin(), first.end(), "iterations=4") == 1);
        QVERIFY(std::count(first.begin(), first.end(), "threads=1") == 1);
    }

    void steeringRunsRlSeq2SeqAgainFromItsOwnStart()
    {
        const Graph g = generate("rnnlm", {{"steps", 4}}, 1); // where it finds placements of its own
        const Cluster c = gpus(4);
        SteeringSettings settings;
        settings.perRound = 4;
        settings.seed = 3;
        settings.families = {"heft", "m-etf", "rl-seq2seq", "local-search"};
        SteeringSession session(g, c, PlacerRegistry::builtin(), settings);
        const long long total = 16000; // rl-seq2seq runs a quarter of what is left, at least 1,000
        auto ran = [&] {
            return std::count_if(session.candidates().begin(), session.candidates().end(),
                                 [](const Candidate &x) { return x.arm == "rl-seq2seq"; });
        };
        for (int round = 1; round <= 6 && ran() == 0; ++round) {
            session.setRoundEvaluations(100, total - session.evaluationsSpent());
            session.runRound(RunControl{});
        }
        QCOMPARE(ran(), 1L);
        SteeringFeedback only;
        only.familyWeights = {{"local-search", 0.0}, {"heft", 0.0}, {"m-etf", 0.0}};
        session.apply(only);
        session.setRoundEvaluations(100, total - session.evaluationsSpent());
        const auto own = std::find_if(session.candidates().begin(), session.candidates().end(),
                                      [](const Candidate &x) { return x.arm == "rl-seq2seq"; });
        QVERIFY2(own->duplicateOf < 0, "its first run made a placement of its own");
        for (const Candidate &x : session.propose())
            QCOMPARE(x.refines, -1);
        for (int id : session.runRound(RunControl{})) {
            QCOMPARE(session.candidate(id).arm, std::string("rl-seq2seq"));
            QVERIFY2(session.candidate(id).error.empty(), session.candidate(id).error.c_str());
        }
        QVERIFY(ran() >= 2);
    }

    void opClassesSeparateTheOps()
    {
        // The RNN ops that a hash folded together are apart, and exporters' spellings agree.
        const std::vector<std::string> rnn = {"Sigmoid", "Mul", "MatMul", "Tanh", "Add", "Gather", "Softmax", "Weight"};
        std::set<int> classes;
        for (const std::string &op : rnn)
            classes.insert(learnerOpClass(op));
        QCOMPARE(classes.size(), rnn.size());
        QCOMPARE(learnerOpClass("aten::addmm"), learnerOpClass("Gemm"));
        QCOMPARE(learnerOpClass("aten::_convolution"), learnerOpClass("Conv"));
        QCOMPARE(learnerOpClass("LogSoftmax"), learnerOpClass("Softmax"));
        QCOMPARE(learnerOpClass("ScatterAdd"), learnerOpClass("Gather"));
        QCOMPARE(learnerOpClass("LayerNormalization"), learnerOpClass("BatchNormalization"));
        QCOMPARE(learnerOpClass("Task"), 15);
    }

    void runtimeNamesTheBlas()
    {
        const QString text = QString::fromStdString(learnerRuntime());
        QVERIFY2(text.startsWith("LibTorch ") && text.contains("BLAS: ") && text.contains("intra-op threads: "),
                 qPrintable(text));
    }

    void cudaOnlyWhenPresent()
    {
        const Graph g = smallGraph();
        const Cluster c = gpus(2);
        const Constraints cons = Constraints::fromGraph(g, c);
        std::vector<std::string> params = kQuick;
        params.push_back("device=cuda");
        bool threw = false;
        try {
            runPlacer(PlacerRegistry::builtin(), "gdp", {g, c, cons, {}}, params, {});
        } catch (const InputError &e) {
            threw = true;
            QVERIFY(QString(e.what()).contains("no CUDA GPU"));
        }
        // Without a GPU the request is refused; with one it runs there.
        QCOMPARE(threw, !QProcessEnvironment::systemEnvironment().contains("PS_EXPECT_CUDA"));
    }

    // device=auto: CUDA only with a GPU and a graph large enough for it to pay (the default runs
    // of this suite, on graphs of a few hundred ops, stay on the CPU even where a GPU is present).
    void autoTakesCudaOnlyForLargeGraphs()
    {
        QVERIFY(!autoPicksCuda(true, 1000));
        QVERIFY(!autoPicksCuda(true, kAutoCudaOps - 1));
        QVERIFY(autoPicksCuda(true, kAutoCudaOps));
        QVERIFY(autoPicksCuda(true, 57969));
        QVERIFY(!autoPicksCuda(false, 57969));
    }
};

QTEST_GUILESS_MAIN(TestLearners)
#include "tst_learners.moc"
