#pragma once
// The learned families (LibTorch inside their .cpp files). installModels() registers them with
// the placer and partitioner registries, and the TorchScript importer with file loading; in a
// build without LibTorch it registers nothing.
#include <memory>

namespace ps {

class Placer;
class Partitioner;

std::unique_ptr<Partitioner> makeGapPartitioner();
std::unique_ptr<Placer> makeRlSeq2SeqPlacer();
std::unique_ptr<Placer> makeGdpPlacer();
std::unique_ptr<Placer> makeGiphPlacer();

} // namespace ps
