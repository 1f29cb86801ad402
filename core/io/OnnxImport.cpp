#include "core/io/OnnxImport.h"

#include "core/InputError.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/FileBytes.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace ps {

namespace {

CostRule ruleOf(const std::string &op)
{
    static const std::unordered_map<std::string, CostRule> rules = [] {
        std::unordered_map<std::string, CostRule> r;
        for (const char *z : {"Reshape",
                              "Transpose",
                              "Concat",
                              "Gather",
                              "GatherElements",
                              "GatherND",
                              "Slice",
                              "Split",
                              "Squeeze",
                              "Unsqueeze",
                              "Cast",
                              "CastLike",
                              "Identity",
                              "Dropout",
                              "Shape",
                              "Size",
                              "Constant",
                              "ConstantOfShape",
                              "Flatten",
                              "Expand",
                              "Tile",
                              "Pad",
                              "Range",
                              "NonZero",
                              "OneHot",
                              "DepthToSpace",
                              "SpaceToDepth",
                              "EyeLike",
                              "Compress",
                              "SequenceConstruct",
                              "SplitToSequence",
                              "ConcatFromSequence",
                              "SequenceAt"})
            r[z] = CostRule::Zero;
        for (const char *e : {"Add",
                              "Sub",
                              "Mul",
                              "Div",
                              "Pow",
                              "Sqrt",
                              "Exp",
                              "Log",
                              "Abs",
                              "Neg",
                              "Reciprocal",
                              "Relu",
                              "LeakyRelu",
                              "PRelu",
                              "Elu",
                              "Selu",
                              "Celu",
                              "Sigmoid",
                              "HardSigmoid",
                              "Tanh",
                              "Softplus",
                              "Softsign",
                              "Clip",
                              "Erf",
                              "Gelu",
                              "HardSwish",
                              "Mish",
                              "Max",
                              "Min",
                              "Sum",
                              "Mean",
                              "Where",
                              "Equal",
                              "Less",
                              "LessOrEqual",
                              "Greater",
                              "GreaterOrEqual",
                              "Not",
                              "And",
                              "Or",
                              "Xor",
                              "Floor",
                              "Ceil",
                              "Round",
                              "Sign",
                              "Sin",
                              "Cos",
                              "Tan",
                              "Asin",
                              "Acos",
                              "Atan",
                              "Sinh",
                              "Cosh",
                              "Asinh",
                              "Acosh",
                              "Atanh",
                              "IsNaN",
                              "IsInf",
                              "Mod",
                              "BitShift",
                              "ThresholdedRelu",
                              "Shrink",
                              "Trilu",
                              "BatchNormalization",
                              "LayerNormalization",
                              "InstanceNormalization",
                              "GroupNormalization",
                              "LpNormalization",
                              "MeanVarianceNormalization",
                              "LRN",
                              "Softmax",
                              "LogSoftmax",
                              "Hardmax",
                              "Resize",
                              "Upsample",
                              "QuantizeLinear",
                              "DequantizeLinear"})
            r[e] = CostRule::PerOutput;
        for (const char *p :
             {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin",
              "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax",
              "ArgMin", "TopK", "CumSum", "SoftmaxCrossEntropyLoss", "NegativeLogLikelihoodLoss"})
            r[p] = CostRule::PerInput;
        for (const char *s : {"ScatterElements", "ScatterND", "Scatter"})
            r[s] = CostRule::PerUpdate;
        for (const char *p : {"MaxPool", "AveragePool", "LpPool"})
            r[p] = CostRule::Pool;
        for (const char *c : {"If", "Loop", "Scan"})
            r[c] = CostRule::ControlFlow;
        r["Conv"] = CostRule::Conv;
        r["ConvTranspose"] = CostRule::ConvTranspose;
        r["MatMul"] = CostRule::MatMul;
        r["Gemm"] = CostRule::Gemm;
        r["LSTM"] = CostRule::Lstm;
        r["GRU"] = CostRule::Gru;
        r["Einsum"] = CostRule::Einsum;
        return r;
    }();
    auto it = rules.find(op);
    return it == rules.end() ? CostRule::Unknown : it->second;
}

double elementSize(int type)
{
    using onnx::TensorProto;
    switch (type) {
    case TensorProto::BOOL:
    case TensorProto::INT8:
    case TensorProto::UINT8: return 1;
    case TensorProto::INT16:
    case TensorProto::UINT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16: return 2;
    case TensorProto::INT32:
    case TensorProto::UINT32:
    case TensorProto::FLOAT: return 4;
    case TensorProto::INT64:
    case TensorProto::UINT64:
    case TensorProto::DOUBLE:
    case TensorProto::COMPLEX64: return 8;
    case TensorProto::COMPLEX128: return 16;
    default: return 0;
    }
}

struct TensorInfo
{
    Shape shape;
    double elementBytes = 0;
    bool known = false;
    double bytes() const
    {
        const double n = elementCount(shape);
        return known && n >= 0 ? n * elementBytes : -1;
    }
};

TensorInfo infoOf(const onnx::TypeProto &type)
{
    TensorInfo t;
    if (!type.has_tensor_type() || !type.tensor_type().has_shape())
        return t;
    t.known = true;
    t.elementBytes = elementSize(type.tensor_type().elem_type());
    for (const auto &d : type.tensor_type().shape().dim())
        t.shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
    return t;
}

int64_t intAttr(const onnx::NodeProto &node, const std::string &name, int64_t fallback)
{
    for (const auto &a : node.attribute())
        if (a.name() == name)
            return a.i();
    return fallback;
}

Shape intsAttr(const onnx::NodeProto &node, const std::string &name)
{
    for (const auto &a : node.attribute())
        if (a.name() == name)
            return Shape(a.ints().begin(), a.ints().end());
    return {};
}

std::string stringAttr(const onnx::NodeProto &node, const std::string &name)
{
    for (const auto &a : node.attribute())
        if (a.name() == name)
            return a.s();
    return {};
}

// The protobuf wire format, read field by field so that weights are skipped on the way in: a
// 1 GB model never sits in memory (once or twice), only its structure and small tensors do.
class WireFilter
{
public:
    WireFilter(google::protobuf::io::CodedInputStream &in, long long fileBytes) : m_in(in), m_fileBytes(fileBytes) {}

