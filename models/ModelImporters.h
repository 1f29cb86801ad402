#pragma once
// Installs what needs LibTorch: the TorchScript importer into core's file loading, and the
// learned families (gap, rl-seq2seq, gdp, giph) into the registries. Programs call it once at
// start-up, before any run; in a build without LibTorch it does nothing (and .pt files get a
// clear error).

namespace ps {

void installModelImporters();

} // namespace ps
