#pragma once
// Installs what needs LibTorch: the TorchScript importer into core's file loading, and the
// learned families (gap, rl-seq2seq, gdp, giph) into the registries, and sets OpenBLAS to one
// thread (its worker threads and the fork that runs METIS hung the process). Programs call it once
// at start-up, before any run; in a build without LibTorch it does nothing (and .pt files get a
// clear error).

#include <string>

namespace ps {

void installModelImporters();

// One line on what the learners run on: the LibTorch version, the BLAS that its matrix products
// resolve to (the reference BLAS is several times slower than OpenBLAS), and the intra-op thread
// count; "LibTorch: not built in" without it.
std::string learnerRuntime();

} // namespace ps
