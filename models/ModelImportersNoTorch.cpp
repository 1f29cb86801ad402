#include "models/ModelImporters.h"

namespace ps {

void installModelImporters() {}

std::string learnerRuntime()
{
    return "LibTorch: not built in";
}

} // namespace ps
