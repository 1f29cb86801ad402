// placement-cli as a user runs it: exit codes, one-line errors, the info keys, validate, convert.
#include "common/TestFiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <thread>

namespace {

const QString kExample = PS_SOURCE_DIR "/resources/examples/inception_block.graph.json";
const QString kCluster = PS_SOURCE_DIR "/resources/clusters/4gpu.cluster.json";

ps::test::ProcessResult cli(const QStringList &args)
{
    return ps::test::runProgram(PS_CLI_PATH, args);
}

// A command's last line of output: its report, after any progress.
QByteArray lastLine(const QByteArray &out)
{
    return out.trimmed().split('\n').last();
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString file(const char *name, const QByteArray &content)
    {
        return QString::fromStdString(ps::test::writeFile(m_dir, name, content));
    }

    // Exit status 2 and exactly one line "error: ..." containing the fragment.
    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    void expectInputError(const QStringList &args, const QString &fragment)
    {
        auto r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("error: "), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(QString(r.err).contains(fragment), r.err.constData());
    }

private Q_SLOTS:
    void versionAndHelp()
    {
        auto v = cli({"--version"});
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.startsWith("placement-cli "));
        auto h = cli({"--help"});
        QCOMPARE(h.exitCode, 0);
        for (const char *command : {"info", "validate", "convert"})
            QVERIFY(h.out.contains(command));
        // Every built-in generator is named (the list once stopped at rnnlm).
        QVERIFY2(h.out.contains("generate a built-in graph (layered-random, rnnlm, gnmt, moe, inception-v3, resnet-50, "
                                "vgg-16, transformer;"),
                 h.out.constData());
        // A command's own help, by -h too, says that its GRAPH may be a model file and how to size it.
        auto placeHelp = cli({"place", "-h"});
        QCOMPARE(placeHelp.exitCode, 0);
        QVERIFY2(placeHelp.out.startsWith("usage: placement-cli place ") && placeHelp.out.contains("--batch N"),
                 placeHelp.out.constData());
        expectInputError({"frobnicate"}, "unknown command 'frobnicate'");
        expectInputError({"info", kExample, "--bogus"}, "unknown option '--bogus'");
    }

    void infoOnAGraph()
    {
        auto r = cli({"info", kExample});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        for (const char *key : {"kind", "name", "nodes", "edges", "flops", "param_bytes", "depth", "scopes"})
            QVERIFY2(o.contains(key), key);
        QCOMPARE(o["kind"].toString(), QString("graph"));
        QCOMPARE(o["name"].toString(), QString("inception_block"));
        QCOMPARE(o["nodes"].toInt(), 23);
        QCOMPARE(o["edges"].toInt(), 25);
        // input, stem conv/relu/pool, the 3x3dbl branch (reduce, relu, 2 convs + relus),
        // concat, gap, fc, softmax: 14 nodes on the longest path.
        QCOMPARE(o["depth"].toInt(), 14);
        // input, stem, mixed + 4 branch scopes, head
        QCOMPARE(o["scopes"].toInt(), 8);
    }

    void infoOnOtherKinds()
    {
        auto c = cli({"info", kCluster});
        QCOMPARE(c.exitCode, 0);
        QJsonObject o = QJsonDocument::fromJson(c.out).object();
        QCOMPARE(o["kind"].toString(), QString("cluster"));
        QCOMPARE(o["devices"].toInt(), 4);
        QString p = file("p.partition.json",
                         R"({"format": "partition", "version": 1, "graph": "g", "k": 4, "parts": {"a": 0, "b": 3}})");
        QJsonObject q = QJsonDocument::fromJson(cli({"info", p}).out).object();
        QCOMPARE(q["kind"].toString(), QString("partition"));
        QCOMPARE(q["k"].toInt(), 4);
        QCOMPARE(q["parts_used"].toInt(), 2);
        QCOMPARE(q["graph"].toString(), QString("g"));
        // A METIS partition (gpmetis's GRAPH.part.K) names no graph and no node: it says what it has.
        QJsonObject m = QJsonDocument::fromJson(cli({"info", file("g.graph.part.3", "0\n2\n2\n0\n")}).out).object();
        QCOMPARE(m["kind"].toString(), QString("partition"));
        QCOMPARE(m["k"].toInt(), 3);
        QCOMPARE(m["nodes"].toInt(), 4);
        QCOMPARE(m["parts_used"].toInt(), 2);
        QVERIFY(!m.contains("graph"));
    }

