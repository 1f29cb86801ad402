#pragma once
// A 4-ary min-heap: half the depth of a binary heap, and the four children of a node share a
// cache line or two, which suits the simulator's hot queues. `Before(a, b)` is true when a must
// come out first. Storage is kept between clear()s.
#include <utility>
#include <vector>

namespace ps {

template <typename T, typename Before>
class QuadHeap
{
public:
    bool empty() const { return m_items.empty(); }
    size_t size() const { return m_items.size(); }
    const T &top() const { return m_items.front(); }
    void clear() { m_items.clear(); }
    void reserve(size_t n) { m_items.reserve(n); }
    // The heap's array as it is, for snapshots; assign() restores one.
    const std::vector<T> &items() const { return m_items; }
    void assign(const std::vector<T> &items) { m_items.assign(items.begin(), items.end()); }

    void push(const T &item)
    {
        size_t i = m_items.size();
        m_items.push_back(item);
        while (i > 0) {
            const size_t parent = (i - 1) / 4;
            if (!m_before(item, m_items[parent]))
                break;
            m_items[i] = m_items[parent];
            i = parent;
        }
        m_items[i] = item;
    }

    T pop()
    {
        T result = m_items.front();
        const T last = m_items.back();
        m_items.pop_back();
        const size_t n = m_items.size();
        if (n == 0)
            return result;
        size_t i = 0;
        for (;;) {
            const size_t first = 4 * i + 1;
            if (first >= n)
                break;
            size_t best = first;
            const size_t end = first + 4 < n ? first + 4 : n;
            for (size_t c = first + 1; c < end; ++c)
                if (m_before(m_items[c], m_items[best]))
                    best = c;
            if (!m_before(m_items[best], last))
                break;
            m_items[i] = m_items[best];
            i = best;
        }
        m_items[i] = last;
        return result;
    }

private:
    std::vector<T> m_items;
    Before m_before;
};

} // namespace ps
