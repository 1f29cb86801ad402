#include "models/ModelImporters.h"

namespace ps {

void installModelImporters() {}

} // namespace ps
