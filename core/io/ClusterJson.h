#pragma once
// Cluster files (*.cluster.json[.gz], spec section 2).
#include "core/cluster/Cluster.h"

#include <string>
#include <string_view>

namespace ps {

Cluster parseClusterJson(std::string_view text, const std::string &source);
Cluster readClusterJson(const std::string &path);
std::string clusterToJson(const Cluster &cluster);
void writeClusterJson(const std::string &path, const Cluster &cluster);

} // namespace ps
