// METIS and the spectral (oASIS + Nystrom + k-means) partitioner on graphs with a known best
// partition, their balance, and the METIS view of a graph; the rebalancing and cut refinements
// (single-node, multilevel, relaxed) any partition can take.
#include "core/family/ChildProcess.h"
#include "core/family/Stopwatch.h"
#include "core/generators/Generators.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/GraphJson.h"
#include "core/partitioners/MetisGraph.h"
#include "core/partitioners/PartitionRefinement.h"
#include "core/partitioners/Partitioner.h"
#include "core/partitioners/SpectralPartitioner.h"
#include "core/sim/PartitionMetrics.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <unistd.h>

using namespace ps;

namespace {

// `blocks` cliques of `size` nodes (edges of 100 bytes), joined in a ring by single edges of
// 1 byte: the best partition into `blocks` parts cuts exactly the ring.
// A chain of ops PREFIX0, PREFIX1, ... of these FLOPs, 10 bytes on each edge.
Graph chainOf(const std::vector<double> &flops, const std::string &prefix = "n")
{
    GraphBuilder b("chain");
    for (size_t i = 0; i < flops.size(); ++i) {
        GraphBuilder::NodeSpec s;
        s.id = prefix + std::to_string(i);
        s.op = "Op";
        s.flops = flops[i];
        b.addNode(s);
        if (i > 0)
            b.addEdge(static_cast<int>(i) - 1, static_cast<int>(i), 10.0);
    }
    return b.build();
}

Graph cliqueRing(int blocks, int size)
{
    GraphBuilder b("ring");
    for (int i = 0; i < blocks * size; ++i) {
        GraphBuilder::NodeSpec s;
        s.id = "v" + std::to_string(i);
        s.op = "Op";
        s.flops = 10;
        b.addNode(s);
    }
    for (int k = 0; k < blocks; ++k)
        for (int i = 0; i < size; ++i)
            for (int j = i + 1; j < size; ++j)
                b.addEdge(k * size + i, k * size + j, 100.0);
    for (int k = 0; k + 1 < blocks; ++k)
        b.addEdge(k * size + size - 1, (k + 1) * size, 1.0);
    return b.build();
}

Partition partition(const std::string &model, const Graph &g, int k, std::vector<std::string> params = {})
{
    PartitionProblem problem{g, k, 1.03, {}, {}};
    return runPartitioner(PartitionerRegistry::builtin(), model, problem, params, RunControl{});
}

bool blocksIntact(const Partition &p, int blocks, int size)
{
    std::set<int> used;
    for (int k = 0; k < blocks; ++k) {
        for (int i = 1; i < size; ++i)
            if (p.part(k * size + i) != p.part(k * size))
                return false;
        used.insert(p.part(k * size));
    }
    return static_cast<int>(used.size()) == blocks;
}

} // namespace

