// GST's pieces (models/torch/GraphSegments): segments cover the op sequence once, a 2-layer
// encoder on a segment's halo gives its ops exactly their whole-graph embeddings, the history
// table reads back what was written, held parameters do not move, and segment draws depend on
// the seed, step and epoch only.
#include "core/generators/Generators.h"
#include "models/torch/GraphSegments.h"

#include <QtTest>

using namespace ps;
using namespace ps::learn;

namespace {

std::vector<int64_t> orderOf(const Graph &g)
{
    return {g.topologicalOrder().begin(), g.topologicalOrder().end()};
}

} // namespace

class TestSegments : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void segmentsCoverTheOrderOnce_data()
    {
        QTest::addColumn<QString>("generator");
        QTest::addColumn<int>("size");
        QTest::newRow("rnnlm, 64") << "rnnlm" << 64;
        QTest::newRow("gnmt, 500") << "gnmt" << 500;
        QTest::newRow("inception-v3, 1 segment") << "inception-v3" << 100000;
    }
    void segmentsCoverTheOrderOnce()
    {
        QFETCH(QString, generator);
        QFETCH(int, size);
        const Graph g = ps::generate(generator.toStdString(), {}, 1);
        const GraphData full = graphData(g, torch::kCPU);
        const std::vector<int64_t> order = orderOf(g);
        const std::vector<GraphSegment> segments = graphSegments(g, full, order, size, 2);
        QCOMPARE(static_cast<int64_t>(segments.size()), (static_cast<int64_t>(order.size()) + size - 1) / size);
        std::vector<torch::Tensor> ids;
        for (size_t i = 0; i < segments.size(); ++i) {
            QCOMPARE(segments[i].begin, static_cast<int64_t>(i) * size);
            QCOMPARE(segments[i].ids.size(0), segments[i].end - segments[i].begin);
            QVERIFY(segments[i].halo.n >= segments[i].ids.size(0));
            ids.push_back(segments[i].ids);
        }
        const torch::Tensor all = torch::cat(ids);
        QVERIFY(torch::equal(all, torch::tensor(order)));
    }

    // The point of the halo: no approximation in the encoder, only in what a step backpropagates.
    void haloEmbeddingsAreExact_data()
    {
        QTest::addColumn<QString>("generator");
        QTest::newRow("rnnlm") << "rnnlm";
        QTest::newRow("gnmt") << "gnmt";
        QTest::newRow("layered-random") << "layered-random";
    }
    void haloEmbeddingsAreExact()
    {
        QFETCH(QString, generator);
        const Graph g = ps::generate(generator.toStdString(), {}, 3);
        torch::manual_seed(5);
        SageEncoder encoder(kFeatureCount, 16, 2);
        const GraphData full = graphData(g, torch::kCPU);
        torch::NoGradGuard noGrad;
        const torch::Tensor whole = encoder->forward(full);
        double worst = 0;
        for (const GraphSegment &s : graphSegments(g, full, orderOf(g), 97, 2)) {
            const torch::Tensor part = encoder->forward(s.halo).index_select(0, s.rows);
            worst = std::max(worst, (part - whole.index_select(0, s.ids)).abs().max().item<double>());
        }
        QVERIFY2(worst < 1e-5, qPrintable(QString("largest difference %1").arg(worst)));
        // With a 1-hop halo a 2-layer encoder is not exact: the test can tell.
        double oneHop = 0;
        for (const GraphSegment &s : graphSegments(g, full, orderOf(g), 97, 1)) {
            const torch::Tensor part = encoder->forward(s.halo).index_select(0, s.rows);
            oneHop = std::max(oneHop, (part - whole.index_select(0, s.ids)).abs().max().item<double>());
        }
        QVERIFY2(oneHop > 1e-4, qPrintable(QString("1-hop difference %1").arg(oneHop)));
    }

    void historyReadsWhatWasWritten()
    {
        EmbeddingHistory h;
        QVERIFY(h.empty());
        QVERIFY(!h.read(0, 4).defined());
        h.refresh(torch::zeros({10, 3}));
        h.write(4, torch::ones({2, 3}));
        QCOMPARE(h.read(3, 7).sum().item<double>(), 6.0);
        QCOMPARE(h.read(-5, 2).size(0), int64_t{2}); // clipped at the start
        QVERIFY(!h.read(5, 5).defined());
    }

    // The reason holdStill drops gradients instead of zeroing them: Adam's moments carry on.
    void heldParametersStayWhereTheyAre()
    {
        for (bool held : {false, true}) {
            torch::Tensor w = torch::ones({1}, torch::requires_grad());
            torch::optim::Adam adam({w}, torch::optim::AdamOptions(0.1));
            (w * w).sum().backward();
            adam.step();
            const double before = w.item<double>();
            adam.zero_grad();
            if (held)
                holdStill({w});
            adam.step();
            if (held)
                QCOMPARE(w.item<double>(), before);
            else
                QVERIFY(w.item<double>() < before - 1e-3);
        }
    }

    void drawsDependOnSeedStepAndEpochOnly()
    {
        const SegmentDraw a = drawSegments(7, 3, 1, 20, 5, 0.5), b = drawSegments(7, 3, 1, 20, 5, 0.5);
        QCOMPARE(a.segments, b.segments);
        QCOMPARE(a.dropMemory, b.dropMemory);
        QCOMPARE(static_cast<int>(std::set<int64_t>(a.segments.begin(), a.segments.end()).size()), 5);
        QVERIFY(a.segments != drawSegments(7, 3, 2, 20, 5, 0.5).segments);
        QCOMPARE(static_cast<int>(drawSegments(7, 3, 1, 3, 5, 0.5).segments.size()), 3);
        for (bool d : drawSegments(1, 1, 1, 20, 20, 0.0).dropMemory)
            QVERIFY(!d);
        for (bool d : drawSegments(1, 1, 1, 20, 20, 1.0).dropMemory)
            QVERIFY(d);
    }
};

QTEST_APPLESS_MAIN(TestSegments)
#include "tst_segments.moc"
