// placement-cli validate FILE...: checks each file, then the graph against the others; a graph that
// no placement on the cluster can hold in memory, and a placement with a graph and a cluster that
// breaks memory or pins when simulated, are said (the files stay valid).
#include "app/cli/CliCommands.h"
#include "app/cli/CliLoad.h"

#include "core/InputError.h"
#include "core/io/FileKind.h"
#include "core/placement/Constraints.h"
#include "core/placers/FeasibilityTracker.h"
#include "core/sim/Simulator.h"

#include <ostream>

namespace ps::cli {

namespace {

// The graph's pins and groups on the cluster, checked: InputError for a pin to a device the cluster
// lacks and for pins that contradict each other.
Constraints checkedPins(const Graph &graph, const Cluster &cluster, const std::string &graphFile,
                        const std::string &clusterFile)
{
    Constraints constraints = Constraints::fromGraph(graph, cluster);
    std::vector<int> unknown = constraints.unknownPins();
    if (!unknown.empty())
        throw InputError(graphFile + ": node '" + graph.id(unknown[0]) + "' is pinned to '" +
                         graph.pinNames()[graph.pin(unknown[0])] + "', which " + clusterFile + " lacks (" +
                         std::to_string(unknown.size()) + " such pins)");
    if (const std::string why = constraints.contradiction(graph, cluster); !why.empty())
        throw InputError(graphFile + ": " + why);
    return constraints;
}

} // namespace

int validateCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().empty())
        throw InputError("validate needs at least one FILE");
    std::vector<std::pair<std::string, LoadedFile>> files;
    const LoadedFile *graphFile = nullptr, *clusterFile = nullptr;
    std::string graphPath, clusterPath;
    for (const std::string &path : args.positionals()) {
        files.emplace_back(path, loadReporting(path, loadOptions(args), err));
        out << path << ": ok (" << kindName(kindOf(files.back().second.format)) << ")\n";
    }
    for (const auto &[path, file] : files) {
        if (file.graph && !graphFile) {
            graphFile = &file;
            graphPath = path;
        }
        if (file.cluster && !clusterFile) {
            clusterFile = &file;
            clusterPath = path;
        }
    }
    if (graphFile && clusterFile) {
        const Constraints constraints = checkedPins(*graphFile->graph, *clusterFile->cluster, graphPath, clusterPath);
        // Said, not refused (the files are valid): a graph no placement on this cluster can hold,
        // which every placer then places infeasibly.
        if (const std::string why =
                FeasibilityTracker(*graphFile->graph, *clusterFile->cluster, constraints).neverFits();
            !why.empty())
            out << graphPath << ": on " << clusterPath << ", " << why << "\n";
    }
    for (const auto &[path, file] : files) {
        std::vector<std::string> broken; // a valid file may place what cannot run (memory, pins)
        try {
            if (graphFile && clusterFile && (file.placement || file.partition)) {
                // A partition places part i on device i, as simulate and place --start take it (a
                // partition with more parts than the cluster has devices was said to be valid).
                broken = Simulator(*graphFile->graph, *clusterFile->cluster)
                             .simulate(placementIn(file, *graphFile->graph, *clusterFile->cluster))
                             .violations;
            } else if (file.placement && graphFile) {
                assignedNodes(*file.placement, *graphFile->graph);
            } else if (file.partition && graphFile) {
                resolvePartition(*file.partition, *graphFile->graph);
            }
        } catch (const InputError &e) {
            rethrowWithContext(e, path);
        }
        if ((file.placement || file.partition) && graphFile)
            out << path << ": consistent with " << graphPath << (clusterFile ? " and " + clusterPath : std::string())
                << "\n";
        if (!broken.empty()) { // said, not refused: the files are valid (simulate shows the schedule)
            out << path << ": infeasible on " << clusterPath << ", " << broken.size() << " violation(s):";
            for (size_t i = 0; i < broken.size() && i < 8; ++i)
                out << (i ? ", " : " ") << broken[i];
            out << (broken.size() > 8 ? ", ..." : "") << "\n";
        }
    }
    out << "valid\n";
    return 0;
}

} // namespace ps::cli
