#include "core/io/PlacementJson.h"

#include "core/InputError.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonStream.h"

#include <cstdio>

namespace ps {

using namespace jsonio;

namespace {

std::string nameOf(const Json &top, const char *key)
{
    return has(top, key) && top[key].is_string() ? top[key].get<std::string>() : std::string();
}

// Both files keep their big map ("assignment" / "parts") streamed.
void requireStreamedObject(const JsonDocument &doc, const char *member, const std::string &source,
                           const std::string &message)
{
    if (!doc.streamed.count(member) || doc.top.contains(member))
        throw InputError(source + ": " + message);
}

} // namespace

PlacementDoc parsePlacementJson(std::string_view text, const std::string &source)
{
    PlacementDoc result;
    auto onElement = [&](const std::string &, size_t, const std::string &key, Json &value) {
        if (!value.is_string())
            throw InputError("device of '" + key + "' must be a string");
        result.assignment.emplace_back(key, value.get<std::string>());
    };
    JsonDocument doc = parseJsonStream(text, source, {{"assignment", false}}, onElement);
    checkFormat(doc.top, "placement", source);
    requireStreamedObject(doc, "assignment", source, "placement has no 'assignment' object");
    if (!doc.deferredError.empty())
        throw InputError(doc.deferredError);
    result.graphName = nameOf(doc.top, "graph");
    result.clusterName = nameOf(doc.top, "cluster");
    if (has(doc.top, "producer") && doc.top["producer"].is_object()) {
        const Json &p = doc.top["producer"];
        result.producerModel = nameOf(p, "model");
        if (has(p, "params") && p["params"].is_object())
            result.producerParamsJson = p["params"].dump();
        // Provenance is informative: a missing or odd value reads as unknown (0).
        if (has(p, "seed") && p["seed"].is_number_unsigned())
            result.producerSeed = p["seed"].get<unsigned long long>();
        if (has(p, "evaluations") && p["evaluations"].is_number_integer())
            result.producerEvaluations = p["evaluations"].get<long long>();
        if (has(p, "wall_s") && p["wall_s"].is_number())
            result.producerWallS = p["wall_s"].get<double>();
    }
    return result;
}

PlacementDoc readPlacementJson(const std::string &path)
{
    return parsePlacementJson(readFileBytes(path), path);
}

std::string placementToJson(const PlacementDoc &doc, const std::string &metricsJson)
{
    std::string out = "{\"format\": \"placement\", \"version\": 1, \"graph\": ";
    appendString(out, doc.graphName);
    out += ", \"cluster\": ";
    appendString(out, doc.clusterName);
    out += ",\n \"producer\": {\"model\": ";
    appendString(out, doc.producerModel);
    out += ", \"params\": ";
    out += doc.producerParamsJson.empty() ? "{}" : doc.producerParamsJson;
    if (doc.producerSeed || doc.producerEvaluations || doc.producerWallS > 0) {
        char buf[128];
        std::snprintf(buf, sizeof buf, ", \"seed\": %llu, \"evaluations\": %lld, \"wall_s\": %.6g", doc.producerSeed,
                      doc.producerEvaluations, doc.producerWallS);
        out += buf;
    }
    out += "}";
    if (!metricsJson.empty())
        out += ",\n \"metrics\": " + metricsJson;
    out += ",\n \"assignment\": {";
    for (size_t i = 0; i < doc.assignment.size(); ++i) {
        out += i ? ",\n  " : "\n  ";
        appendString(out, doc.assignment[i].first);
        out += ": ";
        appendString(out, doc.assignment[i].second);
    }
    out += doc.assignment.empty() ? "}\n}\n" : "\n }\n}\n";
    return out;
}

void writePlacementJson(const std::string &path, const PlacementDoc &doc, const std::string &metricsJson)
{
    writeFileAtomic(path, placementToJson(doc, metricsJson));
}

PartitionDoc parsePartitionJson(std::string_view text, const std::string &source)
{
    PartitionDoc result;
    auto onElement = [&](const std::string &, size_t, const std::string &key, Json &value) {
        if (!value.is_number_integer())
            throw InputError("part of '" + key + "' must be an integer");
        result.parts.emplace_back(key, value.get<long long>());
    };
    JsonDocument doc = parseJsonStream(text, source, {{"parts", false}}, onElement);
    checkFormat(doc.top, "partition", source);
    const Json &k = doc.top.contains("k") ? doc.top["k"] : Json();
    if (!k.is_number_integer())
        throw InputError(source + ": 'k' must be an integer from 1 to " + std::to_string(Partition::kMaxParts));
    try {
        checkPartCount(k.is_number_unsigned() && k.get<unsigned long long>() > (1ull << 62) ? Partition::kMaxParts + 1
                                                                                            : k.get<long long>());
    } catch (const InputError &e) {
        rethrowWithContext(e, source);
    }
    result.k = k.get<long long>();
    requireStreamedObject(doc, "parts", source, "partition has no 'parts' object");
    if (!doc.deferredError.empty())
        throw InputError(doc.deferredError);
    for (const auto &[node, part] : result.parts)
        if (part < 0 || part >= result.k)
            throw InputError(source + ": /parts/" + pointerToken(node) + ": part " + std::to_string(part) +
                             " is outside 0.." + std::to_string(result.k - 1));
    result.graphName = nameOf(doc.top, "graph");
    return result;
}

PartitionDoc readPartitionJson(const std::string &path)
{
    return parsePartitionJson(readFileBytes(path), path);
}

std::string partitionToJson(const PartitionDoc &doc)
{
    std::string out = "{\"format\": \"partition\", \"version\": 1, \"graph\": ";
    appendString(out, doc.graphName);
    out += ", \"k\": " + std::to_string(doc.k) + ",\n \"parts\": {";
    for (size_t i = 0; i < doc.parts.size(); ++i) {
        out += i ? ",\n  " : "\n  ";
        appendString(out, doc.parts[i].first);
        out += ": " + std::to_string(doc.parts[i].second);
    }
    out += doc.parts.empty() ? "}\n}\n" : "\n }\n}\n";
    return out;
}

void writePartitionJson(const std::string &path, const PartitionDoc &doc)
{
    writeFileAtomic(path, partitionToJson(doc));
}

} // namespace ps