    // Copies the fields of the message up to the current limit into out. Path: the message's
    // place (0 model, 1 graph, 2 initializer), which decides what is descended into or dropped.
    // A message or field that declares more bytes than the file holds is an error (why()), never
    // a shorter message: a cut-off model must not load as a smaller graph.
    bool copyMessage(int level, std::string &out)
    {
        google::protobuf::io::StringOutputStream stream(&out);
        google::protobuf::io::CodedOutputStream o(&stream);
        for (;;) {
            const int at = m_in.CurrentPosition();
            const uint32_t tag = m_in.ReadTag();
            if (tag == 0) {
                if (level > 0 && m_in.BytesUntilLimit() > 0)
                    return cutShort(at, "inside a message that declares " + std::to_string(m_in.BytesUntilLimit()) +
                                            " more bytes");
                return level == 0 ? true : m_in.BytesUntilLimit() == 0 || fail(at, "a malformed field tag");
            }
            const uint32_t field = tag >> 3, wire = tag & 7;
            switch (wire) {
            case 0: {
                uint64_t v;
                if (!m_in.ReadVarint64(&v))
                    return cutShort(at, "inside a number");
                o.WriteTag(tag);
                o.WriteVarint64(v);
                break;
            }
            case 1: {
                uint64_t v;
                if (!m_in.ReadLittleEndian64(&v))
                    return cutShort(at, "inside an 8-byte number");
                o.WriteTag(tag);
                o.WriteLittleEndian64(v);
                break;
            }
            case 5: {
                uint32_t v;
                if (!m_in.ReadLittleEndian32(&v))
                    return cutShort(at, "inside a 4-byte number");
                o.WriteTag(tag);
                o.WriteLittleEndian32(v);
                break;
            }
            case 2: {
                uint32_t length;
                if (!m_in.ReadVarint32(&length) || static_cast<int>(length) < 0)
                    return cutShort(at, "inside a length");
                const int start = m_in.CurrentPosition();
                if (static_cast<long long>(start) + length > m_fileBytes ||
                    (m_in.BytesUntilLimit() >= 0 && static_cast<long long>(length) > m_in.BytesUntilLimit()))
                    return fail(at, "field " + std::to_string(field) + " declares " + std::to_string(length) +
                                        " bytes, more than " +
                                        (static_cast<long long>(start) + length > m_fileBytes ? "the file holds"
                                                                                              : "its message holds"));
                const bool descend = (level == 0 && field == 7) || (level == 1 && field == 5);
                // TensorProto data fields: float, int32, string, int64, raw, double, uint64.
                const bool data = level == 2 && (field == 4 || field == 5 || field == 6 || field == 7 || field == 9 ||
                                                 field == 10 || field == 11);
                if (descend) {
                    const auto limit = m_in.PushLimit(static_cast<int>(length));
                    std::string inner;
                    if (!copyMessage(level + 1, inner))
                        return false;
                    m_in.PopLimit(limit);
                    o.WriteTag(tag);
                    o.WriteVarint32(static_cast<uint32_t>(inner.size()));
                    o.WriteString(inner);
                } else if (data && length > kKeptTensorBytes) {
                    if (!m_in.Skip(static_cast<int>(length)))
                        return cutShort(at, "inside a tensor of " + std::to_string(length) + " bytes");
                } else {
                    std::string bytes;
                    if (!m_in.ReadString(&bytes, static_cast<int>(length)))
                        return cutShort(at, "inside a field of " + std::to_string(length) + " bytes");
                    o.WriteTag(tag);
                    o.WriteVarint32(length);
                    o.WriteString(bytes);
                }
                break;
            }
            default: // groups (3, 4) are not used by ONNX; anything else is not protobuf
                return fail(at, "a field of unknown wire type " + std::to_string(wire));
            }
        }
    }

