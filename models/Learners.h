#pragma once
// The learned families (LibTorch inside their .cpp files). installModels() registers them with
// the placer and partitioner registries, and the TorchScript importer with file loading; in a
// build without LibTorch it registers nothing.
#include <memory>
#include <string>

namespace ps {

class Placer;
class Partitioner;

std::unique_ptr<Partitioner> makeGapPartitioner();
std::unique_ptr<Placer> makeRlSeq2SeqPlacer();
std::unique_ptr<Placer> makeGdpPlacer();
std::unique_ptr<Placer> makeGiphPlacer();

// The op's class in the learners' features (0..15), a fixed vocabulary: 0 conv, 1 matmul, 2 add,
// 3 mul, 4 sigmoid, 5 tanh, 6 relu-like, 7 softmax, 8 norm, 9 pool, 10 data movement, 11 indexing,
// 12 weights, 13 inputs, 14 pass-through, 15 other. Names match case-insensitively after any
// "aten::" prefix, so ONNX, TorchScript and the generators agree (a string hash folded the RNN
// ops into four buckets, and is not stable between standard libraries).
int learnerOpClass(const std::string &op);

// Whether a learner with device=auto runs on CUDA: when LibTorch sees a GPU and the graph has at
// least kAutoCudaOps ops. Below that a CUDA iteration is bound by kernel launches and copies, not
// arithmetic (gdp on an H200: half the CPU's iterations at 1k ops and a quarter at 300-1,900;
// 1.6x them at 11.6k and 2.5x at 58k; docs/performance.md).
constexpr long long kAutoCudaOps = 10000;
bool autoPicksCuda(bool gpu, long long ops);

} // namespace ps
