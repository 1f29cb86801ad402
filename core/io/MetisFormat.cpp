#include "core/io/MetisFormat.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/FileBytes.h"
#include "core/partitioners/MetisGraph.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <tuple>

namespace ps {

namespace {

std::string divisorText(double divisor)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", divisor);
    return buf;
}

long long parseInteger(std::string_view token, const std::string &where)
{
    std::string text(token);
    errno = 0;
    char *end = nullptr;
    long long value = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE)
        throw InputError(where + ": '" + text + "' is not an integer");
    return value;
}

std::vector<std::string_view> tokens(std::string_view line)
{
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

} // namespace

std::string graphToMetis(const Graph &g, bool withMemory)
{
    const MetisGraph m = buildMetisGraph(g, withMemory);
    std::string out = "% placement-studio METIS export of graph '" + g.name() + "'\n";
    out += "% vertex weight 1 = flops / " + divisorText(m.flopsDivisor);
    if (withMemory)
        out += ", vertex weight 2 = mem_bytes / " + divisorText(m.memoryDivisor);
    out += "; edge weight = bytes / " + divisorText(m.bytesDivisor) + "\n";
    out += "% vertex i is the i-th node of the graph file\n";
    out += std::to_string(m.vertices) + " " + std::to_string(m.edges()) + (withMemory ? " 011 2\n" : " 011\n");
    for (int v = 0; v < m.vertices; ++v) {
        for (int c = 0; c < m.constraints; ++c)
            out += (c ? " " : "") + std::to_string(m.vwgt[static_cast<size_t>(v) * m.constraints + c]);
        for (int32_t i = m.xadj[v]; i < m.xadj[v + 1]; ++i)
            out += " " + std::to_string(m.adjncy[i] + 1) + " " + std::to_string(m.adjwgt[i]);
        out += '\n';
    }
    return out;
}

void writeMetis(const std::string &path, const Graph &graph, bool withMemory)
{
    writeFileAtomic(path, graphToMetis(graph, withMemory));
}

Graph parseMetis(std::string_view text, const std::string &source)
{
    if (text.find('\0') != std::string_view::npos)
        throw InputError(source + ": binary data, not a METIS graph");
    size_t pos = 0, lineNo = 0;
    auto nextLine = [&](std::string_view &line) {
        while (pos < text.size()) {
            size_t end = text.find('\n', pos);
            if (end == std::string_view::npos)
                end = text.size();
            line = text.substr(pos, end - pos);
            pos = end + 1;
            ++lineNo;
            if (line.empty() || line[0] != '%')
                return true;
        }
        return false;
    };
    auto where = [&]() { return source + ":" + std::to_string(lineNo); };

    std::string_view line;
    std::vector<std::string_view> header;
    while (header.empty()) {
        if (!nextLine(line))
            throw InputError(source + ": empty METIS file (no header line 'n m [fmt [ncon]]')");
        header = tokens(line);
    }
    if (header.size() < 2 || header.size() > 4)
        throw InputError(where() + ": the header must be 'n m [fmt [ncon]]'");
    const long long n = parseInteger(header[0], where());
    const long long m = parseInteger(header[1], where());
    if (n < 0 || m < 0 || n > 100000000)
        throw InputError(where() + ": vertex and edge counts must be between 0 and 100000000");
    std::string fmt = header.size() >= 3 ? std::string(header[2]) : "0";
    if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos)
        throw InputError(where() + ": fmt '" + fmt + "' must be up to three digits 0 or 1");
    fmt.insert(0, 3 - fmt.size(), '0');
    const bool hasSizes = fmt[0] == '1', hasVertexWeights = fmt[1] == '1', hasEdgeWeights = fmt[2] == '1';
    long long ncon = hasVertexWeights ? 1 : 0;
    if (header.size() == 4) {
        ncon = parseInteger(header[3], where());
        if (!hasVertexWeights || ncon < 1 || ncon > 64)
            throw InputError(where() + ": ncon must be 1..64 and needs vertex weights in fmt");
    }

    GraphBuilder builder(baseName(source));
    struct Entry
    {
        int a, b;
        long long w;
        bool operator<(const Entry &o) const { return std::tie(a, b, w) < std::tie(o.a, o.b, o.w); }
        bool operator==(const Entry &o) const { return a == o.a && b == o.b && w == o.w; }
    };
    std::vector<Entry> forward, backward;
    long long vertex = 0;
    while (nextLine(line)) {
        std::vector<std::string_view> t = tokens(line);
        if (vertex == n) {
            if (!t.empty())
                throw InputError(where() + ": more vertex lines than the header's " + std::to_string(n));
            continue;
        }
        size_t i = 0;
        const size_t fixed = (hasSizes ? 1 : 0) + static_cast<size_t>(ncon);
        if (t.size() < fixed)
            throw InputError(where() + ": vertex " + std::to_string(vertex + 1) + " needs " + std::to_string(fixed) +
                             " size/weight values");
        i += hasSizes ? 1 : 0;
        GraphBuilder::NodeSpec spec;
        spec.id = std::to_string(vertex + 1);
        spec.op = "vertex";
        spec.flops = 1;
        for (long long c = 0; c < ncon; ++c, ++i) {
            long long w = parseInteger(t[i], where());
            if (w < 0)
                throw InputError(where() + ": vertex weights must be non-negative");
            if (c == 0)
                spec.flops = static_cast<double>(w);
            else if (c == 1)
                spec.memBytes = static_cast<double>(w);
        }
        const size_t step = hasEdgeWeights ? 2 : 1;
        if ((t.size() - i) % step != 0)
            throw InputError(where() + ": neighbour list must be pairs 'vertex weight'");
        for (; i < t.size(); i += step) {
            long long w = parseInteger(t[i], where());
            if (w < 1 || w > n)
                throw InputError(where() + ": neighbour " + std::to_string(w) + " is not a vertex 1.." +
                                 std::to_string(n));
            if (w == vertex + 1)
                throw InputError(where() + ": vertex " + std::to_string(w) + " lists itself");
            long long weight = hasEdgeWeights ? parseInteger(t[i + 1], where()) : 1;
            if (weight < 1)
                throw InputError(where() + ": edge weights must be positive");
            int a = static_cast<int>(vertex), b = static_cast<int>(w - 1);
            (a < b ? forward : backward).push_back({std::min(a, b), std::max(a, b), weight});
        }
        builder.addNode(std::move(spec));
        ++vertex;
    }
    if (vertex != n)
        throw InputError(source + ": the header declares " + std::to_string(n) + " vertices but the file lists " +
                         std::to_string(vertex));
    std::sort(forward.begin(), forward.end());
    std::sort(backward.begin(), backward.end());
    if (forward != backward)
        throw InputError(source + ": the adjacency lists are not symmetric (every edge must be "
                                  "listed at both ends with the same weight)");
    if (static_cast<long long>(forward.size()) != m)
        throw InputError(source + ": the header declares " + std::to_string(m) + " edges but the lists hold " +
                         std::to_string(forward.size()));
    for (const Entry &e : forward)
        builder.addEdge(e.a, e.b, static_cast<double>(e.w));
    try {
        return builder.build();
    } catch (const InputError &e) {
        rethrowWithContext(e, source);
    }
}

