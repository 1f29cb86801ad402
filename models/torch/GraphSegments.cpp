#include "models/torch/GraphSegments.h"

#include "models/torch/Collective.h"

#include <algorithm>

namespace ps::learn {

namespace {

// Row-normalised mean aggregation restricted to `nodes` (local indices): rows of the nodes whose
// distance is below `exactUpTo` carry the full graph's weights; the others stay empty (their
// embeddings are never used).
torch::Tensor localMeanMatrix(const Graph &graph, const std::vector<int> &nodes, const std::vector<int> &local,
                              const std::vector<int> &distance, int exactUpTo, bool fromPredecessors)
{
    std::vector<int64_t> rows, cols;
    std::vector<float> values;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const int v = nodes[i];
        if (distance[static_cast<size_t>(v)] >= exactUpTo)
            continue;
        const auto nb = fromPredecessors ? graph.predecessors(v) : graph.successors(v);
        for (size_t j = 0; j < nb.size(); ++j) {
            rows.push_back(static_cast<int64_t>(i));
            cols.push_back(local[static_cast<size_t>(nb[j])]);
            values.push_back(1.0f / static_cast<float>(nb.size()));
        }
    }
    const int64_t nnz = static_cast<int64_t>(values.size()), m = static_cast<int64_t>(nodes.size());
    std::vector<int64_t> index(rows);
    index.insert(index.end(), cols.begin(), cols.end());
    const auto indices = torch::from_blob(index.data(), {2, nnz}, torch::kInt64).clone();
    const auto vals = torch::from_blob(values.data(), {nnz}, torch::kFloat32).clone();
    return torch::sparse_coo_tensor(indices, vals, {m, m}).coalesce();
}

torch::Tensor int64Tensor(const std::vector<int64_t> &v)
{
    return torch::from_blob(const_cast<int64_t *>(v.data()), {static_cast<int64_t>(v.size())}, torch::kInt64).clone();
}

} // namespace

std::vector<GraphSegment> graphSegments(const Graph &graph, const GraphData &full, const std::vector<int64_t> &order,
                                        int64_t size, int hops)
{
    const int n = graph.nodeCount();
    const torch::Device device = full.x.device();
    std::vector<int> distance(static_cast<size_t>(n), -1), local(static_cast<size_t>(n), -1);
    std::vector<GraphSegment> segments;
    for (int64_t begin = 0; begin < static_cast<int64_t>(order.size()); begin += size) {
        GraphSegment s;
        s.begin = begin;
        s.end = std::min<int64_t>(static_cast<int64_t>(order.size()), begin + size);
        std::vector<int> nodes;
        for (int64_t p = s.begin; p < s.end; ++p) {
            const int v = static_cast<int>(order[static_cast<size_t>(p)]);
            distance[static_cast<size_t>(v)] = 0;
            nodes.push_back(v);
        }
        for (int hop = 1, frontier = 0; hop <= hops; ++hop) { // breadth first, both directions
            const size_t until = nodes.size();
            for (size_t i = static_cast<size_t>(frontier); i < until; ++i)
                for (const bool pred : {true, false}) {
                    const auto nb = pred ? graph.predecessors(nodes[i]) : graph.successors(nodes[i]);
                    for (size_t j = 0; j < nb.size(); ++j)
                        if (distance[static_cast<size_t>(nb[j])] < 0) {
                            distance[static_cast<size_t>(nb[j])] = hop;
                            nodes.push_back(nb[j]);
                        }
                }
            frontier = static_cast<int>(until);
        }
        std::vector<int64_t> ids(order.begin() + s.begin, order.begin() + s.end), halo, rows;
        for (size_t i = 0; i < nodes.size(); ++i) {
            local[static_cast<size_t>(nodes[i])] = static_cast<int>(i);
            halo.push_back(nodes[i]);
        }
        for (int64_t id : ids)
            rows.push_back(local[static_cast<size_t>(id)]);
        s.ids = int64Tensor(ids).to(device);
        s.rows = int64Tensor(rows).to(device);
        s.halo.n = static_cast<int>(nodes.size());
        s.haloNodes = int64Tensor(halo).to(device);
        s.halo.x = full.x.index_select(0, s.haloNodes);
        s.halo.fromPred = localMeanMatrix(graph, nodes, local, distance, hops, true).to(device);
        s.halo.fromSucc = localMeanMatrix(graph, nodes, local, distance, hops, false).to(device);
        for (int v : nodes) {
            distance[static_cast<size_t>(v)] = -1;
            local[static_cast<size_t>(v)] = -1;
        }
        segments.push_back(std::move(s));
    }
    return segments;
}

void refreshHaloFeatures(std::vector<GraphSegment> &segments, const GraphData &full)
{
    for (GraphSegment &s : segments)
        s.halo.x = full.x.index_select(0, s.haloNodes);
}

void EmbeddingHistory::write(int64_t begin, const torch::Tensor &states)
{
    if (!empty())
        m_table.slice(0, begin, begin + states.size(0)).copy_(states.detach());
}

torch::Tensor EmbeddingHistory::read(int64_t begin, int64_t end) const
{
    if (empty() || end <= begin)
        return {};
    return m_table.slice(0, std::max<int64_t>(0, begin), end);
}

SegmentDraw drawSegments(uint64_t seed, long long step, int epoch, int64_t total, int64_t count, double dropout)
{
    at::Generator generator = sampleGenerator(seed, step, -1 - static_cast<long long>(epoch));
    const torch::Tensor perm = torch::randperm(total, generator, torch::TensorOptions().dtype(torch::kInt64));
    const torch::Tensor coin = torch::rand({total}, generator);
    SegmentDraw d;
    for (int64_t i = 0; i < std::min(count, total); ++i) {
        d.segments.push_back(perm[i].item<int64_t>());
        d.dropMemory.push_back(coin[i].item<double>() < dropout);
    }
    return d;
}

void holdStill(const std::vector<torch::Tensor> &parameters)
{
    for (torch::Tensor p : parameters)
        p.mutable_grad() = torch::Tensor();
}

GstSettings GstSettings::from(const ParamValues &params)
{
    GstSettings s;
    s.mode = params.choice("gst");
    s.segmentOps = params.integer("gst_segment");
    s.perStep = params.integer("gst_segments");
    s.staleDropout = params.number("stale_dropout");
    s.finetuneShare = params.number("finetune_share");
    return s;
}

int64_t GstSettings::segmentFor(const Graph &graph) const
{
    return mode == "on" || (mode == "auto" && graph.nodeCount() > 16384) ? segmentOps : 0;
}

} // namespace ps::learn
