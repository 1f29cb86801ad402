#include "core/generators/MoeGenerator.h"

#include "core/InputError.h"
#include "core/generators/SequenceModelBuilder.h"

#include <string>

namespace ps {

Graph generateMoe(const MoeParams &p)
{
    if (p.steps < 1 || p.batch < 1 || p.hidden < 1 || p.experts < 1 || p.topK < 1 || p.topK > p.experts ||
        p.expertHidden < 1 || p.vocab < 1)
        throw InputError("every size must be at least 1 and top_k at most experts");
    using State = SequenceModelBuilder::LstmState;
    const double B = p.batch, H = p.hidden, E = p.experts, K = p.topK, F = p.expertHidden, V = p.vocab;
    const double rows = B * K / E; // rows each expert sees on average
    // Each step: two LSTM cells and four ops per expert.
    SequenceModelBuilder::checkSize(p.steps * (16.0 + 4.0 * p.experts));
    SequenceModelBuilder m("moe");
    const int table = m.weight("embedding/table", V * H, "embedding");
    auto lower = m.lstmWeights("lstm/layer0", H, H);
    auto upper = m.lstmWeights("lstm/layer1", H, H);
    const int gate = m.weight("moe/gating/W", H * E, "moe/gating");
    std::vector<int> w1(p.experts), w2(p.experts);
    for (int e = 0; e < p.experts; ++e) {
        const std::string scope = "moe/expert" + std::to_string(e);
        w1[e] = m.weight(scope + "/W1", H * F, scope);
        w2[e] = m.weight(scope + "/W2", F * H, scope);
    }
    const int wsoft = m.weight("softmax/W", H * V, "softmax");
    State s0, s1;
    for (int t = 0; t < p.steps; ++t) {
        const std::string st = "step" + std::to_string(t);
        const int x = m.op("embedding/" + st + "/lookup", "Gather", 0, B * H, "embedding/" + st, {table});
        s0 = m.lstmCell("lstm/layer0/" + st, x, H, s0, lower, B, H);
        const std::string g = "moe/gating/" + st;
        const int logits = m.op(g + "/logits", "MatMul", 2 * B * H * E, B * E, g, {s0.h, gate});
        const int probs = m.op(g + "/softmax", "Softmax", B * E, B * E, g, {logits});
        const int topk = m.op(g + "/top_k", "TopK", B * E, B * K * 2, g, {probs});
        std::vector<int> combineInputs = {topk};
        for (int e = 0; e < p.experts; ++e) {
            const std::string scope = "moe/expert" + std::to_string(e) + "/" + st;
            const int rowsIn = m.op(scope + "/dispatch", "Gather", 0, rows * H, scope, {s0.h, topk});
            const int a = m.op(scope + "/ffn1", "MatMul", 2 * rows * H * F, rows * F, scope, {rowsIn, w1[e]});
            const int r = m.op(scope + "/relu", "Relu", rows * F, rows * F, scope, {a});
            combineInputs.push_back(m.op(scope + "/ffn2", "MatMul", 2 * rows * F * H, rows * H, scope, {r, w2[e]}));
        }
        const int moeOut = m.op(g + "/combine", "ScatterAdd", B * K * H, B * H, g, combineInputs);
        s1 = m.lstmCell("lstm/layer1/" + st, moeOut, H, s1, upper, B, H);
        const std::string so = "softmax/" + st;
        const int out = m.op(so + "/logits", "MatMul", 2 * B * H * V, B * V, so, {s1.h, wsoft});
        m.op(so + "/softmax", "Softmax", B * V, B * V, so, {out});
    }
    return m.build();
}

} // namespace ps
