#include "core/io/FileKind.h"
#include "models/ModelImporters.h"
#include "models/torch/TorchScriptImport.h"

namespace ps {

void installModelImporters() { setTorchScriptImporter(&importTorchScript); }

} // namespace ps
