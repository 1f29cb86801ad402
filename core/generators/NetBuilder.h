#pragma once
// Builds feed-forward networks (CNNs, Transformers) op by op while tracking tensor shapes, so
// every op's FLOPs, output bytes and parameter bytes follow spec section 9 (fp32) through the
// same rules the importers use. Ops are named <scope>/<name>; scopes nest with Scope guards.
#include "core/graph/FlopRules.h"
#include "core/graph/GraphBuilder.h"

#include <string>
#include <vector>

namespace ps {

class NetBuilder
{
public:
    struct Tensor
    {
        int node = -1;
        Shape shape;
    };

    explicit NetBuilder(std::string name) : m_builder(std::move(name)) {}

    class Scope
    {
    public:
        Scope(NetBuilder &net, const std::string &name) : m_net(net) { m_net.m_scopes.push_back(name); }
        ~Scope() { m_net.m_scopes.pop_back(); }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        NetBuilder &m_net;
    };

    Tensor input(const std::string &name, const Shape &shape);

    // NCHW convolution with `out` channels, a kh x kw kernel, stride and zero padding.
    Tensor conv(const Tensor &x, int64_t out, int64_t kh, int64_t kw, int64_t stride, int64_t padH, int64_t padW,
                const std::string &name = "conv", bool bias = false);
    // Conv, BatchNormalization, Relu: the basic block of Inception and ResNet.
    Tensor convBnRelu(const Tensor &x, int64_t out, int64_t kh, int64_t kw, int64_t stride, int64_t padH, int64_t padW,
                      const std::string &name);
    Tensor maxPool(const Tensor &x, int64_t kernel, int64_t stride, int64_t pad = 0,
                   const std::string &name = "maxpool");
    Tensor avgPool(const Tensor &x, int64_t kernel, int64_t stride, int64_t pad = 0,
                   const std::string &name = "avgpool");
    Tensor globalAvgPool(const Tensor &x, const std::string &name = "global_avgpool");
    Tensor concat(const std::vector<Tensor> &xs, size_t axis, const std::string &name = "concat");
    Tensor flatten(const Tensor &x, const std::string &name = "flatten");

    // One FLOP per output element; the output has the shape of the first input.
    Tensor elementwise(const std::string &op, const std::vector<Tensor> &xs, const std::string &name,
                       double paramElements = 0);
    // x [..., in] times a weight [in, out] (+ bias): the weight is the op's parameters.
    Tensor linear(const Tensor &x, int64_t out, const std::string &name, bool bias = true);
    // Batched a [..., m, k] times b [..., k, n].
    Tensor matMul(const Tensor &a, const Tensor &b, const std::string &name);
    // A tensor of a new shape without arithmetic (Reshape, Transpose, Gather of a table row).
    Tensor reshape(const Tensor &x, const Shape &shape, const std::string &name, const std::string &op = "Reshape");
    // An embedding lookup: reads rows of a [vocab, width] table (its parameters).
    Tensor embedding(const Tensor &ids, int64_t vocab, int64_t width, const std::string &name);

    Graph build() { return m_builder.build(); }

private:
    Tensor add(const std::string &op, const std::string &name, double flops, const Shape &out,
               const std::vector<Tensor> &inputs, double paramElements);
    std::string uniqueId(const std::string &name);
    Tensor pool(const std::string &op, const Tensor &x, int64_t kernel, int64_t stride, int64_t pad,
                const std::string &name);

    GraphBuilder m_builder;
    std::vector<std::string> m_scopes;
    std::unordered_map<std::string, int> m_used;
};

} // namespace ps
