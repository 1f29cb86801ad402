#include "core/cluster/Cluster.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ps {

int Cluster::indexIn(const NameIndex &names, std::string_view name)
{
    const auto it = names.find(name);
    return it == names.end() ? -1 : it->second;
}

std::vector<std::string> Cluster::deviceNames() const
{
    std::vector<std::string> names;
    names.reserve(m_devices.size());
    for (const Device &d : m_devices)
        names.push_back(d.name);
    return names;
}

int Cluster::findDevice(std::string_view name) const
{
    return m_names ? indexIn(*m_names, name) : -1; // no index: a default cluster, with no devices
}

std::vector<std::string> Cluster::deviceTypes() const
{
    std::vector<std::string> types;
    for (const Device &d : m_devices)
        if (std::find(types.begin(), types.end(), d.type) == types.end())
            types.push_back(d.type);
    return types;
}

std::vector<int> Cluster::devicesBySpeed() const
{
    std::vector<int> order(deviceCount());
    for (int d = 0; d < deviceCount(); ++d)
        order[d] = d;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return m_devices[a].flopsPerS > m_devices[b].flopsPerS; });
    return order;
}

double Cluster::totalFlopsPerS() const
{
    double sum = 0;
    for (const Device &d : m_devices)
        sum += d.flopsPerS;
    return sum;
}

double Cluster::totalMemoryBytes() const
{
    double sum = 0;
    for (const Device &d : m_devices)
        sum += d.memoryBytes;
    return sum;
}

namespace {
double positive(double value, const std::string &what)
{
    if (value <= 0) // a negative one too ("must be non-negative" was half the rule)
        throw InputError(what + " must be positive");
    return GraphBuilder::checkedNumber(value, what);
}

// Throws naming the link (`what()`) when it is not valid; the message is made only then (a
// cluster file may hold a million links).
template <class What>
void checkLink(const Link &link, const What &what)
{
    if (std::isfinite(link.bandwidthBytesPerS) && link.bandwidthBytesPerS > 0 && std::isfinite(link.latencyS) &&
        link.latencyS >= 0)
        return;
    positive(link.bandwidthBytesPerS, "'bandwidth_bytes_per_s' of " + what());
    GraphBuilder::checkedNumber(link.latencyS, "'latency_s' of " + what());
}
} // namespace

ClusterBuilder::ClusterBuilder(std::string name)
{
    m_cluster.m_name = std::move(name);
}

int ClusterBuilder::addDevice(Device device)
{
    if (device.name.empty())
        throw InputError("a device has an empty name");
    if (m_names.count(device.name))
        throw InputError("duplicate device name '" + device.name + "'");
    const std::string who = "of device '" + device.name + "'";
    if (device.type.empty())
        throw InputError("device '" + device.name + "' needs a non-empty 'type'");
    positive(device.flopsPerS, "'flops_per_s' " + who);
    positive(device.memoryBytes, "'memory_bytes' " + who);
    GraphBuilder::checkedNumber(device.opOverheadS, "'op_overhead_s' " + who);
    if (m_cluster.deviceCount() >= Cluster::kMaxDevices)
        throw InputError("more than " + std::to_string(Cluster::kMaxDevices) + " devices are not supported");
    m_names.emplace(device.name, m_cluster.deviceCount());
    m_cluster.m_devices.push_back(std::move(device));
    return m_cluster.deviceCount() - 1;
}

void ClusterBuilder::addLink(const std::string &src, const std::string &dst, Link link, bool bidirectional)
{
    auto what = [&] { return "link '" + src + "'->'" + dst + "'"; }; // for a message only
    const int a = deviceIndex(src, 0), b = deviceIndex(dst, 1);
    if (a < 0 || b < 0)
        throw InputError(what() + " names unknown device '" + (a < 0 ? src : dst) + "'");
    if (a == b)
        throw InputError("link from '" + src + "' to itself");
    checkLink(link, what);
    m_cluster.m_explicit.push_back({a, b, link, bidirectional});
}

int ClusterBuilder::deviceIndex(const std::string &name, int slot)
{
    int &last = m_lastIndex[slot];
    if (last >= 0 && name == m_cluster.m_devices[last].name)
        return last;
    // Then the device after it (a source's links in the order of their destinations), then the map.
    const int next = last + 1;
    last = next < m_cluster.deviceCount() && name == m_cluster.m_devices[next].name ? next
                                                                                    : Cluster::indexIn(m_names, name);
    return last;
}

void ClusterBuilder::reserveLinks(size_t links)
{
    m_cluster.m_explicit.reserve(links);
}

void ClusterBuilder::setDefaultLink(Link link)
{
    checkLink(link, [] { return std::string("default_link"); });
    m_cluster.m_default = link;
}

Cluster ClusterBuilder::build()
{
    Cluster &c = m_cluster;
    const int k = c.deviceCount();
    if (k == 0)
        throw InputError("cluster has no devices");
    // Index 0: no link (the diagonal, and pairs not yet filled); then the default link; then each
    // distinct explicit link, a later one for the same pair overriding an earlier one.
    auto matrix = std::make_shared<Cluster::LinkMatrix>();
    matrix->table.push_back(Link{});
    const uint32_t unset = std::numeric_limits<uint32_t>::max();
    matrix->index.assign(static_cast<size_t>(k) * k, unset);
    std::map<std::pair<double, double>, uint32_t> distinct;
    auto indexOf = [&](const Link &l) {
        const auto [it, added] =
            distinct.try_emplace({l.bandwidthBytesPerS, l.latencyS}, static_cast<uint32_t>(matrix->table.size()));
        if (added)
            matrix->table.push_back(l);
        return it->second;
    };
    for (const auto &e : c.m_explicit) {
        const uint32_t i = indexOf(e.link);
        matrix->index[static_cast<size_t>(e.src) * k + e.dst] = i;
        if (e.bidirectional)
            matrix->index[static_cast<size_t>(e.dst) * k + e.src] = i;
    }
    const uint32_t fallback = c.m_default ? indexOf(*c.m_default) : unset;
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b) {
            uint32_t &i = matrix->index[static_cast<size_t>(a) * k + b];
            if (a == b)
                i = 0;
            else if (i == unset) {
                if (!c.m_default)
                    throw InputError("no link '" + c.m_devices[a].name + "'->'" + c.m_devices[b].name +
                                     "' and no default_link");
                i = fallback;
            }
        }
    c.m_names = std::make_shared<const Cluster::NameIndex>(std::move(m_names));
    m_names.clear();
    c.m_linkTable = matrix->table.data();
    c.m_linkIndex = matrix->index.data();
    c.m_links = std::move(matrix);
    if (k > 1) {
        for (int a = 0; a < k; ++a)
            for (int b = 0; b < k; ++b)
                if (a != b) {
                    c.m_meanLatency += c.link(a, b).latencyS;
                    c.m_meanInverseBandwidth += 1.0 / c.link(a, b).bandwidthBytesPerS;
                }
        c.m_meanLatency /= double(k) * (k - 1);
        c.m_meanInverseBandwidth /= double(k) * (k - 1);
    }
    Cluster result = std::move(c);
    c = Cluster();
    return result;
}

} // namespace ps
