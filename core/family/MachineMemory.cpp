#include "core/family/MachineMemory.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace ps {

namespace {

// The first number in a file ("max" and anything else unreadable: -1).
double numberIn(const std::string &path)
{
    std::ifstream in(path);
    double value = -1;
    if (!(in >> value) || value < 0)
        return -1;
    return value;
}

// A meminfo field in bytes ("MemAvailable:  1234 kB"), or -1.
double meminfoBytes(const std::string &path, const std::string &field)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.compare(0, field.size() + 1, field + ":") == 0) {
            std::istringstream rest(line.substr(field.size() + 1));
            double kb = -1;
            return rest >> kb && kb >= 0 ? kb * 1024.0 : -1;
        }
    return -1;
}

// The first of `paths` that holds a number, or -1.
double firstNumber(const std::vector<std::string> &paths)
{
    for (const std::string &p : paths)
        if (const double v = numberIn(p); v >= 0)
            return v;
    return -1;
}

// Lowest of the known (non-negative) values, or -1.
double lowest(double a, double b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    return std::min(a, b);
}

} // namespace

MachineMemory machineMemory(const std::string &root)
{
    MachineMemory m;
    m.totalBytes = meminfoBytes(root + "/proc/meminfo", "MemTotal");
    m.availableBytes = meminfoBytes(root + "/proc/meminfo", "MemAvailable");
    // Lines "hierarchy:controllers:path": "0::/p" (v2), "4:memory:/p" (v1). Inside a container's
    // namespace the path is its root, and the group's files are at the top of the mount.
    std::ifstream groups(root + "/proc/self/cgroup");
    std::string line;
    while (std::getline(groups, line)) {
        const size_t first = line.find(':'), second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos)
            continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        std::string path = line.substr(second + 1);
        if (path == "/")
            path.clear();
        double limit = -1, usage = -1;
        if (controllers.empty()) { // cgroup v2
            const std::string base = root + "/sys/fs/cgroup";
            limit = firstNumber({base + path + "/memory.max", base + "/memory.max"});
            usage = firstNumber({base + path + "/memory.current", base + "/memory.current"});
        } else if (("," + controllers + ",").find(",memory,") != std::string::npos) { // v1
            const std::string base = root + "/sys/fs/cgroup/memory";
            limit = firstNumber({base + path + "/memory.limit_in_bytes", base + "/memory.limit_in_bytes"});
            usage = firstNumber({base + path + "/memory.usage_in_bytes", base + "/memory.usage_in_bytes"});
        } else {
            continue;
        }
        if (limit < 0)
            continue;
        m.totalBytes = lowest(m.totalBytes, limit);
        if (usage >= 0)
            m.availableBytes = lowest(m.availableBytes, std::max(0.0, limit - usage));
    }
    return m;
}

} // namespace ps
