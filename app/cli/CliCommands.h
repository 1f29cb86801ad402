#pragma once
// The placement-cli commands. Each command is one entry in commands(); run() dispatches,
// turns InputError into "error: ..." with exit status 2 and anything else into status 1.
#include "app/cli/CliArgs.h"

#include <iosfwd>
#include <set>
#include <string>
#include <vector>

namespace ps::cli {

struct Command
{
    const char *name;
    const char *usage;   // arguments after the command name
    std::string summary; // one line for --help
    std::set<std::string> valued, flags;
    int (*run)(const CliArgs &args, std::ostream &out, std::ostream &err);
};

const std::vector<Command> &commands();
int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

// The built-in generators' names, comma-separated (for help and errors).
std::string generatorNames();

int infoCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int validateCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int convertCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int generateCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int simulateCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int boundCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int metricsCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int modelsCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int placeCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int partitionCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int steerCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int steerWorkerCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int rankCommand(const CliArgs &args, std::ostream &out, std::ostream &err);
int trainCommand(const CliArgs &args, std::ostream &out, std::ostream &err);

} // namespace ps::cli
