#include "models/Pretrained.h"

#include "core/InputError.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace ps {

std::string pretrainedFolder()
{
    if (const char *dir = std::getenv("PS_PRETRAINED_DIR"); dir && *dir)
        return dir;
    return PS_PRETRAINED_DIR;
}

std::vector<int> pretrainedDeviceCounts(const std::string &family)
{
    std::vector<int> counts;
    std::error_code error;
    const std::string prefix = family + "-", suffix = "dev.ckpt";
    for (const auto &entry : std::filesystem::directory_iterator(pretrainedFolder(), error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string number = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (!number.empty() && std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
            counts.push_back(std::stoi(number));
    }
    std::sort(counts.begin(), counts.end());
    return counts;
}

std::string pretrainedCheckpoint(const std::string &family, int devices)
{
    const std::vector<int> counts = pretrainedDeviceCounts(family);
    if (std::find(counts.begin(), counts.end(), devices) != counts.end())
        return (std::filesystem::path(pretrainedFolder()) / (family + "-" + std::to_string(devices) + "dev.ckpt"))
            .string();
    std::string shipped;
    for (int c : counts)
        shipped += (shipped.empty() ? "" : ", ") + std::to_string(c);
    throw InputError("no pretrained " + family + " policy for " + std::to_string(devices) + " devices" +
                     (counts.empty() ? " (none is shipped in " + pretrainedFolder() + ")"
                                     : " (shipped: " + shipped + "; train one with scripts/pretrain)"));
}

} // namespace ps
