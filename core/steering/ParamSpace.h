#pragma once
// The tunable hyperparameters of a model spec ("a" or "a+b"), seen as the unit cube a search
// moves in: each coordinate maps to a value on the parameter's own scale (linear or log), and a
// point decodes to the "key=value" assignments that runPlacer takes.
#include "core/family/ModelFamily.h"

#include <string>
#include <vector>

namespace ps {

class PlacerRegistry;

class ParamSpace
{
public:
    ParamSpace() = default;
    // The tunable parameters of every stage of spec, each name once.
    ParamSpace(const PlacerRegistry &registry, const std::string &spec);

    int dimension() const { return static_cast<int>(m_params.size()); }
    const std::vector<HyperParam> &params() const { return m_params; }
    // The unit coordinates of the declared defaults.
    std::vector<double> defaults() const;
    // "key=value" for every coordinate of x (clamped to [0, 1]).
    std::vector<std::string> assignments(const std::vector<double> &x) const;
    // The value one coordinate stands for, on the parameter's scale.
    double value(int i, double x) const;

private:
    std::vector<HyperParam> m_params;
};

} // namespace ps
