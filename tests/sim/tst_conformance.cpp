// The simulator and the partition metrics agree with the spec's oracle (reference_sim.py) on
// hundreds of random cases: DAGs with ties, zero-cost ops, parallel edges, compute_s overrides,
// op overheads, asymmetric links, zero-duration transfers, pins, colocation and memory limits.
#include "common/TestFiles.h"

#include "core/io/FileKind.h"
#include "core/sim/PartitionMetrics.h"
#include "core/sim/Simulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <random>

using namespace ps;

namespace {

constexpr int kSimulationCases = 240;
constexpr int kPartitionCases = 60;

struct Case
{
    QByteArray graph, cluster, placement, partition;
};

template <typename T>
T pick(std::mt19937 &rng, std::initializer_list<T> options)
{
    std::uniform_int_distribution<size_t> d(0, options.size() - 1);
    return *(options.begin() + d(rng));
}

QByteArray dump(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

Case randomCase(unsigned seed)
{
    std::mt19937 rng(seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto below = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };

    const int k = 1 + below(4);
    QJsonArray devices;
    QStringList names;
    for (int d = 0; d < k; ++d) {
        names << QString("dev%1").arg(d);
        QJsonObject dev{{"name", names.back()},
                        {"type", chance(0.7) ? "gpu" : "cpu"},
                        {"flops_per_s", pick(rng, {1e12, 2e12, 3e12})},
                        {"memory_bytes", pick(rng, {5e6, 2e7, 1e9})}};
        if (chance(0.5))
            dev["op_overhead_s"] = pick(rng, {0.0, 5e-6, 1e-4});
        devices.append(dev);
    }
    QJsonArray links;
    for (int i = 0; i < below(4) && k > 1; ++i) {
        int a = below(k), b = below(k);
        if (a == b)
            continue;
        QJsonObject l{{"src", names[a]},
                      {"dst", names[b]},
                      {"bandwidth_bytes_per_s", pick(rng, {1e9, 4e9, 1e10})},
                      {"latency_s", pick(rng, {0.0, 1e-5, 3e-4})}};
        if (chance(0.6))
            l["bidirectional"] = false; // asymmetric
        links.append(l);
    }
    QJsonObject cluster{{"format", "placement-cluster"},
                        {"version", 1},
                        {"devices", devices},
                        {"links", links},
                        {"default_link", QJsonObject{{"bandwidth_bytes_per_s", pick(rng, {1e9, 1e10})},
                                                     {"latency_s", pick(rng, {0.0, 1e-5})}}}};

    const int n = 1 + below(40);
    std::vector<int> topo(n);
    for (int i = 0; i < n; ++i)
        topo[i] = i;
    std::shuffle(topo.begin(), topo.end(), rng); // file order is not a topological order
    QJsonArray nodes;
    for (int v = 0; v < n; ++v) {
        QJsonObject node{{"id", QString("n%1").arg(v)}, {"op", "Op"}};
        const double flops = pick(rng, {0.0, 0.0, 1e9, 2e9, 3e9, 1.7e9});
        if (flops > 0 || chance(0.5))
            node["flops"] = flops;
        if (chance(0.8))
            node["out_bytes"] = pick(rng, {0.0, 1e6, 4e6, 3.3e6});
        if (chance(0.3))
            node["param_bytes"] = pick(rng, {1e6, 8e6});
        if (chance(0.15))
            node["mem_bytes"] = pick(rng, {0.0, 2e6});
        if (chance(0.25))
            node["compute_s"] = QJsonObject{{pick(rng, {"gpu", "cpu", "tpu"}), pick(rng, {0.0, 1e-3, 2e-3})}};
        if (chance(0.08))
            node["pin"] = chance(0.8) ? names[below(k)] : QString("tpu:9");
        if (chance(0.1))
            node["colocate"] = pick(rng, {"g1", "g2"});
        nodes.append(node);
    }
    QJsonArray edges;
    const double density = pick(rng, {0.05, 0.15, 0.4});
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (chance(density)) {
                const int copies = chance(0.1) ? 2 : 1; // parallel edges
                for (int c = 0; c < copies; ++c) {
                    QJsonObject e{{"src", QString("n%1").arg(topo[a])}, {"dst", QString("n%1").arg(topo[b])}};
                    if (chance(0.5))
                        e["bytes"] = pick(rng, {0.0, 5e5, 2e6, 1e6});
                    edges.append(e);
                }
            }
    QJsonObject graph{
        {"format", "placement-graph"}, {"version", 1}, {"name", "case"}, {"nodes", nodes}, {"edges", edges}};

    QJsonObject assignment, parts;
    const int partsK = 1 + below(5);
    for (int v = 0; v < n; ++v) {
        assignment[QString("n%1").arg(v)] = names[below(k)];
        parts[QString("n%1").arg(v)] = below(partsK);
    }
    return {dump(graph), dump(cluster), dump({{"format", "placement"}, {"version", 1}, {"assignment", assignment}}),
            dump({{"format", "partition"}, {"version", 1}, {"k", partsK}, {"parts", parts}})};
}

bool close(double ours, double theirs)
{
    return ours == theirs || std::fabs(ours - theirs) <= 1e-9 * std::max(std::fabs(ours), std::fabs(theirs));
}

// Runs the oracle's own command line for every case in one Python process.
const char *kDriver = R"(
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
import reference_sim
results = []
for line in open(sys.argv[2]):
    argv = ["reference_sim.py"] + line.split()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = reference_sim.main(argv)
    results.append({"rc": rc, "out": json.loads(out.getvalue()) if rc == 0 else None})
json.dump(results, open(sys.argv[3], "w"))
)";

} // namespace

