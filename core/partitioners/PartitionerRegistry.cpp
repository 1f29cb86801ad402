#include "core/InputError.h"
#include "core/graph/Graph.h"
#include "core/partitioners/Partitioner.h"

namespace ps {

namespace {
PartitionerRegistry &globalPartitioners()
{
    static PartitionerRegistry registry = [] {
        PartitionerRegistry r;
        r.add(makeMetisPartitioner());
        r.add(makeSpectralPartitioner());
        return r;
    }();
    return registry;
}
} // namespace

const PartitionerRegistry &PartitionerRegistry::builtin()
{
    return globalPartitioners();
}

void PartitionerRegistry::addFamily(std::unique_ptr<Partitioner> family)
{
    if (!globalPartitioners().find(family->info().name))
        globalPartitioners().add(std::move(family));
}

Partition runPartitioner(const PartitionerRegistry &registry, const std::string &name, const PartitionProblem &problem,
                         const std::vector<std::string> &params, const RunControl &control)
{
    const Partitioner *p = &registry.require(name, "partitioner");
    if (problem.k < 1 || problem.k > Partition::kMaxParts)
        throw InputError("k must be from 1 to " + std::to_string(Partition::kMaxParts));
    if (!(problem.imbalance >= 1.0))
        throw InputError("the imbalance tolerance must be at least 1.0");
    Partition result = p->partition(problem, ParamValues::parse(p->info().params, params), control);
    result.graphName = problem.graph.name();
    return result;
}

} // namespace ps
