#include "core/generators/SequenceModelBuilder.h"

#include "core/InputError.h"

namespace ps {

namespace {
constexpr double kFloat = 4; // bytes per fp32 element

[[noreturn]] void tooLarge(const std::string &size)
{
    throw InputError("the graph would have " + size + " ops, more than the " +
                     messageNumber(SequenceModelBuilder::kMaxOps) +
                     " a generator builds: choose fewer layers, steps or experts");
}
} // namespace

void SequenceModelBuilder::checkSize(double ops)
{
    if (ops > kMaxOps)
        tooLarge("at least " + messageNumber(ops));
}

int SequenceModelBuilder::add(GraphBuilder::NodeSpec spec)
{
    if (m_builder.nodeCount() >= kMaxOps)
        tooLarge("more");
    return m_builder.addNode(std::move(spec));
}

int SequenceModelBuilder::op(const std::string &id, const std::string &type, double flops, double outElements,
                             const std::string &scope, const std::vector<int> &inputs)
{
    GraphBuilder::NodeSpec s;
    s.id = id;
    s.op = type;
    s.flops = flops;
    s.outBytes = outElements * kFloat;
    s.scope = scope;
    const int v = add(std::move(s));
    for (int u : inputs)
        m_builder.addEdge(u, v);
    return v;
}

int SequenceModelBuilder::weight(const std::string &id, double elements, const std::string &scope)
{
    GraphBuilder::NodeSpec s;
    s.id = id;
    s.op = "Weight";
    s.outBytes = elements * kFloat;
    s.paramBytes = elements * kFloat;
    s.memBytes = elements * kFloat;
    s.scope = scope;
    return add(std::move(s));
}

SequenceModelBuilder::LstmWeights SequenceModelBuilder::lstmWeights(const std::string &scope, double input,
                                                                    double hidden)
{
    return {weight(scope + "/W_x", input * 4 * hidden, scope), weight(scope + "/W_h", hidden * 4 * hidden, scope)};
}

SequenceModelBuilder::LstmState SequenceModelBuilder::lstmCell(const std::string &s, int x, double input,
                                                               const LstmState &previous, const LstmWeights &w,
                                                               double B, double H)
{
    const std::string p = s + "/";
    // x W_x: [B, input] x [input, 4H]; h W_h: [B, H] x [H, 4H]; none before the first step.
    const int xw = op(p + "x_matmul", "MatMul", 2 * B * 4 * H * input, B * 4 * H, s, {x, w.wx});
    int gates = xw;
    if (previous.h >= 0) {
        const int hw = op(p + "h_matmul", "MatMul", 2 * B * 4 * H * H, B * 4 * H, s, {previous.h, w.wh});
        gates = op(p + "gates_add", "Add", B * 4 * H, B * 4 * H, s, {xw, hw});
    }
    const int ig = op(p + "input_gate", "Sigmoid", B * H, B * H, s, {gates});
    const int fg = op(p + "forget_gate", "Sigmoid", B * H, B * H, s, {gates});
    const int cg = op(p + "cell_candidate", "Tanh", B * H, B * H, s, {gates});
    const int og = op(p + "output_gate", "Sigmoid", B * H, B * H, s, {gates});
    const int ic = op(p + "input_times_candidate", "Mul", B * H, B * H, s, {ig, cg});
    int cell = ic;
    if (previous.c >= 0) {
        const int fc = op(p + "forget_times_cell", "Mul", B * H, B * H, s, {fg, previous.c});
        cell = op(p + "cell", "Add", B * H, B * H, s, {fc, ic});
    }
    const int ct = op(p + "cell_tanh", "Tanh", B * H, B * H, s, {cell});
    return {op(p + "hidden", "Mul", B * H, B * H, s, {og, ct}), cell};
}

} // namespace ps