class TestConformance : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QJsonArray m_oracle;
    int m_exact = 0, m_compared = 0;

    std::string path(const QString &name) { return m_dir.filePath(name).toStdString(); }

    void expectClose(double ours, const QJsonValue &theirs, const QString &what)
    {
        ++m_compared;
        if (ours == theirs.toDouble())
            ++m_exact;
        QVERIFY2(
            close(ours, theirs.toDouble()),
            qPrintable(
                QString("%1: ours %2, oracle %3").arg(what).arg(ours, 0, 'g', 17).arg(theirs.toDouble(), 0, 'g', 17)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!test::oracleAvailable())
            QSKIP("python3 or ../shared/spec/reference_sim.py not present");
        QByteArray commands;
        for (int i = 0; i < kSimulationCases; ++i) {
            Case c = randomCase(1000 + i);
            const QString base = QString("case%1").arg(i);
            test::writeFile(m_dir, base + ".graph.json", c.graph);
            test::writeFile(m_dir, base + ".cluster.json", c.cluster);
            test::writeFile(m_dir, base + ".placement.json", c.placement);
            test::writeFile(m_dir, base + ".partition.json", c.partition);
            commands += QString("simulate %1.graph.json %1.cluster.json %1.placement.json\n")
                            .arg(m_dir.filePath(base))
                            .toUtf8();
        }
        for (int i = 0; i < kPartitionCases; ++i)
            commands += QString("partition %1.graph.json %1.partition.json\n")
                            .arg(m_dir.filePath(QString("case%1").arg(i)))
                            .toUtf8();
        const std::string list = test::writeFile(m_dir, "commands.txt", commands);
        const std::string driver = test::writeFile(m_dir, "driver.py", kDriver);
        const QString oracleDir = QFileInfo(PS_ORACLE_PATH).absolutePath();
        auto r = test::runProgram(
            "python3",
            {QString::fromStdString(driver), oracleDir, QString::fromStdString(list), m_dir.filePath("oracle.json")},
            300000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        m_oracle = QJsonDocument::fromJson(test::readFile(path("oracle.json"))).array();
        QCOMPARE(m_oracle.size(), kSimulationCases + kPartitionCases);
    }

    void simulationMatchesOracle()
    {
        int infeasible = 0, withTransfers = 0, withPinViolation = 0;
        for (int i = 0; i < kSimulationCases; ++i) {
            const QString base = QString("case%1").arg(i);
            const QJsonObject ref = m_oracle[i].toObject();
            QCOMPARE(ref["rc"].toInt(), 0);
            const QJsonObject o = ref["out"].toObject();
            Graph g = loadGraph(path(base + ".graph.json"));
            Cluster c = *loadFile(path(base + ".cluster.json")).cluster;
            Placement p = resolvePlacement(*loadFile(path(base + ".placement.json")).placement, g, c);
            Simulator sim(g, c);
            Schedule s = sim.simulate(p);
            const QString at = base + " ";
            expectClose(s.makespan, o["makespan_s"], at + "makespan");
            QCOMPARE(sim.makespan(p.devices()), s.makespan); // the fast path agrees
            expectClose(s.lowerBound.bound, o["lower_bound_s"], at + "lower bound");
            expectClose(s.lowerBound.criticalPath, o["critical_path_s"], at + "critical path");
            expectClose(s.lowerBound.work, o["work_bound_s"], at + "work bound");
            expectClose(s.movedBytes, o["moved_bytes"], at + "moved bytes");
            QCOMPARE(s.transferCount, static_cast<long long>(o["transfers"].toInt()));
            QCOMPARE(s.feasible, o["feasible"].toBool());
            QStringList violations;
            for (const auto &v : s.violations)
                violations << QString::fromStdString(v);
            QCOMPARE(violations, o["violations"].toVariant().toStringList());
            const QJsonObject devices = o["devices"].toObject();
            for (int d = 0; d < c.deviceCount(); ++d) {
                const QJsonObject dev = devices[QString::fromStdString(c.device(d).name)].toObject();
                expectClose(s.busy[d], dev["busy_s"], at + "busy");
                expectClose(s.memory[d], dev["memory_bytes"], at + "memory");
            }
            const QJsonObject ops = o["ops"].toObject();
            QCOMPARE(ops.size(), g.nodeCount());
            for (int v = 0; v < g.nodeCount(); ++v) {
                const QJsonArray times = ops[QString::fromStdString(g.id(v))].toArray();
                expectClose(s.start[v], times[0], at + "start of " + QString::fromStdString(g.id(v)));
                expectClose(s.finish[v], times[1], at + "finish of " + QString::fromStdString(g.id(v)));
            }
            QVERIFY(s.makespan >= s.lowerBound.bound * (1 - 1e-12));
            infeasible += !s.feasible;
            withTransfers += s.transferCount > 0;
            withPinViolation += o["violations"].toVariant().toStringList().filter("pin:").size() > 0;
        }
        // The cases exercise what they claim to.
        QVERIFY(infeasible > 20 && infeasible < kSimulationCases - 20);
        QVERIFY(withTransfers > kSimulationCases / 2);
        QVERIFY(withPinViolation > 10);
        qInfo("compared %d values, %d bit-identical", m_compared, m_exact);
        QCOMPARE(m_exact, m_compared);
    }

    void partitionMetricsMatchOracle()
    {
        for (int i = 0; i < kPartitionCases; ++i) {
            const QString base = QString("case%1").arg(i);
            const QJsonObject ref = m_oracle[kSimulationCases + i].toObject();
            QCOMPARE(ref["rc"].toInt(), 0);
            const QJsonObject o = ref["out"].toObject();
            Graph g = loadGraph(path(base + ".graph.json"));
            Partition p = resolvePartition(*loadFile(path(base + ".partition.json")).partition, g);
            PartitionMetrics m = partitionMetrics(g, p.parts(), p.k());
            expectClose(m.edgeCut, o["edge_cut"], base + " cut");
            expectClose(m.imbalance, o["imbalance"], base + " imbalance");
            expectClose(m.normalizedCut, o["normalized_cut"], base + " ncut");
            const QJsonArray weights = o["part_weights"].toArray();
            QCOMPARE(weights.size(), p.k());
            for (int j = 0; j < p.k(); ++j)
                expectClose(m.partWeights[j], weights[j], base + " part weight");
        }
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
