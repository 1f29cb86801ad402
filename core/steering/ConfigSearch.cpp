#include "core/steering/ConfigSearch.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ps {

namespace {

double distance(const std::vector<double> &a, const std::vector<double> &b)
{
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(s);
}

} // namespace

ConfigSearch::ConfigSearch(std::vector<ConfigObservation> observations, std::vector<std::vector<double>> rejected)
    : m_obs(std::move(observations)), m_rejected(std::move(rejected))
{
    if (!m_obs.empty()) {
        double sum = 0, sq = 0;
        for (const ConfigObservation &o : m_obs)
            sum += o.value;
        m_mean = sum / m_obs.size();
        for (const ConfigObservation &o : m_obs)
            sq += (o.value - m_mean) * (o.value - m_mean);
        m_spread = m_obs.size() > 1 ? std::max(1e-3, std::sqrt(sq / (m_obs.size() - 1))) : 0.1;
    }
    fitPredictor();
}

std::vector<double> ConfigSearch::features(const std::vector<double> &x) const
{
    std::vector<double> f{1.0};
    for (double v : x)
        f.push_back(v);
    for (double v : x)
        f.push_back(v * v);
    for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = i + 1; j < x.size(); ++j)
            f.push_back(x[i] * x[j]);
    return f;
}

void ConfigSearch::fitPredictor()
{
    if (m_obs.empty() || m_obs.front().x.empty())
        return;
    const size_t p = features(m_obs.front().x).size();
    // Progressive: the predictor speaks once there are more observations than half its features.
    if (m_obs.size() * 2 < p + 2)
        return;
    Eigen::MatrixXd a(m_obs.size(), p);
    Eigen::VectorXd b(m_obs.size());
    for (size_t r = 0; r < m_obs.size(); ++r) {
        const std::vector<double> f = features(m_obs[r].x);
        for (size_t c = 0; c < p; ++c)
            a(r, c) = f[c];
        b(r) = m_obs[r].value - m_mean;
    }
    Eigen::MatrixXd gram = a.transpose() * a;
    gram.diagonal().array() += 0.05; // ridge
    gram(0, 0) -= 0.05;              // no shrinkage of the intercept
    gram(0, 0) += 1e-9;
    const Eigen::VectorXd w = gram.ldlt().solve(a.transpose() * b);
    m_weights.assign(w.data(), w.data() + w.size());
}

ConfigEstimate ConfigSearch::estimate(const std::vector<double> &x) const
{
    ConfigEstimate e;
    const double radius = kRegionRadius * std::sqrt(std::max<size_t>(1, x.size()));
    double weightSum = 0, valueSum = 0, nearest = std::numeric_limits<double>::infinity();
    for (const ConfigObservation &o : m_obs) {
        const double d = distance(x, o.x);
        nearest = std::min(nearest, d);
        if (d > radius)
            continue;
        const double w = 1.0 / (d + 0.05 * radius);
        weightSum += w;
        valueSum += w * o.value;
        ++e.neighbours;
    }
    e.region = weightSum > 0 ? valueSum / weightSum : m_mean;
    // Uncertain where nothing was evaluated nearby; a cluster of neighbours pins it down.
    const double closeness = std::isfinite(nearest) ? std::min(1.0, nearest / radius) : 1.0;
    e.uncertainty = m_spread * (0.25 + closeness) / std::sqrt(1.0 + e.neighbours);
    e.predicted = e.region;
    if (!m_weights.empty()) {
        const std::vector<double> f = features(x);
        double y = m_mean;
        for (size_t i = 0; i < f.size(); ++i)
            y += m_weights[i] * f[i];
        e.predicted = y;
    }
    return e;
}

std::vector<double> ConfigSearch::propose(int dimension, std::mt19937_64 &rng, bool guided) const
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto uniform = [&] {
        std::vector<double> x(dimension);
        for (double &v : x)
            v = unit(rng);
        return x;
    };
    if (!guided || m_obs.empty() || dimension == 0)
        return uniform();

    // Candidates: uniform points, and mutations of the best few observations.
    std::vector<size_t> order(m_obs.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m_obs[a].value < m_obs[b].value; });
    std::normal_distribution<double> step(0.0, 0.12);
    std::vector<std::vector<double>> points;
    for (int i = 0; i < kCandidatePoints; ++i) {
        if (i % 2 == 0) {
            points.push_back(uniform());
            continue;
        }
        std::vector<double> x = m_obs[order[static_cast<size_t>(i / 2) % std::min<size_t>(3, order.size())]].x;
        for (double &v : x)
            v = std::clamp(v + step(rng), 0.0, 1.0);
        points.push_back(std::move(x));
    }
    const double radius = kRegionRadius * std::sqrt(double(dimension));
    double bestValue = std::numeric_limits<double>::infinity();
    size_t best = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        const ConfigEstimate e = estimate(points[i]);
        // Blend: the predictor earns weight as observations accumulate.
        const double trust = predictorFitted() ? m_obs.size() / (m_obs.size() + 8.0) : 0.0;
        double value = trust * e.predicted + (1 - trust) * e.region - kExplorationWeight * e.uncertainty;
        for (const std::vector<double> &r : m_rejected)
            if (distance(points[i], r) < radius)
                value += m_spread * (1 - distance(points[i], r) / radius);
        if (value < bestValue) {
            bestValue = value;
            best = i;
        }
    }
    return points[best];
}

} // namespace ps