    void validateChecksFilesAgainstEachOther()
    {
        QString g = file("v.graph.json", R"({"format": "placement-graph", "version": 1, "nodes": [
            {"id": "a", "op": "x"}, {"id": "b", "op": "y", "pin": "gpu:3"}]})");
        QString good = file("good.placement.json",
                            R"({"format": "placement", "version": 1, "assignment": {"a": "gpu:0", "b": "gpu:3"}})");
        auto ok = cli({"validate", g, kCluster, good});
        QCOMPARE(ok.exitCode, 0);
        QVERIFY(ok.out.endsWith("valid\n"));
        QVERIFY2(!ok.out.contains("infeasible"), ok.out.constData());
        // A valid placement that cannot run (more memory than the devices hold) is valid, and says so.
        QString big = file("big.graph.json", R"({"format": "placement-graph", "version": 1, "nodes": [
            {"id": "a", "op": "x", "out_bytes": 3e10}, {"id": "b", "op": "y", "pin": "gpu:3"}]})");
        auto heavy = cli({"validate", big, kCluster, good});
        QCOMPARE(heavy.exitCode, 0);
        QVERIFY2(heavy.out.contains("good.placement.json: infeasible on " + kCluster.toUtf8() +
                                    ", 1 violation(s): memory:gpu:0\n"),
                 heavy.out.constData());
        // Without a placement too: no placement on this cluster can hold the graph (before: "valid"
        // alone, and every placer then wrote an infeasible placement).
        auto heavyAlone = cli({"validate", big, kCluster});
        QCOMPARE(heavyAlone.exitCode, 0);
        QVERIFY2(heavyAlone.out.contains(big.toUtf8() + ": on " + kCluster.toUtf8() +
                                         ", no placement fits memory: op 'a' needs 3e+10 bytes"),
                 heavyAlone.out.constData());
        QVERIFY2(!ok.out.contains("no placement fits"), ok.out.constData());
        // place, steer and train say it on stderr before they run (the result is infeasible).
        for (const QStringList &run :
             {QStringList{"place", big, kCluster, "--model", "heft", "--out", m_dir.filePath("big.placement.json")},
              QStringList{"steer", big, kCluster, "--evaluations", "50", "--out",
                          m_dir.filePath("big-s.placement.json")}}) {
            auto r = cli(run);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.contains("warning: no placement fits memory: op 'a' needs 3e+10 bytes and the largest "
                                    "device holds") &&
                         r.err.contains("every placement of this graph on this cluster is infeasible\n"),
                     r.err.constData());
        }
        QVERIFY(!cli({"place", g, kCluster, "--model", "heft", "--out", m_dir.filePath("g.placement.json")})
                     .err.contains("no placement fits"));

        QString unknownDevice =
            file("bad.placement.json",
                 R"({"format": "placement", "version": 1, "assignment": {"a": "gpu:0", "b": "gpu:9"}})");
        expectInputError({"validate", g, kCluster, unknownDevice},
                         "bad.placement.json: node 'b' assigned to unknown device 'gpu:9'");
        QString missing =
            file("missing.placement.json", R"({"format": "placement", "version": 1, "assignment": {"a": "gpu:0"}})");
        expectInputError({"validate", g, missing}, "1 nodes unassigned, e.g. 'b'");
        QString part =
            file("v.partition.json", R"({"format": "partition", "version": 1, "k": 2, "parts": {"a": 0, "zz": 1}})");
        expectInputError({"validate", g, part}, "partition names unknown node 'zz'");
        // A partition with a cluster is checked as simulate takes it, part i on device i (one with
        // more parts than devices was said to be valid, and simulate refused it).
        QString fits =
            file("fits.partition.json", R"({"format": "partition", "version": 1, "k": 4, "parts": {"a": 0, "b": 3}})");
        auto partitioned = cli({"validate", big, kCluster, fits});
        QCOMPARE(partitioned.exitCode, 0);
        QVERIFY2(partitioned.out.contains("fits.partition.json: consistent with " + big.toUtf8() + " and " +
                                          kCluster.toUtf8() + "\n" + fits.toUtf8() + ": infeasible on " +
                                          kCluster.toUtf8() + ", 1 violation(s): memory:gpu:0\n"),
                 partitioned.out.constData());
        QString six =
            file("six.partition.json", R"({"format": "partition", "version": 1, "k": 6, "parts": {"a": 5, "b": 3}})");
        expectInputError({"validate", g, kCluster, six}, "six.partition.json: 6 parts for 4 devices");
        QCOMPARE(cli({"validate", g, six}).exitCode, 0); // without a cluster, only against the graph

        QString two = file("two.cluster.json", R"({"format": "placement-cluster", "version": 1,
            "devices": [{"name": "gpu:0", "type": "gpu", "flops_per_s": 1, "memory_bytes": 1}]})");
        expectInputError({"validate", g, two}, "node 'b' is pinned to 'gpu:3', which");
        expectInputError({"validate", m_dir.filePath("absent.graph.json")}, "cannot open");

        // Pins that split a colocation group: validate says so, and place runs nothing.
        QString pair = file("pair.graph.json", R"({"format": "placement-graph", "version": 1, "nodes": [
            {"id": "a", "op": "x", "colocate": "g", "pin": "gpu:0"}, {"id": "b", "op": "y", "colocate": "g", "pin": "gpu:1"}]})");
        const char *why = "colocation group 'g' keeps 'a' and 'b' together, but they are pinned to gpu:0 and gpu:1: "
                          "no placement honours both";
        expectInputError({"validate", pair, kCluster}, QString("pair.graph.json: ") + why);
        expectInputError({"place", pair, kCluster, "--model", "gdp", "--out", m_dir.filePath("pair.placement.json")},
                         why);
    }

    // A budget below what any run of the family costs is refused, naming that cost (gdp spent 3
    // of 1, human 2 of 1); from that cost on, the budget is kept exactly.
    void placeRefusesABudgetBelowTheFamilysFixedCosts()
    {
        const QString out = m_dir.filePath("fixed.placement.json");
        auto place = [&](const QString &model, int evaluations) {
            return cli({"place", kExample, kCluster, "--model", model, "--evaluations", QString::number(evaluations),
                        "--out", out});
        };
        const auto gdp = place("gdp", 2);
        QCOMPARE(gdp.exitCode, 2);
        QVERIFY2(gdp.err.contains("--evaluations 2 is fewer than any run of gdp costs: at least 3 simulator runs"),
                 gdp.err.constData());
        const auto human = place("human", 1);
        QCOMPARE(human.exitCode, 2);
        QVERIFY2(human.err.contains("any run of human costs: at least 2"), human.err.constData());
        // A composition's first stage decides: heft costs one run, the stages after it are skipped.
        QCOMPARE(place("heft+gdp", 1).exitCode, 0);
        for (const auto &[model, evaluations] : {std::pair<QString, int>{"gdp", 3}, {"human", 2}, {"best-fast", 3}}) {
            const auto r = place(model, evaluations);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(QJsonDocument::fromJson(r.out).object()["evaluations"].toInt(), evaluations);
        }
    }

    void modelsPlaceSimulatePartition()
    {
        auto models = cli({"models"});
        QCOMPARE(models.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(models.out).array();
        QStringList names;
        for (const auto &m : list)
            names << m.toObject()["name"].toString();
        for (const char *expected : {"single", "round-robin", "human", "heft", "heft-c", "cpop", "m-topo", "m-etf",
                                     "m-etf-c", "m-sct", "metis", "spectral", "local-search"})
            QVERIFY2(names.contains(expected), expected);
        QVERIFY(QJsonDocument::fromJson(models.out).toJson().contains("\"insertion\""));
        // Tunable hyperparameters say so (and on which scale); budgets never are; integers print as such.
        for (const auto &m : list)
            for (const auto &p : m.toObject()["params"].toArray()) {
                const QJsonObject h = p.toObject();
                QVERIFY(QStringList({"fixed", "linear", "log"}).contains(h["tuning"].toString()));
                if (h["name"].toString() == "evaluations" || h["name"].toString() == "threads" ||
                    h["name"].toString() == "iterations")
                    QCOMPARE(h["tuning"].toString(), QString("fixed"));
                if (h["type"].toString() == "int")
                    QVERIFY(h["default"].isDouble() && h["default"].toDouble() == std::floor(h["default"].toDouble()));
            }
        QVERIFY(models.out.contains("\"tuning\": \"log\""));
        QVERIFY(!models.out.contains("\"default\": 2000.0"));

        const QString placed = m_dir.filePath("heft.placement.json");
        auto place = cli({"place", kExample, kCluster, "--model", "heft+local-search", "--param", "evaluations=200",
                          "--out", placed});
        QCOMPARE(place.exitCode, 0);
        const QJsonObject r = QJsonDocument::fromJson(place.out).object();
        QVERIFY(r["feasible"].toBool());
        QVERIFY(r["ratio"].toDouble() >= 1.0);
        // The file's placement simulates to the makespan the command reported.
        auto sim = cli({"simulate", kExample, kCluster, placed, "--repeat", "3"});
        QCOMPARE(sim.exitCode, 0);
        const QJsonObject s = QJsonDocument::fromJson(sim.out).object();
        QCOMPARE(s["makespan_s"].toDouble(), r["makespan_s"].toDouble());
        QVERIFY(s.contains("sim_ms"));
        QVERIFY(!s.contains("ops"));

        const QString parts = m_dir.filePath("ex.partition.json");
        auto part = cli({"partition", kExample, "--k", "2", "--model", "metis", "--time-limit", "30", "--out", parts});
        QCOMPARE(part.exitCode, 0);
        const QJsonObject p = QJsonDocument::fromJson(part.out).object();
        for (const QJsonValue &note : p["notes"].toArray()) // METIS finished (in a child process: a limit is set)
            QVERIFY2(!note.toString().contains("stopped"), qPrintable(note.toString()));
        auto metrics = cli({"metrics", kExample, parts});
        QCOMPARE(QJsonDocument::fromJson(metrics.out).object()["edge_cut"].toDouble(), p["edge_cut"].toDouble());
        // A METIS partition (what gpmetis writes as GRAPH.part.K) converts to and from partition
        // JSON given the graph, and reads where a partition goes.
        const QString metisParts = m_dir.filePath("ex.graph.part.2");
        QCOMPARE(cli({"convert", parts, metisParts, "--graph", kExample}).exitCode, 0);
        auto metisMetrics = cli({"metrics", kExample, metisParts});
        QCOMPARE(metisMetrics.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(metisMetrics.out).object()["edge_cut"].toDouble(), p["edge_cut"].toDouble());
        const QString back = m_dir.filePath("back.partition.json");
        QCOMPARE(cli({"convert", metisParts, back, "--graph", kExample}).exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(readAll(back)).object()["parts"],
                 QJsonDocument::fromJson(readAll(parts)).object()["parts"]);
        expectInputError({"convert", metisParts, back}, "a METIS partition names no node: convert " + metisParts +
                                                            " to " + back + " with --graph G, the graph it partitions");
        // A partition where a placement goes places part i on device i, as the app does (it was
        // refused: "expected a placement file, found a partition").
        QJsonObject assignment;
        const QJsonObject partOf = QJsonDocument::fromJson(readAll(parts)).object()["parts"].toObject();
        for (auto it = partOf.begin(); it != partOf.end(); ++it)
            assignment[it.key()] = QString("gpu:%1").arg(it.value().toInt());
        const QString asPlacement = m_dir.filePath("ex-parts.placement.json");
        QFile out(asPlacement);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            QJsonDocument(QJsonObject{{"format", "placement"}, {"version", 1}, {"assignment", assignment}}).toJson());
        out.close();
        auto simParts = cli({"simulate", kExample, kCluster, parts});
        QCOMPARE(simParts.exitCode, 0);
        QCOMPARE(QString(simParts.err),
                 QString("note: %1: a partition, taken as a placement: part i on device i\n").arg(parts));
        auto simPlacement = cli({"simulate", kExample, kCluster, asPlacement});
        QCOMPARE(simPlacement.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(simParts.out).object()["makespan_s"].toDouble(),
                 QJsonDocument::fromJson(simPlacement.out).object()["makespan_s"].toDouble());
        const QString eight = m_dir.filePath("ex8.partition.json");
        QCOMPARE(cli({"partition", kExample, "--k", "8", "--model", "metis", "--out", eight}).exitCode, 0);
        expectInputError({"simulate", kExample, kCluster, eight}, eight + ": 8 parts for 4 devices");
        // A start given to a placer that takes none is refused before the start is read (the note
        // that the partition was taken as a placement came first, then the refusal).
        expectInputError({"place", kExample, kCluster, "--start", parts, "--model", "heft", "--out",
                          m_dir.filePath("refused.placement.json")},
                         "'heft' does not start from a given placement");

        expectInputError({"place", kExample, kCluster, "--model", "nope", "--out", placed}, "unknown model 'nope'");
        expectInputError({"place", kExample, kCluster, "--model", "heft", "--seed", "-5", "--out", placed},
                         "--seed needs a whole number >= 0, not '-5'");
        expectInputError({"place", kExample, kCluster, "--model", "heft+", "--out", placed},
                         "model 'heft+' has an empty stage");
        expectInputError({"place", kExample, kCluster, "--model", "nope", "--out", placed}, ", giph, gap)"); // runs too
        expectInputError({"place", kExample, kCluster, "--model", "heft"}, "place needs --out");
        // An output that cannot be written is refused before the run, not after it (the result was lost).
        QElapsedTimer refused;
        refused.start();
        expectInputError({"place", kExample, kCluster, "--model", "local-search", "--time-limit", "20", "--out",
                          "/nonexistent-folder/p.placement.json"},
                         "/nonexistent-folder/p.placement.json: cannot write");
        expectInputError({"steer", kExample, kCluster, "--log", "/nonexistent-folder/s.json"}, "cannot write");
        expectInputError({"partition", kExample, "--k", "2", "--model", "gap", "--time-limit", "20", "--out",
                          "/nonexistent-folder/p.partition.json"},
                         "cannot write");
        QVERIFY2(refused.elapsed() < 15000, qPrintable(QString::number(refused.elapsed())));
        // An output that is a file the command reads, or another output, is refused and both kept
        // (`place G C --out G` replaced the graph with the placement; --out F --log F lost the placement).
        const QString graphCopy = m_dir.filePath("kept.graph.json");
        QVERIFY(QFile::copy(kExample, graphCopy));
        const QByteArray graphBytes = readAll(graphCopy);
        expectInputError({"place", graphCopy, kCluster, "--model", "heft", "--out", graphCopy},
                         "--out " + graphCopy + " is also the input " + graphCopy + ": writing it would lose");
        expectInputError({"place", graphCopy, kCluster, "--model", "heft", "--out",
                          m_dir.path() + "/../" + QDir(m_dir.path()).dirName() + "/kept.graph.json"},
                         "is also the input");
        expectInputError({"steer", graphCopy, kCluster, "--out", placed, "--log", placed},
                         "--out " + placed + " is also the --log file");
        expectInputError({"train", "--model", "gdp", kExample, kCluster, "--graphs", kExample + "," + graphCopy,
                          "--out", placed, "--checkpoint", graphCopy},
                         "--checkpoint " + graphCopy + " is also the --graphs file");
        QCOMPARE(readAll(graphCopy), graphBytes);
        QCOMPARE(cli({"place", kExample, kCluster, "--model", "heft", "--out", placed, "--pins", placed}).exitCode,
                 2); // a pins file that is the output
        // A pins file in a form of one's own, or a graph given as pins: the error says what pins are.
        const QString ownPins = file("own.pins.json", R"({"mixed/concat": "gpu:1"})");
        expectInputError({"steer", kExample, kCluster, "--rounds", "1", "--pins", ownPins, "--out", placed},
                         "without a \"format\" (expected placement-graph, placement-cluster, placement or "
                         "partition); pins are a placement file: {\"format\": \"placement\", \"version\": 1, "
                         "\"assignment\": {\"NODE\": \"DEVICE\"}}, or CSV with the header node,device");
        expectInputError({"place", kExample, kCluster, "--model", "heft", "--pins", kExample, "--out", placed},
                         kExample + ": pins are a placement file");
        QCOMPARE(cli({"place", kExample, kCluster, "--model", "heft", "--out", m_dir.filePath("heft")}).exitCode,
                 0); // a name that is also a model's is no file
        expectInputError({"place", kExample, kCluster, "--model", "heft", "--time-limit", "-1", "--out", placed},
                         "--time-limit needs a positive number");
        expectInputError({"partition", kExample, "--k", "0", "--model", "metis", "--out", parts},
                         "partition needs --k from 1");
        expectInputError({"partition", kExample, "--k", "2", "--model", "gap", "--time-limit", "0", "--out", parts},
                         "--time-limit needs a positive number");
        expectInputError({"simulate", kExample, kCluster, kExample}, "expected a placement file, found a graph");
    }

    // steer with scripted feedback, rank without simulating, replay, and their errors.
    // The report is the only thing on standard output, even where METIS complains (partitioning
    // a small graph into many parts).
    void standardOutputIsTheReportAlone()
    {
        const QString cluster8 = PS_SOURCE_DIR "/resources/clusters/8gpu-2node.cluster.json";
        const auto r =
            cli({"steer", kExample, cluster8, "--rounds", "2", "--evaluations", "200", "--families", "metis"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count('\n'), 1);
        QVERIFY2(QJsonDocument::fromJson(r.out).isObject(), r.out.constData());
    }

    // Steering stops where its best candidate meets the lower bound (VGG-16, a chain, on 4 GPUs:
    // the first round's fast placers put it on one GPU), with no ensemble after, unless feedback is
    // still to come; the log replays.
    void steerStopsAtTheLowerBound()
    {
        const QString vgg = m_dir.filePath("steer-vgg.graph.json");
        QCOMPARE(cli({"generate", "vgg-16", "--out", vgg}).exitCode, 0);
        const QString log = m_dir.filePath("steer-vgg.log.json");
        const auto r = cli({"steer", vgg, kCluster, "--rounds", "5", "--evaluations", "5000", "--log", log});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(lastLine(r.out)).object();
        QCOMPARE(report["rounds"].toArray().size(), 1);
        QCOMPARE(report["best"].toObject()["ratio"].toDouble(), 1.0);
        QVERIFY(!report.contains("ensemble"));
        QCOMPARE(report["notes"].toArray().first().toString(),
                 QString("the best candidate meets the lower bound after 1 of 5 rounds: no placement can score "
                         "lower, so the rest were not run"));
        const auto replay = cli({"steer", vgg, kCluster, "--replay", log});
        QVERIFY(QJsonDocument::fromJson(lastLine(replay.out)).object()["reproduced"].toBool());
        const QString later = file("later.json", R"([{"round": 3, "objective": "makespan=1,bytes=0.5"}])");
        const auto fed = cli({"steer", vgg, kCluster, "--rounds", "5", "--evaluations", "5000", "--feedback", later});
        QCOMPARE(QJsonDocument::fromJson(lastLine(fed.out)).object()["rounds"].toArray().size(), 3);
    }

    // A budget smaller than the first round (each fast family runs once there) is kept: `steer
    // --evaluations 10` spent 94 simulator runs in five rounds. The report says the rounds ended early.
    void steerKeepsABudgetSmallerThanItsFirstRound()
    {
        // 10 runs, and 3: fewer than the 5 rounds (refused before, though a session keeps it).
        for (int budget : {10, 3}) {
            const auto r = cli({"steer", kExample, kCluster, "--evaluations", QString::number(budget), "--seed", "1"});
            QCOMPARE(r.exitCode, 0);
            const QJsonObject report = QJsonDocument::fromJson(lastLine(r.out)).object();
            QVERIFY2(report["evaluations"].toInt() <= budget, r.out.constData());
            QVERIFY(report["best"].toObject()["feasible"].toBool());
            QCOMPARE(report["rounds"].toArray().size(), 1);
            QCOMPARE(report["notes"].toArray().first().toString(),
                     QString("the budget of %1 simulator runs was spent after 1 of 5 rounds").arg(budget));
        }
        expectInputError({"steer", kExample, kCluster, "--evaluations", "0"}, "--evaluations needs at least 1");
        // Feedback for a round the session does not have is refused (it was dropped in silence).
        const QString late = file("late.json", R"([{"round": 4, "reject": ["best"]}])");
        expectInputError({"steer", kExample, kCluster, "--rounds", "3", "--feedback", late},
                         "late.json entry 1: round 4 is past the session's 3 rounds");
        // A candidate that does not exist is found when its round comes: the file and round are named.
        const QString absent = file("absent.json", R"([{"round": 2, "reject": [999]}])");
        expectInputError({"steer", kExample, kCluster, "--rounds", "2", "--evaluations", "300", "--feedback", absent},
                         "absent.json, round 2: feedback names candidate 999, which does not exist");
        // Nothing fits: said, not "see the log's errors" of a log that was not written.
        expectInputError({"steer", kExample, kCluster, "--evaluations", "1", "--families", "human"},
                         "no candidate fits a budget of 1 simulator runs");
    }

    // Without --threads, steer runs a candidate per core and still one search a round: the same
    // candidates as on one thread, sooner. Before, it ran on one thread whatever the machine had.
    void steerUsesEveryCoreWithTheSameResults()
    {
        const QStringList common = {"steer", kExample, kCluster, "--rounds", "2", "--evaluations", "400"};
        const QString onCores = m_dir.filePath("cores.steer.json"), onOne = m_dir.filePath("one.steer.json");
        QCOMPARE(cli(common + QStringList{"--log", onCores}).exitCode, 0);
        QCOMPARE(cli(common + QStringList{"--threads", "1", "--log", onOne}).exitCode, 0);
        const QJsonObject cores = QJsonDocument::fromJson(ps::test::readFile(onCores.toStdString())).object();
        const QJsonObject one = QJsonDocument::fromJson(ps::test::readFile(onOne.toStdString())).object();
        QCOMPARE(cores["settings"].toObject()["threads"].toInt(),
                 std::clamp(int(std::thread::hardware_concurrency()), 1, 256));
        QCOMPARE(cores["settings"].toObject()["searches"].toInt(), 1);
        const auto scores = [](const QJsonObject &log) {
            QStringList s;
            for (const auto &c : log["candidates"].toArray())
                s << c.toObject()["family"].toString() + " " +
                         QString::number(c.toObject()["score"].toDouble(), 'g', 17);
            return s;
        };
        QVERIFY(!scores(one).isEmpty());
        QCOMPARE(scores(cores), scores(one));
    }

    void steerRankReplay()
    {
        const QString pins = file("pins.csv", "node,device\nmixed/concat,gpu:2\n");
        const QString feedback = file("feedback.json", R"([
            {"round": 2, "objective": "makespan=1,bytes=0.5", "prefer": {"stem/conv": "gpu:1"}, "important": ["stem/conv"]},
            {"round": 3, "reject": ["best"], "family_weights": {"cpop": 0}}
        ])");
        const QString log = m_dir.filePath("steer.json"), best = m_dir.filePath("best.placement.json");
        auto steer = cli({"steer", kExample, kCluster, "--rounds", "3", "--per-round", "4", "--evaluations", "600",
                          "--pins", pins, "--feedback", feedback, "--seed", "5", "--out", best, "--log", log});
        QCOMPARE(steer.exitCode, 0);
        const QJsonObject r = QJsonDocument::fromJson(lastLine(steer.out)).object();
        QVERIFY2(r["evaluations"].toInt() <= 601, lastLine(steer.out).constData());
        QCOMPARE(r["rounds"].toArray().size(), 3);
        QVERIFY(r["best"].toObject()["feasible"].toBool());
        // The best placement honours the pin, and its file carries its provenance.
        auto validate = cli({"simulate", kExample, kCluster, best, "--ops"});
        QCOMPARE(validate.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(validate.out).object()["feasible"].toBool());
        const QJsonObject placed = QJsonDocument::fromJson(ps::test::readFile(best.toStdString())).object();
        QCOMPARE(placed["assignment"].toObject()["mixed/concat"].toString(), QString("gpu:2"));
        QVERIFY(placed["producer"].toObject()["model"].toString().startsWith("steering"));
        QVERIFY(placed["producer"].toObject()["evaluations"].toInt() > 0);
        // Logged: the feedback with the round it preceded, every candidate with its placement.
        const QJsonObject l = QJsonDocument::fromJson(ps::test::readFile(log.toStdString())).object();
        QCOMPARE(
            l["rounds"].toArray()[1].toObject()["feedback"].toArray()[0].toObject()["objective"].toString().left(24),
            QString("makespan=1,bytes=0.5,mem"));
        std::map<int, QJsonValue> noted; // what a run said of its result, by candidate
        for (const auto &c : l["candidates"].toArray()) {
            QVERIFY(c.toObject()["arm"].toString() != "cpop" || c.toObject()["round"].toInt() < 3);
            if (!c.toObject().contains("error"))
                QCOMPARE(c.toObject()["placement"].toArray().size(), 23);
            if (c.toObject().contains("notes"))
                noted[c.toObject()["id"].toInt()] = c.toObject()["notes"];
        }
        QVERIFY(!noted.empty()); // the first search's race says so, at least
        const QJsonArray top = r["top"].toArray();
        for (const auto &row : top) { // the report's rows say the same as the log
            const int id = row.toObject()["id"].toInt();
            QCOMPARE(row.toObject().contains("notes"), noted.count(id) > 0);
            if (noted.count(id))
                QCOMPARE(row.toObject()["notes"], noted.at(id));
        }

        auto rank = cli({"rank", log, "--objective", "makespan=0,bytes=1", "--top", "3"});
        QCOMPARE(rank.exitCode, 0);
        const QJsonObject ranked = QJsonDocument::fromJson(rank.out).object();
        QCOMPARE(ranked["simulations"].toInt(), 0);
        const QJsonArray rows = ranked["ranking"].toArray();
        QVERIFY(rows.size() >= 2);
        for (const auto &row : rows) // what each run cost in time, beside its simulator runs
            QVERIFY(row.toObject()["wall_s"].toDouble() > 0);
        QVERIFY(rows[0].toObject()["moved_bytes"].toDouble() <= rows[1].toObject()["moved_bytes"].toDouble());
        for (const char *none : {"0", "-1"}) { // -1 listed every candidate (a size_t cast)
            auto refused = cli({"rank", log, "--top", none});
            QCOMPARE(refused.exitCode, 2);
            QVERIFY(refused.err.contains("--top needs at least 1 candidate"));
        }

        auto replay = cli({"steer", kExample, kCluster, "--replay", log});
        QCOMPARE(replay.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(lastLine(replay.out)).object()["reproduced"].toBool());
        // On more threads too: they set how many candidates run at once, not how many searches a
        // round holds (the log's), which the threads set before and a replay on two then differed.
        auto onTwo = cli({"steer", kExample, kCluster, "--replay", log, "--threads", "2"});
        QCOMPARE(onTwo.exitCode, 0);
        QVERIFY2(QJsonDocument::fromJson(lastLine(onTwo.out)).object()["reproduced"].toBool(), onTwo.err.constData());
        expectInputError({"steer", kExample, kCluster, "--replay", log, "--searches", "2"},
                         "--searches is the log's in a replay");
        expectInputError({"steer", kExample, kCluster, "--replay", log, "--seed", "3"},
                         "--seed is the log's in a replay");
        // On another graph (one op's FLOPs doubled; a model file read without the log's --batch)
        // a replay is refused as such, not run and called another version's log.
        QJsonObject graph = QJsonDocument::fromJson(ps::test::readFile(QString(kExample).toStdString())).object();
        QJsonArray nodes = graph["nodes"].toArray();
        QJsonObject first0 = nodes[0].toObject();
        first0["flops"] = first0["flops"].toDouble() * 2 + 1;
        nodes[0] = first0;
        graph["nodes"] = nodes;
        expectInputError({"steer", file("other.graph.json", QJsonDocument(graph).toJson()), kCluster, "--replay", log},
                         "made on another graph than");
        // A log from before the graph's hash was kept replays as it did.
        QByteArray unhashed = ps::test::readFile(log.toStdString());
        const qsizetype hashAt = unhashed.indexOf("\"graph_hash\"");
        QVERIFY(hashAt > 0);
        unhashed.remove(hashAt, unhashed.indexOf(',', hashAt) + 1 - hashAt);
        auto old = cli({"steer", kExample, kCluster, "--replay", file("unhashed.steer.json", unhashed)});
        QCOMPARE(old.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(lastLine(old.out)).object()["reproduced"].toBool());
        // A log whose third candidate was drawn with another seed (as one written by another
        // version, or edited) does not reproduce, and the report names that candidate.
        // Edited as text: the seeds use all 64 bits, more than a JSON double keeps.
        QByteArray raw = ps::test::readFile(log.toStdString());
        qsizetype at = raw.indexOf("\n \"candidates\": [");
        QVERIFY(at > 0);
        for (int i = 0; i < 3; ++i)
            at = raw.indexOf("\"seed\": ", at) + 8;
        const qsizetype end = raw.indexOf(',', at);
        const QByteArray seed = raw.mid(at, end - at);
        raw.replace(at, end - at, "12345");
        auto differs = cli({"steer", kExample, kCluster, "--replay", file("edited.steer.json", raw)});
        QCOMPARE(differs.exitCode, 1);
        const QJsonObject d = QJsonDocument::fromJson(lastLine(differs.out)).object();
        QVERIFY(!d["reproduced"].toBool());
        const QJsonObject first = d["first_difference"].toObject();
        QCOMPARE(first["candidate"].toInt(), 2);
        QCOMPARE(first["logged"].toObject()["seed"].toInteger(), 12345);
        QCOMPARE(first["replayed"].toObject()["seed"].toDouble(), seed.toDouble());
        QVERIFY2(differs.err.contains("replay: candidate #2 differs from the log"), differs.err.constData());

        // A log whose placement of candidate 1 was edited (its hash kept) does not reproduce either.
        QByteArray moved = ps::test::readFile(log.toStdString());
        qsizetype p = moved.indexOf("\n \"candidates\": [");
        for (int i = 0; i < 2; ++i)
            p = moved.indexOf("\"placement\": [", p) + 14;
        moved[p] = moved[p] == '0' ? '1' : '0';
        auto edited = cli({"steer", kExample, kCluster, "--replay", file("moved.steer.json", moved)});
        QCOMPARE(edited.exitCode, 1);
        QCOMPARE(
            QJsonDocument::fromJson(lastLine(edited.out)).object()["first_difference"].toObject()["candidate"].toInt(),
            1);

        expectInputError({"steer", kExample, kCluster, "--families", "heft,nope"}, "unknown model 'nope'");
        expectInputError({"steer", kExample, kCluster, "--objective", "speed=2"}, "unknown objective weight 'speed'");
        expectInputError({"steer", kExample, kCluster, "--feedback",
                          file("bad.json", "[{\"round\": 1, \"pins\": {\"x\": \"gpu:0\"}}]")},
                         "unknown node 'x'");
        expectInputError({"rank", kExample}, "not a steering log");
        // A damaged log names what is missing or wrong, in words rather than the JSON library's codes.
        for (const auto &[text, says] :
             {std::pair{"{\"format\": \"steering-log\"}", "malformed steering log (key 'settings' not found)"},
              std::pair{"{\"format\": \"steering-log\", \"settings\": {\"seed\": \"x\"}}",
                        "malformed steering log (type must be number, but is string)"},
              // found by fuzz_steering: an internal error (exit 1) before
              std::pair{"{\"format\": [\"steering-log\"]}", "not a steering log (\"format\": \"steering-log\")"}}) {
            auto r = cli({"rank", file("damaged.steer.json", text)});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(says) && !r.err.contains("json.exception"), r.err.constData());
        }
        // Absurd or contradictory settings are refused before anything runs.
        expectInputError({"steer", kExample, kCluster, "--per-round", "100000"},
                         "a round takes at most 256 candidates, not 100000");
        expectInputError({"steer", kExample, kCluster, "--searches", "0"}, "--searches must be between 1 and 256");
        expectInputError({"steer", kExample, kCluster, "--ensemble", "-1"},
                         "--ensemble must be between 0 (none) and 64");
        expectInputError({"steer", kExample, kCluster, "--families", ","}, "--families needs at least one family");
        expectInputError({"steer", kExample, kCluster, "--uniform", "--random-search"},
                         "--uniform and --random-search exclude each other");
    }

    void convertByExtension()
    {
        const QString dot = m_dir.filePath("ex.dot"), metis = m_dir.filePath("ex.graph"),
                      back = m_dir.filePath("ex.graph.json.gz");
        QCOMPARE(cli({"convert", kExample, dot}).exitCode, 0);
        QCOMPARE(cli({"convert", dot, metis}).exitCode, 0);
        QCOMPARE(cli({"convert", dot, back}).exitCode, 0);
        QJsonObject o = QJsonDocument::fromJson(cli({"info", back}).out).object();
        QCOMPARE(o["nodes"].toInt(), 23);
        QCOMPARE(o["scopes"].toInt(), 8);

        QString placement = file("all0.placement.json", [] {
            QByteArray s = R"({"format": "placement", "version": 1, "assignment": {)";
            QJsonObject g = QJsonDocument::fromJson(ps::test::readFile(kExample.toStdString())).object();
            bool first = true;
            for (const auto &n : g["nodes"].toArray()) {
                s += (first ? "" : ", ") + ("\"" + n.toObject()["id"].toString() + "\": \"gpu:1\"").toUtf8();
                first = false;
            }
            return s + "}}";
        }());
        const QString placed = m_dir.filePath("placed.dot");
        QCOMPARE(cli({"convert", kExample, placed, "--cluster", kCluster, "--placement", placement}).exitCode, 0);
        QVERIFY(ps::test::readFile(placed.toStdString()).contains("cluster_gpu:1"));
        const QString csv = m_dir.filePath("all0.csv");
        QCOMPARE(cli({"convert", placement, csv}).exitCode, 0);
        QVERIFY(ps::test::readFile(csv.toStdString()).startsWith("node,device\n"));

        expectInputError({"convert", placement, m_dir.filePath("x.dot")}, "cannot convert a placement");
        // Graph and placement swapped: the message says the command that does it.
        expectInputError({"convert", placement, m_dir.filePath("x.dot")},
                         "convert its graph: placement-cli convert GRAPH " + m_dir.filePath("x.dot") +
                             " --cluster CLUSTER --placement " + placement);
        expectInputError({"convert", kExample, csv, "--cluster", kCluster, "--placement", placement},
                         "convert the placement file: placement-cli convert " + placement + " " + csv);
        expectInputError({"convert", kExample, placed, "--placement", placement}, "--placement needs --cluster");
        expectInputError({"convert", kExample}, "convert needs IN and OUT");
    }

    // SIGTERM (or Ctrl-C) while a model runs: the run stops with the best it has, which is written
    // and reported as at the end, and the exit status says it was interrupted. Before, a long run
    // stopped this way lost everything.
    void interruptedRunsWriteTheirBest()
    {
        QList<QStringList> runs = {
            {"place", kExample, kCluster, "--model", "heft-c+local-search", "--time-limit", "600"},
            {"steer", kExample, kCluster, "--rounds", "500", "--evaluations", "100000000", "--log",
             m_dir.filePath("interrupted.steer.json")}};
#ifdef PS_HAVE_TORCH
        runs.push_back({"train", "--model", "gdp", kExample, kCluster, "--time-limit", "600", "--checkpoint",
                        m_dir.filePath("interrupted.ckpt")});
#endif
        for (QStringList args : runs) {
            const QString out = m_dir.filePath("interrupted-" + args[0] + ".placement.json");
            QFile::remove(out);
            args << "--out" << out;
            QProcess p;
            p.start(PS_CLI_PATH, args);
            QVERIFY(p.waitForStarted());
            QTest::qWait(3000); // loaded and running (the progress bar is shown on a terminal only)
            QVERIFY2(p.state() == QProcess::Running, qPrintable(args[0] + ": " + p.readAllStandardError()));
            p.terminate();
            QVERIFY(p.waitForFinished(30000));
            const QByteArray err = p.readAllStandardError();
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QVERIFY2(p.exitCode() == 130, qPrintable(args[0] + QString(": exit %1 ").arg(p.exitCode()) + err));
            QVERIFY2(err.contains("interrupted: what was found before it stopped is written"), err.constData());
            const QJsonObject report = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
            QCOMPARE(report["out"].toString(), out);
            QVERIFY(report["evaluations"].toDouble() > 0);
            QCOMPARE(cli({"validate", PS_SOURCE_DIR "/resources/examples/inception_block.graph.json", kCluster, out})
                         .exitCode,
                     0);
        }
    }

