// The TorchScript importer on the committed fixtures of tests/data (made by
// make_torchscript_fixtures.py): FLOPs by hand, parameters, scopes, edges, scripted control flow,
// agreement with the ONNX export of the same model, and bad files.
#include "common/GraphChecks.h"
#include "common/TestFiles.h"
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/io/FileKind.h"
#include "core/placers/PlacerRegistry.h"
#include "models/ModelImporters.h"

#include <QtTest>

using namespace ps;
using ps::test::flopsOf;

namespace {
std::string fixture(const char *name)
{
    return std::string(PS_SOURCE_DIR) + "/tests/data/" + name;
}

} // namespace

class TestTorchScript : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { installModelImporters(); }

    // The expert baseline on graphs imported from PyTorch: never slower than one device.
    void humanOnImportedGraphs()
    {
        ClusterBuilder b("gpus");
        for (int d = 0; d < 4; ++d)
            b.addDevice({"gpu:" + std::to_string(d), "gpu", 1e13, 16e9, 1e-5});
        b.addDevice({"cpu:0", "cpu", 5e11, 64e9, 1e-5});
        b.setDefaultLink({1e10, 1e-5});
        const Cluster c = b.build();
        for (const char *name : {"small_cnn.pt", "small_lstm.pt", "scripted_mlp.pt", "small_cnn.onnx"}) {
            const Graph g = loadGraph(fixture(name));
            const Constraints cons = Constraints::fromGraph(g, c);
            const PlacerResult human = runPlacer(PlacerRegistry::builtin(), "human", {g, c, cons, {}}, {}, {});
            const PlacerResult single = runPlacer(PlacerRegistry::builtin(), "single", {g, c, cons, {}}, {}, {});
            QVERIFY2(human.makespan <= single.makespan * (1 + 1e-12),
                     qPrintable(QString("%1: human %2, single %3").arg(name).arg(human.makespan).arg(single.makespan)));
            for (int v = 0; v < g.nodeCount(); ++v) // nothing on the CPU, 20x slower than a GPU
                QVERIFY(human.placement.device(v) != 4);
        }
    }

    void tracedCnnByHand()
    {
        LoadedFile file = loadFile(fixture("small_cnn.pt"));
        QVERIFY(file.warnings.empty());
        const Graph &g = *file.graph;
        QCOMPARE(g.nodeCount(), 10);
        // Conv2d(3, 8, 3, padding 1) on [2, 3, 16, 16]: 2 * 2*8*16*16 * 3*3*3.
        QCOMPARE(flopsOf(g, "features/0/convolution"), 2.0 * 2 * 8 * 16 * 16 * 3 * 9);
        const int conv = g.findNode("features/0/convolution");
        QCOMPARE(g.paramBytes(conv), 4.0 * (8 * 3 * 9 + 8));
        QCOMPARE(g.outBytes(conv), 4.0 * 2 * 8 * 16 * 16);
        QCOMPARE(g.scope(conv), std::string("features/0"));
        // BatchNorm reads four tensors of 8; the grouped conv (groups 2) after a 2x2 max pool.
        QCOMPARE(g.paramBytes(g.findNode("features/1/batch_norm")), 4.0 * 4 * 8);
        QCOMPARE(flopsOf(g, "features/3/max_pool2d"), 2.0 * 8 * 8 * 8 * 4);
        QCOMPARE(flopsOf(g, "features/4/convolution"), 2.0 * 2 * 8 * 8 * 8 * 4 * 9);
        QCOMPARE(flopsOf(g, "pool/adaptive_avg_pool2d"), 2.0 * 8 * 8 * 8);
        QCOMPARE(flopsOf(g, "fc/linear"), 2.0 * 2 * 4 * 8);
        QCOMPARE(flopsOf(g, "flatten"), 0.0);
        QCOMPARE(g.edgeCount(), 9); // a chain
        QCOMPARE(g.successorBytes(conv)[0], 4.0 * 2 * 8 * 16 * 16);
    }

    void batchOverridesTheRecordedShape()
    {
        LoadOptions options;
        options.batch = 4;
        const Graph g = loadGraph(fixture("small_cnn.pt"), options);
        QCOMPARE(flopsOf(g, "features/0/convolution"), 2.0 * 4 * 8 * 16 * 16 * 3 * 9);
        // forward() runs on real tensors: inputs past a tenth of the free memory are refused before
        // it runs (2^50 floats, 4.5 PB; the batch, when given, replaces the first dimension).
        options.batch = 0;
        options.inputs = {{{1 << 20, 1 << 20, 1 << 10}, "float32"}};
        try {
            loadGraph(fixture("small_cnn.pt"), options);
            QFAIL("an input of 4 TB was run");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("small_cnn.pt: its inputs at these shapes take 4.5e+06 GB, more than "
                                                "a tenth of the"),
                     e.what());
        }
    }

    void lstmByHand()
    {
        const Graph g = loadGraph(fixture("small_lstm.pt"));
        // Two layers, 5 steps, batch 2, 8 inputs, 16 hidden: matrix products plus 13 per unit.
        auto layer = [](double input) { return 5 * (2 * 2 * 64 * input + 2 * 2 * 64 * 16 + 13 * 2 * 16); };
        QCOMPARE(flopsOf(g, "lstm/lstm"), layer(8) + layer(16));
        QCOMPARE(g.paramBytes(g.findNode("lstm/lstm")), 4.0 * ((64 * 8 + 64 * 16 + 128) + (64 * 16 + 64 * 16 + 128)));
        QCOMPARE(g.paramBytes(g.findNode("embed/embedding")), 4.0 * 20 * 8);
        // The initial states are made from the input's size only: no data edge.
        QCOMPARE(g.inDegree(g.findNode("lstm/zeros")), 0);
        QCOMPARE(g.inDegree(g.findNode("lstm/lstm")), 3);
    }

    void scriptedBranchIsFollowed()
    {
        LoadedFile file = loadFile(fixture("scripted_mlp.pt"));
        QCOMPARE(file.warnings.size(), size_t(1));
        QVERIFY(QString::fromStdString(file.warnings[0]).contains("1 branches taken"));
        const Graph &g = *file.graph;
        QCOMPARE(flopsOf(g, "hidden/linear"), 2.0 * 4 * 32 * 10);
        QCOMPARE(flopsOf(g, "out/linear"), 2.0 * 4 * 3 * 32);
    }

    void agreesWithTheOnnxExport()
    {
        // The same model exported to ONNX (BatchNorm folded into the conv by the exporter).
        LoadOptions options;
        options.batch = 2;
        const Graph onnx = loadGraph(fixture("small_cnn.onnx"), options);
        const Graph pt = loadGraph(fixture("small_cnn.pt"));
        QCOMPARE(flopsOf(onnx, "/features/features.0/Conv"), flopsOf(pt, "features/0/convolution"));
        QCOMPARE(flopsOf(onnx, "/features/features.4/Conv"), flopsOf(pt, "features/4/convolution"));
        QCOMPARE(flopsOf(onnx, "/features/features.3/MaxPool"), flopsOf(pt, "features/3/max_pool2d"));
        QCOMPARE(flopsOf(onnx, "/fc/Gemm"), flopsOf(pt, "fc/linear"));
        QCOMPARE(onnx.totalFlops(), pt.totalFlops() - pt.flops(pt.findNode("features/1/batch_norm")));
    }

    void shapesMustBeKnown()
    {
        try {
            loadGraph(fixture("no_shapes.pt"));
            QFAIL("a module without recorded input shapes was imported");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("--input-shape"), e.what());
        }
        LoadOptions options;
        options.inputs = {{{3, 6}, "float32"}};
        const Graph g = loadGraph(fixture("no_shapes.pt"), options);
        QCOMPARE(flopsOf(g, "0/linear"), 2.0 * 3 * 3 * 6);
        QCOMPARE(flopsOf(g, "1/tanh"), 9.0);
        options.inputs.push_back({{1}, "float32"});
        QVERIFY_EXCEPTION_THROWN(loadGraph(fixture("no_shapes.pt"), options), InputError);
        options.inputs = {{{3, 6}, "complex7"}};
        QVERIFY_EXCEPTION_THROWN(loadGraph(fixture("no_shapes.pt"), options), InputError);
        options.inputs = {{{3, 7}, "float32"}}; // the wrong width: the model itself refuses it
        try {
            loadGraph(fixture("no_shapes.pt"), options);
            QFAIL("a wrong input shape was accepted");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("example inputs failed"), e.what());
        }
    }

    void badFiles()
    {
        QTemporaryDir dir;
        const QByteArray good = test::readFile(fixture("small_cnn.pt"));
        for (const auto &[name, bytes] : std::vector<std::pair<QString, QByteArray>>{
                 {"truncated.pt", good.left(good.size() / 2)},
                 {"garbage.pt", QByteArray("PK\x03\x04 certainly not a zip archive", 34)},
                 {"empty.pt", QByteArray()}}) {
            const std::string path = test::writeFile(dir, name, bytes);
            try {
                loadFile(path);
                QFAIL(qPrintable(name + " was accepted"));
            } catch (const InputError &e) {
                QVERIFY2(QString(e.what()).contains("not a readable TorchScript file"), e.what());
                QVERIFY2(QString(e.what()).contains(name), e.what());
            }
        }
        // Cut short anywhere: refused, saying where the file ends.
        const int size = static_cast<int>(good.size());
        for (int cut : {1, 21, 22, 100, size / 3, size - 23, size - 22, size - 1}) {
            const std::string path = test::writeFile(dir, "cut.pt", good.left(cut));
            try {
                loadFile(path);
                QFAIL(qPrintable(QString("a prefix of %1 bytes was accepted").arg(cut)));
            } catch (const InputError &e) {
                QVERIFY2(QString(e.what()).contains(QString("of %1 bytes").arg(cut)), e.what());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTorchScript)
#include "tst_torchscript.moc"
