#pragma once
// What place, partition and train write and print: the result file with its metrics, the
// one-line JSON report, the progress message of a learner, and the convergence curve (CSV).
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Partition.h"
#include "core/placers/Placer.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ps::cli {

class CliArgs;

// --seed (default 1) and --time-limit (when the command declares it) as a RunControl, whose
// cancel flag Ctrl-C sets (app/cli/Interrupt.h).
RunControl controlFromArgs(const CliArgs &args);

// Writes the placement (with its metrics) to outPath; returns the report to print.
nlohmann::ordered_json writePlacementResult(const PlacerResult &r, const Graph &graph, const Cluster &cluster,
                                            const std::string &outPath);
nlohmann::ordered_json writePartitionResult(const Partition &p, const Graph &graph, double wallS,
                                            const std::string &outPath);

// "it 12  sampled 1.23 ms (best 1.10)  best 1.05 ms  loss 0.12  H 1.3" for learners, else the
// family's own message.
std::string progressMessage(const Progress &p);

// One row per training iteration, written as CSV (atomically).
class ConvergenceCurve
{
public:
    void add(const Progress &p);
    void write(const std::string &path) const;
    size_t size() const { return m_rows.size(); }

private:
    std::vector<Progress> m_rows;
};

} // namespace ps::cli
