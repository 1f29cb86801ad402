#pragma once
// A sparsely-gated mixture-of-experts language model after Shazeer et al. (2017): per step an
// embedding, an LSTM layer, an MoE layer (gating matmul, softmax, top-k, a dispatch and a
// two-layer feed-forward expert for each of E experts, each expert seeing batch * k / E rows on
// average, and a weighted combine), a second LSTM layer and a softmax. Scopes
// "moe/expert<e>/step<t>", "moe/gating/step<t>", "lstm/layer<l>/step<t>".
#include "core/graph/Graph.h"

namespace ps {

struct MoeParams
{
    int steps = 20;
    int batch = 64;
    int hidden = 1024;
    int experts = 16;
    int topK = 4;
    int expertHidden = 4096;
    int vocab = 32000;
};

Graph generateMoe(const MoeParams &params);

} // namespace ps
