#include "core/InputError.h"
#include "core/graph/Graph.h"
#include "core/partitioners/Partitioner.h"
#include "core/sim/PartitionMetrics.h"

#include <iomanip>
#include <sstream>

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
    const ParamValues values = ParamValues::parse(p->info().params, params);
    if (problem.k == 1 && !savesAPolicy(params)) { // one part holds every op: nothing to search for
        Partition whole(1, std::vector<int>(problem.graph.nodeCount(), 0));
        whole.graphName = problem.graph.name();
        whole.notes.push_back("one part: every op goes in it ('" + name + "' was not run)");
        return whole;
    }
    Partition result = p->partition(problem, values, control);
    result.graphName = problem.graph.name();
    // A partition over the tolerance says so, and whether any partition could meet it (METIS and
    // spectral handed back 1.05-2.09 at the default 1.03 without a word). Parts of given shares
    // are measured against those by the placers that ask for them.
    if (problem.targetShares.empty() && result.k() == problem.k) {
        const ImbalanceCheck c = checkImbalance(problem.graph, result.parts(), problem.k);
        if (c.imbalance > problem.imbalance * (1 + 1e-9)) {
            std::ostringstream note;
            note << std::setprecision(4) << "imbalance " << c.imbalance << " is over the tolerance "
                 << problem.imbalance;
            if (c.lowest > problem.imbalance && c.forcedBy == 1)
                note << ": op '" << problem.graph.id(c.heaviestNode) << "' alone is " << c.lowest
                     << " times an even part, so no partition into " << problem.k << " parts meets it";
            else if (c.lowest > problem.imbalance)
                note << ": in any partition into " << problem.k << " parts, " << c.forcedBy << " of the "
                     << (c.forcedBy - 1) * problem.k + 1 << " heaviest ops share a part of at least " << c.lowest
                     << " times an even one, so none meets it";
            else
                note << " (no single op forces it)";
            result.notes.push_back(note.str());
        }
    }
    return result;
}

} // namespace ps
