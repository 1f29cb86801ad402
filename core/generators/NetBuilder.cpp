#include "core/generators/NetBuilder.h"

#include "core/InputError.h"

namespace ps {

namespace {
constexpr double kFloat = 4; // bytes per fp32 element

int64_t outputSize(int64_t in, int64_t kernel, int64_t stride, int64_t pad)
{
    const int64_t out = (in + 2 * pad - kernel) / stride + 1;
    if (out < 1)
        throw InputError("a " + std::to_string(kernel) + "-wide window does not fit an input of " + std::to_string(in) +
                         " (the input is too small for this network)");
    return out;
}
} // namespace

std::string NetBuilder::uniqueId(const std::string &name)
{
    std::string id;
    for (const std::string &s : m_scopes)
        id += s + "/";
    id += name;
    const int n = m_used[id]++;
    return n == 0 ? id : id + "_" + std::to_string(n);
}

NetBuilder::Tensor NetBuilder::add(const std::string &op, const std::string &name, double flops, const Shape &out,
                                   const std::vector<Tensor> &inputs, double paramElements)
{
    GraphBuilder::NodeSpec s;
    s.id = uniqueId(name);
    s.op = op;
    s.flops = flops;
    s.outBytes = elementCount(out) * kFloat;
    s.paramBytes = paramElements * kFloat;
    std::string scope;
    for (const std::string &part : m_scopes)
        scope += (scope.empty() ? "" : "/") + part;
    s.scope = scope;
    const int v = m_builder.addNode(std::move(s));
    for (const Tensor &t : inputs)
        m_builder.addEdge(t.node, v);
    return {v, out};
}

NetBuilder::Tensor NetBuilder::input(const std::string &name, const Shape &shape)
{
    return add("Input", name, 0, shape, {}, 0);
}

NetBuilder::Tensor NetBuilder::conv(const Tensor &x, int64_t out, int64_t kh, int64_t kw, int64_t stride, int64_t padH,
                                    int64_t padW, const std::string &name, bool bias)
{
    const Shape &in = x.shape; // [N, C, H, W]
    const Shape weight = {out, in[1], kh, kw};
    const Shape y = {in[0], out, outputSize(in[2], kh, stride, padH), outputSize(in[3], kw, stride, padW)};
    return add("Conv", name, convFlops(y, weight), y, {x}, elementCount(weight) + (bias ? out : 0));
}

NetBuilder::Tensor NetBuilder::convBnRelu(const Tensor &x, int64_t out, int64_t kh, int64_t kw, int64_t stride,
                                          int64_t padH, int64_t padW, const std::string &name)
{
    Scope scope(*this, name);
    const Tensor c = conv(x, out, kh, kw, stride, padH, padW);
    const Tensor b = elementwise("BatchNormalization", {c}, "bn", 4.0 * static_cast<double>(out));
    return elementwise("Relu", {b}, "relu");
}

NetBuilder::Tensor NetBuilder::pool(const std::string &op, const Tensor &x, int64_t kernel, int64_t stride, int64_t pad,
                                    const std::string &name)
{
    const Shape &in = x.shape;
    const Shape y = {in[0], in[1], outputSize(in[2], kernel, stride, pad), outputSize(in[3], kernel, stride, pad)};
    return add(op, name, poolFlops(y, {kernel, kernel}), y, {x}, 0);
}

NetBuilder::Tensor NetBuilder::maxPool(const Tensor &x, int64_t kernel, int64_t stride, int64_t pad,
                                       const std::string &name)
{
    return pool("MaxPool", x, kernel, stride, pad, name);
}

NetBuilder::Tensor NetBuilder::avgPool(const Tensor &x, int64_t kernel, int64_t stride, int64_t pad,
                                       const std::string &name)
{
    return pool("AveragePool", x, kernel, stride, pad, name);
}

NetBuilder::Tensor NetBuilder::globalAvgPool(const Tensor &x, const std::string &name)
{
    return add("GlobalAveragePool", name, elementCount(x.shape), {x.shape[0], x.shape[1], 1, 1}, {x}, 0);
}

NetBuilder::Tensor NetBuilder::concat(const std::vector<Tensor> &xs, size_t axis, const std::string &name)
{
    Shape y = xs.front().shape;
    for (size_t i = 1; i < xs.size(); ++i)
        y[axis] += xs[i].shape[axis];
    return add("Concat", name, 0, y, xs, 0);
}

NetBuilder::Tensor NetBuilder::flatten(const Tensor &x, const std::string &name)
{
    return reshape(x, {x.shape[0], static_cast<int64_t>(elementCount(x.shape) / static_cast<double>(x.shape[0]))}, name,
                   "Flatten");
}

NetBuilder::Tensor NetBuilder::elementwise(const std::string &op, const std::vector<Tensor> &xs,
                                           const std::string &name, double paramElements)
{
    const Shape &y = xs.front().shape;
    return add(op, name, elementCount(y), y, xs, paramElements);
}

NetBuilder::Tensor NetBuilder::linear(const Tensor &x, int64_t out, const std::string &name, bool bias)
{
    const int64_t in = x.shape.back();
    Shape y = x.shape;
    y.back() = out;
    const double rows = elementCount(x.shape) / static_cast<double>(in);
    return add("Gemm", name, gemmFlops(rows, static_cast<double>(out), static_cast<double>(in)), y, {x},
               static_cast<double>(in * out + (bias ? out : 0)));
}

NetBuilder::Tensor NetBuilder::matMul(const Tensor &a, const Tensor &b, const std::string &name)
{
    Shape y = a.shape;
    y.back() = b.shape.back();
    return add("MatMul", name, matMulFlops(a.shape, b.shape), y, {a, b}, 0);
}

NetBuilder::Tensor NetBuilder::reshape(const Tensor &x, const Shape &shape, const std::string &name,
                                       const std::string &op)
{
    return add(op, name, 0, shape, {x}, 0);
}

NetBuilder::Tensor NetBuilder::embedding(const Tensor &ids, int64_t vocab, int64_t width, const std::string &name)
{
    Shape y = ids.shape;
    y.push_back(width);
    return add("Gather", name, 0, y, {ids}, static_cast<double>(vocab * width));
}

} // namespace ps