    // Small tensors keep their data: shape inference reads Reshape targets and the like.
    static constexpr uint32_t kKeptTensorBytes = 1 << 16;

    const std::string &why() const { return m_why; }

private:
    bool fail(int at, const std::string &what)
    {
        m_why = what + " at byte " + std::to_string(at) + " of " + std::to_string(m_fileBytes) + " bytes";
        return false;
    }
    bool cutShort(int at, const std::string &where) { return fail(at, "the file ends " + where + ", cut short"); }

    google::protobuf::io::CodedInputStream &m_in;
    long long m_fileBytes;
    std::string m_why;
};

void readModel(const std::string &path, onnx::ModelProto &model)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw InputError(path + ": cannot open: " + std::strerror(errno));
    struct stat st
    {};
    const long long fileBytes = ::fstat(fd, &st) == 0 ? static_cast<long long>(st.st_size) : LLONG_MAX;
    google::protobuf::io::FileInputStream file(fd);
    file.SetCloseOnDelete(true);
    google::protobuf::io::CodedInputStream coded(&file);
    coded.SetTotalBytesLimit(INT_MAX);
    coded.SetRecursionLimit(1000);
    std::string structure;
    WireFilter filter(coded, fileBytes);
    if (!filter.copyMessage(0, structure))
        throw InputError(path + ": not a readable ONNX model (" + filter.why() + ")");
    if (!model.ParseFromString(structure))
        throw InputError(path + ": not a readable ONNX model (the protobuf of " + std::to_string(fileBytes) +
                         " bytes is not a model)");
    if (!model.has_graph() || model.ir_version() <= 0)
        throw InputError(path + ": not an ONNX model (no graph or no IR version in the protobuf of " +
                         std::to_string(fileBytes) + " bytes)");
    if (model.ir_version() >= 3 && model.opset_import_size() == 0)
        throw InputError(path + ": no opset_import after the graph (the file of " + std::to_string(fileBytes) +
                         " bytes is cut short, or not written by an ONNX exporter)");
}

// ONNX's shape inference divides by some attributes without checking them (a Conv or pool with
// strides=0 kills the process with SIGFPE, found by fuzz_onnx): refuse such a model first.
void rejectZeroDivisors(const std::string &path, const onnx::GraphProto &g)
{
    static const std::set<std::string> divisors = {"strides", "dilations", "kernel_shape", "group", "blocksize"};
    for (const auto &n : g.node())
        for (const auto &a : n.attribute()) {
            if (divisors.count(a.name())) {
                bool bad = a.has_i() && a.i() <= 0;
                for (int64_t v : a.ints())
                    bad = bad || v <= 0;
                if (bad)
                    throw InputError(path + ": node '" + n.name() + "' (" + n.op_type() + ") has " + a.name() +
                                     " that are not all positive");
            }
            if (a.has_g())
                rejectZeroDivisors(path, a.g());
            for (const auto &sub : a.graphs())
                rejectZeroDivisors(path, sub);
        }
}

