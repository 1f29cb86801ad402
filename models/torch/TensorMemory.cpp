// A caching allocator for LibTorch's large CPU tensors. A learner's step allocates the same
// large tensors every time (a 200,000-op graph's encoder pass: eight of 51 MB a layer), and the
// C library hands blocks over 32 MB back to the kernel when they are freed, so every step faulted
// its tensors in afresh, 4 KB at a time. On this project's machines a fault costs about 20 us:
// that encoder pass took 2.3-2.5 s, of which about 0.4 s was arithmetic. Here a large block is
// mapped in 2 MB pages (one fault each, where transparent huge pages may be asked for with
// madvise) and kept for the next tensor of its size while runs go on.
#include "models/torch/TensorMemory.h"

#include "core/family/MachineMemory.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

namespace ps::learn {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kLarge = size_t(1) << 20; // smaller blocks stay with LibTorch's own allocator

class CachingCpuAllocator final : public c10::Allocator
{
public:
    static CachingCpuAllocator &instance()
    {
        static CachingCpuAllocator *allocator = new CachingCpuAllocator(); // outlives every tensor
        return *allocator;
    }

    // Installs this allocator (once) and counts a run that holds its cache.
    std::shared_ptr<void> hold()
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (!m_fallback) {
                m_fallback = c10::GetCPUAllocator();
                const MachineMemory memory = machineMemory();
                m_keep = size_t(1) << 30;
                if (memory.totalBytes > 0)
                    m_keep = std::min(m_keep, static_cast<size_t>(memory.totalBytes / 8));
                c10::SetCPUAllocator(this, /*priority=*/1);
            }
            ++m_holders;
        }
        return std::shared_ptr<void>(this, [](void *self) { static_cast<CachingCpuAllocator *>(self)->letGo(); });
    }

    c10::DataPtr allocate(size_t bytes) const override
    {
        if (bytes < kLarge)
            return m_fallback->allocate(bytes);
        const size_t size = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void *block = take(size);
        if (!block)
            block = map(size);
        return {block, block, &release, c10::Device(c10::DeviceType::CPU)};
    }

    c10::DeleterFnPtr raw_deleter() const override { return &release; }

    size_t keptBytes() const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_keptBytes;
    }

private:
    static void release(void *block) { instance().give(block); }

    // A kept block of at least `size` and at most a quarter more; null when there is none.
    void *take(size_t size) const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        const auto it = m_kept.lower_bound(size);
        if (it == m_kept.end() || it->first > size + size / 4)
            return nullptr;
        void *block = it->second;
        m_keptBytes -= it->first;
        m_kept.erase(it);
        return block;
    }

    // Fresh pages, aligned to 2 MB so that the kernel can back them with huge pages.
    void *map(size_t size) const
    {
        void *raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            throw std::bad_alloc();
        const auto start = reinterpret_cast<uintptr_t>(raw);
        const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
        if (aligned > start)
            munmap(raw, aligned - start);
        if (const size_t tail = start + size + kHugePage - (aligned + size); tail > 0)
            munmap(reinterpret_cast<void *>(aligned + size), tail);
        void *block = reinterpret_cast<void *>(aligned);
#ifdef MADV_HUGEPAGE
        madvise(block, size, MADV_HUGEPAGE); // a hint: refused or ignored, the pages are small ones
#endif
        std::lock_guard<std::mutex> lock(m_mutex);
        m_size[block] = size;
        return block;
    }

    void give(void *block)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        const auto it = m_size.find(block);
        if (it == m_size.end())
            return; // not ours (cannot happen: the deleter travels with the block)
        const size_t size = it->second;
        if (m_holders > 0 && m_keptBytes + size <= m_keep) {
            m_kept.emplace(size, block);
            m_keptBytes += size;
            return;
        }
        m_size.erase(it);
        munmap(block, size);
    }

    void letGo()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (--m_holders > 0)
            return;
        for (const auto &[size, block] : m_kept) {
            m_size.erase(block);
            munmap(block, size);
        }
        m_kept.clear();
        m_keptBytes = 0;
    }

    mutable std::mutex m_mutex;
    c10::Allocator *m_fallback = nullptr;
    size_t m_keep = 0;
    int m_holders = 0;
    mutable std::multimap<size_t, void *> m_kept; // by size
    mutable size_t m_keptBytes = 0;
    mutable std::unordered_map<void *, size_t> m_size; // every block mapped here and not unmapped
};

} // namespace

std::shared_ptr<void> holdTensorMemory()
{
    return CachingCpuAllocator::instance().hold();
}

size_t keptTensorBytes()
{
    return CachingCpuAllocator::instance().keptBytes();
}

} // namespace ps::learn
