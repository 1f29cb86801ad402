#pragma once
// Placement (*.placement.json, spec section 3) and partition (*.partition.json, section 8) files.
#include "core/placement/Partition.h"
#include "core/placement/Placement.h"

#include <string>
#include <string_view>

namespace ps {

PlacementDoc parsePlacementJson(std::string_view text, const std::string &source);
PlacementDoc readPlacementJson(const std::string &path);
// metricsJson: an optional JSON object (as text) written under "metrics".
std::string placementToJson(const PlacementDoc &doc, const std::string &metricsJson = {});
void writePlacementJson(const std::string &path, const PlacementDoc &doc, const std::string &metricsJson = {});

PartitionDoc parsePartitionJson(std::string_view text, const std::string &source);
PartitionDoc readPartitionJson(const std::string &path);
std::string partitionToJson(const PartitionDoc &doc);
void writePartitionJson(const std::string &path, const PartitionDoc &doc);

} // namespace ps