void rejectExternalData(const std::string &path, const onnx::GraphProto &g)
{
    for (const auto &t : g.initializer())
        if (t.data_location() == onnx::TensorProto::EXTERNAL) {
            std::string where;
            for (const auto &e : t.external_data())
                if (e.key() == "location")
                    where = e.value();
            throw InputError(path + ": keeps tensor '" + t.name() + "' in an external data file ('" + where +
                             "'); save the model with its data inside (onnx.save(model, path, "
                             "save_as_external_data=False))");
        }
}

// The model's inputs that are not weights (an initializer may be listed as an input too).
std::vector<onnx::ValueInfoProto *> modelInputs(onnx::GraphProto &g)
{
    std::set<std::string> initializers;
    for (const auto &t : g.initializer())
        initializers.insert(t.name());
    std::vector<onnx::ValueInfoProto *> inputs;
    for (auto &in : *g.mutable_input())
        if (!initializers.count(in.name()))
            inputs.push_back(&in);
    return inputs;
}

// Gives the inputs' dimensions the values `value(input, dim)` says (0: leave it); a symbolic
// dimension so fixed takes the same value wherever its name appears (the outputs, the shapes
// recorded between ops, the other inputs).
void fixInputDims(onnx::GraphProto &g, const std::function<long long(size_t, int)> &value)
{
    const std::vector<onnx::ValueInfoProto *> inputs = modelInputs(g);
    std::map<std::string, long long> named;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k]->type().tensor_type().has_shape()) // unknown rank: left unknown (not a scalar)
            continue;
        auto *dims = inputs[k]->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim();
        for (int i = 0; i < dims->size(); ++i)
            if (const long long v = value(k, i); v > 0) {
                if ((*dims)[i].has_dim_param())
                    named.emplace((*dims)[i].dim_param(), v);
                (*dims)[i].set_dim_value(v);
            }
    }
    auto fix = [&](onnx::ValueInfoProto &v) {
        if (!v.type().tensor_type().has_shape())
            return;
        for (auto &d : *v.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
            if (d.has_dim_param() && named.count(d.dim_param()))
                d.set_dim_value(named.at(d.dim_param()));
    };
    for (onnx::ValueInfoProto *in : inputs)
        fix(*in);
    for (auto &out : *g.mutable_output())
        fix(out);
    for (auto &v : *g.mutable_value_info())
        fix(v);
}

// --batch: the first dimension of each input, where the model leaves it open.
void fixBatch(onnx::GraphProto &g, long long batch)
{
    const std::vector<onnx::ValueInfoProto *> inputs = modelInputs(g);
    fixInputDims(g, [&](size_t k, int i) {
        const auto &shape = inputs[k]->type().tensor_type().shape();
        return i == 0 && inputs[k]->type().tensor_type().has_shape() && !shape.dim(0).has_dim_value() ? batch : 0;
    });
}

// --input-shape, one per input in order: each input's dimensions as given. A count, a rank or a
// fixed dimension the model contradicts is refused (they were ignored: only TorchScript read them).
void fixInputShapes(onnx::GraphProto &g, const std::vector<LoadOptions::Input> &given)
{
    const std::vector<onnx::ValueInfoProto *> inputs = modelInputs(g);
    auto dimsText = [](const Shape &s) {
        std::string t;
        for (int64_t d : s)
            t += (t.empty() ? "" : "x") + std::to_string(d);
        return t;
    };
    if (given.size() > inputs.size()) {
        std::string names;
        for (const onnx::ValueInfoProto *in : inputs)
            names += (names.empty() ? "" : ", ") + ("'" + in->name() + "'");
        throw InputError("the model has " + std::to_string(inputs.size()) + " input(s)" +
                         (names.empty() ? "" : " (" + names + ")") + "; " + std::to_string(given.size()) +
                         " --input-shape given");
    }
    for (size_t k = 0; k < given.size(); ++k) {
        auto *tensor = inputs[k]->mutable_type()->mutable_tensor_type();
        auto *shape = tensor->mutable_shape();
        const Shape &dims = given[k].shape;
        const std::string which = "input '" + inputs[k]->name() + "' ";
        if (shape->dim_size() == 0) // no shape recorded: the given one, all of it
            for (size_t i = 0; i < dims.size(); ++i)
                shape->add_dim();
        if (shape->dim_size() != static_cast<int>(dims.size()))
            throw InputError(which + "has " + std::to_string(shape->dim_size()) + " dimensions; --input-shape " +
                             dimsText(dims) + " gives " + std::to_string(dims.size()));
        for (int i = 0; i < shape->dim_size(); ++i)
            if (shape->dim(i).has_dim_value() && shape->dim(i).dim_value() != dims[static_cast<size_t>(i)])
                throw InputError(which + "has dimension " + std::to_string(i) + " of " +
                                 std::to_string(shape->dim(i).dim_value()) + " in the model; --input-shape " +
                                 dimsText(dims) + " gives " + std::to_string(dims[static_cast<size_t>(i)]));
    }
    fixInputDims(g, [&](size_t k, int i) { return k < given.size() ? given[k].shape[static_cast<size_t>(i)] : 0; });
}

