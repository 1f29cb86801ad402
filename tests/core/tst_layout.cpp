// The graph view's layouts: our layered layout and Graphviz dot put every item on the canvas,
// sources above their targets and no two boxes on top of each other, on a hand-made diamond and
// on a collapsed GNMT view on which dot's network simplex, unbounded, ran for minutes.
#include "common/LayoutFixture.h"
#include "core/layout/LayeredLayout.h"

#include <QtTest>

#include <atomic>
#include <cmath>

using namespace ps;

namespace {

LayoutInput diamond()
{
    LayoutInput in;
    in.size = {{100, 26}, {60, 26}, {140, 26}, {100, 26}};
    in.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
    return in;
}

// Empty when every item has a finite centre and no two boxes overlap; else what is wrong.
QString overlapsOrGaps(const LayoutInput &in, const LayoutResult &out)
{
    if (out.center.size() != in.size.size())
        return QString("%1 centres for %2 items").arg(out.center.size()).arg(in.size.size());
    for (size_t a = 0; a < in.size.size(); ++a) {
        if (!std::isfinite(out.center[a].first) || !std::isfinite(out.center[a].second))
            return QString("item %1 has no position").arg(a);
        for (size_t b = a + 1; b < in.size.size(); ++b) {
            const double dx = std::abs(out.center[a].first - out.center[b].first);
            const double dy = std::abs(out.center[a].second - out.center[b].second);
            if (dx < (in.size[a].first + in.size[b].first) / 2 - 0.5 &&
                dy < (in.size[a].second + in.size[b].second) / 2 - 0.5)
                return QString("items %1 and %2 overlap").arg(a).arg(b);
        }
    }
    return {};
}

} // namespace

class TestLayout : public QObject
{
    Q_OBJECT

    void checkDiamond(const LayoutResult &out)
    {
        const LayoutInput in = diamond();
        QCOMPARE(overlapsOrGaps(in, out), QString());
        const auto y = [&](int v) { return out.center[v].second; };
        QVERIFY(y(0) < y(1) && y(0) < y(2)); // layers go top to bottom
        QCOMPARE(y(1), y(2));
        QVERIFY(y(1) < y(3) && y(2) < y(3));
        QVERIFY(out.width >= 60 + 140 && out.height > 3 * 26);
    }

private Q_SLOTS:
    void layeredPutsSourcesAboveTargets() { checkDiamond(layeredLayout(diamond())); }
    void dotPutsSourcesAboveTargets() { checkDiamond(dotLayout(diamond())); }

    void layeredBreaksCyclesAndStopsWhenCancelled()
    {
        LayoutInput in = diamond();
        in.edges.push_back({3, 0}); // a collapsed view can have cycles between scopes
        QCOMPARE(overlapsOrGaps(in, layeredLayout(in)), QString());
        const std::atomic<bool> cancel{true};
        QVERIFY(layeredLayout(in, &cancel).cancelled);
    }

    // Dot with network simplex unbounded took 258 s here (the test's ctest timeout is 120 s); it
    // still has to place every item without overlaps.
    void dotLaysOutAViewWithManyLongEdges()
    {
        // A collapsed view of the 11.6k-op GNMT recorded from the app after a steering Compare.
        const LayoutInput in = test::readLayoutFixture("gnmt-compare-view.txt");
        QCOMPARE(in.size.size(), size_t(248));
        QCOMPARE(in.edges.size(), size_t(907));
        QCOMPARE(overlapsOrGaps(in, dotLayout(in)), QString());
        QCOMPARE(overlapsOrGaps(in, layeredLayout(in)), QString());
    }

    void dotLaysOutAViewOverManyRanks()
    {
        // A Compare view of the 58k-op GNMT: 281 items over 265 ranks (dot took 16 s on it).
        const LayoutInput in = test::readLayoutFixture("gnmt58k-compare-view.txt");
        QCOMPARE(in.size.size(), size_t(281));
        QCOMPARE(in.edges.size(), size_t(792));
        QCOMPARE(overlapsOrGaps(in, dotLayout(in)), QString());
    }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
