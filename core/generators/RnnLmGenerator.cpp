#include "core/generators/RnnLmGenerator.h"

#include "core/InputError.h"
#include "core/generators/SequenceModelBuilder.h"

#include <string>

namespace ps {

Graph generateRnnLm(const RnnLmParams &p)
{
    if (p.layers < 1 || p.steps < 1 || p.batch < 1 || p.hidden < 1 || p.vocab < 1)
        throw InputError("layers, steps, batch, hidden and vocab must be at least 1");
    const double B = p.batch, H = p.hidden, V = p.vocab;
    SequenceModelBuilder::checkSize(8.0 * p.layers * p.steps); // a cell per layer and step
    SequenceModelBuilder m("rnnlm");
    const int embedding = m.weight("embedding/table", V * H, "embedding");
    std::vector<SequenceModelBuilder::LstmWeights> w;
    for (int l = 0; l < p.layers; ++l)
        w.push_back(m.lstmWeights("lstm/layer" + std::to_string(l), H, H));
    const int wsoft = m.weight("softmax/W", H * V, "softmax");
    std::vector<SequenceModelBuilder::LstmState> state(p.layers);
    for (int t = 0; t < p.steps; ++t) {
        const std::string step = "step" + std::to_string(t);
        int x = m.op("embedding/" + step + "/lookup", "Gather", 0, B * H, "embedding/" + step, {embedding});
        for (int l = 0; l < p.layers; ++l) {
            state[l] = m.lstmCell("lstm/layer" + std::to_string(l) + "/" + step, x, H, state[l], w[l], B, H);
            x = state[l].h;
        }
        const std::string s = "softmax/" + step;
        const int logits = m.op(s + "/logits", "MatMul", 2 * B * H * V, B * V, s, {x, wsoft});
        m.op(s + "/softmax", "Softmax", B * V, B * V, s, {logits});
    }
    return m.build();
}

} // namespace ps
