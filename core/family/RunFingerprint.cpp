#include "core/family/RunFingerprint.h"

#include "core/Fnv1a.h"
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
    Fnv1a h;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0)
        h.add(buf, static_cast<size_t>(in.gcount()));
    return h.hex();
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
