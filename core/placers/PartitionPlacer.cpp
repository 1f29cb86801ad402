// Placement by partitioning ("metis", "spectral", "gap"): one part per device, part sizes in proportion
// to device speed (METIS also balances memory in proportion to device memory, as a second
// constraint), part i on device i. Pinned nodes then go to their pins and each colocation group
// to the device of its pinned or first member, and where a device's memory overflows, ops move off
// it (largest first) to the devices with room. With refine=true the cut is refined (multilevel,
// core/partitioners/PartitionRefinement) under the FLOP shares before the pins are enforced.
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/family/Stopwatch.h"
#include "core/graph/Graph.h"
#include "core/partitioners/PartitionRefinement.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/MemoryRepair.h"
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

// The same control, its reports' fractions mapped into [from, to]: one stage of a run's progress.
RunControl reportingWithin(const RunControl &control, double from, double to)
{
    RunControl stage = control;
    if (control.progress)
        stage.progress = [progress = control.progress, from, to](const Progress &p) {
            Progress q = p;
            q.fraction = from + (to - from) * std::clamp(p.fraction, 0.0, 1.0);
            progress(q);
        };
    return stage;
}

void noteMemoryRepair(const MemoryRepair &r, std::vector<std::string> &notes)
{
    if (r.moved > 0)
        notes.push_back("moved " + std::to_string(r.moved) + " op(s) off devices over their memory" +
                        (r.fits ? "" : "; some device is still over it"));
}

class PartitionPlacer : public Placer
{
public:
    PartitionPlacer(std::string partitioner, std::string description)
        : m_partitioner(std::move(partitioner)), m_description(std::move(description))
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
        // With the refinement after it, the partitioner's progress is the first half of the run's.
        const bool refine = params.flag("refine");
        Partition partition = runPartitioner(PartitionerRegistry::builtin(), m_partitioner, problem, own,
                                             refine ? reportingWithin(control, 0, 0.5) : control);
        std::vector<int> device = partition.parts();
        PlacerOutput out;
        out.notes = std::move(partition.notes);
        MemoryRepair fit; // of the placement kept
        if (refine) {
            // The refined cut is not always the faster placement (it balances FLOPs, not memory
            // or the schedule): both are judged and the better kept (two simulator runs).
            std::vector<int> refined = device;
            rebalanceAndRefine(undirectedView(g), refined, k, problem.imbalance,
                               reportingWithin(control.after(secondsSince(t0)), 0.5, 1), problem.targetShares);
            fit = fitConstraintsAndMemory(pb, device);
            const MemoryRepair refinedFit = fitConstraintsAndMemory(pb, refined);
            bool keepRefined = true;
            if (control.budget.evaluationsLeft(0) >= 2) {
                Simulator sim(g, c);
                const ObjectiveJudge judge(g, c, pb.constraints, pb.objective);
                const PlacerResult plain = judgePlacement(pb, sim, judge, device);
                const PlacerResult better = judgePlacement(pb, sim, judge, refined);
                out.evaluations = 2;
                keepRefined = betterResult(better, plain);
                if (!keepRefined)
                    out.notes.push_back("the refined cut simulated no better; kept the partitioner's");
            } else { // a budget that cannot pay for both judgements
                out.notes.push_back("no simulator runs were left to compare the refined cut with the "
                                    "partitioner's; kept the refined one");
            }
            if (keepRefined) {
                device = std::move(refined);
                fit = refinedFit;
            }
        } else {
            fit = fitConstraintsAndMemory(pb, device);
        }
        noteMemoryRepair(fit, out.notes);
        out.placement = Placement(std::move(device));
        return out;
    }

private:
    // The partitioner's own refinement balances equal shares; the placer refines with its shares
    // (its own `refine`).
    static bool forwarded(const HyperParam &h) { return h.name != "refine"; }
    const Partitioner *family() const { return PartitionerRegistry::builtin().find(m_partitioner); }

    std::string m_partitioner, m_description;
};

} // namespace

std::unique_ptr<Placer> makePartitionPlacer(const std::string &partitioner, std::string description)
{
    return std::make_unique<PartitionPlacer>(partitioner, std::move(description));
}

std::unique_ptr<Placer> makeMetisPlacer()
{
    return makePartitionPlacer("metis", "METIS k-way partition (flops and memory balanced to device speed and memory), "
                                        "part i on device i");
}

std::unique_ptr<Placer> makeSpectralPlacer()
{
    return makePartitionPlacer("spectral", "spectral partition (oASIS Nystrom embedding, balanced k-means) sized to "
                                           "device speed, part i on device i");
}

} // namespace ps
