#include "models/torch/TorchOpRules.h"

#include <unordered_map>

namespace ps {

CostRule atenCostRule(const std::string &name0)
{
    static const std::unordered_map<std::string, CostRule> rules = [] {
        std::unordered_map<std::string, CostRule> r;
        for (const char *z :
             {"view", "reshape", "flatten", "transpose", "permute", "t", "contiguous", "cat", "concat", "stack",
              "select", "slice", "dropout", "feature_dropout", "alpha_dropout", "embedding", "to", "unsqueeze",
              "squeeze", "expand", "expand_as", "chunk", "split", "split_with_sizes", "unbind", "index_select",
              "index", "narrow", "detach", "clone", "copy", "zeros", "ones", "zeros_like", "ones_like", "empty",
              "empty_like", "full", "full_like", "arange", "new_zeros", "new_ones", "new_full", "new_empty",
              "type_as", "repeat", "repeat_interleave", "gather", "pad", "constant_pad_nd", "alias", "unsafe_view",
              "view_as", "reshape_as", "flip", "roll", "movedim", "masked_select", "tril", "triu", "unflatten",
              "lift_fresh", "unfold", "pixel_shuffle", "upsample_nearest2d", "tensor", "scalar_tensor",
              "as_strided", "fill", "zero", "one_hot", "nonzero", "rand", "randn", "randint", "bernoulli"})
            r[z] = CostRule::Zero;
        for (const char *e :
             {"relu", "relu6", "sigmoid", "tanh", "gelu", "silu", "hardtanh", "leaky_relu", "elu", "selu", "celu",
              "hardswish", "hardsigmoid", "softplus", "mish", "add", "sub", "rsub", "mul", "div", "true_divide",
              "floor_divide", "remainder", "fmod", "pow", "sqrt", "rsqrt", "exp", "log", "log1p", "abs", "neg",
              "reciprocal", "clamp", "clamp_min", "clamp_max", "clip", "where", "masked_fill", "batch_norm",
              "layer_norm", "group_norm", "instance_norm", "native_layer_norm", "native_batch_norm", "softmax",
              "log_softmax", "sin", "cos", "erf", "floor", "ceil", "round", "sign", "maximum", "minimum", "eq",
              "ne", "lt", "gt", "le", "ge", "logical_and", "logical_or", "logical_not", "bitwise_and",
              "bitwise_or", "bitwise_not", "addcmul", "addcdiv", "lerp", "square", "threshold", "prelu", "glu",
              "upsample_bilinear2d", "normalize", "dropout2d", "hardshrink", "softsign"})
            r[e] = CostRule::PerOutput;
        for (const char *p :
             {"adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
              "adaptive_max_pool2d", "adaptive_max_pool3d", "mean", "sum", "amax", "amin", "max", "min", "argmax",
              "argmin", "topk", "cumsum", "prod", "norm", "std", "var", "logsumexp", "all", "any",
              "cross_entropy_loss", "nll_loss", "nll_loss_nd", "mse_loss", "l1_loss", "binary_cross_entropy",
              "binary_cross_entropy_with_logits", "sort", "argsort"})
            r[p] = CostRule::PerInput;
        for (const char *s : {"scatter_add", "index_add", "scatter_reduce", "index_put"})
            r[s] = CostRule::PerUpdate;
        for (const char *p : {"max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
                              "max_pool2d_with_indices", "max_pool1d_with_indices", "max_pool3d_with_indices"})
            r[p] = CostRule::Pool;
        for (const char *c : {"conv1d", "conv2d", "conv3d", "convolution"})
            r[c] = CostRule::Conv;
        for (const char *c : {"conv_transpose1d", "conv_transpose2d", "conv_transpose3d"})
            r[c] = CostRule::ConvTranspose;
        for (const char *m : {"matmul", "mm", "bmm", "addmm", "baddbmm", "linear", "addbmm"})
            r[m] = CostRule::MatMul;
        r["lstm"] = CostRule::Lstm;
        r["gru"] = CostRule::Gru;
        r["einsum"] = CostRule::Einsum;
        return r;
    }();
    std::string name = name0;
    // In-place variants (relu_, add_) and overloads keep the rule of their operator.
    if (name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_')
        name.pop_back();
    auto it = rules.find(name);
    return it == rules.end() ? CostRule::Unknown : it->second;
}

} // namespace ps
