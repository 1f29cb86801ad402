#include "core/steering/PolicyStore.h"

#include <cstdio>
#include <filesystem>
#include <random>

namespace ps {

namespace fs = std::filesystem;

PolicyStore::~PolicyStore()
{
    if (m_made) {
        std::error_code ignored;
        fs::remove_all(m_dir, ignored);
    }
}

void PolicyStore::borrow(const std::string &dir)
{
    std::error_code ec;
    std::lock_guard<std::mutex> guard(m_lock);
    if (!dir.empty() && fs::is_directory(dir, ec) && m_dir.empty())
        m_dir = dir;
}

std::string PolicyStore::dir() const
{
    std::lock_guard<std::mutex> guard(m_lock);
    if (!m_dir.empty())
        return m_dir;
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    if (ec)
        return {};
    std::random_device random;
    for (int attempt = 0; attempt < 8; ++attempt) {
        char name[64];
        std::snprintf(name, sizeof name, "placement-steering-%08x%08x", random(), random());
        if (fs::create_directory(base / name, ec) && !ec) {
            m_dir = (base / name).string();
            m_made = true;
            return m_dir;
        }
    }
    return {};
}

std::string PolicyStore::path(uint64_t candidateSeed) const
{
    const std::string d = dir();
    if (d.empty())
        return {};
    char name[40];
    std::snprintf(name, sizeof name, "policy-%016llx.ckpt", static_cast<unsigned long long>(candidateSeed));
    return (fs::path(d) / name).string();
}

bool PolicyStore::exists(const std::string &path)
{
    std::error_code ec;
    return !path.empty() && fs::is_regular_file(path, ec);
}

} // namespace ps
