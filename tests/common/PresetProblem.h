#pragma once
// A built-in graph on one of the cluster presets in resources/clusters, as a placement problem
// with the graph file's constraints and the default objective. Not copyable: `problem` refers
// to the members.
#include "core/cluster/Cluster.h"
#include "core/generators/Generators.h"
#include "core/graph/Graph.h"
#include "core/io/ClusterJson.h"
#include "core/placement/Constraints.h"
#include "core/placers/Placer.h"

#include <map>
#include <string>

namespace ps::test {

struct PresetProblem
{
    PresetProblem(const std::string &generator, const std::map<std::string, double> &values, const std::string &preset)
        : graph(generate(generator, values, 1)),
          cluster(readClusterJson(std::string(PS_SOURCE_DIR) + "/resources/clusters/" + preset + ".cluster.json")),
          constraints(Constraints::fromGraph(graph, cluster))
    {}
    PresetProblem(const PresetProblem &) = delete;
    PresetProblem &operator=(const PresetProblem &) = delete;

    const Graph graph;
    const Cluster cluster;
    const Constraints constraints;
    const PlacementProblem problem{graph, cluster, constraints, Objective{}};
};

} // namespace ps::test
