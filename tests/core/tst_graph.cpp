// Graph model: canonical ranks with ties, CSR lists, scopes, totals, validation; clusters and
// constraints built from hand-made inputs.
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/GraphBuilder.h"
#include "core/placement/Constraints.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace ps;

namespace {

GraphBuilder::NodeSpec node(const std::string &id, double flops = 0, double out = 0, const std::string &scope = {})
{
    GraphBuilder::NodeSpec s;
    s.id = id;
    s.op = "Op";
    s.flops = flops;
    s.outBytes = out;
    s.scope = scope;
    return s;
}

std::vector<int> ranks(const Graph &g)
{
    std::vector<int> r;
    for (int v = 0; v < g.nodeCount(); ++v)
        r.push_back(g.rank(v));
    return r;
}

QString errorOf(GraphBuilder &b)
{
    try {
        b.build();
    } catch (const InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ranksPreferEarliestReadyNodeInFileOrder()
    {
        // s1 -> t, s2 independent. Kahn with a min-heap takes t (index 1) before s2 (index 2)
        // once s1 is done; a level-by-level order would put s2 first.
        GraphBuilder b;
        b.addNode(node("s1"));
        b.addNode(node("t"));
        b.addNode(node("s2"));
        b.addEdge("s1", "t");
        Graph g = b.build();
        QCOMPARE(ranks(g), (std::vector<int>{0, 1, 2}));
        QCOMPARE(g.topologicalOrder(), (std::vector<int>{0, 1, 2}));
    }

    void ranksWithTiesAndLateSources()
    {
        // File order: x, y, z, w with z -> x and y -> w. Sources y and z tie; y comes first.
        GraphBuilder b;
        for (const char *id : {"x", "y", "z", "w"})
            b.addNode(node(id));
        b.addEdge("z", "x");
        b.addEdge("y", "w");
        Graph g = b.build();
        // y (rank 0) releases w (index 3); z (index 2) still comes before it, then x (index 0)
        // which z released, then w.
        QCOMPARE(ranks(g), (std::vector<int>{2, 0, 1, 3}));
        QCOMPARE(g.topologicalOrder(), (std::vector<int>{1, 2, 0, 3}));
    }

    void diamondRanksAndLevels()
    {
        GraphBuilder b;
        for (const char *id : {"d", "c", "b", "a"})
            b.addNode(node(id));
        b.addEdge("a", "b");
        b.addEdge("a", "c");
        b.addEdge("b", "d");
        b.addEdge("c", "d");
        Graph g = b.build();
        // a is the only source (index 3); then c (index 1) before b (index 2); then d.
        QCOMPARE(ranks(g), (std::vector<int>{3, 1, 2, 0}));
        QCOMPARE(g.level(3), 0);
        QCOMPARE(g.level(0), 2);
        QCOMPARE(g.depth(), 3);
    }

    void parallelEdgesKeepFileOrderAndDefaultBytes()
    {
        GraphBuilder b;
        b.addNode(node("a", 0, 64));
        b.addNode(node("b"));
        b.addNode(node("c"));
        b.addEdge("a", "b", 10.0);
        b.addEdge("a", "c");
        b.addEdge("a", "b"); // parallel, bytes default to a's out_bytes
        Graph g = b.build();
        QCOMPARE(g.edgeCount(), 3);
        auto succ = g.successors(0);
        auto bytes = g.successorBytes(0);
        QCOMPARE(succ.size(), size_t(3));
        QCOMPARE(succ[0], 1);
        QCOMPARE(succ[1], 2);
        QCOMPARE(succ[2], 1);
        QCOMPARE(bytes[0], 10.0);
        QCOMPARE(bytes[2], 64.0);
        QCOMPARE(g.inDegree(1), 2);
        QCOMPARE(g.predecessors(1)[0], 0);
        QCOMPARE(g.totalEdgeBytes(), 10.0 + 64.0 + 64.0);
    }

    void memBytesDefaultAndTotals()
    {
        GraphBuilder b;
        auto n = node("a", 5, 8);
        n.paramBytes = 4;
        b.addNode(n);
        auto m = node("b", 7, 2);
        m.memBytes = 100;
        b.addNode(m);
        Graph g = b.build();
        QCOMPARE(g.memBytes(0), 12.0);
        QCOMPARE(g.memBytes(1), 100.0);
        QCOMPARE(g.totalFlops(), 12.0);
        QCOMPARE(g.totalMemBytes(), 112.0);
        QCOMPARE(g.totalParamBytes(), 4.0);
    }

    void scopeTreeGroupsNodes()
    {
        GraphBuilder b;
        b.addNode(node("a", 1, 0, "enc/layer0/lstm"));
        b.addNode(node("b", 2, 0, "enc/layer1"));
        b.addNode(node("c", 4, 0, "dec//attn/"));
        b.addNode(node("d", 8));
        Graph g = b.build();
        const ScopeTree &t = g.scopes();
        QCOMPARE(t.scopeCount(), 6); // enc, enc/layer0, enc/layer0/lstm, enc/layer1, dec, dec/attn
        int enc = t.find("enc");
        QVERIFY(enc > 0);
        QCOMPARE(t.scope(enc).totalNodes, 2);
        QCOMPARE(t.scope(enc).totalFlops, 3.0);
        QCOMPARE(t.scope(enc).children.size(), size_t(2));
        QCOMPARE(g.scope(2), std::string("dec/attn"));
        QCOMPARE(t.scope(0).totalNodes, 4);
        QCOMPARE(t.scope(0).directNodes, 1);
        QCOMPARE(t.scope(t.find("enc/layer0/lstm")).depth, 3);
    }

    void cycleIsNamed()
    {
        GraphBuilder b;
        for (const char *id : {"in", "p", "q", "r"})
            b.addNode(node(id));
        b.addEdge("in", "p");
        b.addEdge("p", "q");
        b.addEdge("q", "r");
        b.addEdge("r", "p");
        QString e = errorOf(b);
        QVERIFY2(e.startsWith("graph has a cycle: "), qPrintable(e));
        QVERIFY2(e.contains("'p' -> 'q' -> 'r' -> 'p'") || e.contains("'q' -> 'r' -> 'p' -> 'q'") ||
                     e.contains("'r' -> 'p' -> 'q' -> 'r'"),
                 qPrintable(e));
        QVERIFY(!e.contains("'in'"));
    }

    void builderRejectsBadInput_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("duplicate id") << 0 << "duplicate node id 'a'";
        QTest::newRow("negative flops") << 1 << "'flops' of node 'n' must be non-negative";
        QTest::newRow("nan bytes") << 2 << "'out_bytes' of node 'n' must be a finite number";
        QTest::newRow("empty id") << 3 << "empty id";
        QTest::newRow("unknown node") << 4 << "names unknown node 'zz'";
        QTest::newRow("self-loop") << 5 << "self-loop on 'a'";
        QTest::newRow("infinite compute_s") << 6 << "'compute_s.gpu' of node 'n' must be a finite";
        QTest::newRow("negative edge bytes") << 7 << "edge #0: 'bytes' must be non-negative";
        // Text that is not UTF-8 (a Latin-1 byte, an overlong '/', a surrogate): JSON written from it
        // would not read back.
        QTest::newRow("latin-1 id") << 8 << "the node id is not UTF-8 text ('caf\\xE9', byte 0xE9 at position 3)";
        QTest::newRow("overlong scope")
            << 9 << "the scope of node 'n' is not UTF-8 text ('a\\xC0\\xAF', byte 0xC0 at position 1)";
        QTest::newRow("surrogate op")
            << 10 << "the op of node 'n' is not UTF-8 text ('x\\xED\\xA0\\x80', byte 0xED at position 1)";
    }

    void builderRejectsBadInput()
    {
        QFETCH(int, which);
        QFETCH(QString, fragment);
        GraphBuilder b;
        QString message;
        try {
            b.addNode(node("a"));
            auto n = node(which == 3 ? "" : which == 0 ? "a" : which == 8 ? "caf\xE9" : "n");
            if (which == 9)
                n.scope = "a\xC0\xAF";
            if (which == 10)
                n.op = "x\xED\xA0\x80";
            if (which == 1)
                n.flops = -1;
            if (which == 2)
                n.outBytes = std::numeric_limits<double>::quiet_NaN();
            if (which == 6)
                n.computeS = {{"gpu", std::numeric_limits<double>::infinity()}};
            b.addNode(n);
            if (which == 4)
                b.addEdge("a", "zz");
            if (which == 5)
                b.addEdge("a", "a");
            if (which == 7)
                b.addEdge("a", "n", -3.0);
            b.build();
        } catch (const InputError &e) {
            message = e.what();
        }
        QVERIFY2(message.contains(fragment), qPrintable(message));
    }

    void clusterLinksOverrideInOrder()
    {
        ClusterBuilder b("c");
        for (const char *name : {"g0", "g1", "g2"})
            b.addDevice({name, "gpu", 1e12, 1e9, 0});
        b.addLink("g0", "g1", {5e10, 1e-6}, true);
        b.addLink("g1", "g0", {1e9, 2e-6}, false);  // overrides only g1 -> g0
        b.addLink("g2", "g0", {5e10, 1e-5}, false); // g0 -> g1's bandwidth, the default's latency
        b.addLink("g2", "g1", {1e10, 1e-5}, false); // the default's values, written out
        b.setDefaultLink({1e10, 1e-5});
        const Cluster built = b.build();
        const Cluster c = built; // a copy shares the links and reads the same
        QCOMPARE(c.link(0, 1).bandwidthBytesPerS, 5e10);
        QCOMPARE(c.link(0, 1).latencyS, 1e-6);
        QCOMPARE(c.link(1, 0).bandwidthBytesPerS, 1e9);
        QCOMPARE(c.link(1, 0).latencyS, 2e-6);
        QCOMPARE(c.link(2, 0).bandwidthBytesPerS, 5e10);
        QCOMPARE(c.link(2, 0).latencyS, 1e-5);
        QCOMPARE(c.link(2, 1).bandwidthBytesPerS, 1e10);
        QCOMPARE(c.link(0, 2).bandwidthBytesPerS, 1e10);
        QCOMPARE(c.link(2, 1).latencyS, 1e-5);
        QCOMPARE(&c.link(1, 2), &built.link(1, 2));
        QCOMPARE(c.totalFlopsPerS(), 3e12);
        // Names are found through an index (a scan per link end took seconds on a million links).
        QCOMPARE(c.findDevice("g2"), 2);
        QCOMPARE(c.findDevice("g0"), 0);
        QCOMPARE(c.findDevice("g3"), -1);
        QCOMPARE(c.findDevice(""), -1);
        QCOMPARE(Cluster().findDevice("g0"), -1);
        ClusterBuilder again("d");
        again.addDevice({"x", "gpu", 1e12, 1e9, 0});
        QVERIFY_THROWS_EXCEPTION(InputError, again.addDevice({"x", "gpu", 1e12, 1e9, 0}));
        QVERIFY_THROWS_EXCEPTION(InputError, again.addLink("x", "y", {1e10, 0}));
        try {
            again.addLink("y", "x", {1e10, 0});
        } catch (const InputError &e) {
            QCOMPARE(QString(e.what()), QString("link 'y'->'x' names unknown device 'y'"));
        }
        try {
            again.addDevice({"y", "gpu", 1e12, 1e9, 0});
            again.addLink("x", "y", {-1, 0});
            QFAIL("a negative bandwidth was taken");
        } catch (const InputError &e) {
            // "must be positive", as for 0 (it said "non-negative", which 0 is and is refused)
            QCOMPARE(QString(e.what()), QString("'bandwidth_bytes_per_s' of link 'x'->'y' must be positive"));
        }
    }

    // The builder remembers the device each link end named last and tries the one after it
    // before its map (a cluster with every pair took 147 ms to build, 14 ms so): names in any
    // order, repeated, skipped back, unknown among known ones, still find their devices.
    void linkNamesResolveInAnyOrder()
    {
        ClusterBuilder b("order");
        for (int d = 0; d < 5; ++d)
            b.addDevice({"d" + std::to_string(d), "gpu", 1e12, 1e9, 0});
        const std::vector<std::pair<int, int>> pairs = {{0, 1}, {0, 2}, {0, 4}, {0, 3}, {3, 1},
                                                        {1, 0}, {4, 3}, {4, 0}, {2, 3}, {2, 4}};
        for (size_t i = 0; i < pairs.size(); ++i) {
            const auto [a, c] = pairs[i];
            b.addLink("d" + std::to_string(a), "d" + std::to_string(c), {1e9 * (i + 1), 0}, false);
            if (i == 4) {
                try {
                    b.addLink("d3", "d5", {1, 0}, false);
                    QFAIL("an unknown device was taken");
                } catch (const InputError &e) {
                    QCOMPARE(QString(e.what()), QString("link 'd3'->'d5' names unknown device 'd5'"));
                }
            }
        }
        b.setDefaultLink({1, 0});
        const Cluster c = b.build();
        for (size_t i = 0; i < pairs.size(); ++i)
            QCOMPARE(c.link(pairs[i].first, pairs[i].second).bandwidthBytesPerS, 1e9 * (i + 1));
        QCOMPARE(c.link(1, 2).bandwidthBytesPerS, 1.0);
    }

    void clusterWithoutDefaultNeedsEveryPair()
    {
        ClusterBuilder b;
        b.addDevice({"a", "gpu", 1, 1, 0});
        b.addDevice({"b", "gpu", 1, 1, 0});
        b.addLink("a", "b", {1, 0}, false);
        QString message;
        try {
            b.build();
        } catch (const InputError &e) {
            message = e.what();
        }
        QCOMPARE(message, QString("no link 'b'->'a' and no default_link"));
    }

    void constraintsResolvePinsAndGroups()
    {
        GraphBuilder gb;
        auto a = node("a");
        a.pin = "gpu:1";
        auto b = node("b");
        b.pin = "tpu:0";
        b.colocate = "g";
        auto c = node("c");
        c.colocate = "g";
        gb.addNode(a);
        gb.addNode(b);
        gb.addNode(c);
        Graph g = gb.build();
        ClusterBuilder cb;
        cb.addDevice({"gpu:0", "gpu", 1, 1, 0});
        cb.addDevice({"gpu:1", "gpu", 1, 1, 0});
        cb.setDefaultLink({1, 0});
        Cluster cl = cb.build();
        Constraints k = Constraints::fromGraph(g, cl);
        QCOMPARE(k.pinnedDevice(0), 1);
        QCOMPARE(k.pinnedDevice(1), Constraints::kUnknownDevice);
        QCOMPARE(k.pinnedDevice(2), Constraints::kNotPinned);
        QCOMPARE(k.unknownPins(), std::vector<int>{1});
        QCOMPARE(k.groupCount(), 1);
        QCOMPARE(k.groupMembers(0), (std::vector<int>{1, 2}));
        QCOMPARE(k.groupOf(0), -1);
    }
};

QTEST_GUILESS_MAIN(TestGraph)
#include "tst_graph.moc"
