#include "core/InputError.h"
#include "core/graph/Graph.h"
#include "core/partitioners/Partitioner.h"

namespace ps {

const PartitionerRegistry &PartitionerRegistry::builtin()
{
    static const PartitionerRegistry registry = [] {
        PartitionerRegistry r;
        r.add(makeMetisPartitioner());
        r.add(makeSpectralPartitioner());
        return r;
    }();
    return registry;
}

Partition runPartitioner(const PartitionerRegistry &registry, const std::string &name,
                         const PartitionProblem &problem, const std::vector<std::string> &params,
                         const RunControl &control)
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
