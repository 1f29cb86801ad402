#include "core/io/DotFormat.h"

#include "core/InputError.h"
#include "core/Utf8.h"
#include "core/cluster/Cluster.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonStream.h"
#include "core/placement/Placement.h"

#include <graphviz/cgraph.h>

// cgraph's (exported, undeclared): throws away what its lexer has buffered.
extern "C" void aglexbad(void);

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace ps {

namespace {

// cgraph keeps global state (error buffer, string dictionaries): one caller at a time.
std::mutex &graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::string g_cgraphMessages; // filled by the error callback while the mutex is held

int collectMessage(char *message)
{
    if (g_cgraphMessages.size() < 2000)
        g_cgraphMessages += message;
    return 0;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string attribute(void *object, const char *name)
{
    const char *value = agget(object, const_cast<char *>(name));
    return value ? std::string(value) : std::string();
}

std::optional<double> numberAttribute(void *object, const char *name, const std::string &who)
{
    std::string text = attribute(object, name);
    if (text.empty())
        return std::nullopt;
    errno = 0;
    char *end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE)
        throw InputError(who + ": attribute " + name + "=\"" + printableUtf8(text) + "\" is not a number");
    return GraphBuilder::checkedNumber(value, who + ": '" + name + "'");
}

// "gpu=1e-4,cpu=2e-3" -> pairs
std::vector<std::pair<std::string, double>> parseComputeS(const std::string &text, const std::string &who)
{
    std::vector<std::pair<std::string, double>> result;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        std::string item = text.substr(pos, comma - pos);
        pos = comma + 1;
        size_t eq = item.find('=');
        char *end = nullptr;
        double value = eq == std::string::npos ? 0 : std::strtod(item.c_str() + eq + 1, &end);
        if (eq == std::string::npos || eq == 0 || end == item.c_str() + eq + 1 || *end != '\0')
            throw InputError(who + ": compute_s item \"" + item + "\" is not TYPE=SECONDS");
        result.emplace_back(item.substr(0, eq), value);
    }
    return result;
}

// cgraph reads a name that begins with '%' as an anonymous object's and forgets it, calling the
// object "%<its internal number>"; our writer gives such a node or graph its name again in the
// standard attribute id.
bool isInternalName(const char *name)
{
    return !name || name[0] == '%';
}

// The object's name as the file gave it, if cgraph kept it or the attribute id gives it.
std::optional<std::string> givenName(void *object)
{
    const char *name = agnameof(object);
    if (!isInternalName(name))
        return std::string(name);
    std::string id = attribute(object, "id");
    return id.empty() ? std::nullopt : std::optional<std::string>(std::move(id));
}

// Text from the file as UTF-8. A file that says charset=latin1 is read as Latin-1 throughout; in
// another, bytes that are not UTF-8 are read as Latin-1 too (as Graphviz does), and counted.
class DotText
{
public:
    explicit DotText(Agraph_t *g)
    {
        std::string charset = attribute(g, "charset");
        std::transform(charset.begin(), charset.end(), charset.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        for (const char *name : {"latin1", "latin-1", "l1", "iso-8859-1", "iso_8859-1", "iso8859-1", "iso-ir-100"})
            m_latin1 = m_latin1 || charset == name;
    }

    std::string operator()(const std::string &raw)
    {
        if (m_latin1)
            return latin1AsUtf8(raw, true);
        if (firstInvalidUtf8(raw) == std::string::npos)
            return raw;
        std::string text = latin1AsUtf8(raw);
        if (m_recoded++ == 0)
            m_example = text;
        return text;
    }

    // What a warning says of the text read as Latin-1 in a file that did not say so, if any.
    std::string warning() const
    {
        if (m_recoded == 0)
            return {};
        return std::to_string(m_recoded) + " name(s) or attribute(s) are not UTF-8 ('" + m_example +
               "', ...): read as Latin-1, as Graphviz does (a file in Latin-1 says so with the graph attribute "
               "charset=latin1)";
    }

private:
    bool m_latin1 = false;
    int m_recoded = 0;
    std::string m_example;
};

// How many graphs the text holds: the blocks in braces at the top level, outside comments, "..."
// and <...> ids. cgraph reads the first and leaves the rest.
int graphCount(std::string_view t)
{
    int graphs = 0, depth = 0;
    auto skipTo = [&](size_t &i, std::string_view end) {
        const size_t at = t.find(end, i);
        i = at == std::string_view::npos ? t.size() : at + end.size() - 1;
    };
    for (size_t i = 0; i < t.size(); ++i) {
        const char c = t[i], next = i + 1 < t.size() ? t[i + 1] : '\0';
        if (c == '#' && (i == 0 || t[i - 1] == '\n'))
            skipTo(i, "\n");
        else if (c == '/' && next == '/')
            skipTo(i, "\n");
        else if (c == '/' && next == '*')
            skipTo(i += 2, "*/");
        else if (c == '"')
            while (++i < t.size() && t[i] != '"')
                i += t[i] == '\\' ? 1 : 0;
        else if (c == '<')
            for (int open = 1; open > 0 && ++i < t.size();)
                open += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
        else if (c == '{')
            ++depth;
        else if (c == '}' && depth > 0 && --depth == 0)
            ++graphs;
    }
    return graphs;
}

struct GraphCloser
{
    void operator()(Agraph_t *g) const { agclose(g); }
};

} // namespace

Graph parseDot(std::string_view text, const std::string &source, std::vector<std::string> *warnings)
{
    if (text.find('\0') != std::string_view::npos)
        throw InputError(source + ": binary data, not DOT text");
    std::lock_guard<std::mutex> lock(graphvizMutex());
    g_cgraphMessages.clear();
    agusererrf previous = agseterrf(collectMessage);
    std::string copy(text);
    std::unique_ptr<Agraph_t, GraphCloser> g(agmemread(copy.c_str()));
    // The lexer keeps what it read past the first graph (a file may hold several), and the next
    // file read would get that instead of its own.
    aglexbad();
    agseterrf(previous);
    if (!g) {
        std::string why = trimmed(g_cgraphMessages);
        throw InputError(source + ": not a valid DOT graph" + (why.empty() ? "" : ": " + why));
    }
    if (!agisdirected(g.get()))
        throw InputError(source + ": the graph is undirected; only digraphs can be read");

    DotText read(g.get());
    // An anonymous graph has no name (not cgraph's "%1").
    const std::string graphName = read(givenName(g.get()).value_or(""));
    GraphBuilder builder(graphName);
    std::vector<Agedge_t *> edges;
    std::vector<std::string> ids, renamed;
    std::unordered_map<Agnode_t *, int> index;
    try {
        for (Agnode_t *n = agfstnode(g.get()); n; n = agnxtnode(g.get(), n)) {
            GraphBuilder::NodeSpec spec;
            const std::optional<std::string> given = givenName(n);
            spec.id = read(given.value_or(agnameof(n)));
            if (!given)
                renamed.push_back(spec.id);
            const std::string who = "node '" + spec.id + "'";
            spec.op = read(attribute(n, "op"));
            if (spec.op.empty())
                spec.op = "unknown";
            spec.flops = numberAttribute(n, "flops", who).value_or(0);
            spec.outBytes = numberAttribute(n, "out_bytes", who).value_or(0);
            spec.paramBytes = numberAttribute(n, "param_bytes", who).value_or(0);
            spec.memBytes = numberAttribute(n, "mem_bytes", who);
            spec.scope = read(attribute(n, "scope"));
            spec.computeS = parseComputeS(read(attribute(n, "compute_s")), who);
            if (std::string c = read(attribute(n, "colocate")); !c.empty())
                spec.colocate = c;
            if (std::string p = read(attribute(n, "pin")); !p.empty())
                spec.pin = p;
            ids.push_back(spec.id);
            index.emplace(n, builder.addNode(std::move(spec)));
            for (Agedge_t *e = agfstout(g.get(), n); e; e = agnxtout(g.get(), e))
                edges.push_back(e);
        }
        // Edges in the order the file wrote them.
        std::sort(edges.begin(), edges.end(), [](Agedge_t *a, Agedge_t *b) { return AGSEQ(a) < AGSEQ(b); });
        for (Agedge_t *e : edges) {
            const int src = index.at(agtail(e)), dst = index.at(aghead(e));
            builder.addEdge(src, dst, numberAttribute(e, "bytes", "edge '" + ids[src] + "'->'" + ids[dst] + "'"));
        }
        if (!renamed.empty() && warnings)
            warnings->push_back(std::to_string(renamed.size()) +
                                " node name(s) begin with '%', which Graphviz reads as anonymous and forgets: "
                                "they are called " +
                                renamed.front() + (renamed.size() > 1 ? ", ... here" : " here") +
                                " (give each node its name in the attribute id)");
        if (const std::string recoded = read.warning(); !recoded.empty() && warnings)
            warnings->push_back(recoded);
        if (const int graphs = graphCount(text); graphs > 1 && warnings)
            warnings->push_back("the file holds " + std::to_string(graphs) + " graphs; only the first" +
                                (graphName.empty() ? "" : ", '" + graphName + "',") + " is read");
        return builder.build();
    } catch (const InputError &e) {
        rethrowWithContext(e, source);
    }
}

Graph readDot(const std::string &path, std::vector<std::string> *warnings)
{
    return parseDot(readFileBytes(path), path, warnings);
}

std::string deviceColor(int device)
{
    static const char *palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                                    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295"};
    return palette[device % 12];
}

namespace {

// Whether cgraph reads `text` back as it is when written between quotes with each '"' as \".
// Inside quotes cgraph keeps a pair of backslashes as both, turns \" into a quote and drops a
// backslash before a line break, so a run of an odd number of backslashes must not come before a
// quote, a line break or the end. It also drops a line break that stands alone between quotes and
// backslashes (its lexer's rule for one line break wins the tie with the rule for text).
bool quotable(const std::string &text)
{
    const auto boundary = [&](size_t i) { return i >= text.size() || text[i] == '"' || text[i] == '\\'; };
    size_t run = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : '"';
        if (c == '\\') {
            ++run;
            continue;
        }
        if ((c == '"' || c == '\n') && run % 2 == 1)
            return false;
        if (c == '\n' && (i == 0 || boundary(i - 1)) && boundary(i + 1))
            return false;
        run = 0;
    }
    return true;
}

// Whether `text` can be written as an HTML-like string <text>, which cgraph keeps as it is (its
// angle brackets must nest).
bool nestsAngles(const std::string &text)
{
    int depth = 0;
    for (char c : text) {
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (depth < 0)
            return false;
    }
    return depth == 0;
}

void appendDotId(std::string &out, const std::string &id)
{
    if (!quotable(id)) {
        if (!nestsAngles(id))
            throw InputError("'" + id + "' cannot be written in DOT as it is: quotes would change it (a " +
                             "backslash before a quote, a line break or the end, or a line break alone), and its " +
                             "angle brackets do not nest for <...>");
        out += '<' + id + '>';
        return;
    }
    out += '"';
    for (char c : id) {
        if (c == '"')
            out += '\\';
        out += c;
    }
    out += '"';
}

void appendAttr(std::string &out, const char *key, const std::string &value, bool &first)
{
    out += first ? " [" : ", ";
    first = false;
    out += key;
    out += '=';
    appendDotId(out, value);
}

std::string numberText(double value)
{
    std::string s;
    jsonio::appendNumber(s, value);
    return s;
}

void appendNode(std::string &out, const Graph &g, int v, const std::string &fill)
{
    out += "  ";
    appendDotId(out, g.id(v));
    bool first = true;
    if (isInternalName(g.id(v).c_str()))
        appendAttr(out, "id", g.id(v), first);
    appendAttr(out, "op", g.op(v), first);
    if (g.flops(v) != 0)
        appendAttr(out, "flops", numberText(g.flops(v)), first);
    if (g.outBytes(v) != 0)
        appendAttr(out, "out_bytes", numberText(g.outBytes(v)), first);
    if (g.paramBytes(v) != 0)
        appendAttr(out, "param_bytes", numberText(g.paramBytes(v)), first);
    if (g.memBytes(v) != g.paramBytes(v) + g.outBytes(v))
        appendAttr(out, "mem_bytes", numberText(g.memBytes(v)), first);
    if (!g.scope(v).empty())
        appendAttr(out, "scope", g.scope(v), first);
    std::string compute;
    for (const auto &o : g.computeOverrides(v))
        compute += (compute.empty() ? "" : ",") + g.deviceTypeNames()[o.deviceType] + "=" + numberText(o.seconds);
    if (!compute.empty())
        appendAttr(out, "compute_s", compute, first);
    if (g.colocateGroup(v) >= 0)
        appendAttr(out, "colocate", g.colocateGroupNames()[g.colocateGroup(v)], first);
    if (g.pin(v) >= 0)
        appendAttr(out, "pin", g.pinNames()[g.pin(v)], first);
    if (!fill.empty())
        appendAttr(out, "fillcolor", fill, first);
    out += "];\n";
}

} // namespace

