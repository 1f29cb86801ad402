// The learners' caching allocator for large CPU tensors (models/torch/TensorMemory): while a run
// holds it, a freed large block comes back for the next tensor of its size, aligned for huge
// pages, with what is written to it intact; small tensors stay with LibTorch's allocator; after
// the last holder goes, freed blocks are no longer kept.
#include "models/torch/TensorMemory.h"

#include <torch/torch.h>

#include <QtTest>

#include <cstdint>

using namespace ps::learn;

class TestTensorMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void largeBlocksAreReusedWhileHeld()
    {
        const std::shared_ptr<void> held = holdTensorMemory();
        const int64_t rows = 200000, cols = 64; // 51.2 MB, as a 200,000-op graph's embeddings
        void *first = nullptr;
        {
            torch::Tensor a = torch::empty({rows, cols});
            first = a.data_ptr();
            QCOMPARE(reinterpret_cast<uintptr_t>(first) % (uintptr_t(2) << 20), uintptr_t(0));
            a.fill_(3.0f);
            QCOMPARE(a.sum().item<double>(), 3.0 * rows * cols);
        }
        // The same size again, and one a little smaller (within a quarter): the kept block.
        {
            torch::Tensor b = torch::ones({rows, cols});
            QCOMPARE(b.data_ptr(), first);
            QCOMPARE(b.sum().item<double>(), double(rows * cols));
        }
        {
            torch::Tensor c = torch::zeros({rows - 10000, cols});
            QCOMPARE(c.data_ptr(), first);
            QCOMPARE(c.abs().sum().item<double>(), 0.0);
        }
        // Twice the size does not take it; a tensor of the first size beside it still does.
        {
            torch::Tensor big = torch::empty({2 * rows, cols});
            QVERIFY(big.data_ptr() != first);
            torch::Tensor again = torch::empty({rows, cols});
            QCOMPARE(again.data_ptr(), first);
        }
        // Two holders: the blocks stay kept until both have gone.
        std::shared_ptr<void> second = holdTensorMemory();
        second.reset();
        {
            torch::Tensor d = torch::empty({rows, cols});
            QCOMPARE(d.data_ptr(), first);
        }
        QVERIFY(keptTensorBytes() >= size_t(3 * rows * cols * 4)); // the first size's and twice it
    }

    void keptBlocksGoBackWhenTheLastHolderGoes()
    {
        std::shared_ptr<void> held = holdTensorMemory();
        torch::Tensor alive = torch::empty({1 << 20}); // 4 MB, freed after the holder has gone
        {
            torch::Tensor freed = torch::empty({1 << 21});
        }
        QVERIFY(keptTensorBytes() >= size_t(8) << 20);
        held.reset();
        QCOMPARE(keptTensorBytes(), size_t(0));
        alive = torch::Tensor();
        QCOMPARE(keptTensorBytes(), size_t(0)); // not kept: nobody holds the cache
        // Held again, it keeps what is freed.
        held = holdTensorMemory();
        {
            torch::Tensor freed = torch::empty({1 << 21});
        }
        QVERIFY(keptTensorBytes() >= size_t(8) << 20);
    }

    void smallTensorsAreNotRoundedToHugePages()
    {
        const std::shared_ptr<void> held = holdTensorMemory();
        // 256 KB from LibTorch's own allocator: 64-byte aligned, not placed on 2 MB boundaries
        // each (of eight, at most one could be by chance).
        std::vector<torch::Tensor> small;
        int onBoundary = 0;
        for (int i = 0; i < 8; ++i) {
            small.push_back(torch::empty({256 * 1024 / 4}));
            onBoundary += reinterpret_cast<uintptr_t>(small.back().data_ptr()) % (uintptr_t(2) << 20) == 0;
        }
        QVERIFY2(onBoundary <= 1, qPrintable(QString::number(onBoundary)));
    }
};

QTEST_APPLESS_MAIN(TestTensorMemory)
#include "tst_tensormemory.moc"
