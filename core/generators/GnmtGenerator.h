#pragma once
// GNMT (Wu et al. 2016), unrolled: an encoder of L LSTM layers over the source (layer 0
// bidirectional, residual connections from layer 2 up), a decoder of L layers over the target
// with attention from its bottom layer to the encoder's outputs, fed to every decoder layer, and
// a softmax per target step. Scopes "encoder/layer<l>/step<t>", "decoder/layer<l>/step<t>",
// "attention/step<t>", "softmax/step<t>". The 8+8-layer preset with 250 steps has about 55,000 ops.
#include "core/graph/Graph.h"

namespace ps {

struct GnmtParams
{
    int layers = 8;
    int sourceSteps = 50;
    int targetSteps = 50;
    int batch = 128;
    int hidden = 1024;
    int vocab = 32000;
};

Graph generateGnmt(const GnmtParams &params);

} // namespace ps