class TestPartitioners : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void metisGraphMergesAndWeighs()
    {
        GraphBuilder b;
        for (const char *id : {"a", "b", "c"}) {
            GraphBuilder::NodeSpec s;
            s.id = id;
            s.op = "Op";
            s.flops = 3;
            s.outBytes = 5;
            b.addNode(s);
        }
        b.addEdge("a", "b", 2.0);
        b.addEdge("a", "b", 3.0); // parallel: merged
        b.addEdge("b", "c");      // 5 bytes by default
        MetisGraph m = buildMetisGraph(b.build(), true);
        QCOMPARE(m.edges(), 2LL);
        QCOMPARE(m.constraints, 2);
        QCOMPARE(m.xadj, (std::vector<int32_t>{0, 1, 3, 4}));
        QCOMPARE(m.adjwgt[0], 5); // a-b: 2 + 3
        QCOMPARE(m.vwgt, (std::vector<int32_t>{3, 5, 3, 5, 3, 5}));
    }

    void bothFindTheCliques_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("metis") << "metis";
        QTest::newRow("metis recursive") << "metis:recursive";
        QTest::newRow("spectral") << "spectral";
    }

    void bothFindTheCliques()
    {
        QFETCH(QString, model);
        const int blocks = 4, size = 12;
        const Graph g = cliqueRing(blocks, size);
        std::vector<std::string> params;
        std::string name = model.toStdString();
        if (name == "metis:recursive") {
            name = "metis";
            params = {"method=recursive"};
        }
        Partition p = partition(name, g, blocks, params);
        QVERIFY(blocksIntact(p, blocks, size));
        PartitionMetrics m = partitionMetrics(g, p.parts(), p.k());
        QCOMPARE(m.edgeCut, 3.0); // only the ring edges
        QCOMPARE(m.imbalance, 1.0);
    }

    void refinementMovesBoundaryNodesHome()
    {
        // Two cliques of 4 (edges of 100 bytes) joined by one edge of 1 byte; nodes 0 and 7 start
        // in each other's clique: the cut is 3 * 100 * 2 + 1 = 601, the best 1.
        const Graph g = cliqueRing(2, 4);
        const UndirectedGraph view = undirectedView(g);
        const std::vector<int> start{1, 0, 0, 0, 1, 1, 1, 0};
        QCOMPARE(partitionMetrics(view, start, 2).edgeCut, 601.0);
        // At tolerance 1 both parts are full (4 of 4 nodes): no move fits, nothing changes.
        std::vector<int> parts = start;
        QCOMPARE(refineCut(view, parts, 2, 1.0, 100), 0LL);
        QCOMPARE(parts, start);
        // At 1.25 a part may hold 5: node 0 goes home (+1 node in part 0), then node 7.
        QCOMPARE(refineCut(view, parts, 2, 1.25, 100), 2LL);
        QCOMPARE(parts, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
        QCOMPARE(partitionMetrics(view, parts, 2).edgeCut, 1.0);
        // The move budget is honoured.
        parts = start;
        QCOMPARE(refineCut(view, parts, 2, 1.25, 1), 1LL);
        QCOMPARE(partitionMetrics(view, parts, 2).edgeCut, 301.0);
        // A stop is asked before each pass: one that says so from the start changes nothing.
        parts = start;
        QCOMPARE(refineCut(view, parts, 2, 1.25, 100, {}, [] { return true; }), 0LL);
        QCOMPARE(parts, start);

        // And every 4,096 nodes weighed or moves tried within a pass (a pass over 200,000 nodes took
        // seconds past a time limit): stopped there, the pass keeps its best prefix and refinement
        // ends, the cut no higher than before.
        const Graph big = ps::generate("layered-random", std::map<std::string, double>{{"nodes", 20000}}, 1);
        const UndirectedGraph bigView = undirectedView(big);
        std::vector<int> chunks = topologicalChunks(big, 4);
        const double before = partitionMetrics(bigView, chunks, 4).edgeCut;
        for (int answerYesAt : {2, 4, 8}) {
            std::vector<int> refined = chunks;
            int asked = 0;
            refineCut(bigView, refined, 4, 1.05, 1000000, {}, [&] { return ++asked >= answerYesAt; });
            QCOMPARE(asked, answerYesAt);
            QVERIFY(partitionMetrics(bigView, refined, 4).edgeCut <= before);
        }
    }

    void refinementNeverRaisesTheCutNorBreaksTheTolerance()
    {
        const Graph g = cliqueRing(6, 10);
        const UndirectedGraph view = undirectedView(g);
        std::mt19937 rng(7);
        for (int k : {2, 3, 6}) {
            std::vector<int> parts(g.nodeCount());
            for (int v = 0; v < g.nodeCount(); ++v)
                parts[v] = v % k; // balanced, and a poor cut
            std::shuffle(parts.begin(), parts.end(), rng);
            const double before = partitionMetrics(view, parts, k).edgeCut;
            QVERIFY(refineCut(view, parts, k, 1.2, 1000000) > 0);
            const PartitionMetrics after = partitionMetrics(view, parts, k);
            QVERIFY2(after.edgeCut < before / 2, qPrintable(QString::number(after.edgeCut)));
            QVERIFY2(after.imbalance <= 1.2 + 1e-12, qPrintable(QString::number(after.imbalance)));
        }
    }

    void multilevelRefinementMovesWhatSingleNodesCannot_data()
    {
        QTest::addColumn<QString>("graph");
        QTest::newRow("inception-v3") << "inception-v3";
        QTest::newRow("resnet-50") << "resnet-50";
    }

    void multilevelRefinementMovesWhatSingleNodesCannot()
    {
        // A fragmented start (runs of 5 ops of the topological order dealt to the 4 parts in turn,
        // rebalanced to 1.05): single-node FM stops where moving one op of a run raises the cut;
        // the coarse levels move whole runs (measured: cuts 24-28% below FM's), and relaxing the
        // tolerance first lets runs that a full part holds in place move (another 52-66% below).
        QFETCH(QString, graph);
        const Graph g = ps::generate(graph.toStdString(), std::map<std::string, double>{}, 1);
        const UndirectedGraph view = undirectedView(g);
        const int k = 4;
        const double tolerance = 1.05;
        std::vector<int> start(g.nodeCount());
        for (int v = 0; v < g.nodeCount(); ++v)
            start[v] = (v / 5) % k;
        rebalanceParts(view, start, k, tolerance);
        const PartitionMetrics before = partitionMetrics(view, start, k);
        QVERIFY(before.imbalance <= tolerance);

        std::vector<int> flat = start, multilevel = start, relaxed = start;
        refineCut(view, flat, k, tolerance, 1000000);
        QVERIFY(refineCutMultilevel(view, multilevel, k, tolerance, 1000000, 7) > 0);
        const double relaxedCut = refinePartition(view, relaxed, k, tolerance, 1000000, 7);
        const PartitionMetrics f = partitionMetrics(view, flat, k), m = partitionMetrics(view, multilevel, k),
                               r = partitionMetrics(view, relaxed, k);
        QCOMPARE(relaxedCut, r.edgeCut);
        const QString cuts = QString("start %1, FM %2, multilevel %3, relaxed %4")
                                 .arg(before.edgeCut)
                                 .arg(f.edgeCut)
                                 .arg(m.edgeCut)
                                 .arg(r.edgeCut);
        QVERIFY2(m.edgeCut < 0.85 * f.edgeCut, qPrintable(cuts));
        QVERIFY2(r.edgeCut < 0.6 * m.edgeCut, qPrintable(cuts));
        for (const PartitionMetrics *x : {&m, &r})
            QVERIFY2(x->imbalance <= tolerance + 1e-12, qPrintable(QString::number(x->imbalance)));

        // The same seed gives the same partition; a partition refinement cannot improve stays.
        std::vector<int> again = start;
        refinePartition(view, again, k, tolerance, 1000000, 7);
        QCOMPARE(again, relaxed);
        QCOMPARE(refinePartition(view, again, k, tolerance, 1000000, 7), r.edgeCut);
        QCOMPARE(again, relaxed);
    }

    void metisRefinedHoldsItsSharesAndCutsLess()
    {
        // The 8-layer RNN LM in four parts of 40/20/20/20% of the FLOPs: with refine=true each part
        // stays within 1.05 of its share and the cut is below METIS's own (measured 3.1x lower
        // with equal shares).
        const Graph g = ps::generate("rnnlm", std::map<std::string, double>{{"layers", 8}, {"steps", 30}}, 1);
        const UndirectedGraph view = undirectedView(g);
        const std::vector<double> shares{0.4, 0.2, 0.2, 0.2};
        PartitionProblem problem{g, 4, 1.05, shares, {}};
        const auto run = [&](std::vector<std::string> params) {
            return runPartitioner(PartitionerRegistry::builtin(), "metis", problem, params, RunControl{});
        };
        const Partition plain = run({}), refined = run({"refine=true"});
        const PartitionMetrics p = partitionMetrics(view, plain.parts(), 4),
                               r = partitionMetrics(view, refined.parts(), 4);
        QVERIFY2(r.edgeCut < p.edgeCut, qPrintable(QString("%1 -> %2").arg(p.edgeCut).arg(r.edgeCut)));
        double total = 0;
        for (double w : r.partWeights)
            total += w;
        for (int q = 0; q < 4; ++q)
            QVERIFY2(r.partWeights[q] <= 1.05 * shares[q] * total * (1 + 1e-12),
                     qPrintable(QString("part %1: %2 of %3").arg(q).arg(r.partWeights[q] / total).arg(shares[q])));
    }

    void rebalancingEmptiesTheHeavyPart()
    {
        // Everything in part 0 of 2: the heavy part gives away nodes (those whose move adds the
        // least cut first) until it holds at most 1.25 * 8 / 2 = 5.
        const Graph g = cliqueRing(2, 4);
        const UndirectedGraph view = undirectedView(g);
        std::vector<int> parts(8, 0);
        rebalanceParts(view, parts, 2, 1.25);
        const PartitionMetrics m = partitionMetrics(view, parts, 2);
        QVERIFY2(m.imbalance <= 1.25, qPrintable(QString::number(m.imbalance)));
        QCOMPARE(std::count(parts.begin(), parts.end(), 1), 3L);
        // A stop that says so from the start (a spent deadline) leaves the parts as they were;
        // one that never does is asked before each round and changes nothing of the result.
        std::vector<int> stopped(8, 0);
        rebalanceParts(view, stopped, 2, 1.25, {}, [] { return true; });
        QCOMPARE(stopped, std::vector<int>(8, 0));
        std::vector<int> asked(8, 0);
        int questions = 0;
        rebalanceParts(view, asked, 2, 1.25, {}, [&] { return ++questions < 0; });
        QCOMPARE(asked, parts);
        QCOMPARE(questions, 2); // the round that moves three nodes, and the one that finds part 0 light enough
        // Within a round, every 4,096 nodes weighed (a round over 175,000 nodes took most of a second
        // past a time limit): stopped there, the parts stay as they were.
        const Graph big = ps::generate("layered-random", std::map<std::string, double>{{"nodes", 20000}}, 1);
        std::vector<int> onePart(static_cast<size_t>(big.nodeCount()), 0);
        int bigQuestions = 0;
        rebalanceParts(undirectedView(big), onePart, 4, 1.05, {}, [&] { return ++bigQuestions >= 2; });
        QCOMPARE(bigQuestions, 2);
        QVERIFY(std::all_of(onePart.begin(), onePart.end(), [](int p) { return p == 0; }));

        // rebalanceAndRefine's steps: rebalancing alone gives the same parts (and no cut); refining
        // alone keeps every node in part 0 (a move out of it would only add cut); both give a cut.
        std::vector<int> rebalancedOnly(8, 0), refinedOnly(8, 0), both(8, 0);
        QCOMPARE(rebalanceAndRefine(view, rebalancedOnly, 2, 1.25, {}, {}, {true, false}), 0.0);
        QCOMPARE(rebalancedOnly, parts);
        QCOMPARE(rebalanceAndRefine(view, refinedOnly, 2, 1.25, {}, {}, {false, true}), 0.0);
        QCOMPARE(refinedOnly, std::vector<int>(8, 0));
        QVERIFY(rebalanceAndRefine(view, both, 2, 1.25, {}, {}, {}) > 0);
        QVERIFY(partitionMetrics(view, both, 2).imbalance <= 1.25);
        // Its progress ends at 1 also when it runs fewer rounds than refinePartition's eight (one
        // round stood at 12% when the run ended), and never goes back.
        const UndirectedGraph bigView = undirectedView(big);
        std::vector<int> scattered(static_cast<size_t>(big.nodeCount()));
        for (size_t v = 0; v < scattered.size(); ++v)
            scattered[v] = static_cast<int>((v * 7) % 4); // a poor cut, so the round runs all its trials
        std::vector<double> fractions;
        RunControl control;
        control.progress = [&](const Progress &p) { fractions.push_back(p.fraction); };
        RepairSteps oneRound;
        oneRound.rounds = 1;
        rebalanceAndRefine(bigView, scattered, 4, 1.05, control, {}, oneRound);
        QVERIFY(!fractions.empty());
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
    }

    void rebalancingMovesNodesThatFitNowhereWhereTheyLeaveLessLoad()
    {
        // Three nodes of 3 in part 0, one of 1 in each other part: total 12, each part may hold
        // 1.03 * 3 = 3.09, so a node of 3 fits nowhere (1 + 3 > 3.09). Such a node still goes to
        // the part it leaves least loaded if that stays under the heavy part: node 0 to part 1
        // (4 < 9), node 1 to part 2 (4 < 6); part 0 then holds 3 and is within its limit. Parts 1
        // and 2 are then the heavy ones, and their own nodes of 1 fit in part 3. Before, nothing
        // moved and part 0 kept 9 (GAP's parts of GNMT-58k on 4,096 GPUs stayed at 628 times the
        // mean, where the heaviest op allows 2.515).
        UndirectedGraph view;
        view.nodeWeight = {3, 3, 3, 1, 1, 1};
        std::vector<int> parts{0, 0, 0, 1, 2, 3};
        rebalanceParts(view, parts, 4, 1.03);
        QCOMPARE(parts, (std::vector<int>{1, 2, 0, 3, 3, 3}));
        QCOMPARE(partitionMetrics(view, parts, 4).imbalance, 1.0);
        // A move that would leave its part as heavy as the heavy one was does not happen: two
        // nodes of 3 and 2.5 in part 0, one of 3 in part 1 (limit 1.03 * 4.25 = 4.3775): the 2.5
        // would make part 1 5.5, not under 5.5.
        UndirectedGraph pair;
        pair.nodeWeight = {3, 2.5, 3};
        std::vector<int> two{0, 0, 1};
        rebalanceParts(pair, two, 2, 1.03);
        QCOMPARE(two, (std::vector<int>{0, 0, 1}));
    }

    void rebalancingPicksTheLightestPartThatFitsAmongThoseNotReached()
    {
        // Part 0 holds a0, a1, a2 (weight 1 each), part 1 b0 (1), part 2 c0 (0.5), part 3 d0
        // (0.25); each a is tied to b0 by 5, a0 to a1 by 1. Total 4.75; at tolerance 1.5 * 4 /
        // 4.75 each part may hold 1.5. Part 1, the only one an a reaches, is full (1 + 1 > 1.5):
        // an a goes to a part it has no edge to, the lightest that fits. a2 (no edge inside part
        // 0, the cheapest) goes to part 3 (0.25 < 0.5); part 3 is full then, and a0 (before a1 at
        // the same cost) goes to part 2. Part 0 then holds 1.
        UndirectedGraph view;
        view.nodeWeight = {1, 1, 1, 1, 0.5, 0.25};
        view.edges = {{0, 3, 5}, {1, 3, 5}, {2, 3, 5}, {0, 1, 1}};
        std::vector<int> parts{0, 0, 0, 1, 2, 3};
        rebalanceParts(view, parts, 4, 1.5 * 4 / 4.75);
        QCOMPARE(parts, (std::vector<int>{2, 0, 3, 1, 2, 3}));
        // With shares 0.35, 0.2, 0.35, 0.1 the limits are 1.6625, 0.95, 1.6625, 0.475 (tolerance
        // 1): part 3 is the lightest but too small for an a, part 2 heavier but large enough. a2
        // goes there; then nothing fits anywhere (part 0 stays over, as documented).
        parts = {0, 0, 0, 1, 2, 3};
        rebalanceParts(view, parts, 4, 1.0, {0.35, 0.2, 0.35, 0.1});
        QCOMPARE(parts, (std::vector<int>{0, 0, 2, 1, 2, 3}));
        // The first case again with 36 more parts, each holding a node of 1.4 that leaves no room
        // for an a, and c0 of 0.4 (so that an a fits beside it with room to spare): past 32 parts
        // the lightest is found through the parts kept in order of weight.
        UndirectedGraph wide = view;
        wide.nodeWeight[4] = 0.4;
        std::vector<int> start{0, 0, 0, 1, 2, 3};
        for (int j = 0; j < 36; ++j) {
            wide.nodeWeight.push_back(1.4);
            start.push_back(4 + j);
        }
        const double total = 4.65 + 36 * 1.4;
        parts = start;
        rebalanceParts(wide, parts, 40, 1.5 * 40 / total);
        std::vector<int> expected = start;
        expected[0] = 2;
        expected[2] = 3;
        QCOMPARE(parts, expected);
    }

    void spectralEmbeddingSeparatesComponents()
    {
        // Three cliques without any link: the top three eigenvectors are the indicators, so
        // every clique maps to one point and different cliques to different points.
        GraphBuilder b;
        for (int i = 0; i < 30; ++i) {
            GraphBuilder::NodeSpec s;
            s.id = "v" + std::to_string(i);
            s.op = "Op";
            b.addNode(s);
        }
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 10; ++i)
                for (int j = i + 1; j < 10; ++j)
                    b.addEdge(10 * k + i, 10 * k + j, 1.0);
        const Graph g = b.build();
        Eigen::MatrixXd e = spectralEmbedding(g, 3, 20, 2, 7, RunControl{});
        for (int i = 0; i < 30; ++i)
            e.row(i) /= e.row(i).norm();
        for (int k = 0; k < 3; ++k)
            for (int i = 1; i < 10; ++i)
                QVERIFY((e.row(10 * k + i) - e.row(10 * k)).norm() < 1e-6);
        QVERIFY((e.row(0) - e.row(10)).norm() > 0.5);
        QVERIFY((e.row(10) - e.row(20)).norm() > 0.5);
    }

    void kMeansStopsOnceTheCostHolds()
    {
        // 4 spots with 17 points on each, and 36 centres: seeding puts a centre on each spot (the
        // cost is 0 then) and the rest on spots already taken, about 9 a spot. A spot's points
        // go to its lowest-numbered centre, which becomes their mean, a rounding error off the
        // spot; the next pass sends them to the next centre still on the spot, and so on through
        // the spot's centres, every pass "changing" 17 points at a cost of 0 up to rounding (on
        // the 11.6k-op GNMT in 4,096 parts: 50 passes, 42 s a restart). That the cost did not
        // fall ends it after one more pass. `stop` is asked once per seeded centre, once per
        // part weighed for balance and once a pass: 36 + 36 + the passes.
        Eigen::MatrixXd points(68, 3);
        for (int i = 0; i < 68; ++i)
            points.row(i) = Eigen::RowVector3d(0.1 * (i % 4) + 0.03, 0.7 / (1 + i % 4), 1.0 / 3);
        int asked = 0;
        const std::vector<int> parts =
            kMeans(points, std::vector<double>(68, 1.0), 36, std::vector<double>(36, 68.0), 1, 1000, 7, [&] {
                ++asked;
                return false;
            });
        QVERIFY2(asked <= 36 + 36 + 3, qPrintable(QString("stop asked %1 times").arg(asked)));
        for (int i = 4; i < 68; ++i)
            QCOMPARE(parts[i], parts[i % 4]); // the points of a spot share a part
    }

    void spectralHonoursTheImbalanceTolerance()
    {
        // A chain has no cluster structure: k-means alone would be uneven; the balance pass
        // must bring every part within 3% of the mean.
        GraphBuilder b;
        for (int i = 0; i < 400; ++i) {
            GraphBuilder::NodeSpec s;
            s.id = "v" + std::to_string(i);
            s.op = "Op";
            s.flops = 1 + i % 7;
            b.addNode(s);
            if (i > 0)
                b.addEdge(i - 1, i, 10.0);
        }
        const Graph g = b.build();
        Partition p = partition("spectral", g, 5);
        PartitionMetrics m = partitionMetrics(g, p.parts(), p.k());
        QVERIFY2(m.imbalance <= 1.03 + 1e-9, qPrintable(QString::number(m.imbalance)));
        QCOMPARE(p.partsUsed(), 5);
        QVERIFY(p.notes.empty());

        // Stopped before the balance pass (a cancel from the start; GNMT-58k in 64 parts under 1 s
        // left a part at 9.8 times the mean), the topological order's runs take over, with a note.
        std::atomic<bool> cancel{true};
        RunControl stopped;
        stopped.cancel = &cancel;
        const Partition cut =
            runPartitioner(PartitionerRegistry::builtin(), "spectral", {g, 5, 1.03, {}, {}}, {}, stopped);
        QVERIFY2(partitionMetrics(g, cut.parts(), 5).imbalance <= 1.03 + 1e-9,
                 qPrintable(QString::number(partitionMetrics(g, cut.parts(), 5).imbalance)));
        QCOMPARE(cut.parts(), topologicalChunks(g, 5));
        QCOMPARE(cut.notes.size(), size_t(1));
        QVERIFY(cut.notes[0].find("spectral: stopped (time limit or cancel) with a part at") != std::string::npos);

        // Where k-means's balancing pass ends far over the tolerance (it moves a node only to a
        // centroid with room: VGG-16 at k = 4, 1.434; the MoE at k = 32, 8.87), the parts are
        // rebalanced, and a note says so (1.075 and 1.267; VGG-16's three heaviest ops allow no
        // better than METIS's 1.075 there).
        const Graph vgg = generate("vgg-16", {}, 1);
        const Partition v = partition("spectral", vgg, 4);
        const double imbalance = partitionMetrics(vgg, v.parts(), 4).imbalance;
        QVERIFY2(imbalance < 1.08, qPrintable(QString::number(imbalance)));
        QCOMPARE(v.notes.size(), size_t(2)); // then the imbalance over the tolerance, as for any family
        QVERIFY2(QString(v.notes[0].c_str())
                     .startsWith("spectral: k-means's parts were at imbalance 1.434, over the 1.03 asked for; "
                                 "rebalanced to 1.07"),
                 v.notes[0].c_str());
    }

    void errors()
    {
        const Graph g = cliqueRing(2, 3);
        auto error = [&](const std::string &model, int k, std::vector<std::string> params) {
            try {
                partition(model, g, k, params);
            } catch (const std::exception &e) {
                return QString(e.what());
            }
            return QString();
        };
        QVERIFY(error("kahip", 2, {}).contains("unknown partitioner 'kahip' (known: metis, spectral)"));
        QVERIFY(error("metis", 0, {}).contains("k must be from 1"));
        QVERIFY(error("metis", 2, {"method=fast"}).contains("must be one of its choices"));
        QCOMPARE(partition("metis", g, 1).partsUsed(), 1);
    }

    // A partition over its tolerance says so, and whether any partition could meet it: METIS and
    // spectral handed back imbalances of 1.05-2.09 at the default 1.03 without a word.
    void partitionsOverTheToleranceSaySo()
    {
        const Graph g = chainOf({1, 1, 1, 1, 12}); // 16 in all, 8 an even half: the 12 alone is 1.5 of it
        const Graph even = chainOf({1, 1, 1, 1, 1, 1, 1, 1});
        for (const char *model : {"metis", "spectral"}) {
            const Partition p = runPartitioner(PartitionerRegistry::builtin(), model, {g, 2, 1.03, {}, {}}, {}, {});
            QVERIFY2(!p.notes.empty(), model);
            // (METIS puts this 5-op chain in one part, imbalance 2, whatever the tolerance.)
            const QString note = QString::fromStdString(p.notes.back());
            QVERIFY2(note.startsWith("imbalance ") &&
                         note.endsWith(" is over the tolerance 1.03: op 'n4' alone is 1.5 times an even part, so no "
                                       "partition into 2 parts meets it"),
                     p.notes.back().c_str());
            if (std::string(model) == "metis")
                QCOMPARE(p.notes.front(), std::string("metis: no partition meets the tolerance 1.03; METIS was asked "
                                                      "for 1.545, 3% over the least any partition allows"));
            // Five equal ops in 2 parts: 3 share one in any partition, 1.2 times an even part. The
            // note said "no single op forces it", as if a partition within 1.03 might exist.
            const Graph five = chainOf({1, 1, 1, 1, 1});
            QCOMPARE(leastImbalance(five, 2), 1.2);
            const Partition odd =
                runPartitioner(PartitionerRegistry::builtin(), model, {five, 2, 1.03, {}, {}}, {}, {});
            QCOMPARE(odd.notes.back(), std::string("imbalance 1.2 is over the tolerance 1.03: in any partition into 2 "
                                                   "parts, 3 of the 5 heaviest ops share a part of at least 1.2 times "
                                                   "an even one, so none meets it"));
            // Within the tolerance: nothing to say.
            const Partition halves =
                runPartitioner(PartitionerRegistry::builtin(), model, {even, 2, 1.03, {}, {}}, {}, {});
            QVERIFY2(halves.notes.empty(), halves.notes.empty() ? "" : halves.notes.front().c_str());
        }
        // The Transformer at k = 8: its output projection alone is 2.086 of an even part. Given 1.03,
        // METIS gave up on balance and cut 2.5x more (234.9 MB against 92.3 MB at the same 2.088);
        // now it is asked for 3% over 2.086, as a person who knew would ask.
        const Graph t = generate("transformer", {}, 1);
        const double least = leastImbalance(t, 8);
        QVERIFY2(least > 2.08 && least < 2.09, qPrintable(QString::number(least)));
        const Partition asked = runPartitioner(PartitionerRegistry::builtin(), "metis", {t, 8, 1.03, {}, {}}, {}, {});
        const Partition relaxed =
            runPartitioner(PartitionerRegistry::builtin(), "metis", {t, 8, least * 1.03, {}, {}}, {}, {});
        QCOMPARE(asked.parts(), relaxed.parts());
        QVERIFY(partitionMetrics(t, asked.parts(), 8).imbalance <= least * 1.03);
    }

    // METIS's parts over the tolerance it was asked for are rebalanced and refined (a round of
    // refine=true), and a note says so: on the built-in example at k = 4 METIS used 2 parts at
    // 2.48, over the 1.444 it was asked for (1.402 is the least any partition allows); on
    // ResNet-50 at k = 4 it used all four at 1.086, over 1.03. Within what it was asked for
    // (the example at k = 8), or where the rebalanced parts are over it still and cut more (the
    // example at k = 2), METIS's parts stand.
    void metisPartsOverTheirToleranceAreRebalanced()
    {
        const auto noted = [](const Partition &p, const std::string &note) {
            return std::find(p.notes.begin(), p.notes.end(), note) != p.notes.end();
        };
        const auto metis = [](const Graph &g, int k, std::vector<std::string> params = {}) {
            return runPartitioner(PartitionerRegistry::builtin(), "metis", {g, k, 1.03, {}, {}}, params, {});
        };
        const Graph g = readGraphJson(std::string(PS_SOURCE_DIR) + "/resources/examples/inception_block.graph.json");
        const Partition p = metis(g, 4);
        QVERIFY(p.partsUsed() >= 3);
        const double imbalance = partitionMetrics(g, p.parts(), 4).imbalance;
        QVERIFY2(imbalance <= leastImbalance(g, 4) * 1.03, qPrintable(QString::number(imbalance)));
        QVERIFY(noted(p, "metis: METIS left 2 of 4 parts empty and the rest over 1.444; rebalanced and refined (a "
                         "round of refine=true)"));
        for (const std::string &n : metis(g, 8).notes)
            QVERIFY2(n.find("rebalanced") == std::string::npos, n.c_str());

        const Graph r = generate("resnet-50", {}, 1);
        const Partition resnet = metis(r, 4);
        const PartitionMetrics m = partitionMetrics(r, resnet.parts(), 4);
        QVERIFY2(m.imbalance <= 1.03, qPrintable(QString::number(m.imbalance)));
        QVERIFY(noted(resnet, "metis: METIS's parts were at imbalance 1.086, over the 1.03 it was asked for; "
                              "rebalanced and refined (a round of refine=true)"));
        // refine=true runs every round: never a larger cut than one round's.
        QVERIFY(partitionMetrics(r, metis(r, 4, {"refine=true"}).parts(), 4).edgeCut <= m.edgeCut);

        const Partition two = metis(g, 2);
        QVERIFY(noted(two, "metis: METIS's parts were at imbalance 1.168, over the 1.15 it was asked for; rebalanced "
                           "and refined (a round of refine=true), which were over it still and cut more, so METIS's "
                           "parts stand"));
        QCOMPARE(partitionMetrics(g, two.parts(), 2).edgeCut, 26542080.0);
    }

    // METIS cannot be interrupted, so with a time limit or a cancel it runs in a child process
    // (it ran 2.7 s on GNMT-58k x 2,048 devices under a 0.5 s limit): the same parts as in this
    // process, and a stop before it finishes gives runs of the topological order sized to the
    // shares, said in a note.
    void metisInAChildProcessGivesTheSamePartsAndStops()
    {
        const Graph g = generate("inception-v3", {}, 1);
        const PartitionProblem problem{g, 8, 1.03, {}, {}};
        const Partition inProcess = runPartitioner(PartitionerRegistry::builtin(), "metis", problem, {}, RunControl{});
        std::atomic<bool> cancel{false};
        RunControl timed, cancellable;
        timed.budget.timeLimitS = 1000;
        cancellable.cancel = &cancel;
        for (const RunControl *control : {&timed, &cancellable}) {
            const Partition child = runPartitioner(PartitionerRegistry::builtin(), "metis", problem, {}, *control);
            QCOMPARE(child.parts(), inProcess.parts());
            QCOMPARE(child.notes, inProcess.notes); // no stop note (the imbalance is noted in both)
        }
        // A chain of FLOPs 1, 2, 3, 1, 2, 3 in 3 equal shares (4 each): an op joins the next run
        // once more than half of it would pass its run's end (4, then 8).
        const Graph chain = chainOf({1, 2, 3, 1, 2, 3}, "c");
        cancel = true;
        const Partition stopped =
            runPartitioner(PartitionerRegistry::builtin(), "metis", {chain, 3, 1.03, {}, {}}, {}, cancellable);
        QCOMPARE(stopped.parts(), (std::vector<int>{0, 0, 1, 1, 1, 2}));
        QCOMPARE(stopped.notes.size(), size_t(2));
        QVERIFY2(QString(stopped.notes[0].c_str()).startsWith("metis: stopped (time limit or cancel) after "),
                 stopped.notes[0].c_str());
        // Parts of 3, 6 and 3 FLOPs against an even 4: over the tolerance, though no op forces it.
        QCOMPARE(stopped.notes[1], std::string("imbalance 1.5 is over the tolerance 1.03 (no single op forces it)"));
        const Partition shared = runPartitioner(PartitionerRegistry::builtin(), "metis",
                                                {chain, 3, 1.03, {0.5, 0.25, 0.25}, {}}, {}, cancellable);
        QCOMPARE(shared.parts(), (std::vector<int>{0, 0, 0, 1, 1, 2}));
        // A long call reports the time it has taken, twice a second (GNMT-58k in 2,048 parts with
        // memory balanced too, as the placer asks: 2.7 s, where nothing was reported before the end).
        const Graph gnmt = generate("gnmt", {{"source_steps", 250}, {"target_steps", 250}}, 1);
        RunControl watched;
        watched.budget.timeLimitS = 600; // a tenth of it is 60 s: 2.7 s alone, over 6 s beside other tests
        std::vector<Progress> reports;
        watched.progress = [&](const Progress &p) { reports.push_back(p); };
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<double> equal(2048, 1.0 / 2048);
        runPartitioner(PartitionerRegistry::builtin(), "metis", {gnmt, 2048, 1.03, equal, equal}, {}, watched);
        const double wall = secondsSince(t0);
        QVERIFY2(static_cast<double>(reports.size()) >= std::floor(wall / 0.5) - 2,
                 qPrintable(QString("%1 reports in %2 s").arg(reports.size()).arg(wall)));
        QVERIFY(!reports.empty());
        QVERIFY2(QString(reports.back().message.c_str()).startsWith("METIS (2048 parts): "),
                 reports.back().message.c_str());
        QVERIFY(reports.back().fraction > 0 && reports.back().fraction < 0.1);
    }

    void childProcessReturnsItsResultOrErrorAndIsKilledOnStop()
    {
        const auto never = [] { return false; };
        std::vector<int32_t> many(1000000); // more than a pipe holds: read while it is written
        std::iota(many.begin(), many.end(), -5);
        QCOMPARE(*runInChildProcess([&] { return many; }, never), many);
        QCOMPARE(*runInChildProcess([] { return std::vector<int32_t>{}; }, never), std::vector<int32_t>{});
        auto failure = [&](const std::function<std::vector<int32_t>()> &work) {
            try {
                runInChildProcess(work, never);
            } catch (const std::runtime_error &e) {
                return QString(e.what());
            }
            return QString("no error");
        };
        QCOMPARE(failure([]() -> std::vector<int32_t> { throw std::invalid_argument("METIS failed with status -4"); }),
                 QString("METIS failed with status -4"));
        const QString killed = failure([]() -> std::vector<int32_t> {
            ::kill(::getpid(), SIGKILL);
            return {};
        });
        QVERIFY2(killed.startsWith("a child process died of signal 9"), qPrintable(killed));
        const auto t0 = std::chrono::steady_clock::now();
        const auto stopped = runInChildProcess(
            [] {
                ::sleep(30);
                return std::vector<int32_t>{1};
            },
            [&] { return secondsSince(t0) > 0.05; });
        QVERIFY(!stopped);
        QVERIFY2(secondsSince(t0) < 5, "the child was not killed on stop");
    }
};

QTEST_GUILESS_MAIN(TestPartitioners)
#include "tst_partitioners.moc"
