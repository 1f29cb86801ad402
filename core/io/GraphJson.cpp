#include "core/io/GraphJson.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonStream.h"

namespace ps {

using namespace jsonio;

namespace {

GraphBuilder::NodeSpec nodeFromJson(const Json &n)
{
    requiredObject(n, "a node");
    GraphBuilder::NodeSpec spec;
    if (!has(n, "id") || !n["id"].is_string() || n["id"].get_ref<const std::string &>().empty())
        throw InputError("node without a non-empty string 'id'");
    spec.id = n["id"].get<std::string>();
    const std::string who = " of node '" + spec.id + "'";
    if (!has(n, "op") || !n["op"].is_string())
        throw InputError("node '" + spec.id + "' has no string 'op'");
    spec.op = n["op"].get<std::string>();
    auto num = [&](const char *key) -> std::optional<double> {
        if (!has(n, key))
            return std::nullopt;
        return numberValue(n[key], std::string("'") + key + "'" + who);
    };
    spec.flops = num("flops").value_or(0);
    spec.outBytes = num("out_bytes").value_or(0);
    spec.paramBytes = num("param_bytes").value_or(0);
    spec.memBytes = num("mem_bytes");
    if (has(n, "scope")) {
        if (!n["scope"].is_string())
            throw InputError("'scope'" + who + " must be a string");
        spec.scope = n["scope"].get<std::string>();
    }
    if (has(n, "compute_s")) {
        const Json &c = requiredObject(n["compute_s"], "'compute_s'" + who);
        for (auto it = c.begin(); it != c.end(); ++it) {
            // A key whose value is null counts as absent (spec section 1), here too.
            if (!it->is_null())
                spec.computeS.emplace_back(it.key(), numberValue(*it, "'compute_s." + it.key() + "'" + who));
        }
    }
    for (const char *key : {"colocate", "pin"}) {
        if (!has(n, key))
            continue;
        if (!n[key].is_string())
            throw InputError(std::string("'") + key + "'" + who + " must be a string");
        (key[0] == 'c' ? spec.colocate : spec.pin) = n[key].get<std::string>();
    }
    return spec;
}

} // namespace

Graph parseGraphJson(std::string_view text, const std::string &source, std::vector<std::string> *warnings)
{
    GraphBuilder builder;
    builder.setEdgeLocationPrefix("/edges/");
    UnknownKeys unknown;
    auto onElement = [&](const std::string &member, size_t, const std::string &, Json &value) {
        if (member == "nodes") {
            builder.addNode(nodeFromJson(value));
            if (warnings)
                unknown.check(value,
                              {"id", "op", "flops", "out_bytes", "param_bytes", "mem_bytes", "scope", "compute_s",
                               "colocate", "pin"},
                              "node");
            return;
        }
        requiredObject(value, "an edge");
        if (warnings)
            unknown.check(value, {"src", "dst", "bytes"}, "edge");
        if (!has(value, "src") || !value["src"].is_string() || !has(value, "dst") || !value["dst"].is_string())
            throw InputError("an edge's 'src' and 'dst' must be node ids (strings)");
        builder.addEdge(value["src"].get<std::string>(), value["dst"].get<std::string>(),
                        optionalNumber(value, "bytes"));
    };
    JsonDocument doc = parseJsonStream(text, source, {{"nodes", true}, {"edges", true}}, onElement);
    checkFormat(doc.top, "placement-graph", source);
    if (!doc.streamed.count("nodes") || doc.top.contains("nodes"))
        throw InputError(source + ": 'nodes' must be a JSON array");
    if (doc.top.contains("edges") && !doc.top["edges"].is_null())
        throw InputError(source + ": 'edges' must be a JSON array");
    if (!doc.deferredError.empty())
        throw InputError(doc.deferredError);
    if (doc.top.contains("name") && doc.top["name"].is_string())
        builder.setName(doc.top["name"].get<std::string>());
    Graph graph;
    try {
        graph = builder.build();
    } catch (const InputError &e) {
        rethrowWithContext(e, source);
    }
    if (warnings) {
        unknown.check(doc.top, {"format", "version", "name", "nodes", "edges"}, "");
        if (!unknown.empty())
            warnings->push_back(unknown.warning() +
                                (graph.edgeCount() == 0 && graph.nodeCount() > 1
                                     ? "; the graph has no edges: they are read from \"edges\": [{\"src\": ID, "
                                       "\"dst\": ID, \"bytes\": N}]"
                                     : ""));
    }
    return graph;
}

Graph readGraphJson(const std::string &path)
{
    return parseGraphJson(readFileBytes(path), path);
}

std::string graphToJson(const Graph &g)
{
    std::string out;
    out.reserve(static_cast<size_t>(g.nodeCount()) * 120 + static_cast<size_t>(g.edgeCount()) * 50);
    out += "{\"format\": \"placement-graph\", \"version\": 1, \"name\": ";
    appendString(out, g.name());
    out += ",\n \"nodes\": [";
    auto field = [&out](const char *key, double value) {
        out += ", \"";
        out += key;
        out += "\": ";
        appendNumber(out, value);
    };
    for (int v = 0; v < g.nodeCount(); ++v) {
        out += v ? ",\n  {\"id\": " : "\n  {\"id\": ";
        appendString(out, g.id(v));
        out += ", \"op\": ";
        appendString(out, g.op(v));
        if (g.flops(v) != 0)
            field("flops", g.flops(v));
        if (g.outBytes(v) != 0)
            field("out_bytes", g.outBytes(v));
        if (g.paramBytes(v) != 0)
            field("param_bytes", g.paramBytes(v));
        if (g.memBytes(v) != g.paramBytes(v) + g.outBytes(v))
            field("mem_bytes", g.memBytes(v));
        if (!g.scope(v).empty()) {
            out += ", \"scope\": ";
            appendString(out, g.scope(v));
        }
        auto overrides = g.computeOverrides(v);
        if (!overrides.empty()) {
            out += ", \"compute_s\": {";
            for (size_t i = 0; i < overrides.size(); ++i) {
                if (i)
                    out += ", ";
                appendString(out, g.deviceTypeNames()[overrides[i].deviceType]);
                out += ": ";
                appendNumber(out, overrides[i].seconds);
            }
            out += "}";
        }
        if (g.colocateGroup(v) >= 0) {
            out += ", \"colocate\": ";
            appendString(out, g.colocateGroupNames()[g.colocateGroup(v)]);
        }
        if (g.pin(v) >= 0) {
            out += ", \"pin\": ";
            appendString(out, g.pinNames()[g.pin(v)]);
        }
        out += "}";
    }
    out += "\n ],\n \"edges\": [";
    for (int e = 0; e < g.edgeCount(); ++e) {
        out += e ? ",\n  {\"src\": " : "\n  {\"src\": ";
        appendString(out, g.id(g.edgeSrc(e)));
        out += ", \"dst\": ";
        appendString(out, g.id(g.edgeDst(e)));
        field("bytes", g.edgeBytes(e));
        out += "}";
    }
    out += "\n ]\n}\n";
    return out;
}

void writeGraphJson(const std::string &path, const Graph &graph)
{
    writeFileAtomic(path, graphToJson(graph));
}

} // namespace ps
