// placement-cli info FILE: one JSON object summarising the file.
#include "app/cli/CliCommands.h"
#include "app/cli/CliLoad.h"

#include "core/InputError.h"
#include "core/io/FileKind.h"
#include "core/io/JsonText.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <set>

namespace ps::cli {

namespace {

using Json = nlohmann::ordered_json;

Json graphInfo(const Graph &g)
{
    int pinned = 0;
    for (int v = 0; v < g.nodeCount(); ++v)
        pinned += g.pin(v) >= 0;
    return Json{{"kind", "graph"},
                {"name", g.name()},
                {"nodes", g.nodeCount()},
                {"edges", g.edgeCount()},
                {"flops", g.totalFlops()},
                {"param_bytes", g.totalParamBytes()},
                {"out_bytes", g.totalOutBytes()},
                {"mem_bytes", g.totalMemBytes()},
                {"edge_bytes", g.totalEdgeBytes()},
                {"depth", g.depth()},
                {"scopes", g.scopes().scopeCount()},
                {"op_types", g.opTypeNames().size()},
                {"colocate_groups", g.colocateGroupNames().size()},
                {"pinned_nodes", pinned}};
}

Json clusterInfo(const Cluster &c)
{
    return Json{{"kind", "cluster"},
                {"name", c.name()},
                {"devices", c.deviceCount()},
                {"device_types", c.deviceTypes()},
                {"flops_per_s", c.totalFlopsPerS()},
                {"memory_bytes", c.totalMemoryBytes()},
                {"links", c.explicitLinks().size()},
                {"default_link", c.defaultLink().has_value()}};
}

Json placementInfo(const PlacementDoc &p)
{
    std::set<std::string> devices;
    for (const auto &entry : p.assignment)
        devices.insert(entry.second);
    return Json{{"kind", "placement"},          {"graph", p.graphName},           {"cluster", p.clusterName},
                {"nodes", p.assignment.size()}, {"devices_used", devices.size()}, {"producer", p.producerModel}};
}

Json partitionInfo(const PartitionDoc &p)
{
    std::set<long long> used(p.inOrder.begin(), p.inOrder.end());
    for (const auto &entry : p.parts)
        used.insert(entry.second);
    Json info{{"kind", "partition"},
              {"graph", p.graphName},
              {"k", p.k},
              {"nodes", p.parts.size() + p.inOrder.size()},
              {"parts_used", used.size()}};
    if (p.graphName.empty()) // a METIS partition names none
        info.erase("graph");
    return info;
}

} // namespace

int infoCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 1)
        throw InputError("info needs exactly one FILE");
    LoadedFile file = loadReporting(args.positionals()[0], loadOptions(args), err);
    Json info = file.graph       ? graphInfo(*file.graph)
                : file.cluster   ? clusterInfo(*file.cluster)
                : file.placement ? placementInfo(*file.placement)
                                 : partitionInfo(*file.partition);
    out << jsonText(info, 2) << "\n";
    return 0;
}

} // namespace ps::cli
