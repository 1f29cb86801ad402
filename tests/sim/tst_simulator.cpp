// The simulator on hand-computed cases: transfers, link contention, one copy per device,
// the critical path, the bounded (cutoff) run, violations and the penalized makespan.
#include "core/cluster/Cluster.h"
#include "core/generators/LayeredRandomGenerator.h"
#include "core/graph/GraphBuilder.h"
#include "core/sim/CostModel.h"
#include "core/sim/Simulator.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace ps;

namespace {

Cluster twoDevices(double memory = 1e9)
{
    ClusterBuilder b;
    b.addDevice({"d0", "gpu", 1e12, memory, 0});
    b.addDevice({"d1", "gpu", 1e12, memory, 0});
    b.setDefaultLink({1e9, 1e-5});
    return b.build();
}

GraphBuilder::NodeSpec op(const std::string &id, double flops, double out = 0)
{
    GraphBuilder::NodeSpec s;
    s.id = id;
    s.op = "Op";
    s.flops = flops;
    s.outBytes = out;
    return s;
}

// A layered random DAG and four devices of two speeds, for incremental runs against full ones.
Graph randomDag(int nodes, unsigned seed)
{
    LayeredRandomParams params;
    params.nodes = nodes;
    params.outDegree = 2.5;
    params.ccr = 1.0;
    params.seed = seed;
    return generateLayeredRandom(params);
}

ClusterBuilder fourDevices()
{
    ClusterBuilder b;
    for (int d = 0; d < 4; ++d)
        b.addDevice({"d" + std::to_string(d), "gpu", 1e12 * (1 + d % 2), 1e12, 2e-6});
    b.setDefaultLink({5e9, 1e-5});
    return b;
}

// A move for incremental runs: one node, or two (a swap) when `pair`, each to another device.
std::pair<std::vector<int>, std::vector<int>> randomMove(std::mt19937 &rng, const std::vector<int> &base, bool pair)
{
    std::vector<int> moved = base;
    std::vector<int> changed = {static_cast<int>(rng() % base.size())};
    if (pair)
        changed.push_back(static_cast<int>(rng() % base.size()));
    for (int v : changed)
        moved[v] = (moved[v] + 1 + rng() % 3) % 4;
    return {moved, changed};
}

} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void chainAcrossTwoDevices()
    {
        GraphBuilder b;
        b.addNode(op("a", 1e9, 1e6));
        b.addNode(op("b", 1e9));
        b.addEdge("a", "b");
        Graph g = b.build();
        Cluster c = twoDevices();
        Simulator sim(g, c);
        Schedule s = sim.simulate(std::vector<int>{0, 1});
        const double a = 1e9 / 1e12;
        const double arrival = a + (1e-5 + 1e6 / 1e9);
        QCOMPARE(s.finish[0], a);
        QCOMPARE(s.start[1], arrival);
        QCOMPARE(s.makespan, arrival + a);
        QCOMPARE(s.transferCount, 1LL);
        QCOMPARE(s.movedBytes, 1e6);
        QCOMPARE(s.transfers.size(), size_t(1));
        QCOMPARE(s.transfers[0].start, a);
        QCOMPARE(s.transfers[0].end, arrival);
        // b, the transfer, a
        QCOMPARE(s.criticalPath.size(), size_t(3));
        QCOMPARE(s.criticalPath[0].kind, CriticalStep::Op);
        QCOMPARE(s.criticalPath[0].index, 1);
        QCOMPARE(s.criticalPath[1].kind, CriticalStep::TransferStep);
        QCOMPARE(s.criticalPath[2].index, 0);
        // On one device the edge is free.
        QCOMPARE(sim.makespan({0, 0}), a + a);
        // The bound: critical path 2 ms, work 2e9 / 2e12 = 1 ms.
        QCOMPARE(s.lowerBound.criticalPath, a + a);
        QCOMPARE(s.lowerBound.work, 2e9 / 2e12);
        QCOMPARE(s.ratio(), s.makespan / (a + a));
    }

    void oneCopyPerDestinationDeviceAndLinkContention()
    {
        // u feeds x and y on d1 (one copy, the larger edge); v feeds z on d1 after u's copy.
        GraphBuilder b;
        b.addNode(op("u", 1e9, 1e6));
        b.addNode(op("v", 1e9, 2e6));
        b.addNode(op("x", 0));
        b.addNode(op("y", 0));
        b.addNode(op("z", 0));
        b.addEdge("u", "x", 1e6);
        b.addEdge("u", "y", 3e6);
        b.addEdge("v", "z");
        Graph g = b.build();
        Cluster c = twoDevices();
        Simulator sim(g, c);
        Schedule s = sim.simulate(std::vector<int>{0, 0, 1, 1, 1});
        QCOMPARE(s.transferCount, 2LL);
        QCOMPARE(s.movedBytes, 3e6 + 2e6);
        const double uDone = 1e-3, vDone = uDone + 1e-3;
        const double uArrives = uDone + (1e-5 + 3e6 / 1e9); // 4.01 ms: the link is busy past vDone
        QCOMPARE(s.transfers[0].end, uArrives);
        QCOMPARE(s.transfers[1].start, uArrives); // v's copy waited for the link
        const double vArrives = uArrives + (1e-5 + 2e6 / 1e9);
        QCOMPARE(s.start[4], vArrives);
        QCOMPARE(s.makespan, vArrives);
        QVERIFY(vDone < uArrives);
        // Critical path: z, v's transfer, u's transfer (link wait), u.
        QCOMPARE(s.criticalPath.size(), size_t(4));
        QCOMPARE(s.criticalPath[2].kind, CriticalStep::TransferStep);
        QCOMPARE(s.criticalPath[3].index, 0);
    }

    void readyOpsRunInReadyThenRankOrder()
    {
        GraphBuilder b;
        b.addNode(op("late", 1e9));
        b.addNode(op("early", 1e9));
        b.addNode(op("third", 1e9));
        Graph g = b.build();
        Cluster c = twoDevices();
        Simulator sim(g, c);
        Schedule s = sim.simulate(std::vector<int>{0, 0, 0});
        QCOMPARE(s.start[0], 0.0); // rank 0 first
        QCOMPARE(s.start[1], 1e-3);
        QCOMPARE(s.start[2], 2e-3);
        QCOMPARE(s.busy[0], 1e-3 + 1e-3 + 1e-3);
        // Critical path: third waited for the device after early, which waited after late.
        QCOMPARE(s.criticalPath.size(), size_t(3));
        QCOMPARE(s.criticalPath[1].index, 1);
    }

    void cutoffStopsEarly()
    {
        GraphBuilder b;
        for (int i = 0; i < 10; ++i)
            b.addNode(op("n" + std::to_string(i), 1e9));
        Graph g = b.build();
        Cluster c = twoDevices();
        Simulator sim(g, c);
        std::vector<int> all0(10, 0);
        const double full = sim.makespan(all0);
        QCOMPARE(sim.makespan(all0, full), full);
        QVERIFY(std::isinf(sim.makespan(all0, full * 0.5)));
        QCOMPARE(sim.evaluations(), 3LL);
    }

    void incrementalRunsAgreeWithFullRuns()
    {
        const Graph g = randomDag(3000, 11);
        ClusterBuilder b = fourDevices();
        b.addLink("d0", "d1", {2e10, 1e-6}, false);
        const Cluster c = b.build();
        Simulator sim(g, c);
        std::mt19937 rng(5);
        std::vector<int> base(g.nodeCount());
        for (int &d : base)
            d = rng() % 4;
        const double baseMakespan = sim.setIncrementalBase(base, 12);
        QCOMPARE(baseMakespan, Simulator(g, c).makespan(base)); // the base run is a judgement too
        int resumed = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const auto [moved, changed] = randomMove(rng, base, trial % 3 == 0);
            const long long before = sim.evaluations();
            const double incremental = sim.makespanChanged(moved, changed);
            QCOMPARE(sim.evaluations(), before + 1);
            const double full = sim.makespan(moved);
            QCOMPARE(incremental, full); // bit for bit
            // A cutoff below the result stops early; one above does not.
            QVERIFY(std::isinf(sim.makespanChanged(moved, changed, full * 0.999)));
            QCOMPARE(sim.makespanChanged(moved, changed, full), full);
            resumed += g.inDegree(changed[0]) > 0;
        }
        QVERIFY(resumed > 200);
        // Changing the base re-takes the snapshots.
        base[7] = (base[7] + 1) % 4;
        sim.setIncrementalBase(base, 4);
        std::vector<int> again = base;
        again[100] = (again[100] + 2) % 4;
        QCOMPARE(sim.makespanChanged(again, {100}), sim.makespan(again));
    }

    void manyDevicesRunExactly()
    {
        // 300 devices of three kinds: links are kept only for the pairs that carried a transfer
        // and reset per run (90,000 pairs cost every run before, and 40 bytes each), and the
        // bound takes its minima over the kinds. Every run must still equal a fresh simulator's,
        // incremental runs a full one's, and the bound the minimum over every device.
        const Graph g = randomDag(2000, 21);
        ClusterBuilder b;
        for (int d = 0; d < 300; ++d)
            b.addDevice(
                {"d" + std::to_string(d), d % 3 == 2 ? "cpu" : "gpu", 1e12 * (1 + d % 3), 1e12, 2e-6 * (d % 2)});
        b.setDefaultLink({5e9, 1e-5});
        b.addLink("d0", "d7", {2e10, 1e-6}, false);
        const Cluster c = b.build();
        Simulator sim(g, c);
        std::mt19937 rng(9);
        std::vector<int> place(g.nodeCount());
        for (int trial = 0; trial < 6; ++trial) {
            for (int &d : place)
                d = static_cast<int>(rng() % (trial % 2 ? 300 : 8)); // many pairs, then few
            QCOMPARE(sim.makespan(place), Simulator(g, c).makespan(place));
        }
        sim.setIncrementalBase(place, 8);
        for (int trial = 0; trial < 40; ++trial) {
            const auto [moved, changed] = randomMove(rng, place, trial % 2 == 0);
            QCOMPARE(sim.makespanChanged(moved, changed), Simulator(g, c).makespan(moved));
        }
        const CostModel costs(g, c);
        QCOMPARE(static_cast<int>(costs.distinctDevices().size()), 6); // 3 speeds x 2 overheads
        // The list schedulers' mean compute, taken over the kinds weighed by their counts, is
        // the mean over every device (to rounding). One more CPU makes the counts unequal.
        ClusterBuilder ub;
        for (int d = 0; d <= 300; ++d)
            ub.addDevice(
                {"d" + std::to_string(d), d % 3 == 2 ? "cpu" : "gpu", 1e12 * (1 + d % 3), 1e12, 2e-6 * (d % 2)});
        ub.setDefaultLink({5e9, 1e-5});
        const Cluster uneven = ub.build();
        const CostModel unevenCosts(g, uneven);
        for (int v = 0; v < g.nodeCount(); v += 97) {
            double sum = 0;
            for (int d = 0; d < uneven.deviceCount(); ++d)
                sum += unevenCosts.compute(v, d);
            QVERIFY(std::fabs(unevenCosts.meanCompute(v) - sum / uneven.deviceCount()) <= 1e-12 * sum);
        }
        double work = 0;
        for (int v = 0; v < g.nodeCount(); ++v) {
            double best = std::numeric_limits<double>::infinity();
            for (int d = 0; d < c.deviceCount(); ++d)
                best = std::min(best, costs.compute(v, d) * c.device(d).flopsPerS);
            work += best;
        }
        QCOMPARE(computeLowerBound(g, c).work, work / c.totalFlopsPerS());
    }

    void cutoffsChangeNothingButTheEnd()
    {
        // A run stops early once its device work or a chain of compute must pass the cutoff; its
        // answer must still be the makespan exactly when that is at most the cutoff, else +inf.
        const Graph g = randomDag(1500, 13);
        const Cluster c = fourDevices().build();
        Simulator sim(g, c);
        std::mt19937 rng(3);
        for (int trial = 0; trial < 60; ++trial) {
            std::vector<int> place(g.nodeCount());
            for (int &d : place)
                d = trial % 4 == 0 ? 0 : static_cast<int>(rng() % 4); // one device: all work on one
            const double m = sim.makespan(place);
            for (double cutoff : {m, std::nextafter(m, 0.0), m * 0.999, m * 0.5, m * 1.001}) {
                const double r = sim.makespan(place, cutoff);
                if (m <= cutoff)
                    QCOMPARE(r, m);
                else
                    QVERIFY2(std::isinf(r), "a run past its cutoff must say so");
            }
            sim.setIncrementalBase(place, 8);
            std::vector<int> moved = place;
            const int v = static_cast<int>(rng() % g.nodeCount());
            moved[v] = (moved[v] + 1) % 4;
            const double mm = Simulator(g, c).makespan(moved);
            QCOMPARE(sim.makespanChanged(moved, {v}, mm), mm);
            QVERIFY(std::isinf(sim.makespanChanged(moved, {v}, std::nextafter(mm, 0.0))));
        }
    }

    void acceptedMovesStayExact()
    {
        // A walk of accepted moves, each made the base by acceptChanged (one run, from where the
        // move's run resumed): every result must still equal a full run's, bit for bit.
        const Graph g = randomDag(2000, 12);
        const Cluster c = fourDevices().build();
        Simulator sim(g, c), full(g, c);
        std::mt19937 rng(7);
        std::vector<int> base(g.nodeCount());
        for (int &d : base)
            d = rng() % 4;
        sim.setIncrementalBase(base, 16);
        int accepted = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const auto [moved, changed] = randomMove(rng, base, trial % 5 == 0);
            const double incremental = sim.makespanChanged(moved, changed);
            QCOMPARE(incremental, full.makespan(moved));
            if (trial % 3 != 0)
                continue;
            const long long before = sim.evaluations();
            QCOMPARE(sim.acceptChanged(moved, changed), incremental);
            QCOMPARE(sim.evaluations(), before + 1);
            QCOMPARE(sim.lastMovedBytes(), full.simulate(moved).movedBytes);
            base = moved;
            ++accepted;
        }
        QVERIFY(accepted > 100);
        // A run that stopped at its cutoff cannot become the base, nor can one accepted already.
        std::vector<int> moved = base;
        moved[5] = (moved[5] + 1) % 4;
        const double m = full.makespan(moved);
        QVERIFY(std::isinf(sim.makespanChanged(moved, {5}, m * 0.5)));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, sim.acceptChanged(moved, {5}));
        QCOMPARE(sim.makespanChanged(moved, {5}), m);
        sim.acceptChanged(moved, {5});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, sim.acceptChanged(moved, {5}));
    }

    void violationsAndPenalty()
    {
        GraphBuilder b;
        auto a = op("a", 1, 600);
        a.pin = "d1";
        a.colocate = "g";
        auto x = op("x", 1, 600);
        x.colocate = "g";
        auto p = op("p", 1, 0);
        p.pin = "nowhere";
        b.addNode(a);
        b.addNode(x);
        b.addNode(p);
        Graph g = b.build();
        Cluster c = twoDevices(1000);
        Simulator sim(g, c);
        Schedule s = sim.simulate(std::vector<int>{0, 0, 1});
        QCOMPARE(s.memory[0], 1200.0);
        QVERIFY(!s.feasible);
        QCOMPARE(s.violations, (std::vector<std::string>{"memory:d0", "pin:a", "pin:p"}));
        Schedule split = sim.simulate(std::vector<int>{1, 0, 1});
        QCOMPARE(split.violations, (std::vector<std::string>{"pin:p", "colocate:g"}));
        // 200 bytes over of 2000: x (1 + 10 * 0.1) = 2x.
        QCOMPARE(penalizedMakespan(3.0, c, s.memory), 3.0 * (1 + 10 * 200.0 / 2000.0));
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
