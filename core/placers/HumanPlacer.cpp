// The expert baseline of the placement papers. For graphs whose scopes hold numbered layers
// (RNN/NMT stacks: "encoder/layer3"), layer i of every stack goes to the i-th fastest device, as
// Mirhoseini et al. (2017) place LSTM layers, and the remaining scopes (embedding, attention,
// softmax) go to the least-loaded devices, preferring ones no layer uses. Otherwise (CNNs), the rank order is
// cut into contiguous chunks whose compute is proportional to device speed. Memory-aware: a node
// that does not fit moves to the next device with room.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/CostModel.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace ps {

namespace {

// The number at the end of a layer's scope name ("layer12" -> 12), or -1. Unrolled time steps
// ("step3", "t3", "time_3") are numbered too but are not layers.
long long layerNumber(const std::string &name)
{
    size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])))
        --i;
    if (i == name.size() || name.size() - i > 9)
        return -1;
    std::string stem = name.substr(0, i);
    while (!stem.empty() && (stem.back() == '_' || stem.back() == '-' || stem.back() == '.'))
        stem.pop_back();
    for (char &ch : stem)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char *time : {"step", "steps", "t", "time", "timestep", "ts"})
        if (stem == time)
            return -1;
    return std::stoll(name.substr(i));
}

// For every scope of the graph: the device of its layer, or -1 when it is not inside a layer.
// Layers are numbered children of one parent ("stack"); at least two per stack.
std::vector<int> layerDevices(const Graph &g, const std::vector<int> &bySpeed, double &layeredFlops)
{
    const int k = static_cast<int>(bySpeed.size());
    const ScopeTree &t = g.scopes();
    std::vector<int> device(t.size(), -1);
    layeredFlops = 0;
    auto insideLayer = [&](int s) {
        for (; s >= 0; s = t.scope(s).parent)
            if (device[s] >= 0)
                return true;
        return false;
    };
    for (int s = 0; s < t.size(); ++s) {
        if (insideLayer(s))
            continue; // numbered scopes inside a layer (time steps) are not layers
        std::vector<std::pair<long long, int>> numbered;
        for (int c : t.scope(s).children)
            if (long long n = layerNumber(t.scope(c).name); n >= 0)
                numbered.emplace_back(n, c);
        if (numbered.size() < 2 || numbered.size() * 2 < t.scope(s).children.size())
            continue;
        std::sort(numbered.begin(), numbered.end());
        const int layers = static_cast<int>(numbered.size());
        for (int i = 0; i < layers; ++i) {
            const int c = numbered[i].second;
            device[c] = bySpeed[layers <= k ? i : static_cast<int>(static_cast<long long>(i) * k / layers)];
            layeredFlops += t.scope(c).totalFlops;
        }
    }
    // Descendants inherit their layer's device (parents come before children in the tree).
    for (int s = 1; s < t.size(); ++s)
        if (device[s] < 0 && device[t.scope(s).parent] >= 0)
            device[s] = device[t.scope(s).parent];
    return device;
}

class HumanPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        return {"human",
                "expert baseline: one layer per device for layered (RNN/NMT) scopes, else "
                "contiguous rank-order chunks balanced by compute",
                {linearTuned({"layer_share", HyperParam::Type::Real, 0, 1, 0.25, {},
                              "least share of the compute inside numbered layers to place layer by layer"})}};
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &,
                       const Placement *) const override
    {
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const int k = c.deviceCount();
        FeasibilityTracker tracker(g, c, pb.constraints);
        CostModel costs(g, c);
        std::vector<int> device(g.nodeCount(), -1);
        double layeredFlops = 0;
        // Layer i on the i-th fastest device: an expert does not start with the CPU.
        const std::vector<int> bySpeed = c.devicesBySpeed();
        // Layers only on devices within 10x of the fastest (no expert gives a layer to a CPU
        // beside GPUs); the other scopes may still use any device.
        std::vector<int> layerTargets;
        for (int d : bySpeed)
            if (c.device(d).flopsPerS * 10 >= c.device(bySpeed[0]).flopsPerS)
                layerTargets.push_back(d);
        const std::vector<int> scopeDevice = layerDevices(g, layerTargets, layeredFlops);
        const bool byLayers = g.totalFlops() > 0 && layeredFlops >= params.number("layer_share") * g.totalFlops();

        if (byLayers) {
            // Layers first: their devices are fixed. Then every other top-level scope, in the
            // order it first appears, goes whole to the device where it would end earliest
            // (load so far plus its own compute there), so a large softmax avoids a slow CPU.
            std::vector<double> load(k, 0.0);
            auto topOf = [&](int v) {
                int top = g.scopeIndex(v);
                while (top > 0 && g.scopes().scope(top).parent > 0)
                    top = g.scopes().scope(top).parent;
                return top;
            };
            std::map<int, std::vector<double>> groupCost; // top-level scope -> compute per device
            std::vector<int> groupOrder;
            for (int v : g.topologicalOrder()) {
                const int layerDevice = scopeDevice[g.scopeIndex(v)];
                if (layerDevice >= 0) {
                    load[layerDevice] += costs.compute(v, layerDevice);
                    continue;
                }
                auto [it, inserted] = groupCost.emplace(topOf(v), std::vector<double>(k, 0.0));
                if (inserted)
                    groupOrder.push_back(it->first);
                for (int d = 0; d < k; ++d)
                    it->second[d] += costs.compute(v, d);
            }
            std::map<int, int> groupDevice;
            for (int top : groupOrder) {
                const std::vector<double> &cost = groupCost[top];
                int best = bySpeed[0];
                for (int d : bySpeed)
                    if (load[d] + cost[d] < load[best] + cost[best])
                        best = d;
                groupDevice[top] = best;
                load[best] += cost[best];
            }
            for (int v : g.topologicalOrder()) {
                const int layerDevice = scopeDevice[g.scopeIndex(v)];
                device[v] = tracker.assignNear(v, layerDevice >= 0 ? layerDevice : groupDevice[topOf(v)]);
            }
        } else {
            // Chunk d ends once the compute so far reaches d's cumulative share of the total.
            // Weights are flops, or one per node when the graph gives none.
            auto weight = [&](int v) { return g.totalFlops() > 0 ? g.flops(v) : 1.0; };
            double total = 0;
            for (int v = 0; v < g.nodeCount(); ++v)
                total += weight(v);
            std::vector<double> end(k);
            double cumulative = 0;
            for (int d = 0; d < k; ++d) {
                cumulative += c.device(d).flopsPerS;
                end[d] = total * (cumulative / c.totalFlopsPerS());
            }
            int current = 0;
            double done = 0;
            for (int v : g.topologicalOrder()) {
                while (current + 1 < k && (done >= end[current] || !tracker.fits(v, current)) &&
                       tracker.requiredDevice(v) < 0)
                    ++current;
                device[v] = tracker.assignNear(v, current);
                done += weight(v);
            }
        }
        PlacerOutput out;
        out.placement = Placement(std::move(device));
        out.notes = tracker.notes();
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeHumanPlacer() { return std::make_unique<HumanPlacer>(); }

} // namespace ps
