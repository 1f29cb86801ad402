#include "core/generators/TransformerGenerator.h"

#include "core/InputError.h"
#include "core/generators/NetBuilder.h"

namespace ps {

namespace {
using T = NetBuilder::Tensor;

struct Dims
{
    int64_t batch, dModel, heads, dHead;
};

// Multi-head attention of queries from x over keys and values from memory.
T attention(NetBuilder &n, const T &x, const T &memory, const Dims &d, bool masked)
{
    const int64_t lq = x.shape[1], lk = memory.shape[1];
    const T q = n.reshape(n.linear(x, d.dModel, "q_proj"), {d.batch, d.heads, lq, d.dHead}, "q_heads", "Transpose");
    const T k =
        n.reshape(n.linear(memory, d.dModel, "k_proj"), {d.batch, d.heads, d.dHead, lk}, "k_heads", "Transpose");
    const T v =
        n.reshape(n.linear(memory, d.dModel, "v_proj"), {d.batch, d.heads, lk, d.dHead}, "v_heads", "Transpose");
    T scores = n.elementwise("Mul", {n.matMul(q, k, "scores")}, "scale");
    if (masked)
        scores = n.elementwise("Add", {scores}, "causal_mask");
    const T p = n.elementwise("Softmax", {scores}, "softmax");
    const T context = n.matMul(p, v, "context");
    const T merged = n.reshape(context, {d.batch, lq, d.dModel}, "merge_heads", "Transpose");
    return n.linear(merged, d.dModel, "out_proj");
}

// x + sublayer(x), then layer normalization.
T residualNorm(NetBuilder &n, const T &x, const T &y, const Dims &d)
{
    const T sum = n.elementwise("Add", {x, y}, "residual");
    return n.elementwise("LayerNormalization", {sum}, "layer_norm", 2.0 * static_cast<double>(d.dModel));
}

T feedForward(NetBuilder &n, const T &x, int64_t dff, const Dims &d)
{
    const T h = n.elementwise("Relu", {n.linear(x, dff, "ffn_in")}, "ffn_relu");
    return n.linear(h, d.dModel, "ffn_out");
}

T embed(NetBuilder &n, const std::string &name, int64_t batch, int64_t length, int64_t vocab, int64_t dModel)
{
    NetBuilder::Scope s(n, name);
    const T ids = n.input("tokens", {batch, length});
    const T e = n.embedding(ids, vocab, dModel, "embedding");
    return n.elementwise("Add", {e}, "positional_encoding");
}
} // namespace

Graph generateTransformer(const TransformerParams &p)
{
    if (p.dModel % p.heads != 0)
        throw InputError("d_model (" + std::to_string(p.dModel) + ") must be a multiple of heads (" +
                         std::to_string(p.heads) + ")");
    const Dims d{p.batch, p.dModel, p.heads, p.dModel / p.heads};
    NetBuilder n("transformer");
    T x = embed(n, "encoder/input", p.batch, p.sourceLength, p.vocab, p.dModel);
    for (int l = 0; l < p.layers; ++l) {
        NetBuilder::Scope layer(n, "encoder/layer" + std::to_string(l));
        {
            NetBuilder::Scope s(n, "self_attention");
            x = residualNorm(n, x, attention(n, x, x, d, false), d);
        }
        NetBuilder::Scope s(n, "feed_forward");
        x = residualNorm(n, x, feedForward(n, x, p.dFeedForward, d), d);
    }
    const T memory = x;
    T y = embed(n, "decoder/input", p.batch, p.targetLength, p.vocab, p.dModel);
    for (int l = 0; l < p.layers; ++l) {
        NetBuilder::Scope layer(n, "decoder/layer" + std::to_string(l));
        {
            NetBuilder::Scope s(n, "self_attention");
            y = residualNorm(n, y, attention(n, y, y, d, true), d);
        }
        {
            NetBuilder::Scope s(n, "cross_attention");
            y = residualNorm(n, y, attention(n, y, memory, d, false), d);
        }
        NetBuilder::Scope s(n, "feed_forward");
        y = residualNorm(n, y, feedForward(n, y, p.dFeedForward, d), d);
    }
    NetBuilder::Scope head(n, "decoder/output");
    const T logits = n.linear(y, p.vocab, "projection");
    n.elementwise("Softmax", {logits}, "softmax");
    return n.build();
}

} // namespace ps
