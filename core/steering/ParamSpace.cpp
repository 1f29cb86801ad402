#include "core/steering/ParamSpace.h"

#include "core/placers/PlacerRegistry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ps {

namespace {

// A log scale needs a positive lower end: a range that starts at 0 starts at 1e-4 of its top.
void logRange(const HyperParam &h, double &lo, double &hi)
{
    hi = h.max;
    lo = h.min > 0 ? h.min : h.max * 1e-4;
}

bool onLogScale(const HyperParam &h)
{
    return h.tuning == HyperParam::Tuning::Log && h.max > 0 &&
           (h.type == HyperParam::Type::Real || h.type == HyperParam::Type::Int);
}

} // namespace

ParamSpace::ParamSpace(const PlacerRegistry &registry, const std::string &spec)
{
    for (const std::string &stage : compositionStages(spec))
        for (const HyperParam &h : registry.require(stage, "model").info().params) {
            const bool seen =
                std::any_of(m_params.begin(), m_params.end(), [&](const HyperParam &p) { return p.name == h.name; });
            if (h.tunable() && !seen && h.type != HyperParam::Type::Text)
                m_params.push_back(h);
        }
}

double ParamSpace::value(int i, double x) const
{
    const HyperParam &h = m_params[i];
    x = std::clamp(x, 0.0, 1.0);
    switch (h.type) {
    case HyperParam::Type::Bool: return x >= 0.5 ? 1 : 0;
    case HyperParam::Type::Choice: return std::min<double>(std::floor(x * h.choices.size()), h.choices.size() - 1.0);
    default: break;
    }
    double v;
    if (onLogScale(h)) {
        double lo, hi;
        logRange(h, lo, hi);
        v = std::exp(std::log(lo) + x * (std::log(hi) - std::log(lo)));
    } else {
        v = h.min + x * (h.max - h.min);
    }
    if (h.type == HyperParam::Type::Int)
        v = std::round(v);
    return std::clamp(v, h.min, h.max);
}

std::vector<double> ParamSpace::defaults() const
{
    std::vector<double> x;
    for (const HyperParam &h : m_params) {
        const double d = h.defaultValue;
        if (h.type == HyperParam::Type::Bool)
            x.push_back(d != 0 ? 0.75 : 0.25);
        else if (h.type == HyperParam::Type::Choice)
            x.push_back((d + 0.5) / std::max<size_t>(1, h.choices.size()));
        else if (onLogScale(h)) {
            double lo, hi;
            logRange(h, lo, hi);
            x.push_back(
                std::clamp((std::log(std::max(d, lo)) - std::log(lo)) / (std::log(hi) - std::log(lo)), 0.0, 1.0));
        } else
            x.push_back(h.max > h.min ? (d - h.min) / (h.max - h.min) : 0.0);
    }
    return x;
}

std::vector<std::string> ParamSpace::assignments(const std::vector<double> &x) const
{
    std::vector<std::string> out;
    for (int i = 0; i < dimension(); ++i) {
        const HyperParam &h = m_params[i];
        const double v = value(i, x[i]);
        std::string text;
        if (h.type == HyperParam::Type::Choice)
            text = h.choices[static_cast<size_t>(v)];
        else if (h.type == HyperParam::Type::Bool)
            text = v != 0 ? "true" : "false";
        else {
            char buf[40];
            std::snprintf(buf, sizeof buf, h.type == HyperParam::Type::Int ? "%.0f" : "%.4g", v);
            text = buf;
        }
        out.push_back(h.name + "=" + text);
    }
    return out;
}

} // namespace ps
