#pragma once
// Private to models/torch (includes LibTorch): Graph Segment Training (GST, Cao et al. 2023)
// for the node-level policies. The op sequence (topological order) is cut into segments; a
// gradient step runs the GNN encoder on a few sampled segments only, each with the neighbourhood
// its ops need (so their embeddings are exact), and reads whatever else it needs from a table
// of historical embeddings. The autograd graph of a step is one segment's, not the graph's, so
// training memory stays fixed as the graph grows.
#include "core/graph/Graph.h"
#include "models/torch/LearnerSupport.h"

#include <optional>
#include <vector>

namespace ps::learn {

struct GraphSegment
{
    int64_t begin = 0, end = 0; // positions [begin, end) of the order
    torch::Tensor ids;          // the ops at those positions (node ids, int64, in order)
    GraphData halo;             // those ops and everything within `hops` of them
    torch::Tensor haloNodes;    // the halo's nodes (node ids; row i of halo is node haloNodes[i])
    torch::Tensor rows;         // the ops' rows within halo (in order)
};

// Segments of `size` positions along `order` (the last may be shorter). The halo of each holds
// the nodes within `hops` steps (either edge direction) of its ops, with the full graph's mean
// aggregation for the nodes within hops - 1, so a `hops`-layer encoder on the halo gives the ops
// exactly the embeddings it gives them on the whole graph.
std::vector<GraphSegment> graphSegments(const Graph &graph, const GraphData &full, const std::vector<int64_t> &order,
                                        int64_t size, int hops);
// The halos' node features taken again from `full` (after the features changed, e.g. columns
// added); the structure stays.
void refreshHaloFeatures(std::vector<GraphSegment> &segments, const GraphData &full);

// The historical embedding table: one row per position of the order, refreshed from fresh
// embeddings whenever some are computed, read (detached) where a segment needs its neighbours'.
class EmbeddingHistory
{
public:
    bool empty() const { return !m_table.defined(); }
    const torch::Tensor &table() const { return m_table; }
    // The whole sequence's states (positions in order), e.g. from a full no-grad pass.
    void refresh(const torch::Tensor &states) { m_table = states.detach().clone(); }
    void write(int64_t begin, const torch::Tensor &states);
    // Positions [begin, end), detached; undefined when the range is empty or nothing is stored.
    torch::Tensor read(int64_t begin, int64_t end) const;

private:
    torch::Tensor m_table;
};

// Which segments a GST step trains on (`count` of `total`, without repetition) and whether the
// stale memory is dropped (stale embedding dropout, probability `dropout`); drawn from the run's
// seed, the step and the epoch alone, so every rank of a data-parallel run draws the same.
struct SegmentDraw
{
    std::vector<int64_t> segments;
    std::vector<bool> dropMemory; // per drawn segment
};
SegmentDraw drawSegments(uint64_t seed, long long step, int epoch, int64_t total, int64_t count, double dropout);

// GST's prediction-head fine-tuning keeps the encoder fixed: before the optimizer's step, its
// parameters' gradients are dropped. A zeroed gradient would not do: Adam's moments keep moving
// a parameter whose gradient is zero, and only one without a gradient is skipped.
void holdStill(const std::vector<torch::Tensor> &parameters);

// GST's settings, read from the hyperparameters every family that trains on segments declares
// (models/LearnerFamilies.cpp).
struct GstSettings
{
    std::string mode = "auto";  // auto: on above 16,384 ops
    int64_t segmentOps = 4096;  // ops per segment
    int64_t perStep = 2;        // segments trained on per step (epoch)
    double staleDropout = 0.5;  // probability of dropping a stale segment (or memory)
    double finetuneShare = 0.1; // last share of the budget: the prediction head alone
    static GstSettings from(const ParamValues &params);
    // Ops per segment for this graph (0: GST off for it).
    int64_t segmentFor(const Graph &graph) const;
};

} // namespace ps::learn
