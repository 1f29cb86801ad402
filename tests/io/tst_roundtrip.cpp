// Round trips between formats keep what each format can carry.
#include "common/TestFiles.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/ClusterJson.h"
#include "core/io/DotFormat.h"
#include "core/io/FileBytes.h"
#include "core/io/FileKind.h"
#include "core/io/GraphJson.h"
#include "core/io/JsonSplice.h"
#include "core/io/JsonText.h"
#include "core/io/MetisFormat.h"
#include "core/io/PlacementCsv.h"
#include "core/io/PlacementJson.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace ps;

namespace {

Graph richGraph()
{
    GraphBuilder b("rich \"model\"");
    auto add = [&](const std::string &id, const std::string &op, double flops, double out,
                   const std::string &scope) -> GraphBuilder::NodeSpec {
        GraphBuilder::NodeSpec s;
        s.id = id;
        s.op = op;
        s.flops = flops;
        s.outBytes = out;
        s.scope = scope;
        return s;
    };
    auto in = add("input", "Input", 0, 4096, "");
    auto conv = add("enc/conv 1", "Conv", 1.5e9, 8192, "enc/block0");
    conv.paramBytes = 3456;
    conv.computeS = {{"gpu", 1.1e-4}, {"cpu", 2.5e-3}};
    conv.colocate = "stem";
    auto relu = add("enc/relu,1", "Relu", 2048, 8192, "enc/block0");
    relu.colocate = "stem";
    auto weight = add("w", "Const", 0, 0, "enc");
    weight.paramBytes = 1e6;
    weight.memBytes = 1e6; // a weight fetch counts its tensor once
    auto out = add("out", "Softmax", 1000, 400, "head");
    out.pin = "gpu:1";
    for (auto *s : {&in, &conv, &relu, &weight, &out})
        b.addNode(*s);
    b.addEdge("input", "enc/conv 1");
    b.addEdge("w", "enc/conv 1", 1e6);
    b.addEdge("enc/conv 1", "enc/relu,1");
    b.addEdge("enc/conv 1", "enc/relu,1", 17); // a parallel edge
    b.addEdge("enc/relu,1", "out");
    b.addEdge("input", "out", 0);
    return b.build();
}

Cluster twoGpus()
{
    ClusterBuilder b("2gpu");
    b.addDevice({"gpu:0", "gpu", 1.4e13, 1.6e10, 5e-6});
    b.addDevice({"gpu:1", "gpu", 1.4e13, 1.6e10, 5e-6});
    b.addDevice({"cpu", "cpu", 1e11, 6.4e10, 0});
    b.setDefaultLink({1e10, 1e-5});
    b.addLink("gpu:0", "gpu:1", {5e10, 2e-6}, true);
    b.addLink("cpu", "gpu:0", {8e9, 1e-5}, false);
    return b.build();
}

// compute_s is a map from device type to seconds; its order is not meaningful.
std::map<std::string, double> computeMap(const Graph &g, int v)
{
    std::map<std::string, double> m;
    for (const auto &o : g.computeOverrides(v))
        m[g.deviceTypeNames()[o.deviceType]] = o.seconds;
    return m;
}

void expectSameGraph(const Graph &a, const Graph &b)
{
    QCOMPARE(b.nodeCount(), a.nodeCount());
    QCOMPARE(b.edgeCount(), a.edgeCount());
    for (int v = 0; v < a.nodeCount(); ++v) {
        QCOMPARE(b.id(v), a.id(v));
        QCOMPARE(b.op(v), a.op(v));
        QCOMPARE(b.flops(v), a.flops(v));
        QCOMPARE(b.outBytes(v), a.outBytes(v));
        QCOMPARE(b.paramBytes(v), a.paramBytes(v));
        QCOMPARE(b.memBytes(v), a.memBytes(v));
        QCOMPARE(b.scope(v), a.scope(v));
        QCOMPARE(b.rank(v), a.rank(v));
        QCOMPARE(computeMap(b, v), computeMap(a, v));
        QCOMPARE(b.colocateGroup(v) >= 0, a.colocateGroup(v) >= 0);
        QCOMPARE(b.pin(v) >= 0, a.pin(v) >= 0);
        if (a.pin(v) >= 0)
            QCOMPARE(b.pinNames()[b.pin(v)], a.pinNames()[a.pin(v)]);
    }
    for (int e = 0; e < a.edgeCount(); ++e) {
        QCOMPARE(b.edgeSrc(e), a.edgeSrc(e));
        QCOMPARE(b.edgeDst(e), a.edgeDst(e));
        QCOMPARE(b.edgeBytes(e), a.edgeBytes(e));
    }
}

} // namespace

