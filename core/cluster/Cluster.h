#pragma once
// A device cluster (spec section 2): devices in file order and a full matrix of directed links.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

struct Device
{
    std::string name;
    std::string type;
    double flopsPerS = 0;
    double memoryBytes = 0;
    double opOverheadS = 0;
};

struct Link
{
    double bandwidthBytesPerS = 0;
    double latencyS = 0;
};

class Cluster
{
public:
    // Device matrices grow with the square of the count; more than this is refused.
    static constexpr int kMaxDevices = 4096;

    Cluster() = default;

    const std::string &name() const { return m_name; }
    int deviceCount() const { return static_cast<int>(m_devices.size()); }
    const Device &device(int d) const { return m_devices[d]; }
    const std::vector<Device> &devices() const { return m_devices; }
    std::vector<std::string> deviceNames() const; // in device order
    int findDevice(std::string_view name) const;
    // Link a -> b for a != b.
    const Link &link(int a, int b) const
    {
        return m_linkTable[m_linkIndex[static_cast<size_t>(a) * deviceCount() + b]];
    }
    // Links as written in the file (after bidirectional expansion) and the default link.
    struct ExplicitLink
    {
        int src, dst;
        Link link;
        bool bidirectional;
    };
    const std::vector<ExplicitLink> &explicitLinks() const { return m_explicit; }
    const std::optional<Link> &defaultLink() const { return m_default; }
    // Means over the k(k-1) links a -> b, a != b (0 with one device), taken once when the cluster
    // is built: every cost model needs them, and with 4,096 devices the sum is 16.7M links.
    double meanLinkLatency() const { return m_meanLatency; }
    double meanInverseBandwidth() const { return m_meanInverseBandwidth; }

    std::vector<std::string> deviceTypes() const; // distinct, in device order
    std::vector<int> devicesBySpeed() const;      // fastest first, ties by index
    double totalFlopsPerS() const;
    double totalMemoryBytes() const;

private:
    friend class ClusterBuilder;
    std::string m_name;
    std::vector<Device> m_devices;
    // The k x k matrix as an index into the distinct links (a cluster has few: 67 MB of indices
    // with 4,096 devices, where the links themselves took 268 MB), shared between copies (a copy
    // per edit froze the app); the raw pointers serve link(), on the simulator's hot path.
    struct LinkMatrix
    {
        std::vector<Link> table; // [0]: the diagonal's (no link)
        std::vector<uint32_t> index;
    };
    std::shared_ptr<const LinkMatrix> m_links;
    const Link *m_linkTable = nullptr;
    const uint32_t *m_linkIndex = nullptr;
    std::vector<ExplicitLink> m_explicit;
    std::optional<Link> m_default;
    // Device names to indices (a linear scan per link made reading a cluster with a link for each
    // of 1,024 devices' pairs take seconds), shared between copies.
    using NameIndex = std::map<std::string, int, std::less<>>;
    static int indexIn(const NameIndex &names, std::string_view name); // -1: not there
    std::shared_ptr<const NameIndex> m_names;
    double m_meanLatency = 0, m_meanInverseBandwidth = 0;
};

// Validates devices and links and fills the pairs no link names from the default link.
class ClusterBuilder
{
public:
    explicit ClusterBuilder(std::string name = {});
    int addDevice(Device device); // throws InputError
    // Links are applied in call order; a later one overrides an earlier one for the same pair.
    void addLink(const std::string &src, const std::string &dst, Link link, bool bidirectional = true);
    void reserveLinks(size_t links); // room for this many, when the caller knows
    void setDefaultLink(Link link);
    Cluster build(); // throws InputError when a pair has no link and there is no default

private:
    int deviceIndex(const std::string &name, int slot);

    Cluster m_cluster;
    Cluster::NameIndex m_names;
    // The device last looked up as a link's source (slot 0) and destination (slot 1): links come
    // grouped by their source, so most lookups are of that device or the one after it.
    int m_lastIndex[2] = {-1, -1};
};

} // namespace ps
