#include "core/generators/GnmtGenerator.h"

#include "core/InputError.h"
#include "core/generators/SequenceModelBuilder.h"

#include <string>

namespace ps {

Graph generateGnmt(const GnmtParams &p)
{
    if (p.layers < 2 || p.sourceSteps < 1 || p.targetSteps < 1 || p.batch < 1 || p.hidden < 1 || p.vocab < 1)
        throw InputError("layers must be at least 2, steps, batch, hidden and vocab at least 1");
    using State = SequenceModelBuilder::LstmState;
    const double B = p.batch, H = p.hidden, V = p.vocab, S = p.sourceSteps;
    const int L = p.layers;
    // A cell per layer and step on either side.
    SequenceModelBuilder::checkSize(8.0 * L * (static_cast<double>(p.sourceSteps) + p.targetSteps));
    SequenceModelBuilder m("gnmt");
    auto step = [](int t) { return "step" + std::to_string(t); };
    auto layer = [](const char *side, int l) { return std::string(side) + "/layer" + std::to_string(l); };

    // Encoder.
    const int srcTable = m.weight("encoder/embedding/table", V * H, "encoder/embedding");
    std::vector<int> x(p.sourceSteps);
    for (int t = 0; t < p.sourceSteps; ++t)
        x[t] = m.op("encoder/embedding/" + step(t) + "/lookup", "Gather", 0, B * H, "encoder/embedding/" + step(t),
                    {srcTable});
    auto forward = m.lstmWeights(layer("encoder", 0), H, H);
    auto backward = m.lstmWeights(layer("encoder", 0) + "/backward", H, H);
    std::vector<int> fw(p.sourceSteps), bw(p.sourceSteps);
    State f, b;
    for (int t = 0; t < p.sourceSteps; ++t) {
        f = m.lstmCell(layer("encoder", 0) + "/" + step(t), x[t], H, f, forward, B, H);
        fw[t] = f.h;
    }
    for (int t = p.sourceSteps - 1; t >= 0; --t) {
        b = m.lstmCell(layer("encoder", 0) + "/backward/" + step(t), x[t], H, b, backward, B, H);
        bw[t] = b.h;
    }
    // in[t]: the input of the next layer: layer 0's two directions concatenated (2H), then each
    // layer's output, with a residual connection around every layer from the third on.
    std::vector<int> in(p.sourceSteps);
    for (int t = 0; t < p.sourceSteps; ++t)
        in[t] = m.op(layer("encoder", 0) + "/" + step(t) + "/concat", "Concat", 0, B * 2 * H,
                     layer("encoder", 0) + "/" + step(t), {fw[t], bw[t]});
    for (int l = 1; l < L; ++l) {
        const double width = l == 1 ? 2 * H : H;
        auto w = m.lstmWeights(layer("encoder", l), width, H);
        State s;
        for (int t = 0; t < p.sourceSteps; ++t) {
            const std::string scope = layer("encoder", l) + "/" + step(t);
            s = m.lstmCell(scope, in[t], width, s, w, B, H);
            in[t] = l >= 2 ? m.op(scope + "/residual", "Add", B * H, B * H, scope, {s.h, in[t]}) : s.h;
        }
    }
    const int memory = m.op("attention/memory", "Concat", 0, B * S * H, "attention", in);

    // Decoder with attention.
    const int tgtTable = m.weight("decoder/embedding/table", V * H, "decoder/embedding");
    std::vector<SequenceModelBuilder::LstmWeights> dw;
    for (int l = 0; l < L; ++l)
        dw.push_back(m.lstmWeights(layer("decoder", l), 2 * H, H));
    const int wsoft = m.weight("softmax/W", H * V, "softmax");
    std::vector<State> ds(L);
    int context = -1;
    for (int t = 0; t < p.targetSteps; ++t) {
        const std::string st = step(t);
        const int y =
            m.op("decoder/embedding/" + st + "/lookup", "Gather", 0, B * H, "decoder/embedding/" + st, {tgtTable});
        const std::string d0 = layer("decoder", 0) + "/" + st;
        const int in0 = context >= 0 ? m.op(d0 + "/concat", "Concat", 0, B * 2 * H, d0, {y, context}) : y;
        ds[0] = m.lstmCell(d0, in0, 2 * H, ds[0], dw[0], B, H);
        // Attention of the bottom decoder layer over the encoder's outputs.
        const std::string a = "attention/" + st;
        const int score = m.op(a + "/score", "MatMul", 2 * B * S * H, B * S, a, {ds[0].h, memory});
        const int weights = m.op(a + "/softmax", "Softmax", B * S, B * S, a, {score});
        context = m.op(a + "/context", "MatMul", 2 * B * S * H, B * H, a, {weights, memory});
        int below = ds[0].h; // each layer reads the one below and the attention context
        for (int l = 1; l < L; ++l) {
            const std::string scope = layer("decoder", l) + "/" + st;
            const int input = m.op(scope + "/concat", "Concat", 0, B * 2 * H, scope, {below, context});
            ds[l] = m.lstmCell(scope, input, 2 * H, ds[l], dw[l], B, H);
            below = l >= 2 ? m.op(scope + "/residual", "Add", B * H, B * H, scope, {ds[l].h, below}) : ds[l].h;
        }
        const std::string s = "softmax/" + st;
        const int logits = m.op(s + "/logits", "MatMul", 2 * B * H * V, B * V, s, {below, wsoft});
        m.op(s + "/softmax", "Softmax", B * V, B * V, s, {logits});
    }
    return m.build();
}

} // namespace ps
