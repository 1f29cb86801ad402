// Every reader rejects malformed input with an InputError naming the file and the problem.
// Each case is written by the test itself; JSON cases are also fed to the spec's oracle, which
// must reject them too.
#include "common/TestFiles.h"

#include "core/InputError.h"
#include "core/io/FileBytes.h"
#include "core/io/FileKind.h"

#include <QtTest>

using namespace ps;

namespace {

const QByteArray kGraphHead = R"({"format": "placement-graph", "version": 1, )";
const QByteArray kClusterHead = R"({"format": "placement-cluster", "version": 1, )";
const QByteArray kTwoNodes = R"("nodes": [{"id": "a", "op": "x"}, {"id": "b", "op": "y"}])";
const QByteArray kOneDevice =
    R"("devices": [{"name": "gpu:0", "type": "gpu", "flops_per_s": 1e12, "memory_bytes": 1e9}])";
const QByteArray kTwoDevices =
    R"("devices": [{"name": "gpu:0", "type": "gpu", "flops_per_s": 1e12, "memory_bytes": 1e9},
                   {"name": "gpu:1", "type": "gpu", "flops_per_s": 1e12, "memory_bytes": 1e9}])";

QByteArray graph(const QByteArray &body)
{
    return kGraphHead + body + "}";
}
QByteArray cluster(const QByteArray &body)
{
    return kClusterHead + body + "}";
}

QByteArray validGraph()
{
    return graph(kTwoNodes + R"(, "edges": [{"src": "a", "dst": "b"}])");
}
QByteArray validCluster()
{
    return cluster(kTwoDevices + R"(, "default_link": {"bandwidth_bytes_per_s": 1e10})");
}

struct Case
{
    const char *row;
    QString file;
    QByteArray content;
    QString fragment;
};