std::string graphToDot(const Graph &g, const Cluster *cluster, const Placement *placement)
{
    std::string out = "digraph ";
    appendDotId(out, g.name());
    out += " {\n";
    if (!g.name().empty() && isInternalName(g.name().c_str())) {
        out += "  id=";
        appendDotId(out, g.name());
        out += ";\n";
    }
    out += "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\"];\n";
    const bool placed = cluster && placement;
    // Nodes first, in file order, so that reading the file back keeps their order and ranks;
    // the device subgraphs then only name their members.
    for (int v = 0; v < g.nodeCount(); ++v)
        appendNode(out, g, v, placed ? deviceColor(placement->device(v)) : std::string());
    for (int d = 0; placed && d < cluster->deviceCount(); ++d) {
        out += "  subgraph ";
        appendDotId(out, "cluster_" + cluster->device(d).name);
        out += " {\n    label=";
        appendDotId(out, cluster->device(d).name);
        out += "; color=";
        appendDotId(out, deviceColor(d));
        out += ";\n";
        for (int v = 0; v < g.nodeCount(); ++v)
            if (placement->device(v) == d) {
                out += "    ";
                appendDotId(out, g.id(v));
                out += ";\n";
            }
        out += "  }\n";
    }
    for (int e = 0; e < g.edgeCount(); ++e) {
        out += "  ";
        appendDotId(out, g.id(g.edgeSrc(e)));
        out += " -> ";
        appendDotId(out, g.id(g.edgeDst(e)));
        out += " [bytes=\"" + numberText(g.edgeBytes(e)) + "\"";
        if (placement && placement->device(g.edgeSrc(e)) != placement->device(g.edgeDst(e)))
            out += ", color=\"#d62728\", penwidth=2";
        out += "];\n";
    }
    out += "}\n";
    return out;
}

void writeDot(const std::string &path, const Graph &graph, const Cluster *cluster, const Placement *placement)
{
    std::string text;
    try {
        text = graphToDot(graph, cluster, placement);
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
    writeFileAtomic(path, text);
}

} // namespace ps
