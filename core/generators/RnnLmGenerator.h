#pragma once
// An RNN language model (as in Mirhoseini et al. 2017's RNNLM): per step an embedding lookup,
// an L-layer LSTM with every gate its own op, and a softmax over the vocabulary; unrolled over
// T steps. Weights are fetch nodes that feed every step. FLOPs and bytes per spec section 9,
// fp32; scopes "lstm/layer<l>/step<t>", "embedding/step<t>", "softmax/step<t>".
#include "core/graph/Graph.h"

namespace ps {

struct RnnLmParams
{
    int layers = 2;
    int steps = 20;
    int batch = 64;
    int hidden = 2048;
    int vocab = 40000;
};

Graph generateRnnLm(const RnnLmParams &params);

} // namespace ps
