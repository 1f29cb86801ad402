// placement-cli partition GRAPH --k K --model NAME: run a partitioner and print the metrics of
// spec section 8.
#include "app/cli/CliCommands.h"

#include "app/cli/CliLoad.h"
#include "app/cli/ProgressBar.h"
#include "app/cli/RunReports.h"
#include "core/InputError.h"
#include "core/family/Stopwatch.h"
#include "core/io/JsonText.h"
#include "core/io/PlacementJson.h"
#include "core/partitioners/Partitioner.h"
#include "core/sim/PartitionMetrics.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ostream>

namespace ps::cli {

int partitionCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 1)
        throw InputError("partition needs GRAPH");
    const auto model = args.value("model");
    if (!model)
        throw InputError("partition needs --model NAME (metis, spectral, gap)");
    const auto outPath = args.value("out");
    if (!outPath)
        throw InputError("partition needs --out FILE.partition.json");
    requireWritableOutputs(args, {"out"});
    const Graph graph = requireGraph(args.positionals()[0], args, err);
    const int k = requireParts(args, "partition", graph);
    PartitionProblem problem{graph, k, args.real("imbalance").value_or(1.03), {}, {}};
    RunControl control = controlFromArgs(args);
    ProgressBar bar(err, *model);
    control.progress = [&bar](const Progress &p) { bar.update(p.fraction, progressMessage(p)); };
    const auto t0 = std::chrono::steady_clock::now();
    const Partition p = runPartitioner(PartitionerRegistry::builtin(), *model, problem, args.values("param"), control);
    const double wall = secondsSince(t0);
    bar.finish();
    out << jsonText(writePartitionResult(p, graph, wall, *outPath)) << "\n";
    return 0;
}

} // namespace ps::cli
