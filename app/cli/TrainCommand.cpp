// placement-cli train --model NAME GRAPH [CLUSTER]: trains a learned family on a graph (or a set
// with --graphs), with a progress line on a terminal, a convergence curve (--curve) and a
// checkpoint (--checkpoint) for zero-shot use by `place --checkpoint`.
#include "app/cli/CliCommands.h"

#include "app/cli/CliLoad.h"
#include "app/cli/ProgressBar.h"
#include "app/cli/RunReports.h"
#include "core/InputError.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>
#include <chrono>
#include <ostream>

namespace ps::cli {

namespace {

bool declares(const FamilyInfo &info, const std::string &param)
{
    return std::any_of(info.params.begin(), info.params.end(), [&](const HyperParam &h) { return h.name == param; });
}

// --iterations, --device, --checkpoint and --graphs become the family's parameters.
std::vector<std::string> trainingParams(const CliArgs &args, const FamilyInfo &info)
{
    if (!declares(info, "save_checkpoint"))
        throw InputError("'" + info.name + "' is not a learned model; train takes gap, rl-seq2seq, gdp or giph");
    std::vector<std::string> params = args.values("param");
    if (auto n = args.integer("iterations")) {
        if (*n < 1)
            throw InputError("--iterations must be at least 1");
        params.push_back("iterations=" + std::to_string(*n));
    }
    if (auto device = args.value("device"))
        params.push_back("device=" + *device);
    if (auto checkpoint = args.value("checkpoint"))
        params.push_back("save_checkpoint=" + *checkpoint);
    if (auto graphs = args.value("graphs")) {
        if (!declares(info, "train_graphs"))
            throw InputError("'" + info.name + "' trains on one graph; --graphs is for gap and gdp");
        std::string list = *graphs;
        std::replace(list.begin(), list.end(), ',', ';');
        params.push_back("train_graphs=" + list);
    }
    return params;
}

} // namespace

int trainCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    const auto model = args.value("model");
    if (!model)
        throw InputError("train needs --model NAME (gap, rl-seq2seq, gdp, giph)");
    const auto outPath = args.value("out");
    if (!outPath)
        throw InputError("train needs --out FILE (.placement.json, or .partition.json for gap)");
    RunControl control = controlFromArgs(args);
    ProgressBar bar(err, *model);
    ConvergenceCurve curve;
    control.progress = [&](const Progress &p) {
        curve.add(p);
        bar.update(p.fraction, progressMessage(p));
    };
    const auto t0 = std::chrono::steady_clock::now();
    nlohmann::ordered_json report;
    if (const Partitioner *partitioner = PartitionerRegistry::builtin().find(*model)) {
        if (args.positionals().size() != 1)
            throw InputError("train --model " + *model + " needs GRAPH (and --k)");
        const auto k = args.integer("k");
        if (!k || *k < 2 || *k > 4096)
            throw InputError("train --model " + *model + " needs --k from 2 to 4096");
        const Graph graph = requireGraph(args.positionals()[0]);
        const std::vector<std::string> params = trainingParams(args, partitioner->info());
        PartitionProblem problem{graph, static_cast<int>(*k), 1.03, {}, {}};
        const Partition p = runPartitioner(PartitionerRegistry::builtin(), *model, problem, params, control);
        bar.finish();
        report = writePartitionResult(
            p, graph, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), *outPath);
    } else {
        if (args.positionals().size() != 2)
            throw InputError("train needs GRAPH CLUSTER");
        const Placer &placer = PlacerRegistry::builtin().require(*model, "model");
        const std::vector<std::string> params = trainingParams(args, placer.info());
        const Graph graph = requireGraph(args.positionals()[0]);
        const Cluster cluster = requireCluster(args.positionals()[1]);
        const Constraints constraints = Constraints::fromGraph(graph, cluster);
        const PlacementProblem problem{graph, cluster, constraints, Objective{}};
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), *model, problem, params, control);
        bar.finish();
        report = writePlacementResult(r, graph, cluster, *outPath);
    }
    report["iterations"] = curve.size();
    if (auto path = args.value("curve")) {
        curve.write(*path);
        report["curve"] = *path;
    }
    if (auto checkpoint = args.value("checkpoint"))
        report["checkpoint"] = *checkpoint;
    out << report.dump() << "\n";
    return 0;
}

} // namespace ps::cli
