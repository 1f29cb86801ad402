#include "core/steering/PolicyStore.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include <unistd.h>

namespace ps {

namespace fs = std::filesystem;

namespace {
constexpr const char *kPrefix = "placement-steering-";

// Directories `placement-steering-<pid>-<random>` whose process is gone: a session killed before
// it could remove its own. A live process's (any user's pid that still answers) are left alone.
void removeOrphans(const fs::path &base)
{
    std::error_code ec;
    const std::string prefix = kPrefix;
    for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        const size_t dash = name.find('-', prefix.size());
        if (dash == std::string::npos || dash == prefix.size())
            continue;
        char *stop = nullptr;
        const long pid = std::strtol(name.c_str() + prefix.size(), &stop, 10);
        if (stop != name.c_str() + dash || pid <= 1)
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH) {
            std::error_code ignored;
            fs::remove_all(it->path(), ignored);
        }
    }
}
} // namespace

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
    removeOrphans(base);
    std::random_device random;
    for (int attempt = 0; attempt < 8; ++attempt) {
        char name[80];
        std::snprintf(name, sizeof name, "%s%ld-%08x%08x", kPrefix, static_cast<long>(::getpid()), random(), random());
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
