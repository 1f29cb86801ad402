#pragma once
// The built-in graph generators, found by name, each with numeric parameters and defaults; the
// CLI's `generate` and (later) the app list them from here.
#include "core/graph/Graph.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ps {

struct GeneratorParam
{
    std::string name;
    double defaultValue;
    double min, max;
    bool integer;
    std::string description;
};

struct GeneratorInfo
{
    std::string name;
    std::string description;
    std::vector<GeneratorParam> params;
    std::function<Graph(const std::map<std::string, double> &values, uint64_t seed)> make;
};

const std::vector<GeneratorInfo> &generators();
// Checks names and ranges (InputError naming the parameter), fills defaults, and generates.
Graph generate(const std::string &name, const std::map<std::string, double> &values, uint64_t seed);

} // namespace ps