// Each case: a file name (its type decides the reader), its content, and a fragment of the error.
std::vector<Case> malformedCases()
{
    return {
        {"empty file", "g.graph.json", QByteArray(), "unexpected end of input"},
        {"truncated", "g.graph.json", kGraphHead + R"("nodes": [{"id": "a")", "unexpected end of input"},
        {"binary", "g.graph.json", QByteArray("\x00\x01\xfe\xff\x80", 5), "syntax error"},
        {"wrong format", "g.graph.json", QByteArray(R"({"format": "placement-cluster", "version": 1})"),
         "expected format 'placement-graph'"},
        {"version 2", "g.graph.json", QByteArray(R"({"format": "placement-graph", "version": 2, "nodes": []})"),
         "unsupported version 2"},
        {"version 1.0", "g.graph.json", QByteArray(R"({"format": "placement-graph", "version": 1.0, "nodes": []})"),
         "unsupported version 1.0"},
        {"no nodes", "g.graph.json", graph(R"("edges": [])"), "'nodes' must be a JSON array"},
        {"nodes object", "g.graph.json", graph(R"("nodes": {"a": 1})"), "'nodes' must be a JSON array"},
        {"duplicate id", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x"}, {"id": "a", "op": "y"}])"),
         "/nodes/1: duplicate node id 'a'"},
        {"duplicate key", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "op": "y"}])"),
         "key 'op' appears twice in one object"},
        {"duplicate top key", "g.graph.json", graph(R"("nodes": [], "nodes": [])"), "key 'nodes' appears twice"},
        {"no op", "g.graph.json", graph(R"("nodes": [{"id": "a"}])"), "/nodes/0: node 'a' has no string 'op'"},
        {"negative flops", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "flops": -1}])"),
         "'flops' of node 'a' must be non-negative"},
        {"string flops", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "flops": "9"}])"),
         "'flops' of node 'a' must be a finite number"},
        {"bool bytes", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "out_bytes": true}])"),
         "'out_bytes' of node 'a' must be a finite number"},
        {"overflowing number", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "flops": 1e999}])"),
         "number overflow"},
        {"empty id", "g.graph.json", graph(R"("nodes": [{"id": "", "op": "x"}])"),
         "/nodes/0: node without a non-empty string 'id'"},
        {"compute_s not object", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "compute_s": 3}])"),
         "'compute_s' of node 'a' must be a JSON object"},
        {"compute_s text entry", "g.graph.json",
         graph(R"("nodes": [{"id": "a", "op": "x", "compute_s": {"gpu": "fast"}}])"),
         "'compute_s.gpu' of node 'a' must be a finite number"},
        {"pin not string", "g.graph.json", graph(R"("nodes": [{"id": "a", "op": "x", "pin": 0}])"),
         "'pin' of node 'a' must be a string"},
        {"unknown edge node", "g.graph.json", graph(kTwoNodes + R"(, "edges": [{"src": "a", "dst": "zz"}])"),
         "/edges/0: edge 'a'->'zz' names unknown node 'zz'"},
        {"edge src not string", "g.graph.json", graph(kTwoNodes + R"(, "edges": [{"src": 1, "dst": "b"}])"),
         "/edges/0: an edge's 'src' and 'dst' must be node ids"},
        {"self-loop", "g.graph.json", graph(kTwoNodes + R"(, "edges": [{"src": "b", "dst": "b"}])"),
         "self-loop on 'b'"},
        {"cycle", "g.graph.json",
         graph(kTwoNodes + R"(, "edges": [{"src": "a", "dst": "b"}, {"src": "b", "dst": "a"}])"),
         "graph has a cycle: '"},
        {"deep nesting", "g.graph.json", QByteArray(100000, '['), "nested more than 200 levels"},
        {"corrupt gzip", "g.graph.json.gz", QByteArray("\x1f\x8b\x08\x00junkjunk", 12),
         "corrupt or truncated gzip stream"},
        {"truncated gzip", "g.graph.json.gz", QByteArray::fromStdString(gzip(validGraph().toStdString())).left(30),
         "unexpected end of data at byte 30 of 30 bytes"},
        {"not UTF-8", "g.graph.json", graph("\"name\": \"\xff\xfe\", " + kTwoNodes), "ill-formed UTF-8"},
        {"no devices", "c.cluster.json", cluster(R"("name": "x")"), "'devices' must be a non-empty JSON array"},
        {"empty devices", "c.cluster.json", cluster(R"("devices": [])"), "cluster has no devices"},
        {"zero speed", "c.cluster.json",
         cluster(R"("devices": [{"name": "g", "type": "gpu", "flops_per_s": 0, "memory_bytes": 1}])"),
         "/devices/0: 'flops_per_s' of device 'g' must be positive"},
        // A negative one says the same (it said "must be non-negative", which 0 is and is refused).
        {"negative memory", "c.cluster.json",
         cluster(R"("devices": [{"name": "g", "type": "gpu", "flops_per_s": 1, "memory_bytes": -5}])"),
         "/devices/0: 'memory_bytes' of device 'g' must be positive"},
        {"negative bandwidth", "c.cluster.json",
         cluster(R"("devices": [{"name": "g", "type": "gpu", "flops_per_s": 1, "memory_bytes": 1},
                                {"name": "h", "type": "gpu", "flops_per_s": 1, "memory_bytes": 1}],
                    "links": [{"src": "g", "dst": "h", "bandwidth_bytes_per_s": -1}])"),
         "/links/0: 'bandwidth_bytes_per_s' of link 'g'->'h' must be positive"},
        {"duplicate device", "c.cluster.json",
         cluster(
             R"("devices": [{"name": "g", "type": "t", "flops_per_s": 1, "memory_bytes": 1}, {"name": "g", "type": "t", "flops_per_s": 1, "memory_bytes": 1}])"),
         "/devices/1: duplicate device name 'g'"},
        {"no type", "c.cluster.json", cluster(R"("devices": [{"name": "g", "flops_per_s": 1, "memory_bytes": 1}])"),
         "device 'g' needs a non-empty string 'type'"},
        {"link unknown device", "c.cluster.json",
         cluster(kOneDevice + R"(, "links": [{"src": "gpu:0", "dst": "gpu:9", "bandwidth_bytes_per_s": 1}])"),
         "/links/0: link 'gpu:0'->'gpu:9' names unknown device 'gpu:9'"},
        {"link to itself", "c.cluster.json",
         cluster(kOneDevice + R"(, "links": [{"src": "gpu:0", "dst": "gpu:0", "bandwidth_bytes_per_s": 1}])"),
         "link from 'gpu:0' to itself"},
        {"missing default link", "c.cluster.json", cluster(kTwoDevices),
         "no link 'gpu:0'->'gpu:1' and no default_link"},
        {"bidirectional string", "c.cluster.json",
         cluster(
             kTwoDevices +
             R"(, "links": [{"src": "gpu:0", "dst": "gpu:1", "bandwidth_bytes_per_s": 1, "bidirectional": "yes"}])"),
         "'bidirectional' must be true or false"},
        {"zero bandwidth", "c.cluster.json", cluster(kTwoDevices + R"(, "default_link": {"bandwidth_bytes_per_s": 0})"),
         "/default_link: 'bandwidth_bytes_per_s' of default_link must be positive"},
        {"no assignment", "p.placement.json", QByteArray(R"({"format": "placement", "version": 1})"),
         "placement has no 'assignment' object"},
        {"device not string", "p.placement.json",
         QByteArray(R"({"format": "placement", "version": 1, "assignment": {"a": 3}})"),
         "/assignment/a: device of 'a' must be a string"},
        {"duplicate assignment", "p.placement.json",
         QByteArray(R"({"format": "placement", "version": 1, "assignment": {"a": "g", "a": "g"}})"),
         "key 'a' appears twice"},
        {"k zero", "p.partition.json", QByteArray(R"({"format": "partition", "version": 1, "k": 0, "parts": {}})"),
         "'k' must be an integer from 1 to 1000000"},
        {"k fractional", "p.partition.json",
         QByteArray(R"({"format": "partition", "version": 1, "k": 1.5, "parts": {}})"), "'k' must be an integer"},
        {"part out of range", "p.partition.json",
         QByteArray(R"({"format": "partition", "version": 1, "k": 2, "parts": {"a": 2}})"),
         "/parts/a: part 2 is outside 0..1"},
        {"undirected dot", "g.dot", QByteArray("graph g { a -- b }"), "the graph is undirected"},
        {"dot syntax", "g.dot", QByteArray("digraph g { a -> ; }"), "not a valid DOT graph"},
        {"dot bad number", "g.dot", QByteArray("digraph g { a [flops=\"lots\"] }"),
         "node 'a': attribute flops=\"lots\" is not a number"},
        {"dot cycle", "g.dot", QByteArray("digraph g { a -> b -> c -> a }"), "graph has a cycle"},
        {"dot binary", "g.dot", QByteArray("digraph \x00 {}", 12), "binary data, not DOT text"},
        {"metis header", "g.graph", QByteArray("% only a comment\n3\n"), "the header must be 'n m [fmt [ncon]]'"},
        {"metis neighbour", "g.graph", QByteArray("2 1\n2\n7\n"), "g.graph:3: neighbour 7 is not a vertex 1..2"},
        {"metis asymmetric", "g.graph", QByteArray("2 1 1\n2 5\n1 4\n"), "not symmetric"},
        {"metis too few lines", "g.graph", QByteArray("3 1\n2\n1\n"), "declares 3 vertices but the file lists 2"},
        {"metis edge count", "g.graph", QByteArray("2 5\n2\n1\n"), "declares 5 edges but the lists hold 1"},
        {"metis huge n", "g.graph", QByteArray("999999999999 1\n"), "must be between 0 and 100000000"},
        {"metis text weight", "g.graph", QByteArray("2 1 1\n2 x\n1 1\n"), "'x' is not an integer"},
        {"csv header", "p.csv", QByteArray("id,dev\na,g\n"), "the first line must be the header 'node,device'"},
        {"csv unterminated", "p.csv", QByteArray("node,device\n\"a,g\n"), "unterminated quoted field"},
        {"csv duplicate", "p.csv", QByteArray("node,device\na,g\na,h\n"), "p.csv:3: node 'a' appears twice"},
        {"csv fields", "p.csv", QByteArray("node,device\na,g,h\n"), "expected 2 fields"},
        {"csv latin-1", "p.csv", QByteArray("node,device\na,g\ncaf\xE9,h\n"),
         "p.csv:3: not UTF-8 text (byte 0xE9); save the file as UTF-8"},
        {"unknown type", "x.txt", QByteArray("hello"), "unknown file type"},
        {"unknown json", "x.json", QByteArray(R"({"format": "other"})"),
         "x.json: a JSON file of \"format\" \"other\", which is not one read here (expected placement-graph"},
        {"json without format", "x.json", QByteArray(R"({"nodes": []})"), "x.json: a JSON file without a \"format\""},
        // Our own other files say what they are (a steering log was "without a known format").
        {"steering log", "s.json", QByteArray(R"({"format": "steering-log", "version": 1})"),
         "s.json: a steering log, not a graph, cluster, placement or partition file (`placement-cli rank` and "
         "`steer --replay` read it; the app opens it in its Steering dock)"},
        {"session by content", "s.json", QByteArray(R"({"format": "placement-studio-session"})"),
         "s.json: a Placement Studio session, not a graph"},
        {"session by name", "s.pstudio", QByteArray("{}"), "s.pstudio: a Placement Studio session"},
    };
}

} // namespace

