// placement-cli simulate / bound / metrics: the simulator and the partition metrics, with the
// JSON keys of the spec's oracle (reference_sim.py).
#include "app/cli/CliCommands.h"

#include "app/cli/CliLoad.h"
#include "core/InputError.h"
#include "core/io/JsonText.h"
#include "core/io/OrderedObject.h"
#include "core/sim/PartitionMetrics.h"
#include "core/sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <ostream>

namespace ps::cli {

namespace {

using Json = nlohmann::ordered_json;

Json boundJson(const LowerBound &lb)
{
    return Json{{"lower_bound_s", lb.bound}, {"critical_path_s", lb.criticalPath}, {"work_bound_s", lb.work}};
}

} // namespace

int simulateCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 3)
        throw InputError("simulate needs GRAPH CLUSTER PLACEMENT");
    const Graph graph = requireGraph(args.positionals()[0], args, err);
    const Cluster cluster = requireCluster(args.positionals()[1]);
    const Placement placement = requirePlacement(args.positionals()[2], graph, cluster, err);
    const long long repeat = args.integer("repeat").value_or(0);
    if (repeat < 0 || repeat > 1000000)
        throw InputError("--repeat needs a count from 0 to 1000000");

    Simulator sim(graph, cluster);
    const Schedule s = sim.simulate(placement);
    Json report{{"makespan_s", s.makespan}};
    report.update(boundJson(s.lowerBound));
    report["feasible"] = s.feasible;
    report["violations"] = s.violations;
    report["moved_bytes"] = s.movedBytes;
    report["transfers"] = s.transferCount;
    Json devices = Json::object();
    for (int d = 0; d < cluster.deviceCount(); ++d)
        devices[cluster.device(d).name] = {{"busy_s", s.busy[d]}, {"memory_bytes", s.memory[d]}};
    report["devices"] = devices;
    if (args.flag("ops")) {
        OrderedMembers ops;
        ops.reserve(static_cast<size_t>(graph.nodeCount()));
        for (int v = 0; v < graph.nodeCount(); ++v)
            ops.emplace_back(graph.id(v), Json{s.start[v], s.finish[v]});
        report["ops"] = orderedObject(std::move(ops));
    }
    if (repeat > 0) {
        double sink = 0;
        const auto t0 = std::chrono::steady_clock::now();
        for (long long i = 0; i < repeat; ++i)
            sink += sim.makespan(placement.devices());
        const auto t1 = std::chrono::steady_clock::now();
        if (sink != sink)
            throw std::runtime_error("simulation diverged");
        report["sim_ms"] = std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat;
    }
    out << jsonText(report) << "\n";
    return 0;
}

int boundCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 2)
        throw InputError("bound needs GRAPH CLUSTER");
    const Graph graph = requireGraph(args.positionals()[0], args, err);
    const Cluster cluster = requireCluster(args.positionals()[1]);
    const Json report = boundJson(computeLowerBound(graph, cluster));
    for (const auto &[key, value] : report.items())
        if (!std::isfinite(value.get<double>()))
            throw InputError("a cost or result overflows a double");
    out << jsonText(report) << "\n";
    return 0;
}

int metricsCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 2)
        throw InputError("metrics needs GRAPH PARTITION");
    const Graph graph = requireGraph(args.positionals()[0], args, err);
    const Partition partition = requirePartition(args.positionals()[1], graph);
    const PartitionMetrics m = partitionMetrics(graph, partition.parts(), partition.k());
    out << jsonText(Json{{"edge_cut", m.edgeCut},
                         {"imbalance", m.imbalance},
                         {"normalized_cut", m.normalizedCut},
                         {"part_weights", m.partWeights}})
        << "\n";
    return 0;
}

} // namespace ps::cli
