#pragma once
// The interface of every partitioning family (spec section 8) and their registry.
#include "core/family/FamilyRegistry.h"
#include "core/family/ModelFamily.h"
#include "core/placement/Partition.h"

#include <memory>
#include <string>
#include <vector>

namespace ps {

class Graph;

struct PartitionProblem
{
    const Graph &graph;
    int k = 2;
    double imbalance = 1.03; // max part weight / mean part weight allowed
    // Optional share of the total node weight each part should get (sums to 1); empty: equal.
    std::vector<double> targetShares;
    // Optional memory shares: balance mem_bytes too (a second METIS constraint).
    std::vector<double> memoryShares;
};

class Partitioner
{
public:
    virtual ~Partitioner() = default;
    virtual FamilyInfo info() const = 0;
    virtual Partition partition(const PartitionProblem &problem, const ParamValues &params,
                                const RunControl &control) const = 0;
};

class PartitionerRegistry : public FamilyRegistry<Partitioner>
{
public:
    // Every partitioning family: the classical ones and those added at start-up (learned).
    static const PartitionerRegistry &builtin();
    static void addFamily(std::unique_ptr<Partitioner> family);
};

// Runs a family by name with "key=value" parameters (InputError for unknown names and values).
Partition runPartitioner(const PartitionerRegistry &registry, const std::string &name, const PartitionProblem &problem,
                         const std::vector<std::string> &params, const RunControl &control);

std::unique_ptr<Partitioner> makeMetisPartitioner();
std::unique_ptr<Partitioner> makeSpectralPartitioner();

} // namespace ps