class TestRoundTrip : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string path(const char *name) { return m_dir.filePath(name).toStdString(); }

private Q_SLOTS:
    // The one format table: every extension it names maps back to its format (gzipped where the
    // table says so), and the dialog filters and error messages come from it.
    // Values spliced into a dumped document in place of their placeholders; strings that only
    // look like one are kept.
    void jsonSpliceFillsPlaceholders()
    {
        JsonSplice splice;
        nlohmann::json j;
        j["a"] = splice.hold("[1,2,3]");
        j["b"] = {{"c", splice.hold("{\"x\": 1}")}, {"d", std::string("\x01") + "x"}};
        j["e"] = std::string("\x01") + "7"; // no seventh value held
        const std::string text = splice.fill(j.dump(1));
        const nlohmann::json back = nlohmann::json::parse(text);
        QCOMPARE(back["a"], nlohmann::json({1, 2, 3}));
        QVERIFY(text.find("\"a\": [1,2,3]") != std::string::npos); // as held, on one line
        QCOMPARE(back["b"]["c"]["x"].get<int>(), 1);
        QCOMPARE(back["b"]["d"].get<std::string>(), std::string("\x01x"));
        QCOMPARE(back["e"].get<std::string>(), std::string("\x01") + "7");
        QCOMPARE(JsonSplice().fill("{\"k\": 1}"), std::string("{\"k\": 1}"));
    }

    void formatTableIsTheOneSource()
    {
        for (const FormatInfo &f : fileFormats())
            for (std::string e : f.extensions) {
                QVERIFY(namePatterns(f.kind).find("*" + e) != std::string::npos);
                if (e == ".part.*") // a METIS partition's K
                    e = ".part.16";
                QCOMPARE(formatFromName("dir/x" + e), f.format);
                QCOMPARE(isModelFile("x" + e), f.model);
                if (f.gzip)
                    QCOMPARE(formatFromName("x" + e + ".gz"), f.format);
            }
        QCOMPARE(formatFromName("g.graph.part.4"), FileFormat::MetisPartition);
        QVERIFY_EXCEPTION_THROWN(formatFromName("g.part"), InputError);
        QVERIFY_EXCEPTION_THROWN(formatFromName("g.part.x4"), InputError);
        QCOMPARE(formatFromName("model.torchscript"), FileFormat::TorchScript);
        QVERIFY(dialogFilters().find("Graphs (*.graph.json *.graph.json.gz") == 0);
        QVERIFY(dialogFilters().find("*.torchscript") != std::string::npos);
        QVERIFY(dialogFilters().find("Clusters (*.cluster.json *.cluster.json.gz)") != std::string::npos);
        try {
            formatFromName("notes.txt");
            QFAIL("a .txt was taken for a format");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains(".torchscript") && QString(e.what()).contains(".partition.json"),
                     e.what());
        }
        QVERIFY_EXCEPTION_THROWN(formatFromName("model.onnx.gz"), InputError); // importers read the file itself
    }

    void graphJsonPlainAndGzip()
    {
        const Graph g = richGraph();
        writeGraphJson(path("g.graph.json"), g);
        writeGraphJson(path("g.graph.json.gz"), g);
        QVERIFY(isGzip(test::readFile(path("g.graph.json.gz")).toStdString()));
        QVERIFY(!isGzip(test::readFile(path("g.graph.json")).toStdString()));
        Graph plain = loadGraph(path("g.graph.json"));
        QCOMPARE(plain.name(), g.name());
        expectSameGraph(g, plain);
        expectSameGraph(g, loadGraph(path("g.graph.json.gz")));
    }

    void gzipIsRecognisedByContentNotName()
    {
        const Graph g = richGraph();
        const std::string text = graphToJson(g);
        const std::string p = test::writeFile(m_dir, "hidden.graph.json", QByteArray::fromStdString(gzip(text)));
        expectSameGraph(g, loadGraph(p));
    }

    void dotKeepsEveryAttribute()
    {
        const Graph g = richGraph();
        writeDot(path("g.dot"), g);
        expectSameGraph(g, loadGraph(path("g.dot")));
    }

    // A DOT file from another tool: an anonymous graph has no name (cgraph's "%1" leaked before),
    // and ops without costs are said to have none; ours, with costs, load without a warning.
    void foreignDotIsNamedAndCostsAreWarnedOf()
    {
        const std::string foreign = test::writeFile(m_dir, "foreign.dot", "strict digraph { a -> b; b -> c; }");
        const LoadedFile file = loadFile(foreign);
        QCOMPARE(file.graph->name(), std::string());
        QCOMPARE(file.graph->nodeCount(), 3);
        QCOMPARE(static_cast<int>(file.warnings.size()), 1);
        QVERIFY2(file.warnings[0].find("no op carries a compute cost") != std::string::npos, file.warnings[0].c_str());
        writeDot(path("rich.dot"), richGraph());
        QVERIFY(loadFile(path("rich.dot")).warnings.empty());
    }

    // Ids that quotes cannot hold in DOT (a backslash that would escape the closing quote, a quote
    // or a line break, a line break alone between quotes: the file did not read back, or read back
    // other ids; found by fuzz_dot's round-trip check) and names beginning
    // with '%' (which cgraph forgets: they read back as "%1", "%3", ...) read back as written.
    void dotKeepsIdsGraphvizWouldChange()
    {
        const std::vector<std::string> ids = {"end\\", "q\\\"x", "bs\\\nnl", "two\\\\", "%pct", "%h\\", "x<y>\\",
                                              "a\\b",  "\"",     "\n",       "\n\"x",   "\"\n", "\n-"};
        GraphBuilder b("%model\\");
        for (const std::string &id : ids) {
            GraphBuilder::NodeSpec s;
            s.id = id;
            s.op = "Op\\";
            s.flops = 1e9;
            s.scope = "scope\\";
            b.addNode(s);
        }
        for (size_t i = 0; i + 1 < ids.size(); ++i)
            b.addEdge(ids[i], ids[i + 1]);
        const Graph g = b.build();
        const Cluster c = twoGpus();
        Placement p(std::vector<int>(ids.size(), 1));
        writeDot(path("awkward.dot"), g, &c, &p);
        const LoadedFile file = loadFile(path("awkward.dot"));
        expectSameGraph(g, *file.graph);
        QVERIFY(file.warnings.empty());

        // Neither form holds a backslash before the end beside angle brackets that do not nest: said.
        GraphBuilder bad("bad");
        GraphBuilder::NodeSpec s;
        s.id = "x>\\";
        s.op = "Op";
        bad.addNode(s);
        const QByteArray before = test::readFile(path("awkward.dot"));
        try {
            writeDot(path("awkward.dot"), bad.build());
            QFAIL("an id DOT cannot hold was written");
        } catch (const InputError &e) {
            QVERIFY2(std::string(e.what()).find("'x>\\' cannot be written in DOT") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("awkward.dot") != std::string::npos, e.what());
        }
        QCOMPARE(test::readFile(path("awkward.dot")), before); // the file is left as it was

        // Another tool's '%' names are read as cgraph calls them, and said.
        const std::string foreign =
            test::writeFile(m_dir, "percent.dot", "digraph { \"%a\" -> \"%b\" [bytes=1]; \"%b\" [flops=1]; }");
        const LoadedFile read = loadFile(foreign);
        QCOMPARE(read.graph->nodeCount(), 2);
        QVERIFY(read.graph->id(0).front() == '%' && read.graph->id(0) != "%a");
        QCOMPARE(static_cast<int>(read.warnings.size()), 1);
        QVERIFY2(read.warnings[0].find("2 node name(s) begin with '%'") != std::string::npos, read.warnings[0].c_str());
    }

    // DOT does not promise UTF-8. Bytes that are not are read as Latin-1, as Graphviz reads them,
    // and said; a file that says charset=latin1 is read so throughout (its UTF-8-looking pairs
    // too), silently. Before, such names went into JSON as they were: `info` failed with an
    // internal error and a converted .graph.json did not read back.
    void dotInLatin1IsReadAsGraphvizReadsIt()
    {
        const std::string text = "digraph \"caf\xE9\" {\n%1  \"na\xEFve\" [flops=\"1e9\", scope=\"s\xC3\xA9/x\"];\n"
                                 "  \"na\xEFve\" -> b;\n}\n";
        const auto load = [&](const std::string &name, const std::string &charset) {
            std::string file = text;
            file.replace(file.find("%1"), 2, charset);
            return loadFile(test::writeFile(m_dir, name.c_str(), QByteArray::fromStdString(file)));
        };
        const LoadedFile guessed = load("guessed.dot", "");
        QCOMPARE(guessed.graph->name(), std::string("caf\u00e9"));
        QCOMPARE(guessed.graph->id(0), std::string("na\u00efve"));
        QCOMPARE(guessed.graph->scope(0), std::string("s\u00e9/x")); // UTF-8 already
        QCOMPARE(static_cast<int>(guessed.warnings.size()), 1);
        QVERIFY2(guessed.warnings[0].find("2 name(s) or attribute(s) are not UTF-8") != std::string::npos,
                 guessed.warnings[0].c_str());
        writeGraphJson(path("latin1.graph.json"), *guessed.graph);
        expectSameGraph(*guessed.graph, loadGraph(path("latin1.graph.json")));

        const LoadedFile said = load("said.dot", "  charset=\"ISO-8859-1\";\n");
        QCOMPARE(said.graph->id(0), std::string("na\u00efve"));
        QCOMPARE(said.graph->scope(0), std::string("s\u00c3\u00a9/x"));
        QVERIFY(said.warnings.empty());
    }

    // cgraph's lexer keeps what it buffered past the first graph of a file: the next file read in
    // the same process (the app opening another DOT file) read that leftover graph instead of its
    // own. Found by fuzz_dot's round-trip check.
    void aDotFileReadsItsOwnGraph()
    {
        std::vector<std::string> warnings;
        const Graph first = parseDot("digraph a { x -> y } digraph b { leftover }", "two.dot", &warnings);
        QCOMPARE(first.nodeCount(), 2);
        QCOMPARE(warnings, std::vector<std::string>{"the file holds 2 graphs; only the first, 'a', is read"});
        // Braces in comments, quoted and <...> ids are not graphs.
        warnings.clear();
        parseDot("/*/ } { */ digraph { // {\n x [label=\"}{\\\"{\"]; y [label=<<b>{</b>>]\n#{\n x -> y }", "one.dot",
                 &warnings);
        QCOMPARE(warnings, std::vector<std::string>{});
        const Graph next = parseDot("digraph c { z }", "next.dot");
        QCOMPARE(next.name(), std::string("c"));
        QCOMPARE(next.nodeCount(), 1);
        QCOMPARE(next.id(0), std::string("z"));
        QVERIFY_EXCEPTION_THROWN(parseDot("digraph d { p -> }", "bad.dot"), InputError);
        QCOMPARE(parseDot("digraph e { q }", "after-error.dot").id(0), std::string("q"));
    }

    void dotWithPlacementShowsDevices()
    {
        const Graph g = richGraph();
        const Cluster c = twoGpus();
        Placement p({0, 0, 0, 2, 1});
        writeDot(path("placed.gv"), g, &c, &p);
        const QByteArray text = test::readFile(path("placed.gv"));
        QVERIFY(text.contains("subgraph \"cluster_gpu:0\""));
        QVERIFY(text.contains("subgraph \"cluster_cpu\""));
        QVERIFY(text.contains(("fillcolor=\"" + deviceColor(2) + "\"").c_str()));
        QVERIFY(text.contains("color=\"#d62728\""));      // a cross-device edge
        expectSameGraph(g, loadGraph(path("placed.gv"))); // node order survives the subgraphs
    }

    void metisKeepsMergedWeights()
    {
        const Graph g = richGraph();
        writeMetis(path("g.graph"), g);
        Graph m = loadGraph(path("g.graph"));
        QCOMPARE(m.nodeCount(), g.nodeCount());
        // conv->relu twice and the other 4 edges: 5 undirected edges.
        QCOMPARE(m.edgeCount(), 5);
        // flops are below 2^29 in total only after scaling: 1.5e9 dominates.
        const QByteArray text = test::readFile(path("g.graph"));
        QVERIFY(text.contains("% vertex weight 1 = flops / "));
        // conv (vertex 2) - relu (vertex 3): 8192 + 17 bytes merged.
        int conv = m.findNode("2"), relu = m.findNode("3");
        bool found = false;
        for (int e = 0; e < m.edgeCount(); ++e)
            if (m.edgeSrc(e) == conv && m.edgeDst(e) == relu) {
                found = true;
                QCOMPARE(m.edgeBytes(e), 8209.0);
            }
        QVERIFY(found);
        // A zero-byte edge is written with weight 1: METIS needs positive edge weights.
        int input = m.findNode("1"), out = m.findNode("5");
        for (int e = 0; e < m.edgeCount(); ++e)
            if (m.edgeSrc(e) == input && m.edgeDst(e) == out)
                QCOMPARE(m.edgeBytes(e), 1.0);
    }

    void metisRoundTripIsExactForIntegerWeights()
    {
        const QByteArray text = "% a comment\n4 4 011\n3 2 1 3 2\n1 1 1 3 5 4 7\n2 1 2 2 5\n9 2 7\n";
        const std::string p = test::writeFile(m_dir, "m.metis", text);
        Graph m = loadGraph(p);
        QCOMPARE(m.nodeCount(), 4);
        QCOMPARE(m.edgeCount(), 4);
        QCOMPARE(m.flops(3), 9.0);
        writeGraphJson(path("m.graph.json"), m);
        writeMetis(path("m2.metis"), loadGraph(path("m.graph.json")));
        // Same header and vertex lines, apart from the comments.
        QStringList again;
        for (const QByteArray &line : test::readFile(path("m2.metis")).split('\n'))
            if (!line.startsWith('%') && !line.isEmpty())
                again << QString(line);
        QCOMPARE(again, (QStringList{"4 4 011", "3 2 1 3 2", "1 1 1 3 5 4 7", "2 1 2 2 5", "9 2 7"}));
    }

    void metisMemoryAsSecondConstraint()
    {
        writeMetis(path("mem.graph"), richGraph(), true);
        QVERIFY(test::readFile(path("mem.graph")).contains(" 011 2\n"));
        Graph m = loadGraph(path("mem.graph"));
        QVERIFY(m.memBytes(3) > 0);
    }

    void clusterJsonKeepsLinks()
    {
        const Cluster c = twoGpus();
        writeClusterJson(path("c.cluster.json.gz"), c);
        LoadedFile f = loadFile(path("c.cluster.json.gz"));
        QVERIFY(f.cluster.has_value());
        QCOMPARE(f.cluster->deviceCount(), 3);
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                if (a != b) {
                    QCOMPARE(f.cluster->link(a, b).bandwidthBytesPerS, c.link(a, b).bandwidthBytesPerS);
                    QCOMPARE(f.cluster->link(a, b).latencyS, c.link(a, b).latencyS);
                }
        QCOMPARE(f.cluster->device(0).opOverheadS, 5e-6);
    }

    // What this program writes is JSON its readers accept, whatever bytes went in (a Latin-1 file
    // name in a run's parameters or in a report): such bytes become U+FFFD. Before, the placement
    // file did not read back, and nlohmann's writer threw, which ended a command that had done its
    // work with "internal error".
    void textThatIsNotUtf8IsWrittenAsJsonThatReadsBack()
    {
        const Graph g = richGraph();
        const Cluster c = twoGpus();
        Placement p({1, 0, 0, 2, 1});
        p.producerModel = "caf\xE9";
        writePlacementJson(path("latin1.placement.json"), toDoc(p, g, c));
        QCOMPARE(readPlacementJson(path("latin1.placement.json")).producerModel, std::string("caf\uFFFD"));
        QCOMPARE(jsonText(nlohmann::json{{"out", "caf\xE9.json"}}), std::string("{\"out\":\"caf\uFFFD.json\"}"));
        QCOMPARE(jsonText(nlohmann::ordered_json{{"a", "ok"}}, 1), std::string("{\n \"a\": \"ok\"\n}"));
    }

    void placementJsonAndCsv()
    {
        const Graph g = richGraph();
        const Cluster c = twoGpus();
        Placement p({1, 0, 0, 2, 1});
        p.producerModel = "heft";
        p.producerParamsJson = R"({"insertion":true})";
        writePlacementJson(path("p.placement.json"), toDoc(p, g, c), R"({"makespan_s": 0.5})");
        PlacementDoc doc = readPlacementJson(path("p.placement.json"));
        QCOMPARE(doc.producerModel, std::string("heft"));
        QCOMPARE(doc.producerParamsJson, std::string(R"({"insertion":true})"));
        QCOMPARE(resolvePlacement(doc, g, c).devices(), p.devices());

        writePlacementCsv(path("p.csv"), doc);
        const QByteArray csv = test::readFile(path("p.csv"));
        QVERIFY(csv.startsWith("node,device\n"));
        QVERIFY(csv.contains("\"enc/relu,1\",gpu:0\n")); // quoted because of the comma
        QCOMPARE(resolvePlacement(readPlacementCsv(path("p.csv")), g, c).devices(), p.devices());
    }

    void placementResolutionErrors()
    {
        const Graph g = richGraph();
        const Cluster c = twoGpus();
        auto error = [&](PlacementDoc doc) {
            try {
                resolvePlacement(doc, g, c);
            } catch (const InputError &e) {
                return QString(e.what());
            }
            return QString();
        };
        PlacementDoc full = toDoc(Placement({0, 0, 0, 0, 0}), g, c);
        PlacementDoc missing = full;
        missing.assignment.pop_back();
        QCOMPARE(error(missing), QString("1 nodes unassigned, e.g. 'out'"));
        PlacementDoc unknownDevice = full;
        unknownDevice.assignment[0].second = "tpu:7";
        QCOMPARE(error(unknownDevice), QString("node 'input' assigned to unknown device 'tpu:7'"));
        PlacementDoc unknownNode = full;
        unknownNode.assignment.emplace_back("ghost", "gpu:0");
        QCOMPARE(error(unknownNode), QString("assignment names unknown node 'ghost'"));
    }

    void partitionJson()
    {
        const Graph g = richGraph();
        Partition p(3, {0, 1, 1, 2, 0});
        writePartitionJson(path("p.partition.json"), toDoc(p, g));
        Partition back = resolvePartition(readPartitionJson(path("p.partition.json")), g);
        QCOMPARE(back.k(), 3);
        QCOMPARE(back.parts(), p.parts());
        QCOMPARE(back.partsUsed(), 3);
    }

    // What gpmetis and KaHIP write as GRAPH.part.K: one part per line in vertex order, which is
    // the graph's node order as the METIS export numbers it; K from the name. Read wherever a
    // partition goes (it was an unknown file type), written, and its errors said by line.
    void metisPartitionFiles()
    {
        const Graph g = richGraph();
        const Partition p(3, {0, 1, 1, 2, 0});
        writeMetisPartition(path("g.graph.part.3"), p);
        QCOMPARE(test::readFile(path("g.graph.part.3")), QByteArray("0\n1\n1\n2\n0\n"));
        const LoadedFile file = loadFile(path("g.graph.part.3"));
        QCOMPARE(file.format, FileFormat::MetisPartition);
        QVERIFY(file.partition);
        QCOMPARE(resolvePartition(*file.partition, g).parts(), p.parts());
        // '%' comments, blank lines and CRLF, as METIS files have.
        const PartitionDoc doc = parseMetisPartition("% from gpmetis\r\n0\r\n\n2\r\n1\n1\n0", "x.part.3");
        QCOMPARE(resolvePartition(doc, g).parts(), (std::vector<int>{0, 2, 1, 1, 0}));
        const auto refused = [](const std::function<void()> &f) {
            try {
                f();
            } catch (const InputError &e) {
                return std::string(e.what());
            }
            return std::string("(nothing thrown)");
        };
        QCOMPARE(refused([&] { writeMetisPartition(path("g.graph.part.4"), p); }),
                 path("g.graph.part.4") + ": a METIS partition of 3 parts is named *.part.3");
        QCOMPARE(refused([] { parseMetisPartition("0\n3\n", "x.part.3"); }),
                 std::string("x.part.3:2: part 3 is outside 0..2 (the name says 3 parts)"));
        QCOMPARE(refused([] { parseMetisPartition("0 1\n", "x.part.3"); }),
                 std::string("x.part.3:1: expected one part number, found 2 fields"));
        QCOMPARE(refused([] { parseMetisPartition("-1\n", "x.part.3"); }),
                 std::string("x.part.3:1: part -1 is outside 0..2 (the name says 3 parts)"));
        QCOMPARE(refused([] { parseMetisPartition("% only a comment\n", "x.part.3"); }),
                 std::string("x.part.3: an empty METIS partition (one part per line expected)"));
        QCOMPARE(refused([] { parseMetisPartition("0\n", "x.part.0"); }),
                 std::string("x.part.0: a METIS partition's name ends in .part.K, K from 1 to 1000000"));
        QCOMPARE(refused([&] { resolvePartition(parseMetisPartition("0\n1\n", "x.part.3"), g); }),
                 std::string("the partition gives 2 parts in node order for a graph of 5 nodes: it partitions "
                             "another graph"));
    }

    void atomicWriteReplacesAndLeavesNoTemporaries()
    {
        const std::string p = path("atomic/x.graph.json");
        QVERIFY(QDir(m_dir.path()).mkpath("atomic"));
        writeFileAtomic(p, "old");
        writeFileAtomic(p, "new contents");
        QCOMPARE(test::readFile(p), QByteArray("new contents"));
        QCOMPARE(QDir(m_dir.filePath("atomic")).entryList(QDir::Files), QStringList{"x.graph.json"});
        QString message;
        try {
            writeFileAtomic(path("no/such/folder/x.json"), "x");
        } catch (const InputError &e) {
            message = e.what();
        }
        QVERIFY2(message.contains("cannot write"), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "tst_roundtrip.moc"
