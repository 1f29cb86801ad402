#include "models/ModelImporters.h"

namespace ps {

void installModelImporters() {}

std::string learnerRuntime()
{
    return "LibTorch: not built in";
}

} // namespace ps

// Steering workers meet through torch.distributed's store: without LibTorch there is none.
#include "core/InputError.h"
#include "core/steering/CandidateRunner.h"
#include "models/SteeringWorkers.h"

namespace ps {

std::unique_ptr<CandidateRunner> makeWorkerRunner(const WorkerOptions &, const Graph &, const Cluster &)
{
    throw InputError("steering workers need LibTorch (torch.distributed); this build has none");
}

int runSteeringWorker(const WorkerOptions &, const PlacerRegistry &)
{
    throw InputError("steering workers need LibTorch (torch.distributed); this build has none");
}

} // namespace ps
