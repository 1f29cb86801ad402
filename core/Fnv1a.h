#pragma once
// FNV-1a (64 bits) over bytes, written as 16 hex digits: the content digests of input files
// (training fingerprints) and of graphs (steering logs). Not a cryptographic hash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ps {

class Fnv1a
{
public:
    void add(const void *data, size_t size)
    {
        const auto *p = static_cast<const unsigned char *>(data);
        for (size_t i = 0; i < size; ++i)
            m_hash = (m_hash ^ p[i]) * 1099511628211ULL;
    }
    std::string hex() const
    {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m_hash));
        return text;
    }

private:
    uint64_t m_hash = 1469598103934665603ULL;
};

} // namespace ps
