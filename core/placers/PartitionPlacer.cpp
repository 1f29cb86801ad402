// Placement by partitioning ("metis", "spectral", "gap"): one part per device, part sizes in proportion
// to device speed (METIS also balances memory in proportion to device memory, as a second
// constraint), part i on device i, then parts swapped among devices alike where that sends less over
// slow links (core/placers/PartMapping). Pinned nodes then go to their pins and each colocation group
// to the device of its pinned or first member, and where a device's memory overflows, ops move off
// it (largest first) to the devices with room. With refine=true the cut is refined (multilevel,
// core/partitioners/PartitionRefinement) under the FLOP shares before the pins are enforced.
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/cluster/ClusterNodes.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/partitioners/PartitionRefinement.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/MemoryRepair.h"
#include "core/placers/NodePartition.h"
#include "core/placers/PartMapping.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Objective.h"
#include "core/sim/PartitionMetrics.h"
#include "core/sim/Simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace ps {

namespace {

// Parts mapped to devices, made to honour the pins and groups and then, where a device's memory
// overflows, repaired by moving ops to devices with room.
MemoryRepair fitConstraintsAndMemory(const PlacementProblem &pb, std::vector<int> &device)
{
    enforceConstraints(pb.constraints, device);
    return repairMemory(pb.graph, pb.cluster, pb.constraints, device);
}

void noteMemoryRepair(const MemoryRepair &r, std::vector<std::string> &notes)
{
    if (r.moved > 0)
        notes.push_back("moved " + std::to_string(r.moved) + " op(s) off devices over their memory" +
                        (r.fits ? "" : "; some device is still over it"));
}

void notePartMapping(const PartMapping &m, std::vector<std::string> &notes)
{
    char note[200];
    if (m.skipped)
        std::snprintf(note, sizeof note, "part i is on device i: more than %d devices are not mapped by traffic",
                      PartMapping::kMaxDevices);
    else if (m.partsMoved > 0)
        std::snprintf(note, sizeof note,
                      "%d part(s) put on other devices of their kind to send less over slow links (transfer time "
                      "summed: %.4g s, not %.4g s)",
                      m.partsMoved, m.transferSAfter, m.transferSBefore);
    else
        return;
    notes.push_back(note);
}

// A placement a partition placer may return: a partition (flat or into the nodes first), perhaps
// its cut refined, perhaps its parts mapped to devices by traffic, and the partitioner's notes.
struct Option
{
    std::vector<int> device;
    bool refined = false;
    bool overNodes = false;
    PartMapping mapping; // partsMoved > 0: a mapped option
    std::vector<std::string> notes;
    std::string what() const
    {
        return std::string(refined ? "the refined cut" : "the partition") + (overNodes ? " into the nodes first" : "") +
               (mapping.partsMoved > 0 ? ", its parts mapped by traffic" : "");
    }
};

class PartitionPlacer : public Placer
{
public:
    PartitionPlacer(std::string partitioner, std::string description, bool overNodes)
        : m_partitioner(std::move(partitioner)), m_description(std::move(description)), m_overNodes(overNodes)
    {}

    FamilyInfo info() const override
    {
        FamilyInfo info = family()->info();
        info.description = m_description;
        info.distributes = false; // across processes, a partitioner trains as one (`train --model gap`)
        info.params.erase(
            std::remove_if(info.params.begin(), info.params.end(), [](const HyperParam &h) { return !forwarded(h); }),
            info.params.end());
        info.params.push_back(logTuned(
            {"imbalance", HyperParam::Type::Real, 1, 10, 1.03, {}, "largest part over its target share allowed"}));
        info.params.push_back(linearTuned({"refine",
                                           HyperParam::Type::Bool,
                                           0,
                                           1,
                                           0,
                                           {},
                                           "then refine the cut (multilevel, FLOPs balanced to device speed; "
                                           "memory is not balanced by it)"}));
        if (m_overNodes)
            info.params.push_back(linearTuned({"levels",
                                               HyperParam::Type::Choice,
                                               0,
                                               0,
                                               0,
                                               {"best", "nodes", "flat"},
                                               "on a cluster of nodes (devices joined by links faster than those "
                                               "between them): partition into the nodes first, then each node into "
                                               "its devices (FLOPs balanced; memory repaired after), or one k-way "
                                               "partition; best: both, the faster kept"}));
        return info;
    }

