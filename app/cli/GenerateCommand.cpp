// placement-cli generate NAME [--set key=value]... [--seed N] --out FILE
#include "app/cli/CliCommands.h"

#include "core/InputError.h"
#include "core/generators/Generators.h"
#include "core/io/FileKind.h"

#include <cstdlib>
#include <map>
#include <ostream>

namespace ps::cli {

std::string generatorNames()
{
    std::string names;
    for (const GeneratorInfo &g : generators())
        names += (names.empty() ? "" : ", ") + g.name;
    return names;
}

int generateCommand(const CliArgs &args, std::ostream &out, std::ostream &)
{
    if (args.positionals().size() != 1)
        throw InputError("generate needs a generator NAME (available: " + generatorNames() + ")");
    const auto outPath = args.value("out");
    if (!outPath)
        throw InputError("generate needs --out FILE");
    std::map<std::string, double> values;
    for (const std::string &item : args.values("set")) {
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("--set needs key=value, not '" + item + "'");
        const std::string text = item.substr(eq + 1);
        char *end = nullptr;
        const double number = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0')
            throw InputError("--set " + item.substr(0, eq) + " needs a number, not '" + text + "'");
        values[item.substr(0, eq)] = number;
    }
    const Graph g = generate(args.positionals()[0], values, args.seed());
    saveGraph(*outPath, g);
    out << "wrote " << *outPath << " (" << g.nodeCount() << " nodes, " << g.edgeCount() << " edges)\n";
    return 0;
}

} // namespace ps::cli
