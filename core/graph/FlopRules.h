#pragma once
// The FLOP conventions of spec section 9, in one place for the ONNX and TorchScript importers
// and the built-in generators. Shapes list dimensions; a negative dimension is unknown, and a
// rule that needs it returns kUnknownFlops so the caller can report it.
#include <cstdint>
#include <string>
#include <vector>

namespace ps {

using Shape = std::vector<int64_t>;

constexpr double kUnknownFlops = -1;

// The product of the dimensions (1 for a scalar), or -1 when one is unknown.
double elementCount(const Shape &shape);

// How an operator's FLOPs follow from its shapes.
enum class CostRule {
    Zero,          // data movement and no-ops: Reshape, Transpose, Concat, Gather, ...
    PerOutput,     // elementwise, activation, normalization, Softmax: one per output element
    PerInput,      // global pooling, Reduce*, TopK, CumSum, losses: one per input element
    PerUpdate,     // ScatterAdd, index_add: one per updated element
    Pool,          // MaxPool/AveragePool: one per output element per window element
    Conv,          // 2 * out elements * (Cin/groups) * kernel
    ConvTranspose, // 2 * in elements * (Cout/groups) * kernel
    MatMul,        // 2 * M * N * K, times the (broadcast) batch
    Gemm,          // 2 * M * N * K
    Lstm,
    Gru,
    Einsum,      // 2 * the product of the sizes of all distinct indices
    ControlFlow, // If, Loop, Scan: one node, not expanded
    Unknown,
};

// Conv with weight [Cout, Cin/groups, k...] and output [N, Cout, spatial...].
double convFlops(const Shape &out, const Shape &weight);
// ConvTranspose with input [N, Cin, spatial...] and weight [Cin, Cout/groups, k...].
double convTransposeFlops(const Shape &in, const Shape &weight);
// numpy matmul semantics: 1-D operands are promoted, batch dimensions broadcast.
double matMulFlops(const Shape &a, const Shape &b);
double gemmFlops(double m, double n, double k);
double poolFlops(const Shape &out, const Shape &kernel);
// Whole recurrent ops over all steps and directions: the gate matrix products plus the
// elementwise gate arithmetic (13 per hidden unit per step for LSTM, 11 for GRU).
double lstmFlops(double steps, double batch, double input, double hidden, double directions);
double gruFlops(double steps, double batch, double input, double hidden, double directions);
// A plain contraction such as "bij,bjk->bik" (no ellipsis, one operand letter per dimension);
// kUnknownFlops when the equation is not plain or a size is unknown.
double einsumFlops(const std::string &equation, const std::vector<Shape> &operands);

} // namespace ps
