// learnerRuntime(): which LibTorch, which BLAS and how many threads the learners get. The BLAS is
// found by asking the dynamic linker where `sgemm_` (what LibTorch's CPU matrix products call)
// comes from, and OpenBLAS by its own config string.
#include "models/ModelImporters.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <dlfcn.h>

#include <climits>
#include <cstdlib>

namespace ps {

namespace {

std::string blasInUse()
{
    // Where sgemm_ resolves decides, not which libraries are loaded: LAPACK may come from
    // OpenBLAS while the BLAS alternative is still the reference one.
    void *sgemm = dlsym(RTLD_DEFAULT, "sgemm_");
    Dl_info info{};
    if (!sgemm || !dladdr(sgemm, &info) || !info.dli_fname)
        return "unknown BLAS";
    char resolved[PATH_MAX];
    const std::string path = realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
    if (path.find("openblas") != std::string::npos) {
        using ConfigFn = const char *(*)();
        using ThreadsFn = int (*)();
        std::string text = "OpenBLAS";
        if (auto config = reinterpret_cast<ConfigFn>(dlsym(RTLD_DEFAULT, "openblas_get_config")))
            text = config();
        if (auto threads = reinterpret_cast<ThreadsFn>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")))
            text += ", " + std::to_string(threads()) + " BLAS threads";
        return text;
    }
    if (path.find("/blas/") != std::string::npos)
        return "reference BLAS (" + path + "; slow: install libopenblas0-pthread, scripts/install-deps does)";
    return path;
}

} // namespace

std::string learnerRuntime()
{
    return std::string("LibTorch ") + TORCH_VERSION + ", BLAS: " + blasInUse() + ", " +
           "intra-op threads: " + std::to_string(at::get_num_threads());
}

} // namespace ps
