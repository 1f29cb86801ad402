// The built-in generators: sizes and FLOPs computed by hand, determinism, parameter errors.
#include "core/InputError.h"
#include "core/generators/Generators.h"

#include <QtTest>

using namespace ps;

class TestGenerators : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rnnlmSizesAndFlops()
    {
        const Graph g = generate("rnnlm", {{"layers", 2}, {"steps", 3}, {"batch", 4}, {"hidden", 8}, {"vocab", 10}}, 1);
        // 6 weights; per step: lookup, 2 softmax ops, and per layer 8 ops at step 0, 12 later.
        QCOMPARE(g.nodeCount(), 6 + 3 * 3 + 2 * (8 + 12 + 12));
        const int xw = g.findNode("lstm/layer1/step2/x_matmul");
        QVERIFY(xw >= 0);
        QCOMPARE(g.flops(xw), 2.0 * 4 * (4 * 8) * 8); // [4,8] x [8,32]
        QCOMPARE(g.outBytes(xw), 4.0 * 4 * 32);
        QCOMPARE(g.flops(g.findNode("softmax/step0/logits")), 2.0 * 4 * 8 * 10);
        QCOMPARE(g.flops(g.findNode("softmax/step0/softmax")), 4.0 * 10);
        // A weight fetch holds its tensor once; it feeds every step.
        const int wh = g.findNode("lstm/layer0/W_h");
        QCOMPARE(g.memBytes(wh), 4.0 * 8 * 32);
        QCOMPARE(g.outDegree(wh), 2); // steps 1 and 2 (step 0 has no previous hidden state)
        QCOMPARE(g.outDegree(g.findNode("softmax/W")), 3);
        QCOMPARE(g.scope(xw), std::string("lstm/layer1/step2"));
        // The hidden state flows from step to step and layer to layer.
        const int h = g.findNode("lstm/layer0/step1/hidden");
        QVERIFY(g.level(h) > g.level(g.findNode("lstm/layer0/step0/hidden")));
    }

    void layeredRandomIsDeterministic()
    {
        const Graph a = generate("layered-random", {{"nodes", 500}, {"out_degree", 3}}, 9);
        const Graph b = generate("layered-random", {{"nodes", 500}, {"out_degree", 3}}, 9);
        const Graph c = generate("layered-random", {{"nodes", 500}, {"out_degree", 3}}, 10);
        QCOMPARE(a.nodeCount(), 500);
        QCOMPARE(a.edgeCount(), 1500);
        bool same = true, differs = false;
        for (int e = 0; e < a.edgeCount(); ++e) {
            same = same && a.edgeSrc(e) == b.edgeSrc(e) && a.edgeDst(e) == b.edgeDst(e);
            differs = differs || a.edgeSrc(e) != c.edgeSrc(e) || a.edgeDst(e) != c.edgeDst(e);
        }
        QVERIFY(same);
        QVERIFY(differs);
        for (int v = 0; v < a.nodeCount(); ++v)
            QCOMPARE(a.flops(v), b.flops(v));
    }

    void parameterErrors()
    {
        auto error = [](const std::string &name, std::map<std::string, double> values) {
            try {
                generate(name, values, 1);
            } catch (const InputError &e) {
                return QString(e.what());
            }
            return QString();
        };
        QCOMPARE(error("rnnlm", {{"layers", 0}}), QString("rnnlm: 'layers' must be a whole number from 1 to 64"));
        QCOMPARE(error("rnnlm", {{"steps", 2.5}}), QString("rnnlm: 'steps' must be a whole number from 1 to 10000"));
        QVERIFY(error("rnnlm", {{"depth", 2}}).startsWith("rnnlm has no parameter 'depth'"));
        QVERIFY(error("gpt", {}).startsWith("unknown generator 'gpt' (available: layered-random, rnnlm"));
    }
};

QTEST_GUILESS_MAIN(TestGenerators)
#include "tst_generators.moc"
