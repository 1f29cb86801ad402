#include "core/io/FileKind.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"
#include "models/Learners.h"
#include "models/ModelImporters.h"
#include "models/torch/TorchScriptImport.h"

#include <dlfcn.h>

namespace ps {

namespace {

// OpenBLAS (pthreads) hands a large matrix product to its own worker threads, and its fork
// handler shuts those threads down. METIS runs in a forked child process (core/family/
// ChildProcess.h), so a fork beside a learner's product hung the process: the product spun for
// ever waiting for a worker that was gone, or the fork waited for one that never woke. With one
// BLAS thread a product runs in its caller's thread and the fork has no worker to stop. The
// count is global to the process, and each run's `threads` sets LibTorch's intra-op threads, not
// OpenBLAS's, so one BLAS thread also keeps runs side by side within their shares.
void keepBlasInTheCallersThread()
{
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        set(1);
}

} // namespace

void installModelImporters()
{
    keepBlasInTheCallersThread();
    setTorchScriptImporter(&importTorchScript);
    PartitionerRegistry::addFamily(makeGapPartitioner());
    PlacerRegistry::addFamily(makeRlSeq2SeqPlacer());
    PlacerRegistry::addFamily(makeGdpPlacer());
    PlacerRegistry::addFamily(makeGiphPlacer());
    // gap as a placer too, as metis and spectral are: the Models dock, `place` and steering run it.
    PlacerRegistry::addFamily(makePartitionPlacer(
        "gap", "GAP (Nazi et al. 2019) partition, GraphSAGE + softmax partition module trained on the expected "
               "normalized cut and balance, part i on device i"));
}

} // namespace ps