    PlacerOutput place(const PlacementProblem &pb, const ParamValues &params, const RunControl &control,
                       const Placement *) const override
    {
        const auto t0 = std::chrono::steady_clock::now();
        const Graph &g = pb.graph;
        const Cluster &c = pb.cluster;
        const int k = c.deviceCount();
        PartitionProblem problem{g, k, params.number("imbalance"), {}, {}};
        for (int d = 0; d < k; ++d) {
            problem.targetShares.push_back(c.device(d).flopsPerS / c.totalFlopsPerS());
            problem.memoryShares.push_back(c.device(d).memoryBytes / c.totalMemoryBytes());
        }
        // The partitioner's own parameters, those given (the others keep its defaults, which are
        // this family's: a training count given is a cap, left out the time limit is the budget).
        std::vector<std::string> own;
        for (const HyperParam &h : family()->info().params) {
            if (!forwarded(h) || !params.given(h.name))
                continue;
            if (h.type == HyperParam::Type::Choice)
                own.push_back(h.name + "=" + params.choice(h.name));
            else if (h.type == HyperParam::Type::Text) {
                if (!params.text(h.name).empty()) // a checkpoint, a corpus
                    own.push_back(h.name + "=" + params.text(h.name));
            } else if (h.type == HyperParam::Type::Bool)
                own.push_back(h.name + (params.flag(h.name) ? "=true" : "=false"));
            else {
                char value[32]; // every digit: std::to_string sent a learning rate of 1.5e-6 as 0.000002
                std::snprintf(value, sizeof value, "%.17g", params.number(h.name));
                own.push_back(h.name + "=" + value);
            }
        }
        // The partitions made: one k-way (flat) and, on a cluster of nodes, one into the nodes first
        // (`levels`: both unless one is asked for).
        const std::string levels = m_overNodes ? params.choice("levels") : "flat";
        const std::vector<std::vector<int>> nodes =
            levels == "flat" ? std::vector<std::vector<int>>{} : clusterNodes(c);
        const bool hasNodes = nodes.size() > 1 && nodes.size() < static_cast<size_t>(k);
        std::vector<bool> overNodes;
        if (levels != "nodes" || !hasNodes)
            overNodes.push_back(false);
        if (levels != "flat" && hasNodes)
            overNodes.push_back(true);
        // The options judged: each partition, its cut refined (refine=true), each of those also with
        // its parts mapped to the devices their traffic favours where that moves any (PartMapping).
        // The later an option, the more work went into it: it is the one kept when no simulator runs
        // are left to judge them all.
        const bool refine = params.flag("refine");
        PlacerOutput out;
        std::vector<Option> options;
        const auto addWithItsMapping = [&](Option o) {
            Option mapped = o;
            mapped.mapping = mapPartsToDevices(g, c, mapped.device);
            if (mapped.mapping.skipped && !o.refined && !o.overNodes)
                notePartMapping(mapped.mapping, out.notes);
            options.push_back(std::move(o));
            if (mapped.mapping.partsMoved > 0)
                options.push_back(std::move(mapped));
        };
        // Progress: the partitions share the run's first half where refinements follow, else all of it.
        const double partitioning = refine ? 0.5 : 1, share = 1.0 / static_cast<double>(overNodes.size());
        for (size_t i = 0; i < overNodes.size(); ++i) {
            const RunControl stage = control.after(secondsSince(t0))
                                         .reportingWithin(partitioning * share * i, partitioning * share * (i + 1));
            Partition partition =
                overNodes[i]
                    ? partitionOverNodes(PartitionerRegistry::builtin(), m_partitioner, problem, nodes, own, stage)
                    : runPartitioner(PartitionerRegistry::builtin(), m_partitioner, problem, own, stage);
            addWithItsMapping({partition.parts(), false, overNodes[i], {}, partition.notes});
            if (refine) {
                // The refined cut is not always the faster placement (it balances FLOPs, not memory
                // or the schedule): it is judged beside the partitioner's.
                std::vector<int> refined = partition.parts();
                rebalanceAndRefine(
                    undirectedView(g), refined, k, problem.imbalance,
                    control.after(secondsSince(t0)).reportingWithin(0.5 + 0.5 * share * i, 0.5 + 0.5 * share * (i + 1)),
                    problem.targetShares);
                addWithItsMapping({std::move(refined), true, overNodes[i], {}, partition.notes});
            }
        }
        std::vector<MemoryRepair> fits;
        for (Option &o : options)
            fits.push_back(fitConstraintsAndMemory(pb, o.device));
        size_t kept = options.size() - 1;
        const bool judged =
            options.size() > 1 && control.budget.evaluationsLeft(0) >= static_cast<int64_t>(options.size());
        if (judged) {
            Simulator sim(g, c);
            const ObjectiveJudge judge(g, c, pb.constraints, pb.objective);
            std::vector<PlacerResult> judged;
            for (const Option &o : options)
                judged.push_back(judgePlacement(pb, sim, judge, o.device));
            out.evaluations = static_cast<int64_t>(options.size());
            kept = 0;
            for (size_t i = 1; i < options.size(); ++i)
                if (betterResult(judged[i], judged[kept]))
                    kept = i;
            out.notes.push_back("kept " + options[kept].what() + ", the fastest of " + std::to_string(options.size()) +
                                " placements judged by the simulator");
        } else if (options.size() > 1) {
            out.notes.push_back("no simulator runs were left to judge " + std::to_string(options.size()) +
                                " options; kept the last, " + options[kept].what());
        }
        out.notes.insert(out.notes.begin(), options[kept].notes.begin(), options[kept].notes.end());
        notePartMapping(options[kept].mapping, out.notes);
        noteMemoryRepair(fits[kept], out.notes);
        std::vector<int> device = std::move(options[kept].device);
        out.placement = Placement(std::move(device));
        return out;
    }

private:
    // The partitioner's own refinement balances equal shares; the placer refines with its shares
    // (its own `refine`).
    static bool forwarded(const HyperParam &h) { return h.name != "refine"; }
    const Partitioner *family() const { return PartitionerRegistry::builtin().find(m_partitioner); }

    std::string m_partitioner, m_description;
    bool m_overNodes; // offers `levels`
};

} // namespace

std::unique_ptr<Placer> makePartitionPlacer(const std::string &partitioner, std::string description, bool overNodes)
{
    return std::make_unique<PartitionPlacer>(partitioner, std::move(description), overNodes);
}

std::unique_ptr<Placer> makeMetisPlacer()
{
    return makePartitionPlacer("metis",
                               "METIS k-way partition (flops and memory balanced to device speed and memory), "
                               "part i on device i",
                               true);
}

std::unique_ptr<Placer> makeSpectralPlacer()
{
    return makePartitionPlacer("spectral",
                               "spectral partition (oASIS Nystrom embedding, balanced k-means) sized to "
                               "device speed, part i on device i",
                               true);
}

} // namespace ps