class TestMalformed : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString loadError(const QString &name, const QByteArray &content)
    {
        const std::string path = test::writeFile(m_dir, name, content);
        try {
            loadFile(path);
        } catch (const InputError &e) {
            QString message = QString::fromStdString(e.what());
            if (!message.startsWith(QString::fromStdString(path)))
                return "(message does not name the file) " + message;
            return message;
        }
        return "(accepted)";
    }

private Q_SLOTS:
    void malformed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("fragment");
        for (const Case &c : malformedCases())
            QTest::newRow(c.row) << c.file << c.content << c.fragment;
    }

    void malformed()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, fragment);
        const QString message = loadError(name, content);
        QVERIFY2(message.contains(fragment), qPrintable("expected '" + fragment + "' in: " + message));
    }

    // Where the spec's text and its oracle differ, the text wins (see the issue notes): a key whose
    // value is null counts as absent, for "edges", "links" and compute_s entries alike.
    void nullCountsAsAbsent()
    {
        const std::string g = test::writeFile(
            m_dir, "null.graph.json",
            graph(
                R"("nodes": [{"id": "a", "op": "x", "flops": null, "compute_s": {"gpu": null, "cpu": 2}}], "edges": null)"));
        Graph loaded = loadGraph(g);
        QCOMPARE(loaded.edgeCount(), 0);
        QCOMPARE(loaded.flops(0), 0.0);
        QCOMPARE(loaded.computeOverrides(0).size(), size_t(1));
        const std::string c = test::writeFile(m_dir, "null.cluster.json", cluster(kOneDevice + R"(, "links": null)"));
        QCOMPARE(loadFile(c).cluster->deviceCount(), 1);
    }

    // Keys the spec does not define are ignored, and said (a graph whose nodes named their
    // "inputs" loaded without edges, and a device's "op_overhead" read as no overhead, in silence).
    void unknownKeysAreIgnoredAndSaid()
    {
        const std::string g = test::writeFile(
            m_dir, "inputs.graph.json",
            graph(R"("author": "me", "nodes": [{"id": "a", "op": "x"}, {"id": "b", "op": "y", "inputs": ["a"]},
                     {"id": "c", "op": "y", "inputs": ["b"], "shape": [2]}])"));
        LoadedFile loaded = loadFile(g);
        QCOMPARE(loaded.graph->edgeCount(), 0);
        QCOMPARE(loaded.warnings, std::vector<std::string>{
                                      "keys this reader does not know were ignored: 'inputs' on 2 nodes, 'author' at "
                                      "the top level, 'shape' on 1 node; the graph has no edges: they are read from "
                                      "\"edges\": [{\"src\": ID, \"dst\": ID, \"bytes\": N}]"});
        const std::string e = test::writeFile(m_dir, "edge.graph.json",
                                              graph(kTwoNodes + R"(, "edges": [{"src": "a", "dst": "b", "size": 4}])"));
        QCOMPARE(loadFile(e).warnings,
                 std::vector<std::string>{"keys this reader does not know were ignored: 'size' on 1 edge"});
        const std::string c = test::writeFile(
            m_dir, "typo.cluster.json",
            cluster(R"("devices": [{"name": "gpu:0", "type": "gpu", "flops_per_s": 1e12, "memory_bytes": 1e9,
                                    "op_overhead": 1e-5}, {"name": "gpu:1", "type": "gpu", "flops_per_s": 1e12,
                                    "memory_bytes": 1e9}], "default_link": {"bandwidth_bytes_per_s": 1e9, "latency": 1},
                       "links": [{"src": "gpu:0", "dst": "gpu:1", "bandwidth_bytes_per_s": 1e9, "oneway": true}])"));
        LoadedFile typo = loadFile(c);
        QCOMPARE(typo.cluster->device(0).opOverheadS, 0.0);
        QCOMPARE(typo.warnings, std::vector<std::string>{"keys this reader does not know were ignored: 'latency' on "
                                                         "1 default link, 'op_overhead' on 1 device, 'oneway' on 1 "
                                                         "link"});
        // Files of the spec's keys only say nothing.
        QVERIFY(loadFile(test::writeFile(m_dir, "plain.graph.json", graph(kTwoNodes))).warnings.empty());
        QVERIFY(loadFile(test::writeFile(m_dir, "plain.cluster.json", cluster(kTwoDevices + R"(, "default_link":
                    {"bandwidth_bytes_per_s": 1e9}, "links": [{"src": "gpu:0", "dst": "gpu:1",
                    "bandwidth_bytes_per_s": 1e9, "latency_s": 0, "bidirectional": false}])")))
                    .warnings.empty());
    }

    void missingFileIsAnInputError()
    {
        QString message;
        try {
            loadFile(m_dir.filePath("nothing.graph.json").toStdString());
        } catch (const InputError &e) {
            message = e.what();
        }
        QVERIFY2(message.contains("nothing.graph.json: cannot open: No such file"), qPrintable(message));
    }

    // The spec's oracle must reject the same graph and cluster files (it reads both kinds).
    void oracleAgreesOnRejection()
    {
        if (!test::oracleAvailable())
            QSKIP("python3 or ../shared/spec/reference_sim.py not present");
        const std::string validG = test::writeFile(m_dir, "valid.graph.json", validGraph());
        const std::string validC = test::writeFile(m_dir, "valid.cluster.json", validCluster());
        auto oracle = [&](const std::string &g, const std::string &c) {
            return test::runProgram("python3",
                                    {PS_ORACLE_PATH, "bound", QString::fromStdString(g), QString::fromStdString(c)});
        };
        QCOMPARE(oracle(validG, validC).exitCode, 0);
        int checked = 0;
        for (const Case &c : malformedCases()) {
            const bool isGraph = c.file.startsWith("g.graph.json");
            if (!isGraph && !c.file.startsWith("c.cluster.json"))
                continue;
            const std::string path = test::writeFile(m_dir, "oracle-" + c.file, c.content);
            auto r = isGraph ? oracle(path, validC) : oracle(validG, path);
            QVERIFY2(r.exitCode == 2, qPrintable(QString(c.row) + " accepted by the oracle: " + r.out));
            ++checked;
        }
        QVERIFY(checked >= 30);
    }
};

QTEST_GUILESS_MAIN(TestMalformed)
#include "tst_malformed.moc"