// Names read inside the subgraphs of control-flow nodes (they may come from the outer graph).
void collectSubgraphInputs(const onnx::NodeProto &node, std::set<std::string> &names)
{
    for (const auto &a : node.attribute()) {
        std::vector<const onnx::GraphProto *> graphs;
        if (a.has_g())
            graphs.push_back(&a.g());
        for (const auto &g : a.graphs())
            graphs.push_back(&g);
        for (const onnx::GraphProto *g : graphs)
            for (const auto &n : g->node()) {
                for (const auto &in : n.input())
                    names.insert(in);
                collectSubgraphInputs(n, names);
            }
    }
}

std::string scopeOf(const std::string &name)
{
    std::string scope;
    size_t start = 0;
    for (;;) {
        const size_t slash = name.find('/', start);
        if (slash == std::string::npos)
            break;
        if (slash > start)
            scope += (scope.empty() ? "" : "/") + name.substr(start, slash - start);
        start = slash + 1;
    }
    return scope;
}

class Importer
{
public:
    Importer(const onnx::GraphProto &g, std::vector<std::string> &warnings) : m_graph(g), m_warnings(warnings) {}

    Graph run(const std::string &name)
    {
        for (const auto &t : m_graph.initializer()) {
            TensorInfo info;
            info.known = true;
            info.elementBytes = elementSize(t.data_type());
            info.shape.assign(t.dims().begin(), t.dims().end());
            m_tensors[t.name()] = info;
            m_initializers.insert(t.name());
        }
        for (const auto *list : {&m_graph.input(), &m_graph.value_info(), &m_graph.output()})
            for (const auto &v : *list)
                if (!m_initializers.count(v.name()))
                    m_tensors[v.name()] = infoOf(v.type());

        GraphBuilder builder(name);
        // Node i becomes graph node i. Producers are known before edges are made, so a file whose
        // nodes are not in topological order still connects (and a cycle is reported by build()).
        std::unordered_map<std::string, int> producer;
        for (int i = 0; i < m_graph.node_size(); ++i)
            for (const auto &out : m_graph.node(i).output())
                if (!out.empty())
                    producer[out] = i;
        std::unordered_map<std::string, int> usedIds;
        std::map<std::string, int> unknownTypes;
        std::vector<std::string> unknownShape;
        int controlFlow = 0;
        for (int i = 0; i < m_graph.node_size(); ++i) {
            const onnx::NodeProto &node = m_graph.node(i);
            GraphBuilder::NodeSpec s;
            std::string id = node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name();
            if (usedIds[id]++ > 0)
                id += "#" + std::to_string(i);
            s.id = id;
            s.op = node.op_type();
            s.scope = scopeOf(node.name());
            bool shapesKnown = true;
            for (const auto &out : node.output()) {
                if (out.empty())
                    continue;
                const double b = tensor(out).bytes();
                if (b < 0)
                    shapesKnown = false;
                else
                    s.outBytes += b;
            }
            std::set<std::string> read;
            for (const auto &in : node.input())
                if (m_initializers.count(in) && read.insert(in).second)
                    s.paramBytes += std::max(0.0, tensor(in).bytes());
            if (node.op_type() == "Constant") {
                s.paramBytes = s.outBytes;
                s.memBytes = s.outBytes;
            }
            const CostRule rule =
                node.domain().empty() || node.domain() == "ai.onnx" ? ruleOf(node.op_type()) : CostRule::Unknown;
            if (rule == CostRule::Unknown)
                ++unknownTypes[(node.domain().empty() ? "" : node.domain() + ".") + node.op_type()];
            if (rule == CostRule::ControlFlow)
                ++controlFlow;
            const double f = flopsOf(node, rule);
            if (f < 0)
                shapesKnown = false;
            else
                s.flops = f;
            if (!shapesKnown)
                unknownShape.push_back(id);
            const int v = builder.addNode(std::move(s));

            std::set<std::string> consumed(node.input().begin(), node.input().end());
            collectSubgraphInputs(node, consumed);
            for (const std::string &in : consumed) {
                auto it = producer.find(in);
                if (in.empty() || it == producer.end())
                    continue;
                const double b = tensor(in).bytes();
                builder.addEdge(it->second, v, b >= 0 ? std::optional<double>(b) : std::nullopt);
            }
        }
        report(unknownTypes, unknownShape, controlFlow);
        return builder.build();
    }

private:
    const TensorInfo &tensor(const std::string &name)
    {
        static const TensorInfo none;
        auto it = m_tensors.find(name);
        return it == m_tensors.end() ? none : it->second;
    }

