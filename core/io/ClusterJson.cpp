#include "core/io/ClusterJson.h"

#include "core/InputError.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonStream.h"

namespace ps {

using namespace jsonio;

namespace {

// A speed, memory or bandwidth: a negative one goes to the cluster builder, which says "must be
// positive" as for 0, naming the device or link (this reader said "must be non-negative", which 0
// is, and named neither).
double capacity(const Json &o, const char *key)
{
    return has(o, key) && o[key].is_number() && o[key].get<double>() < 0 ? o[key].get<double>()
                                                                         : requiredNumber(o, key);
}

Link linkFromJson(const Json &l)
{
    return Link{capacity(l, "bandwidth_bytes_per_s"), number(l, "latency_s", 0)};
}

void appendLink(std::string &out, const Link &link)
{
    out += "\"bandwidth_bytes_per_s\": ";
    appendNumber(out, link.bandwidthBytesPerS);
    out += ", \"latency_s\": ";
    appendNumber(out, link.latencyS);
}

} // namespace

Cluster parseClusterJson(std::string_view text, const std::string &source, std::vector<std::string> *warnings)
{
    // Clusters are small: parse whole, then validate in file order.
    JsonDocument doc = parseJsonStream(text, source, {}, {});
    const Json &top = doc.top;
    checkFormat(top, "placement-cluster", source);
    auto array = [&](const char *key, bool required) -> const Json * {
        if (!has(top, key)) {
            if (required)
                throw InputError(source + ": '" + key + "' must be a non-empty JSON array");
            return nullptr;
        }
        if (!top[key].is_array())
            throw InputError(source + ": '" + key + "' must be a JSON array");
        return &top[key];
    };
    ClusterBuilder builder(has(top, "name") && top["name"].is_string() ? top["name"].get<std::string>()
                                                                       : std::string());
    std::string where;
    UnknownKeys unknown;
    unknown.check(top, {"format", "version", "name", "devices", "default_link", "links"}, "");
    try {
        const Json *devices = array("devices", true);
        for (size_t i = 0; i < devices->size(); ++i) {
            where = "/devices/" + std::to_string(i);
            const Json &d = requiredObject((*devices)[i], "a device");
            Device device;
            device.name = requiredString(d, "name", "a device needs a non-empty string 'name'");
            if (!has(d, "type") || !d["type"].is_string())
                throw InputError("device '" + device.name + "' needs a non-empty string 'type'");
            device.type = d["type"].get<std::string>();
            device.flopsPerS = capacity(d, "flops_per_s");
            device.memoryBytes = capacity(d, "memory_bytes");
            device.opOverheadS = number(d, "op_overhead_s", 0);
            unknown.check(d, {"name", "type", "flops_per_s", "memory_bytes", "op_overhead_s"}, "device");
            builder.addDevice(std::move(device));
        }
        if (const Json *links = array("links", false)) {
            builder.reserveLinks(links->size());
            for (size_t i = 0; i < links->size(); ++i) {
                where = "/links/" + std::to_string(i);
                const Json &l = requiredObject((*links)[i], "a link");
                std::string src = requiredString(l, "src", "a link's 'src' must be a device name");
                std::string dst = requiredString(l, "dst", "a link's 'dst' must be a device name");
                bool bidirectional = true;
                if (has(l, "bidirectional")) {
                    if (!l["bidirectional"].is_boolean())
                        throw InputError("'bidirectional' must be true or false");
                    bidirectional = l["bidirectional"].get<bool>();
                }
                unknown.check(l, {"src", "dst", "bandwidth_bytes_per_s", "latency_s", "bidirectional"}, "link");
                builder.addLink(src, dst, linkFromJson(l), bidirectional);
            }
        }
        where = "/default_link";
        if (has(top, "default_link")) {
            builder.setDefaultLink(linkFromJson(requiredObject(top["default_link"], "'default_link'")));
            unknown.check(top["default_link"], {"bandwidth_bytes_per_s", "latency_s"}, "default link");
        }
        where.clear();
        Cluster cluster = builder.build();
        if (warnings && !unknown.empty())
            warnings->push_back(unknown.warning());
        return cluster;
    } catch (const InputError &e) {
        rethrowWithContext(e, where.empty() ? source : source + ": " + where);
    }
}

Cluster readClusterJson(const std::string &path)
{
    return parseClusterJson(readFileBytes(path), path);
}

std::string clusterToJson(const Cluster &c)
{
    std::string out = "{\"format\": \"placement-cluster\", \"version\": 1, \"name\": ";
    appendString(out, c.name());
    out += ",\n \"devices\": [";
    for (int d = 0; d < c.deviceCount(); ++d) {
        const Device &dev = c.device(d);
        out += d ? ",\n  {\"name\": " : "\n  {\"name\": ";
        appendString(out, dev.name);
        out += ", \"type\": ";
        appendString(out, dev.type);
        out += ", \"flops_per_s\": ";
        appendNumber(out, dev.flopsPerS);
        out += ", \"memory_bytes\": ";
        appendNumber(out, dev.memoryBytes);
        out += ", \"op_overhead_s\": ";
        appendNumber(out, dev.opOverheadS);
        out += "}";
    }
    out += "\n ]";
    if (c.defaultLink()) {
        out += ",\n \"default_link\": {";
        appendLink(out, *c.defaultLink());
        out += "}";
    }
    out += ",\n \"links\": [";
    const auto &links = c.explicitLinks();
    for (size_t i = 0; i < links.size(); ++i) {
        out += i ? ",\n  {\"src\": " : "\n  {\"src\": ";
        appendString(out, c.device(links[i].src).name);
        out += ", \"dst\": ";
        appendString(out, c.device(links[i].dst).name);
        out += ", ";
        appendLink(out, links[i].link);
        out += links[i].bidirectional ? ", \"bidirectional\": true}" : ", \"bidirectional\": false}";
    }
    out += links.empty() ? "]\n}\n" : "\n ]\n}\n";
    return out;
}

void writeClusterJson(const std::string &path, const Cluster &cluster)
{
    writeFileAtomic(path, clusterToJson(cluster));
}

} // namespace ps
