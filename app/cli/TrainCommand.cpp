// placement-cli train --model NAME GRAPH [CLUSTER]: trains a learned family on a graph (or a set
// with --graphs), with a progress line on a terminal, a convergence curve (--curve) and a
// checkpoint (--checkpoint) for zero-shot use by `place --checkpoint`. Data-parallel over
// processes with --world-size/--rank/--master or --launch N; rank 0 writes every output.
#include "app/cli/CliCommands.h"

#include "app/cli/CliLoad.h"
#include "app/cli/Distributed.h"
#include "app/cli/ProgressBar.h"
#include "app/cli/RunReports.h"
#include "core/InputError.h"
#include "core/family/RunFingerprint.h"
#include "core/family/Stopwatch.h"
#include "core/io/JsonText.h"
#include "core/partitioners/Partitioner.h"
#include "core/placement/Constraints.h"
#include "core/placers/PlacerRegistry.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <ostream>
#include <thread>

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
        // The learner reads its extra graphs without --batch and --input-shape and keeps their
        // warnings: a model file there trained on ops of unknown shape as 0 FLOPs without a word.
        for (const std::string &path : args.list("graphs"))
            if (isModelFile(path))
                throw InputError("--graphs: " + path +
                                 " is a model file; convert it to a graph first (placement-cli convert " + path +
                                 " G.graph.json --batch N), so that its shapes are fixed and its warnings seen");
        std::replace(list.begin(), list.end(), ',', ';');
        params.push_back("train_graphs=" + list);
    }
    return params;
}

// What every rank of a data-parallel run must agree on: the model, the bytes of every input
// file, the hyperparameters, the budget and the seed (not the device or output paths).
std::string fingerprintOfArgs(const CliArgs &args, const std::string &model)
{
    TrainingInputs in;
    in.model = model;
    for (size_t i = 0; i < args.positionals().size(); ++i)
        in.files.emplace_back(i == 0 ? "graph" : "cluster", args.positionals()[i]);
    if (auto pins = args.value("pins"))
        in.files.emplace_back("pins", *pins);
    for (const std::string &path : args.list("graphs"))
        in.files.emplace_back("training graph", path);
    in.params = args.values("param");
    in.iterations = args.value("iterations").value_or("default");
    in.timeLimit = args.value("time-limit").value_or("none");
    in.seed = args.value("seed").value_or("1");
    in.k = args.value("k").value_or("none");
    return trainingFingerprint(in);
}

// The families that train across processes, for the refusal of one that does not.
void requireDistributes(const FamilyInfo &info)
{
    if (info.distributes)
        return;
    std::string able;
    auto collect = [&](const auto &families) {
        for (const auto *f : families)
            if (f->info().distributes)
                able += (able.empty() ? "" : ", ") + f->info().name;
    };
    collect(PlacerRegistry::builtin().all());
    collect(PartitionerRegistry::builtin().all());
    throw InputError("'" + info.name + "' trains in one process only; across processes: " +
                     (able.empty() ? std::string("none in this build") : able));
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
    control.distribution = distributionFromArgs(args, {});
    const bool leader = control.distribution.leader();
    if (leader) // the other ranks write nothing (and may run where the leader's folders are not)
        requireWritableOutputs(args, {"out", "curve", "checkpoint"});
    ProgressBar bar(err, *model);
    ConvergenceCurve curve;
    control.progress = [&](const Progress &p) {
        curve.add(p);
        if (leader)
            bar.update(p.fraction, progressMessage(p));
    };
    std::optional<LocalWorkers> workers;
    // Checks the family, then starts the --launch workers: both once the inputs have loaded.
    // Local ranks share this machine's cores: each gets its share of LibTorch's threads unless
    // the person set `threads`.
    auto startRanks = [&](const FamilyInfo &info, std::vector<std::string> &params) {
        if (!control.distribution.distributed())
            return;
        requireDistributes(info);
        control.distribution.fingerprint = fingerprintOfArgs(args, *model);
        if (!args.value("launch"))
            return;
        std::vector<std::string> extra;
        if (std::none_of(params.begin(), params.end(),
                         [](const std::string &p) { return p.rfind("threads=", 0) == 0; })) {
            const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
            const std::string share = "threads=" + std::to_string(std::max(1u, cores / control.distribution.worldSize));
            params.push_back(share);
            extra = {"--param", share};
        }
        workers.emplace(rankCommands("train", args, control.distribution, extra));
    };
    const auto t0 = std::chrono::steady_clock::now();
    nlohmann::ordered_json report;
    if (const Partitioner *partitioner = PartitionerRegistry::builtin().find(*model)) {
        if (args.positionals().size() != 1)
            throw InputError("train --model " + *model + " needs GRAPH (and --k)");
        const Graph graph = requireGraph(args.positionals()[0], args, err);
        const int k = requireParts(args, "train --model " + *model, graph);
        std::vector<std::string> params = trainingParams(args, partitioner->info());
        startRanks(partitioner->info(), params);
        PartitionProblem problem{graph, k, 1.03, {}, {}};
        const Partition p = runPartitioner(PartitionerRegistry::builtin(), *model, problem, params, control);
        if (!leader)
            return 0;
        bar.finish();
        report = writePartitionResult(p, graph, secondsSince(t0), *outPath);
    } else {
        if (args.positionals().size() != 2)
            throw InputError("train needs GRAPH CLUSTER");
        const Placer &placer = PlacerRegistry::builtin().require(*model, "model");
        std::vector<std::string> params = trainingParams(args, placer.info());
        const Graph graph = requireGraph(args.positionals()[0], args, err);
        const Cluster cluster = requireCluster(args.positionals()[1]);
        Constraints constraints = Constraints::fromGraph(graph, cluster);
        if (auto pins = args.value("pins"))
            applyPins(*pins, graph, cluster, constraints);
        warnWhenNothingFits(graph, cluster, constraints, err);
        const PlacementProblem problem{graph, cluster, constraints, Objective{}};
        startRanks(placer.info(), params);
        const PlacerResult r = runPlacer(PlacerRegistry::builtin(), *model, problem, params, control);
        if (!leader)
            return 0; // rank 0 writes the placement, the curve and the checkpoint
        bar.finish();
        report = writePlacementResult(r, graph, cluster, *outPath);
    }
    if (workers)
        if (const std::string failed = workers->join(); !failed.empty())
            throw RunAborted("--launch: " + failed);
    report["iterations"] = curve.size();
    if (control.distribution.distributed())
        report["world_size"] = control.distribution.worldSize;
    if (auto path = args.value("curve")) {
        curve.write(*path);
        report["curve"] = *path;
    }
    if (auto checkpoint = args.value("checkpoint"))
        report["checkpoint"] = *checkpoint;
    out << jsonText(report) << "\n";
    return 0;
}

} // namespace ps::cli