    const Shape *shapeOf(const onnx::NodeProto &node, int input)
    {
        if (input >= node.input_size())
            return nullptr;
        const TensorInfo &t = tensor(node.input(input));
        return t.known ? &t.shape : nullptr;
    }

    double outputCount(const onnx::NodeProto &node)
    {
        double total = 0;
        for (const auto &out : node.output()) {
            if (out.empty())
                continue;
            const TensorInfo &t = tensor(out);
            const double n = t.known ? elementCount(t.shape) : -1;
            if (n < 0)
                return kUnknownFlops;
            total += n;
        }
        return total;
    }

    double flopsOf(const onnx::NodeProto &node, CostRule rule)
    {
        const Shape *a = shapeOf(node, 0), *b = shapeOf(node, 1);
        const TensorInfo &out = node.output_size() > 0 ? tensor(node.output(0)) : tensor("");
        switch (rule) {
        case CostRule::Zero:
        case CostRule::ControlFlow:
        case CostRule::Unknown: return 0;
        case CostRule::PerOutput: {
            // Only the first output counts (BatchNormalization's running statistics are not work).
            const double n = out.known ? elementCount(out.shape) : -1;
            return n < 0 ? kUnknownFlops : n;
        }
        case CostRule::PerInput: {
            const double n = a ? elementCount(*a) : -1;
            return n < 0 ? kUnknownFlops : n;
        }
        case CostRule::PerUpdate: {
            const Shape *u = shapeOf(node, 2);
            const double n = u ? elementCount(*u) : -1;
            return n < 0 ? kUnknownFlops : n;
        }
        case CostRule::Pool: return out.known ? poolFlops(out.shape, intsAttr(node, "kernel_shape")) : kUnknownFlops;
        case CostRule::Conv: return out.known && b ? convFlops(out.shape, *b) : kUnknownFlops;
        case CostRule::ConvTranspose: return a && b ? convTransposeFlops(*a, *b) : kUnknownFlops;
        case CostRule::MatMul: return a && b ? matMulFlops(*a, *b) : kUnknownFlops;
        case CostRule::Gemm: {
            if (!a || !b || a->size() != 2 || b->size() != 2)
                return kUnknownFlops;
            const bool ta = intAttr(node, "transA", 0) != 0, tb = intAttr(node, "transB", 0) != 0;
            const int64_t m = ta ? (*a)[1] : (*a)[0], k = ta ? (*a)[0] : (*a)[1], n = tb ? (*b)[0] : (*b)[1];
            if (m < 0 || n < 0 || k < 0)
                return kUnknownFlops;
            return gemmFlops(static_cast<double>(m), static_cast<double>(n), static_cast<double>(k));
        }
        case CostRule::Lstm:
        case CostRule::Gru: {
            // X: [steps, batch, input] (layout 1: [batch, steps, input]); W: [directions, gates*H, input].
            if (!a || !b || a->size() != 3 || b->size() != 3)
                return kUnknownFlops;
            const bool batchFirst = intAttr(node, "layout", 0) != 0;
            const double steps = static_cast<double>((*a)[batchFirst ? 1 : 0]);
            const double batch = static_cast<double>((*a)[batchFirst ? 0 : 1]);
            const double input = static_cast<double>((*a)[2]), dirs = static_cast<double>((*b)[0]);
            const double hidden = static_cast<double>(intAttr(node, "hidden_size", -1));
            if (steps < 0 || batch < 0 || input < 0 || dirs < 0 || hidden < 0)
                return kUnknownFlops;
            return rule == CostRule::Lstm ? lstmFlops(steps, batch, input, hidden, dirs)
                                          : gruFlops(steps, batch, input, hidden, dirs);
        }
        case CostRule::Einsum: {
            std::vector<Shape> operands;
            for (int i = 0; i < node.input_size(); ++i) {
                const Shape *s = shapeOf(node, i);
                if (!s)
                    return kUnknownFlops;
                operands.push_back(*s);
            }
            const double f = einsumFlops(stringAttr(node, "equation"), operands);
            if (f < 0)
                ++m_nonPlainEinsum;
            return f < 0 ? 0 : f;
        }
        }
        return 0;
    }

