#pragma once
// The pieces of the spectral partitioner, for tests: the oASIS-Nystrom embedding and the
// balanced k-means. Eigen appears here, which core/ may use.
#include "core/family/ModelFamily.h"

#include <Eigen/Core>

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace ps {

class Graph;

// n x dimensions: approximate top eigenvectors of the diffusion kernel of the graph. A cancel, or
// the time limit counted from `start`, ends the sampling of landmarks early (fewer dimensions).
Eigen::MatrixXd spectralEmbedding(const Graph &graph, int dimensions, int landmarks, int diffusion, uint64_t seed,
                                  const RunControl &control,
                                  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
// Lloyd's k-means with k-means++ seeding and restarts; then parts over capacity shed their
// farthest points to the nearest part with room. `stop` (may be empty) ends it early with a whole
// assignment: seeding takes random points for the centres left, the first pass the nearest of 16.
// `progress` (may be empty) hears the share of the restarts done after each seeding and pass.
std::vector<int> kMeans(const Eigen::MatrixXd &points, const std::vector<double> &weight, int k,
                        const std::vector<double> &capacity, int restarts, int iterations, uint64_t seed,
                        const std::function<bool()> &stop = {}, const std::function<void(double)> &progress = {});

} // namespace ps
