#pragma once
// Where a model family's next hyperparameters should go. Two estimates of an unevaluated
// configuration's value (lower is better) are blended:
// - a learned performance predictor, refitted as evaluations arrive (EPNAS's progressive search):
//   ridge regression on the coordinates, their squares and pairwise products;
// - a region estimate from its evaluated neighbours in the unit cube (RRL's region-based
//   estimation): a distance-weighted mean, with an uncertainty that shrinks with the number and
//   closeness of neighbours.
// A proposal is the candidate, among random points and mutations of the best evaluated ones,
// with the lowest estimate minus a multiple of its uncertainty; rejected regions cost extra.
// Stateless: the caller hands in the observations under the current objective.
#include <cstdint>
#include <random>
#include <vector>

namespace ps {

struct ConfigObservation
{
    std::vector<double> x; // unit coordinates
    double value = 0;      // lower is better (steering: log of score over the best score)
};

struct ConfigEstimate
{
    double predicted = 0;   // the predictor's estimate (the region's without enough data)
    double region = 0;      // the neighbours' weighted mean (the observed mean without neighbours)
    double uncertainty = 0; // in the same unit
    int neighbours = 0;
};

class ConfigSearch
{
public:
    ConfigSearch(std::vector<ConfigObservation> observations, std::vector<std::vector<double>> rejected);

    ConfigEstimate estimate(const std::vector<double> &x) const;
    // guided = false draws a uniform point (the baseline the predictor is measured against).
    std::vector<double> propose(int dimension, std::mt19937_64 &rng, bool guided) const;
    bool predictorFitted() const { return !m_weights.empty(); }

    static constexpr double kRegionRadius = 0.3; // in unit-cube distance per sqrt(dimension)
    static constexpr double kExplorationWeight = 0.5;
    static constexpr int kCandidatePoints = 96;

private:
    std::vector<double> features(const std::vector<double> &x) const;
    void fitPredictor();

    std::vector<ConfigObservation> m_obs;
    std::vector<std::vector<double>> m_rejected;
    std::vector<double> m_weights; // ridge regression over features(); empty until fitted
    double m_mean = 0, m_spread = 1;
};

} // namespace ps
