#pragma once
// How each aten:: operator's FLOPs follow from its shapes (spec section 9), by name without the
// "aten::" prefix; in-place variants ("relu_") follow their operator.
#include "core/graph/FlopRules.h"

#include <string>

namespace ps {

CostRule atenCostRule(const std::string &name);

} // namespace ps
