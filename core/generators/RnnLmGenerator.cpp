#include "core/generators/RnnLmGenerator.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"

#include <string>

namespace ps {

namespace {

constexpr double kFloat = 4; // bytes per fp32 element

class RnnLmBuilder
{
public:
    explicit RnnLmBuilder(const RnnLmParams &p) : m_p(p), m_builder("rnnlm") {}

    int op(const std::string &id, const std::string &type, double flops, double outElements,
           const std::string &scope, std::initializer_list<int> inputs)
    {
        GraphBuilder::NodeSpec s;
        s.id = id;
        s.op = type;
        s.flops = flops;
        s.outBytes = outElements * kFloat;
        s.scope = scope;
        const int v = m_builder.addNode(std::move(s));
        for (int u : inputs)
            m_builder.addEdge(u, v);
        return v;
    }

    // A weight fetch: it only reads a stored tensor, so its memory is the tensor, counted once.
    int weight(const std::string &id, double elements, const std::string &scope)
    {
        GraphBuilder::NodeSpec s;
        s.id = id;
        s.op = "Weight";
        s.outBytes = elements * kFloat;
        s.paramBytes = elements * kFloat;
        s.memBytes = elements * kFloat;
        s.scope = scope;
        return m_builder.addNode(std::move(s));
    }

    Graph build()
    {
        const double B = m_p.batch, H = m_p.hidden, V = m_p.vocab;
        const int L = m_p.layers, T = m_p.steps;
        const int embedding = weight("embedding/table", V * H, "embedding");
        std::vector<int> wx(L), wh(L);
        for (int l = 0; l < L; ++l) {
            const std::string scope = "lstm/layer" + std::to_string(l);
            wx[l] = weight(scope + "/W_x", H * 4 * H, scope);
            wh[l] = weight(scope + "/W_h", H * 4 * H, scope);
        }
        const int wsoft = weight("softmax/W", H * V, "softmax");
        std::vector<int> h(L, -1), c(L, -1);
        for (int t = 0; t < T; ++t) {
            const std::string step = "step" + std::to_string(t);
            int x = op("embedding/" + step + "/lookup", "Gather", 0, B * H, "embedding/" + step, {embedding});
            for (int l = 0; l < L; ++l) {
                const std::string s = "lstm/layer" + std::to_string(l) + "/" + step;
                const std::string p = s + "/";
                // x W_x and h W_h: [B,H] x [H,4H]; the first step has no previous h.
                const int xw = op(p + "x_matmul", "MatMul", 2 * B * 4 * H * H, B * 4 * H, s, {x, wx[l]});
                int gates = xw;
                if (h[l] >= 0) {
                    const int hw = op(p + "h_matmul", "MatMul", 2 * B * 4 * H * H, B * 4 * H, s, {h[l], wh[l]});
                    gates = op(p + "gates_add", "Add", B * 4 * H, B * 4 * H, s, {xw, hw});
                }
                const int ig = op(p + "input_gate", "Sigmoid", B * H, B * H, s, {gates});
                const int fg = op(p + "forget_gate", "Sigmoid", B * H, B * H, s, {gates});
                const int cg = op(p + "cell_candidate", "Tanh", B * H, B * H, s, {gates});
                const int og = op(p + "output_gate", "Sigmoid", B * H, B * H, s, {gates});
                const int ic = op(p + "input_times_candidate", "Mul", B * H, B * H, s, {ig, cg});
                int cell = ic;
                if (c[l] >= 0) {
                    const int fc = op(p + "forget_times_cell", "Mul", B * H, B * H, s, {fg, c[l]});
                    cell = op(p + "cell", "Add", B * H, B * H, s, {fc, ic});
                }
                const int ct = op(p + "cell_tanh", "Tanh", B * H, B * H, s, {cell});
                const int hn = op(p + "hidden", "Mul", B * H, B * H, s, {og, ct});
                h[l] = hn;
                c[l] = cell;
                x = hn;
            }
            const std::string s = "softmax/" + step;
            const int logits = op(s + "/logits", "MatMul", 2 * B * H * V, B * V, s, {x, wsoft});
            op(s + "/softmax", "Softmax", B * V, B * V, s, {logits});
        }
        return m_builder.build();
    }

private:
    RnnLmParams m_p;
    GraphBuilder m_builder;
};

} // namespace

Graph generateRnnLm(const RnnLmParams &params)
{
    if (params.layers < 1 || params.steps < 1 || params.batch < 1 || params.hidden < 1 || params.vocab < 1)
        throw InputError("rnnlm: layers, steps, batch, hidden and vocab must be at least 1");
    return RnnLmBuilder(params).build();
}

} // namespace ps
