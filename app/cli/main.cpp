#include "app/cli/CliCommands.h"
#include "models/ModelImporters.h"

#include <iostream>

int main(int argc, char **argv)
{
    ps::installModelImporters();
    std::vector<std::string> args(argv + 1, argv + argc);
    return ps::cli::run(args, std::cout, std::cerr);
}
