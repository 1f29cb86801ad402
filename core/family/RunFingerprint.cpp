#include "core/family/RunFingerprint.h"

#include "core/InputError.h"

#include <cstdint>
#include <cstdio>
#include <fstream>

namespace ps {

namespace {

// FNV-1a over the file's bytes, in hex.
std::string digest(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path + ": cannot read");
    uint64_t h = 1469598103934665603ULL;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0)
        for (std::streamsize i = 0; i < in.gcount(); ++i)
            h = (h ^ static_cast<unsigned char>(buf[i])) * 1099511628211ULL;
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

} // namespace

std::string trainingFingerprint(const TrainingInputs &in)
{
    std::string out;
    for (const auto &[role, path] : in.files) {
        const size_t slash = path.rfind('/');
        out += role + "=" + path.substr(slash == std::string::npos ? 0 : slash + 1) + " (bytes " + digest(path) + ")\n";
    }
    std::string params;
    for (const std::string &p : in.params)
        if (p.rfind("threads=", 0) != 0) // the thread count may differ between machines
            params += (params.empty() ? "" : " ") + p;
    out += "model=" + in.model + "\nparameters=" + params + "\niterations=" + in.iterations +
           "\ntime limit=" + in.timeLimit + "\nseed=" + in.seed + "\nk=" + in.k + "\n";
    return out;
}

} // namespace ps
