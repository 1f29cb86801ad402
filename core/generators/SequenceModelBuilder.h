#pragma once
// Building blocks for the sequence-model generators (RNNLM, GNMT, MoE): ops with FLOPs and
// output sizes per spec section 9 (fp32), weight fetches that hold their tensor once, and an
// LSTM cell with every gate its own op.
#include "core/graph/GraphBuilder.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace ps {

class SequenceModelBuilder
{
public:
    struct LstmState
    {
        int h = -1, c = -1; // -1 before the first step
    };
    struct LstmWeights
    {
        int wx, wh;
    };

    explicit SequenceModelBuilder(std::string name) : m_builder(std::move(name)) {}

    int op(const std::string &id, const std::string &type, double flops, double outElements, const std::string &scope,
           const std::vector<int> &inputs);
    // A weight fetch: it only reads a stored tensor, so its memory is the tensor, counted once.
    int weight(const std::string &id, double elements, const std::string &scope);
    // Input and hidden weights of an LSTM layer with `input` inputs and `hidden` units.
    LstmWeights lstmWeights(const std::string &scope, double input, double hidden);
    // One step of an LSTM layer on x ([batch, input]): two matmuls, the four gates, the cell.
    LstmState lstmCell(const std::string &scope, int x, double input, const LstmState &previous, const LstmWeights &w,
                       double batch, double hidden);

    void edge(int from, int to) { m_builder.addEdge(from, to); }
    Graph build() { return m_builder.build(); }

    // The most ops a sequence model is built with: at the parameters' maxima an unrolled MoE or
    // GNMT runs to tens of millions of ops, more memory than the machine has.
    static constexpr int kMaxOps = 10'000'000;
    // Refuses at once a model of at least `ops` ops (an LSTM cell is 8 of them or more) past
    // kMaxOps, rather than after a minute and gigabytes of building (the check in add()).
    static void checkSize(double ops);

private:
    int add(GraphBuilder::NodeSpec spec); // InputError past kMaxOps
    GraphBuilder m_builder;
};

} // namespace ps
