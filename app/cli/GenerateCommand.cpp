// placement-cli generate NAME [--set key=value]... [--seed N] --out FILE
#include "app/cli/CliCommands.h"

#include "core/InputError.h"
#include "core/generators/LayeredRandomGenerator.h"
#include "core/io/FileKind.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <ostream>

namespace ps::cli {

namespace {

std::map<std::string, double> settings(const CliArgs &args)
{
    std::map<std::string, double> out;
    for (const std::string &item : args.values("set")) {
        size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("--set needs key=value, not '" + item + "'");
        char *end = nullptr;
        const std::string value = item.substr(eq + 1);
        double number = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0')
            throw InputError("--set " + item.substr(0, eq) + " needs a number, not '" + value + "'");
        out[item.substr(0, eq)] = number;
    }
    return out;
}

} // namespace

int generateCommand(const CliArgs &args, std::ostream &out, std::ostream &)
{
    if (args.positionals().size() != 1)
        throw InputError("generate needs a generator NAME (available: layered-random)");
    const std::string &name = args.positionals()[0];
    auto outPath = args.value("out");
    if (!outPath)
        throw InputError("generate needs --out FILE");
    if (name != "layered-random")
        throw InputError("unknown generator '" + name + "' (available: layered-random)");
    LayeredRandomParams p;
    if (auto seed = args.integer("seed"))
        p.seed = static_cast<uint64_t>(*seed);
    std::map<std::string, double *> fields = {{"alpha", &p.alpha},
                                              {"out_degree", &p.outDegree},
                                              {"ccr", &p.ccr},
                                              {"heterogeneity", &p.heterogeneity},
                                              {"mean_flops", &p.meanFlops}};
    for (const auto &[key, value] : settings(args)) {
        if (key == "nodes") {
            if (value != std::floor(value) || value < 1 || value > 1e7)
                throw InputError("--set nodes needs a whole number from 1 to 10000000");
            p.nodes = static_cast<int>(value);
        } else if (auto it = fields.find(key); it != fields.end()) {
            *it->second = value;
        } else {
            throw InputError("layered-random has no parameter '" + key +
                             "' (nodes, alpha, out_degree, ccr, heterogeneity, mean_flops)");
        }
    }
    Graph g = generateLayeredRandom(p);
    saveGraph(*outPath, g);
    out << "wrote " << *outPath << " (" << g.nodeCount() << " nodes, " << g.edgeCount()
        << " edges)\n";
    return 0;
}

} // namespace ps::cli
