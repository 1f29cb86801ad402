#pragma once
// Cluster files (*.cluster.json[.gz], spec section 2).
#include "core/cluster/Cluster.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps {

// Keys the spec does not define are ignored (forward compatibility); `warnings`, where given, says
// which (a device's "op_overhead" for "op_overhead_s" was read as no overhead).
Cluster parseClusterJson(std::string_view text, const std::string &source,
                         std::vector<std::string> *warnings = nullptr);
Cluster readClusterJson(const std::string &path);
std::string clusterToJson(const Cluster &cluster);
void writeClusterJson(const std::string &path, const Cluster &cluster);

} // namespace ps