#ifdef PS_HAVE_TORCH
    // gap is a partitioner; the Models dock runs it as a placement (part i on device i), and so
    // does `place` (before, it answered "unknown model 'gap'").
    void placeRunsGapAsTheModelsDockDoes()
    {
        const QString out = m_dir.filePath("gap.placement.json");
        auto r = cli({"place", kExample, kCluster, "--model", "gap", "--param", "iterations=3", "--out", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QVERIFY(report["feasible"].toBool());
        QCOMPARE(cli({"validate", kExample, kCluster, out}).exitCode, 0);
        expectInputError({"place", kExample, kCluster, "--model", "gap", "--start", out, "--out", out},
                         "'gap' does not start from a given placement");
    }
#endif

#ifdef PS_HAVE_TORCH
    void trainAndZeroShot()
    {
        const QString curve = m_dir.filePath("curve.csv"), ckpt = m_dir.filePath("policy.ckpt"),
                      placed = m_dir.filePath("trained.placement.json"), zero = m_dir.filePath("zero.placement.json");
        auto train = cli({"train", "--model", "gdp", kExample, kCluster, "--iterations", "3", "--param", "samples=2",
                          "--param", "hidden=16", "--curve", curve, "--checkpoint", ckpt, "--out", placed});
        QCOMPARE(train.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(train.out).object();
        QCOMPARE(report["iterations"].toInt(), 3);
        QVERIFY(report["feasible"].toBool());
        const QList<QByteArray> rows = ps::test::readFile(curve.toStdString()).trimmed().split('\n');
        QCOMPARE(rows.size(), 4);
        QVERIFY(rows[0].startsWith("iteration,wall_s,evaluations,sample_mean_s"));
        QVERIFY(rows[3].startsWith("2,"));
        QVERIFY(rows[0].endsWith(",best_found_at,improvements"));
        // The last row's runs (the warm start's included) are the report's, less the trained
        // policy's greedy placement and the result's judgement. Its best was found by the last
        // "run:makespan" improvement of the rows, the first of which is the warm start.
        const QList<QByteArray> last = rows[3].split(',');
        const long long lastRuns = last[2].toLongLong(), foundAt = last[8].toLongLong();
        const long long reported = report["evaluations"].toInteger();
        QVERIFY2(lastRuns + 2 == reported, qPrintable(QString("%1 %2").arg(lastRuns).arg(reported)));
        QByteArray lastImprovement;
        for (int i = 1; i < rows.size(); ++i)
            if (const QByteArray list = rows[i].split(',')[9]; !list.isEmpty())
                lastImprovement = list.split(';').back();
        QVERIFY2(foundAt >= 1 && foundAt <= lastRuns && lastImprovement.startsWith(QByteArray::number(foundAt) + ":"),
                 rows[3].constData());
        QCOMPARE(lastImprovement.split(':')[1].toDouble(), last[5].toDouble());
        auto place = cli({"place", kExample, kCluster, "--model", "gdp", "--checkpoint", ckpt, "--out", zero});
        QCOMPARE(place.exitCode, 0);
        // No training: the warm start's placers, that start offered, the greedy placement, at most 128
        // sampled placements (gdp's default samples), the final check.
        const int zeroShotRuns = QJsonDocument::fromJson(place.out).object()["evaluations"].toInt();
        QVERIFY2(zeroShotRuns >= 4 && zeroShotRuns <= 160, qPrintable(QString::number(zeroShotRuns)));
        expectInputError({"train", "--model", "heft", kExample, kCluster, "--out", placed}, "not a learned model");
        expectInputError({"train", "--model", "rl-seq2seq", kExample, kCluster, "--graphs", kExample, "--out", placed},
                         "--graphs is for gap and gdp");
        expectInputError({"train", "--model", "gdp", kExample, kCluster, "--graphs",
                          kExample + "," + PS_SOURCE_DIR + "/tests/data/small_cnn.onnx", "--out", placed},
                         "small_cnn.onnx is a model file; convert it to a graph first");
        expectInputError({"place", kExample, kCluster, "--model", "giph", "--checkpoint", ckpt, "--out", zero},
                         "a checkpoint of 'gdp'");
        expectInputError({"train", "--model", "gap", kExample, "--out", placed}, "train --model gap needs --k from 1");
        // The same rule as partition's: no more parts than the graph has nodes.
        const QString parts = m_dir.filePath("one.partition.json");
        const QString one = QString::fromStdString(ps::test::writeFile(
            m_dir, "one.graph.json",
            R"({"format": "placement-graph", "version": 1, "nodes": [{"id": "a", "op": "Relu", "flops": 1,
                "out_bytes": 4}], "edges": []})"));
        expectInputError({"train", "--model", "gap", one, "--k", "2", "--out", parts},
                         "--k 2 is more than the graph's 1 nodes");
        expectInputError({"partition", one, "--k", "2", "--model", "metis", "--out", parts},
                         "--k 2 is more than the graph's 1 nodes");
    }
#endif

    void modelFiles()
    {
        const QString onnx = QString(PS_SOURCE_DIR) + "/tests/data/small_cnn.onnx";
        // The exported batch is symbolic: without --batch the shapes stay unknown, with a warning.
        auto open = cli({"info", onnx});
        QCOMPARE(open.exitCode, 0);
        QVERIFY2(open.err.startsWith("warning: ") && open.err.contains("--batch"), open.err.constData());
        auto fixed = cli({"info", onnx, "--batch", "2"});
        QCOMPARE(fixed.exitCode, 0);
        QVERIFY2(fixed.err.isEmpty(), fixed.err.constData());
        QCOMPARE(QJsonDocument::fromJson(fixed.out).object()["nodes"].toInt(), 9);
        QVERIFY(QJsonDocument::fromJson(fixed.out).object()["flops"].toDouble() > 3e5);
        const QString json = m_dir.filePath("cnn.graph.json");
        QCOMPARE(cli({"convert", onnx, json, "--batch", "2"}).exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(cli({"info", json}).out).object()["nodes"].toInt(), 9);
        expectInputError({"convert", json, m_dir.filePath("out.onnx")}, "read, not written");
        expectInputError({"info", onnx, "--batch", "0"}, "--batch needs a whole number from 1 to 1048576, not '0'");
        // Absurd sizes are refused (a batch of 1e17 made a model of 1.5e22 FLOPs).
        expectInputError({"info", onnx, "--batch", "100000000000000000"}, "not '100000000000000000'");
        expectInputError({"info", onnx, "--batch", "99999999999999999999"}, "not '99999999999999999999'");
        expectInputError({"info", onnx, "--input-shape", "1000000000000x3x16x16"},
                         "input shape '1000000000000x3x16x16': more than 2^40 elements in one input");
        expectInputError({"info", onnx, "--input-shape", "99999999999999999999x3"}, "expected dimensions like");
        // The commands that take a GRAPH read a model file the same way: place refused --batch and,
        // without it, placed the ops of unknown shape as 0 FLOPs without a word.
        const QString placed = m_dir.filePath("cnn.placement.json");
        auto blind = cli({"place", onnx, kCluster, "--model", "heft", "--out", placed});
        QCOMPARE(blind.exitCode, 0);
        QVERIFY2(blind.err.startsWith("warning: ") && blind.err.contains("--batch"), blind.err.constData());
        auto withBatch = cli({"place", onnx, kCluster, "--model", "heft", "--batch", "2", "--out", placed});
        QCOMPARE(withBatch.exitCode, 0);
        QVERIFY2(!withBatch.err.contains("warning"), withBatch.err.constData());
        auto fromJson = cli({"place", json, kCluster, "--model", "heft", "--out", m_dir.filePath("j.placement.json")});
        QCOMPARE(QJsonDocument::fromJson(withBatch.out).object()["makespan_s"].toDouble(),
                 QJsonDocument::fromJson(fromJson.out).object()["makespan_s"].toDouble());
        QVERIFY(QJsonDocument::fromJson(withBatch.out).object()["makespan_s"].toDouble() >
                QJsonDocument::fromJson(blind.out).object()["makespan_s"].toDouble());
        auto bound = cli({"bound", onnx, kCluster, "--batch", "2"});
        QCOMPARE(bound.exitCode, 0);
        QVERIFY2(bound.err.isEmpty(), bound.err.constData());
        expectInputError({"simulate", onnx, kCluster, placed, "--batch", "0"}, "--batch needs a whole number from 1");
        expectInputError({"info", file("junk.onnx", "junk")}, "not");
#ifdef PS_HAVE_TORCH
        const QString pt = QString(PS_SOURCE_DIR) + "/tests/data/no_shapes.pt";
        expectInputError({"info", pt}, "--input-shape");
        auto shaped = cli({"info", pt, "--input-shape", "5x6"});
        QCOMPARE(shaped.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(shaped.out).object()["flops"].toDouble(), 2.0 * 5 * 3 * 6 + 15);
        expectInputError({"info", pt, "--input-shape", "5xq"}, "expected dimensions like");
#endif
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
