#pragma once
// The encoder-decoder Transformer of Vaswani et al. 2017 (post-norm): embeddings, multi-head
// self- and cross-attention, feed-forward blocks and the output softmax, one scope per layer
// and sub-layer. Heads are the batch dimension of the attention matrix products.
#include "core/graph/Graph.h"

namespace ps {

struct TransformerParams
{
    int layers = 6; // encoder layers, and decoder layers
    int dModel = 512;
    int heads = 8;
    int dFeedForward = 2048;
    int sourceLength = 128;
    int targetLength = 128;
    int batch = 32;
    int vocab = 32000;
};

Graph generateTransformer(const TransformerParams &params);

} // namespace ps
