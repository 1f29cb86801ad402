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

    void gnmtStructure()
    {
        const Graph g = generate(
            "gnmt",
            {{"layers", 4}, {"source_steps", 3}, {"target_steps", 2}, {"batch", 2}, {"hidden", 4}, {"vocab", 7}}, 1);
        // Layer 0 of the encoder runs both ways and is concatenated; layers from the third on
        // have residual adds; every decoder layer reads the attention context.
        QVERIFY(g.findNode("encoder/layer0/backward/step0/hidden") >= 0);
        const int concat = g.findNode("encoder/layer0/step1/concat");
        QCOMPARE(g.inDegree(concat), 2);
        QVERIFY(g.findNode("encoder/layer2/step0/residual") >= 0);
        QVERIFY(g.findNode("encoder/layer1/step0/residual") < 0);
        const int memory = g.findNode("attention/memory");
        QCOMPARE(g.inDegree(memory), 3);      // the top encoder output of each source step
        QCOMPARE(g.outDegree(memory), 2 * 2); // score and context at each target step
        const int score = g.findNode("attention/step1/score");
        QCOMPARE(g.flops(score), 2.0 * 2 * 3 * 4); // [2,4] against [2,3,4]
        QCOMPARE(g.inDegree(g.findNode("decoder/layer3/step1/concat")), 2);
        // The published preset: 8 + 8 layers unrolled over 250 steps exceeds 50,000 ops.
        const Graph big = generate("gnmt", {{"source_steps", 250}, {"target_steps", 250}}, 1);
        QVERIFY(big.nodeCount() > 50000);
    }

    void moeRoutesThroughEveryExpert()
    {
        const Graph g = generate("moe",
                                 {{"steps", 2},
                                  {"batch", 8},
                                  {"hidden", 4},
                                  {"experts", 4},
                                  {"top_k", 2},
                                  {"expert_hidden", 16},
                                  {"vocab", 5}},
                                 1);
        const int combine = g.findNode("moe/gating/step1/combine");
        QCOMPARE(g.inDegree(combine), 1 + 4); // the top-k gate and each expert
        const int ffn1 = g.findNode("moe/expert3/step0/ffn1");
        QCOMPARE(g.flops(ffn1), 2.0 * (8 * 2 / 4) * 4 * 16);    // batch * k / E rows
        QCOMPARE(g.outDegree(g.findNode("moe/expert2/W1")), 2); // shared by both steps
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

    void imageModelsMatchPublishedMacs_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("gmacs");   // published multiply-adds per image
        QTest::addColumn<double>("mparams"); // parameters (ours also count BN running stats)
        QTest::newRow("inception-v3") << "inception-v3" << 5.7 << 23.9;
        QTest::newRow("resnet-50") << "resnet-50" << 4.1 << 25.6;
        QTest::newRow("vgg-16") << "vgg-16" << 15.5 << 138.4;
    }
    void imageModelsMatchPublishedMacs()
    {
        QFETCH(QString, name);
        QFETCH(double, gmacs);
        QFETCH(double, mparams);
        const Graph g = ps::generate(name.toStdString(), std::map<std::string, double>{}, 1);
        double products = 0, params = 0;
        for (int v = 0; v < g.nodeCount(); ++v) {
            const std::string &op = g.opTypeNames()[g.opType(v)];
            if (op == "Conv" || op == "Gemm" || op == "MatMul")
                products += g.flops(v);
            params += g.paramBytes(v) / 4;
        }
        QVERIFY2(std::abs(products / 2 / 1e9 - gmacs) <= 0.05 * gmacs, qPrintable(QString::number(products / 2e9)));
        QVERIFY2(std::abs(params / 1e6 - mparams) <= 0.01 * mparams, qPrintable(QString::number(params / 1e6)));
        // FLOPs and activations scale with the batch; parameters do not.
        const Graph g8 = ps::generate(name.toStdString(), {{"batch", 8}}, 1);
        QCOMPARE(g8.totalFlops(), 8 * g.totalFlops());
        QCOMPARE(g8.nodeCount(), g.nodeCount());
    }

    void resnetBlockByHand()
    {
        const Graph g = ps::generate("resnet-50", std::map<std::string, double>{}, 1);
        // The stem: 7x7/2 conv from 3x224x224 to 64x112x112.
        const int stem = g.findNode("stem/conv");
        QVERIFY(stem >= 0);
        QCOMPARE(g.flops(stem), 2.0 * 64 * 112 * 112 * 3 * 7 * 7);
        QCOMPARE(g.outBytes(stem), 4.0 * 64 * 112 * 112);
        QCOMPARE(g.paramBytes(stem), 4.0 * 64 * 3 * 7 * 7);
        // The first block of layer2 halves 56x56 to 28x28 in its 3x3 conv and downsamples.
        const int c2 = g.findNode("layer2/0/conv2/conv");
        QCOMPARE(g.flops(c2), 2.0 * 128 * 28 * 28 * 128 * 9);
        const int add = g.findNode("layer2/0/add");
        QCOMPARE(g.inDegree(add), 2);
        QCOMPARE(g.flops(add), 512.0 * 28 * 28);
        QCOMPARE(g.scope(add), std::string("layer2/0"));
        QVERIFY(g.findNode("layer2/0/downsample/conv") >= 0);
        QVERIFY(g.findNode("layer2/1/downsample/conv") < 0);
    }

    void transformerByHand()
    {
        const Graph g = generate("transformer",
                                 {{"layers", 1},
                                  {"d_model", 8},
                                  {"heads", 2},
                                  {"d_ff", 16},
                                  {"source_length", 3},
                                  {"target_length", 2},
                                  {"batch", 1},
                                  {"vocab", 5}},
                                 1);
        // Inputs 3 + 3; an encoder layer 19 ops, a decoder layer 34, the output 2.
        QCOMPARE(g.nodeCount(), 3 + 19 + 3 + 34 + 2);
        // Per head: [3, 4] x [4, 3] scores, two heads.
        QCOMPARE(g.flops(g.findNode("encoder/layer0/self_attention/scores")), 2.0 * 2 * 3 * 3 * 4);
        // Cross attention: 2 target queries over 3 source keys.
        const int cross = g.findNode("decoder/layer0/cross_attention/scores");
        QCOMPARE(g.flops(cross), 2.0 * 2 * 2 * 3 * 4);
        QCOMPARE(g.flops(g.findNode("decoder/layer0/feed_forward/ffn_in")), 2.0 * 2 * 16 * 8);
        QCOMPARE(g.paramBytes(g.findNode("decoder/layer0/feed_forward/ffn_in")), 4.0 * (8 * 16 + 16));
        QCOMPARE(g.flops(g.findNode("decoder/output/projection")), 2.0 * 2 * 5 * 8);
        // The decoder's cross attention reads the encoder's last output.
        const int memory = g.findNode("encoder/layer0/feed_forward/layer_norm");
        QCOMPARE(g.outDegree(memory), 2); // keys and values
        QVERIFY_EXCEPTION_THROWN(generate("transformer", {{"d_model", 10}, {"heads", 4}}, 1), InputError);
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
        QCOMPARE(error("moe", {{"experts", 4}, {"top_k", 5}}),
                 QString("moe: every size must be at least 1 and top_k at most experts"));
        // Parameters in range whose product no machine holds: refused before building (this took
        // 70 s and 6 GB to fail, or ran out of memory).
        const QString tooLarge = " a generator builds: choose fewer layers, steps or experts";
        QCOMPARE(error("moe", {{"experts", 4096}, {"steps", 10000}}),
                 "moe: the graph would have at least 164000000 ops, more than the 10000000" + tooLarge);
        QCOMPARE(error("gnmt", {{"layers", 64}, {"source_steps", 10000}, {"target_steps", 10000}}),
                 "gnmt: the graph would have at least 10240000 ops, more than the 10000000" + tooLarge);
        QCOMPARE(error("layered-random", {{"nodes", 1e7}, {"out_degree", 100}}),
                 QString("layered-random: the graph would have 1000000000 edges (nodes x out_degree), more than the "
                         "20000000 this generator builds"));
    }
};

QTEST_GUILESS_MAIN(TestGenerators)
#include "tst_generators.moc"
