#pragma once
// The image classifiers of the placement papers, layer by layer as torchvision defines them
// (inference: no auxiliary heads, dropout kept as a zero-FLOP op): FLOPs, bytes and parameters
// per spec section 9, one scope per block.
#include "core/graph/Graph.h"

namespace ps {

Graph generateInceptionV3(int batch, int imageSize = 299);
Graph generateResNet50(int batch, int imageSize = 224);
Graph generateVgg16(int batch, int imageSize = 224);

} // namespace ps
