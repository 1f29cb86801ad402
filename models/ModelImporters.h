#pragma once
// Installs the importers that need LibTorch (TorchScript .pt files) into core's file loading.
// Programs call it once at start-up; in a build without LibTorch it does nothing, and .pt
// files get a clear error.

namespace ps {

void installModelImporters();

} // namespace ps
