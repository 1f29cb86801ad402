#include "app/cli/CliLoad.h"

#include "core/placement/Constraints.h"
#include "core/placers/FeasibilityTracker.h"

#include "app/cli/CliArgs.h"
#include "core/InputError.h"

#include "core/io/FileBytes.h"
#include "core/io/FileKind.h"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <utility>
#include <vector>

namespace ps::cli {

namespace {

void requireKind(const LoadedFile &file, const std::string &path, FileKind kind)
{
    if (kindOf(file.format) != kind)
        throw InputError(path + ": expected a " + kindName(kind) + " file, found a " + kindName(kindOf(file.format)));
}

LoadedFile requireKind(const std::string &path, FileKind kind)
{
    LoadedFile file = loadFile(path);
    requireKind(file, path, kind);
    return file;
}

} // namespace

LoadOptions loadOptions(const CliArgs &args)
{
    LoadOptions options;
    if (auto batch = args.value("batch"))
        options.batch = LoadOptions::parseBatch(*batch);
    for (const std::string &text : args.values("input-shape"))
        options.inputs.push_back(LoadOptions::parseInput(text));
    return options;
}

LoadedFile loadReporting(const std::string &path, const LoadOptions &options, std::ostream &err)
{
    LoadedFile file = loadFile(path, options);
    for (const std::string &w : file.warnings)
        err << "warning: " << path << ": " << w << "\n";
    return file;
}

Graph requireGraph(const std::string &path, const CliArgs &args, std::ostream &err)
{
    LoadedFile file = loadReporting(path, loadOptions(args), err);
    requireKind(file, path, FileKind::Graph);
    return std::move(*file.graph);
}

Cluster requireCluster(const std::string &path)
{
    return std::move(*requireKind(path, FileKind::Cluster).cluster);
}

Placement placementIn(const LoadedFile &file, const Graph &graph, const Cluster &cluster)
{
    return file.partition ? placementOfPartition(resolvePartition(*file.partition, graph), cluster)
                          : resolvePlacement(*file.placement, graph, cluster);
}

Placement requirePlacement(const std::string &path, const Graph &graph, const Cluster &cluster, std::ostream &err)
{
    LoadedFile file = loadFile(path);
    if (!file.partition)
        requireKind(file, path, FileKind::Placement);
    try {
        Placement placement = placementIn(file, graph, cluster);
        if (file.partition)
            err << "note: " << path << ": a partition, taken as a placement: part i on device i\n";
        return placement;
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
}

Partition requirePartition(const std::string &path, const Graph &graph)
{
    LoadedFile file = requireKind(path, FileKind::Partition);
    try {
        return resolvePartition(*file.partition, graph);
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
}

void requireWritableOutputs(const CliArgs &args, std::initializer_list<const char *> options)
{
    namespace fs = std::filesystem;
    const auto same = [](const std::string &a, const std::string &b) {
        std::error_code ea, eb;
        if (fs::exists(a, ea) && fs::exists(b, eb))
            return fs::equivalent(a, b, ea);
        return fs::weakly_canonical(a, ea) == fs::weakly_canonical(b, eb) && !ea && !eb;
    };
    // What else the command line names: its files, the other outputs, and every option's value
    // (a list's items too) that is a file (`--model heft --out heft` names no file twice). A
    // placement refined in place (--start P --out P) is what its person asked for.
    std::vector<std::pair<std::string, std::string>> named;
    for (const std::string &p : args.positionals())
        named.emplace_back("input " + p, p);
    for (const auto &[name, value] : args.options()) {
        const bool output = std::any_of(options.begin(), options.end(), [&](const char *o) { return name == o; });
        std::vector<std::string> items = args.list(name);
        items.push_back(value);
        for (const std::string &item : items) {
            std::error_code ec;
            if (output || (name != "start" && fs::is_regular_file(item, ec)))
                named.emplace_back("--" + name, item);
        }
    }
    for (const char *option : options) {
        const auto path = args.value(option);
        if (!path)
            continue;
        requireWritable(*path);
        for (const auto &[what, other] : named)
            if (what != "--" + std::string(option) && same(*path, other))
                throw InputError("--" + std::string(option) + " " + *path + " is also the " + what +
                                 (what.rfind("input", 0) == 0 ? "" : " file") +
                                 ": writing it would lose what is there; name another file");
    }
}

int requireParts(const CliArgs &args, const std::string &command, const Graph &graph)
{
    const auto k = args.integer("k");
    if (!k || *k < 1 || *k > Partition::kMaxParts)
        throw InputError(command + " needs --k from 1 to " + std::to_string(Partition::kMaxParts));
    if (*k > std::max(1, graph.nodeCount()))
        throw InputError("--k " + std::to_string(*k) + " is more than the graph's " +
                         std::to_string(graph.nodeCount()) + " nodes");
    return static_cast<int>(*k);
}

void warnWhenNothingFits(const Graph &graph, const Cluster &cluster, const Constraints &constraints, std::ostream &err)
{
    if (const std::string why = FeasibilityTracker(graph, cluster, constraints).neverFits(); !why.empty())
        err << "warning: " << why << ": every placement of this graph on this cluster is infeasible\n";
}

// A pins file is a placement file: {"format": "placement", ..., "assignment": {node: device}} or
// a CSV; each named node is pinned to its device.
std::vector<std::pair<std::string, std::string>> pinsIn(const std::string &path)
{
    static const std::string form = "pins are a placement file: {\"format\": \"placement\", \"version\": 1, "
                                    "\"assignment\": {\"NODE\": \"DEVICE\"}}, or CSV with the header node,device";
    LoadedFile file;
    try {
        file = loadFile(path);
    } catch (const InputError &e) {
        throw InputError(std::string(e.what()) + "; " + form);
    }
    if (!file.placement)
        throw InputError(path + ": " + form);
    return std::move(file.placement->assignment);
}

void applyPins(const std::string &path, const Graph &graph, const Cluster &cluster, Constraints &constraints)
{
    for (const auto &[node, deviceName] : pinsIn(path)) {
        const int v = graph.findNode(node), d = cluster.findDevice(deviceName);
        if (v < 0)
            throw InputError(path + ": pins name unknown node '" + node + "'");
        if (d < 0)
            throw InputError(path + ": node '" + node + "' is pinned to unknown device '" + deviceName + "'");
        constraints.pin(v, d);
    }
}

} // namespace ps::cli
