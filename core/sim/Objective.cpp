#include "core/sim/Objective.h"

#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/placement/Constraints.h"
#include "core/sim/Schedule.h"
#include "core/sim/Simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ps {

ImportanceWeights::ImportanceWeights(const std::vector<int> &important) : m_sorted(important)
{
    std::sort(m_sorted.begin(), m_sorted.end());
}

bool ImportanceWeights::important(int v) const
{
    return std::binary_search(m_sorted.begin(), m_sorted.end(), v);
}

double Preferences::splitShare(const std::vector<int> &group, const std::vector<int> &devices, int deviceCount)
{
    if (group.size() < 2)
        return 0;
    std::vector<int> count(deviceCount, 0);
    for (int v : group)
        ++count[devices[v]];
    const int most = *std::max_element(count.begin(), count.end());
    return double(group.size() - most) / double(group.size() - 1);
}

namespace {

struct WeightName
{
    const char *name;
    double Objective::*member;
};

constexpr WeightName kWeights[] = {
    {"makespan", &Objective::makespanWeight},     {"bytes", &Objective::bytesWeight},
    {"memory", &Objective::memoryWeight},         {"balance", &Objective::balanceWeight},
    {"preference", &Objective::preferenceWeight}, {"important", &Objective::importantWeight}};

} // namespace

Objective Objective::parse(const std::string &text, bool mayWeighNothing)
{
    Objective o;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        const std::string item = text.substr(pos, comma - pos);
        pos = comma + 1;
        if (item.empty())
            continue;
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const WeightName *w =
            std::find_if(std::begin(kWeights), std::end(kWeights), [&](const WeightName &n) { return key == n.name; });
        if (w == std::end(kWeights))
            throw InputError("unknown objective weight '" + key +
                             "' (known: makespan, bytes, memory, balance, preference, important)");
        if (eq == std::string::npos)
            throw InputError("objective weight '" + key + "' needs a value (" + key + "=0.5)");
        const std::string value = item.substr(eq + 1);
        char *end = nullptr;
        const double x = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !std::isfinite(x) || x < 0)
            throw InputError("objective weight '" + key + "' must be a number >= 0, not '" + value + "'");
        o.*(w->member) = x;
    }
    if (!o.weighsPlacement() && !mayWeighNothing)
        throw InputError("the objective weighs nothing: give makespan, bytes, memory or balance a weight above 0 "
                         "('" +
                         text + "')");
    return o;
}

bool Objective::weighsPlacement() const
{
    return makespanWeight > 0 || bytesWeight > 0 || memoryWeight > 0 || balanceWeight > 0;
}

std::string Objective::weightsText() const
{
    std::string out;
    for (const WeightName &w : kWeights) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s%s=%.17g", out.empty() ? "" : ",", w.name, this->*(w.member));
        out += buf;
    }
    return out;
}

double objectiveScore(const Objective &o, const ObjectiveTerms &t)
{
    double s = o.makespanWeight * t.makespan * t.overflowFactor;
    if (o.bytesWeight > 0)
        s += o.bytesWeight * t.communication;
    if (o.memoryWeight > 0)
        s += o.memoryWeight * t.peakMemoryShare * t.bound;
    if (o.balanceWeight > 0)
        s += o.balanceWeight * t.imbalance;
    if (o.preferenceWeight > 0 && t.preferencePenalty > 0)
        s += o.preferenceWeight * t.preferencePenalty * t.bound;
    if (o.importantWeight > 0 && t.importantPath > 0)
        s += o.importantWeight * t.importantPath;
    return s;
}

std::string ObjectiveJudge::floorNote(const std::string &family, long long evaluations)
{
    return family + ": stopped after " + std::to_string(evaluations) +
           " simulator runs: its best placement meets the lower bound, so no placement can score lower";
}

ObjectiveJudge::ObjectiveJudge(const Graph &graph, const Cluster &cluster, const Constraints &constraints,
                               const Objective &objective)
    : m_graph(graph), m_cluster(cluster), m_constraints(constraints), m_objective(objective), m_cost(graph, cluster),
      m_bound(computeLowerBound(graph, cluster).bound)
{
    const Preferences &p = m_objective.preferences;
    const ImportanceWeights weight(p.important);
    for (const auto &entry : p.preferDevice) {
        m_preferWeight.push_back(weight(entry.first));
        m_preferenceTotal += m_preferWeight.back();
    }
    for (const auto &group : p.together)
        m_preferenceTotal += group.size() > 1 ? 1 : 0;
}