Graph readMetis(const std::string &path)
{
    return parseMetis(readFileBytes(path), path);
}

std::optional<long long> metisPartCount(const std::string &path)
{
    const size_t dot = path.find_last_of('.');
    constexpr std::string_view kPart = ".part";
    if (dot == std::string::npos || dot + 1 == path.size() || dot < kPart.size() ||
        path.compare(dot - kPart.size(), kPart.size(), kPart) != 0 ||
        !std::all_of(path.begin() + static_cast<std::ptrdiff_t>(dot) + 1, path.end(),
                     [](char c) { return c >= '0' && c <= '9'; }) ||
        path.size() - dot - 1 > 7)
        return std::nullopt;
    return std::stoll(path.substr(dot + 1));
}

PartitionDoc parseMetisPartition(std::string_view text, const std::string &source)
{
    PartitionDoc doc;
    doc.k = metisPartCount(source).value_or(0);
    if (doc.k < 1 || doc.k > Partition::kMaxParts)
        throw InputError(source + ": a METIS partition's name ends in .part.K, K from 1 to " +
                         std::to_string(Partition::kMaxParts));
    if (text.find('\0') != std::string_view::npos)
        throw InputError(source + ": binary data, not a METIS partition");
    size_t pos = 0, lineNo = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::vector<std::string_view> fields = tokens(text.substr(pos, end - pos));
        pos = end + 1;
        ++lineNo;
        if (fields.empty() || fields[0][0] == '%')
            continue;
        const std::string where = source + ":" + std::to_string(lineNo);
        if (fields.size() != 1)
            throw InputError(where + ": expected one part number, found " + std::to_string(fields.size()) + " fields");
        const long long part = parseInteger(fields[0], where);
        if (part < 0 || part >= doc.k)
            throw InputError(where + ": part " + std::to_string(part) + " is outside 0.." + std::to_string(doc.k - 1) +
                             " (the name says " + std::to_string(doc.k) + " parts)");
        doc.inOrder.push_back(part);
    }
    if (doc.inOrder.empty())
        throw InputError(source + ": an empty METIS partition (one part per line expected)");
    return doc;
}

std::string partitionToMetis(const Partition &partition)
{
    std::string out;
    out.reserve(partition.parts().size() * 3);
    for (int p : partition.parts())
        out += std::to_string(p) + "\n";
    return out;
}

void writeMetisPartition(const std::string &path, const Partition &partition)
{
    if (metisPartCount(path) != static_cast<long long>(partition.k()))
        throw InputError(path + ": a METIS partition of " + std::to_string(partition.k()) + " parts is named *.part." +
                         std::to_string(partition.k()));
    writeFileAtomic(path, partitionToMetis(partition));
}

} // namespace ps
