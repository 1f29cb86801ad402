#pragma once
// Placement as CSV: a header "node,device", then one row per node (RFC 4180 quoting).
#include "core/placement/Placement.h"

#include <string>
#include <string_view>

namespace ps {

PlacementDoc parsePlacementCsv(std::string_view text, const std::string &source);
PlacementDoc readPlacementCsv(const std::string &path);
std::string placementToCsv(const PlacementDoc &doc);
void writePlacementCsv(const std::string &path, const PlacementDoc &doc);

} // namespace ps