    void report(const std::map<std::string, int> &unknownTypes, const std::vector<std::string> &unknownShape,
                int controlFlow)
    {
        if (!unknownTypes.empty()) {
            int ops = 0;
            std::string list;
            for (const auto &[type, count] : unknownTypes) {
                ops += count;
                list += (list.empty() ? "" : ", ") + type + " (" + std::to_string(count) + ")";
            }
            m_warnings.push_back(
                std::to_string(ops) + (ops == 1 ? " op" : " ops") + " of " + std::to_string(unknownTypes.size()) +
                (unknownTypes.size() == 1 ? " unknown type: " : " unknown types: ") + list + "; counted as 0 FLOPs");
        }
        if (controlFlow > 0)
            m_warnings.push_back(std::to_string(controlFlow) +
                                 (controlFlow == 1 ? " control-flow op" : " control-flow ops") +
                                 " (If, Loop, Scan) kept as single nodes of 0 FLOPs; their subgraphs are not "
                                 "expanded");
        if (m_nonPlainEinsum > 0)
            m_warnings.push_back(
                std::to_string(m_nonPlainEinsum) +
                " Einsum ops are not plain contractions (ellipsis or unknown sizes); counted as 0 FLOPs");
        if (!unknownShape.empty()) {
            std::string first;
            for (size_t i = 0; i < unknownShape.size() && i < 3; ++i)
                first += (i ? ", " : "") + unknownShape[i];
            m_warnings.push_back(
                std::to_string(unknownShape.size()) +
                " ops have outputs or inputs of unknown shape after shape inference (e.g. " + first +
                "): their unknown FLOPs and bytes count as 0; a symbolic batch is fixed with --batch N");
        }
    }

    const onnx::GraphProto &m_graph;
    std::vector<std::string> &m_warnings;
    std::unordered_map<std::string, TensorInfo> m_tensors;
    std::set<std::string> m_initializers;
    int m_nonPlainEinsum = 0;
};

} // namespace

Graph importOnnx(const std::string &path, const LoadOptions &options, std::vector<std::string> &warnings)
{
    onnx::ModelProto model;
    readModel(path, model);
    onnx::GraphProto &g = *model.mutable_graph();
    rejectExternalData(path, g);
    try {
        fixInputShapes(g, options.inputs);
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
    if (options.batch > 0)
        fixBatch(g, options.batch);
    // Shape inference stops at an op whose domain the model does not import; imported, an
    // unknown op is skipped and inference goes on past it.
    std::set<std::string> imported;
    for (const auto &o : model.opset_import())
        imported.insert(o.domain() == "ai.onnx" ? "" : o.domain());
    for (const auto &n : g.node())
        if (imported.insert(n.domain() == "ai.onnx" ? "" : n.domain()).second) {
            auto *o = model.add_opset_import();
            o->set_domain(n.domain());
            o->set_version(1);
        }
    rejectZeroDivisors(path, g);
    try {
        onnx::shape_inference::InferShapes(model);
    } catch (const std::exception &e) {
        warnings.push_back(std::string("ONNX shape inference stopped: ") + e.what());
    }
    const std::string name = !model.graph().name().empty() ? model.graph().name() : baseName(path);
    try {
        return Importer(model.graph(), warnings).run(name);
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
}

} // namespace ps