double ObjectiveJudge::computeTime(int v, int d) const
{
    return m_cost.compute(v, d);
}

std::vector<double> ObjectiveJudge::busyTime(const std::vector<int> &devices) const
{
    std::vector<double> busy(m_cluster.deviceCount(), 0.0);
    for (int v = 0; v < m_graph.nodeCount(); ++v)
        busy[devices[v]] += m_cost.compute(v, devices[v]);
    return busy;
}

double ObjectiveJudge::preferencePenalty(const std::vector<int> &devices) const
{
    if (m_preferenceTotal <= 0)
        return 0;
    const Preferences &p = m_objective.preferences;
    double broken = 0;
    for (size_t i = 0; i < p.preferDevice.size(); ++i)
        if (devices[p.preferDevice[i].first] != p.preferDevice[i].second)
            broken += m_preferWeight[i];
    for (const auto &group : p.together)
        broken += Preferences::splitShare(group, devices, m_cluster.deviceCount());
    return broken / m_preferenceTotal;
}

double ObjectiveJudge::importantPath(const std::vector<int> &devices) const
{
    const std::vector<int> &important = m_objective.preferences.important;
    if (important.empty())
        return 0;
    // Longest path ending at each op (its compute included), then longest path leaving it.
    const int n = m_graph.nodeCount();
    const std::vector<int> &order = m_graph.topologicalOrder();
    std::vector<double> compute(n), upTo(n), after(n, 0.0);
    for (int v : order) {
        compute[v] = m_cost.compute(v, devices[v]);
        double ready = 0;
        const auto pred = m_graph.predecessors(v);
        const auto bytes = m_graph.predecessorBytes(v);
        for (size_t i = 0; i < pred.size(); ++i)
            ready = std::max(ready, upTo[pred[i]] + m_cost.transfer(devices[pred[i]], devices[v], bytes[i]));
        upTo[v] = ready + compute[v];
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int v = *it;
        const auto succ = m_graph.successors(v);
        const auto bytes = m_graph.successorBytes(v);
        for (size_t i = 0; i < succ.size(); ++i)
            after[v] = std::max(after[v], m_cost.transfer(devices[v], devices[succ[i]], bytes[i]) + compute[succ[i]] +
                                              after[succ[i]]);
    }
    double longest = 0;
    for (int v : important)
        longest = std::max(longest, upTo[v] + after[v]);
    return longest;
}

ObjectiveTerms ObjectiveJudge::terms(double makespan, double movedBytes, const std::vector<double> &memory,
                                     const std::vector<double> &busy, const std::vector<int> &devices,
                                     bool checkFeasible) const
{
    ObjectiveTerms t;
    const int k = m_cluster.deviceCount();
    t.makespan = makespan;
    t.overflowFactor = makespan > 0 ? penalizedMakespan(1.0, m_cluster, memory) : 1.0;
    t.movedBytes = movedBytes;
    t.communication = movedBytes * m_cost.meanInverseBandwidth();
    double busiest = 0, total = 0;
    for (int d = 0; d < k; ++d) {
        t.peakMemoryShare = std::max(t.peakMemoryShare, memory[d] / m_cluster.device(d).memoryBytes);
        busiest = std::max(busiest, busy[d]);
        total += busy[d];
    }
    t.imbalance = k > 0 ? busiest - total / k : 0.0;
    t.preferencePenalty = preferencePenalty(devices);
    t.importantPath = importantPath(devices);
    t.bound = m_bound;
    if (checkFeasible)
        t.feasible = constraintViolations(m_graph, m_cluster, m_constraints, devices, memory).empty();
    return t;
}

ObjectiveTerms ObjectiveJudge::terms(const Schedule &s, const std::vector<int> &devices) const
{
    return terms(s.makespan, s.movedBytes, s.memory, busyTime(devices), devices);
}

} // namespace ps
