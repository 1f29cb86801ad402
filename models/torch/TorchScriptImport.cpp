#include "models/torch/TorchScriptImport.h"

#include "core/InputError.h"
#include "core/family/MachineMemory.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonError.h"
#include "models/torch/TorchOpRules.h"

#include <ATen/CPUGeneratorImpl.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/script.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <unordered_map>

namespace ps {

namespace {

using torch::jit::Node;
using torch::jit::Value;

constexpr int kMaxNodes = 5'000'000; // unrolled loops stop here

std::string firstLine(const std::string &text)
{
    return text.substr(0, text.find('\n'));
}

c10::ScalarType dtypeOf(const std::string &name, const std::string &path)
{
    static const std::map<std::string, c10::ScalarType> types = {
        {"float32", at::kFloat},     {"float", at::kFloat},    {"float16", at::kHalf},  {"half", at::kHalf},
        {"bfloat16", at::kBFloat16}, {"float64", at::kDouble}, {"double", at::kDouble}, {"int64", at::kLong},
        {"long", at::kLong},         {"int32", at::kInt},      {"int", at::kInt},       {"int16", at::kShort},
        {"int8", at::kChar},         {"uint8", at::kByte},     {"bool", at::kBool}};
    auto it = types.find(name);
    if (it == types.end())
        throw InputError(path + ": unknown input dtype '" + name +
                         "' (float32, float16, bfloat16, float64, int64, "
                         "int32, int16, int8, uint8, bool)");
    return it->second;
}

double tensorBytes(const at::Tensor &t)
{
    return t.defined() ? static_cast<double>(t.numel()) * static_cast<double>(t.element_size()) : 0;
}

double ivalueBytes(const c10::IValue &v)
{
    if (v.isTensor())
        return tensorBytes(v.toTensor());
    double total = 0;
    if (v.isTensorList())
        for (const at::Tensor &t : v.toTensorVector())
            total += tensorBytes(t);
    else if (v.isTuple())
        for (const c10::IValue &e : v.toTupleRef().elements())
            total += ivalueBytes(e);
    else if (v.isList())
        for (const c10::IValue &e : v.toListRef())
            total += ivalueBytes(e);
    return total;
}

bool holdsTensor(const c10::IValue &v)
{
    if (v.isTensor())
        return true;
    if (v.isTensorList())
        return true;
    if (v.isTuple())
        for (const c10::IValue &e : v.toTupleRef().elements())
            if (holdsTensor(e))
                return true;
    if (v.isList())
        for (const c10::IValue &e : v.toListRef())
            if (holdsTensor(e))
                return true;
    return false;
}

Shape shapeOf(const c10::IValue &v)
{
    if (!v.isTensor())
        return {};
    const auto sizes = v.toTensor().sizes();
    return Shape(sizes.begin(), sizes.end());
}

double count(const c10::IValue &v)
{
    return v.isTensor() ? static_cast<double>(v.toTensor().numel()) : -1;
}

// What reaches a value: the graph nodes whose tensors flow into it (with their bytes), and the
// bytes of module parameters in it.
struct Flow
{
    std::vector<std::pair<int, double>> sources;
    double params = 0;
};

class Interpreter
{
public:
    Interpreter(const std::string &name, std::vector<std::string> &warnings) : m_builder(name), m_warnings(warnings) {}

    void bind(const Value *v, c10::IValue value) { m_values[v] = std::move(value); }

    void runBlock(torch::jit::Block *block)
    {
        for (Node *n : block->nodes())
            runNode(n);
    }

    Graph finish()
    {
        if (!m_unknown.empty()) {
            int ops = 0;
            std::string list;
            for (const auto &[type, n] : m_unknown) {
                ops += n;
                list += (list.empty() ? "" : ", ") + type + " (" + std::to_string(n) + ")";
            }
            m_warnings.push_back(
                std::to_string(ops) + (ops == 1 ? " op" : " ops") + " of " + std::to_string(m_unknown.size()) +
                (m_unknown.size() == 1 ? " unknown type: " : " unknown types: ") + list + "; counted as 0 FLOPs");
        }
        if (m_branches > 0 || m_loops > 0)
            m_warnings.push_back("scripted control flow followed on the example inputs: " + std::to_string(m_branches) +
                                 " branches taken, " + std::to_string(m_loops) + " loops unrolled");
        return m_builder.build();
    }

private:
    const c10::IValue &value(const Value *v)
    {
        auto it = m_values.find(v);
        if (it == m_values.end())
            throw InputError("TorchScript value %" + v->debugName() + " is used before it is set");
        return it->second;
    }

    void runNode(Node *n)
    {
        const auto kind = n->kind();
        if (kind == c10::prim::Constant) {
            m_values[n->output()] = torch::jit::toIValue(n->output()).value();
            return;
        }
        if (kind == c10::prim::GetAttr) {
            const c10::IValue v = value(n->input(0)).toObject()->getAttr(n->s(c10::attr::name));
            if (v.isTensor())
                m_flow[n->output()].params = tensorBytes(v.toTensor());
            m_values[n->output()] = v;
            return;
        }
        if (kind == c10::prim::If) {
            ++m_branches;
            torch::jit::Block *taken = n->blocks()[value(n->input(0)).toBool() ? 0 : 1];
            runBlock(taken);
            forward(taken->outputs(), n->outputs());
            return;
        }
        if (kind == c10::prim::Loop) {
            runLoop(n);
            return;
        }
        if (packing(n)) {
            passThrough(n);
            return;
        }
        torch::jit::Stack stack;
        for (const Value *in : n->inputs())
            stack.push_back(value(in));
        try {
            n->getOperation()(stack);
        } catch (const c10::Error &e) {
            throw InputError("running " + std::string(kind.toQualString()) +
                             " on the example inputs failed: " + firstLine(e.what_without_backtrace()));
        }
        const auto outputs = n->outputs();
        if (stack.size() < outputs.size())
            throw InputError(std::string(kind.toQualString()) + " returned fewer values than it declares");
        for (size_t i = 0; i < outputs.size(); ++i)
            m_values[outputs[i]] = stack[stack.size() - outputs.size() + i];
        bool makesTensor = false;
        for (const Value *out : outputs)
            makesTensor = makesTensor || holdsTensor(m_values[out]);
        if (kind.is_aten() && makesTensor)
            addOp(n);
        else
            passThrough(n);
    }

    // The interpreter's own instructions for lists and tuples (they have no operator to call).
    bool packing(Node *n)
    {
        const auto kind = n->kind();
        if (kind == c10::prim::ListConstruct) {
            c10::impl::GenericList list(n->output()->type()->expectRef<c10::ListType>().getElementType());
            for (const Value *in : n->inputs())
                list.push_back(value(in));
            m_values[n->output()] = c10::IValue(std::move(list));
        } else if (kind == c10::prim::TupleConstruct) {
            std::vector<c10::IValue> items;
            for (const Value *in : n->inputs())
                items.push_back(value(in));
            m_values[n->output()] = c10::ivalue::Tuple::create(std::move(items));
        } else if (kind == c10::prim::ListUnpack || kind == c10::prim::TupleUnpack) {
            const c10::IValue &whole = value(n->input(0));
            std::vector<c10::IValue> items;
            if (whole.isTuple())
                items = whole.toTupleRef().elements().vec();
            else
                for (const c10::IValue &e : whole.toListRef())
                    items.push_back(e);
            if (items.size() != n->outputs().size())
                throw InputError("unpacking " + std::to_string(items.size()) + " values into " +
                                 std::to_string(n->outputs().size()));
            for (size_t i = 0; i < items.size(); ++i)
                m_values[n->outputs()[i]] = items[i];
        } else if (kind == c10::prim::TupleIndex) {
            const auto &items = value(n->input(0)).toTupleRef().elements();
            int64_t i = value(n->input(1)).toInt();
            if (i < 0)
                i += static_cast<int64_t>(items.size());
            m_values[n->output()] = items.at(static_cast<size_t>(i));
        } else {
            return false;
        }
        return true;
    }

    // Plumbing (list and tuple packing, scalar arithmetic): what flows in flows out.
    void passThrough(Node *n)
    {
        Flow merged;
        for (const Value *in : n->inputs()) {
            auto it = m_flow.find(in);
            if (it == m_flow.end())
                continue;
            merged.sources.insert(merged.sources.end(), it->second.sources.begin(), it->second.sources.end());
            merged.params += it->second.params;
        }
        if (merged.sources.empty() && merged.params == 0)
            return;
        // Only tensors carry data: a size or a count read from a tensor is metadata.
        for (const Value *out : n->outputs())
            if (holdsTensor(m_values[out]))
                m_flow[out] = merged;
    }

    void forward(c10::ArrayRef<Value *> from, c10::ArrayRef<Value *> to)
    {
        for (size_t i = 0; i < to.size(); ++i) {
            m_values[to[i]] = value(from[i]);
            auto it = m_flow.find(from[i]);
            if (it != m_flow.end())
                m_flow[to[i]] = it->second;
            else
                m_flow.erase(to[i]);
        }
    }

    void runLoop(Node *n)
    {
        ++m_loops;
        const int64_t trips = value(n->input(0)).toInt();
        bool go = value(n->input(1)).toBool();
        torch::jit::Block *body = n->blocks()[0];
        const auto carriedIn = n->inputs().slice(2);
        const auto bodyIn = body->inputs();
        forward(carriedIn, bodyIn.slice(1));
        for (int64_t i = 0; i < trips && go; ++i) {
            m_values[bodyIn[0]] = c10::IValue(i);
            runBlock(body);
            go = value(body->outputs()[0]).toBool();
            forward(body->outputs().slice(1), bodyIn.slice(1));
        }
        forward(bodyIn.slice(1), n->outputs());
    }

    std::string scopeOf(const Node *n) const
    {
        std::string scope;
        if (auto stack = n->callstack())
            for (const auto &entry : (*stack)->vec())
                if (const auto &module = std::get<2>(entry); module && !module->instance_name().empty())
                    scope += (scope.empty() ? "" : "/") + module->instance_name();
        return scope;
    }

    double flopsOf(Node *n, const std::string &op, CostRule rule)
    {
        auto in = [&](size_t i) -> const c10::IValue & {
            static const c10::IValue none;
            return i < n->inputs().size() ? value(n->input(i)) : none;
        };
        const c10::IValue &out = value(n->outputs()[0]);
        switch (rule) {
        case CostRule::Zero:
        case CostRule::ControlFlow:
        case CostRule::Unknown: return 0;
        case CostRule::PerOutput: return std::max(0.0, count(out));
        case CostRule::PerInput: return std::max(0.0, count(in(0)));
        case CostRule::PerUpdate: return std::max(0.0, count(in(3)));
        case CostRule::Pool: {
            Shape kernel;
            if (in(1).isIntList())
                kernel = in(1).toIntVector();
            const size_t spatial = static_cast<size_t>(op.find("1d") != std::string::npos   ? 1
                                                       : op.find("3d") != std::string::npos ? 3
                                                                                            : 2);
            if (kernel.size() == 1 && spatial > 1)
                kernel.assign(spatial, kernel[0]);
            return std::max(0.0, poolFlops(shapeOf(out), kernel));
        }
        case CostRule::Conv:
            if (op == "convolution" && in(6).isBool() && in(6).toBool())
                return convTransposeFlops(shapeOf(in(0)), shapeOf(in(1)));
            return convFlops(shapeOf(out), shapeOf(in(1)));
        case CostRule::ConvTranspose: return convTransposeFlops(shapeOf(in(0)), shapeOf(in(1)));
        case CostRule::MatMul: {
            if (op == "linear") {
                const Shape w = shapeOf(in(1)); // [out, in]
                return w.size() == 2 ? matMulFlops(shapeOf(in(0)), {w[1], w[0]}) : kUnknownFlops;
            }
            if (op == "addmm" || op == "baddbmm" || op == "addbmm")
                return matMulFlops(shapeOf(in(1)), shapeOf(in(2)));
            return matMulFlops(shapeOf(in(0)), shapeOf(in(1)));
        }
        case CostRule::Gemm: return kUnknownFlops;
        case CostRule::Lstm:
        case CostRule::Gru: {
            // (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
            const Shape x = shapeOf(in(0));
            const auto params = in(2).toTensorVector();
            if (x.size() != 3 || params.size() < 2)
                return kUnknownFlops;
            const bool batchFirst = in(8).toBool();
            const double steps = static_cast<double>(x[batchFirst ? 1 : 0]);
            const double batch = static_cast<double>(x[batchFirst ? 0 : 1]);
            const double hidden = static_cast<double>(params[1].size(1)); // w_hh: [gates * H, H]
            const double layers = static_cast<double>(in(4).toInt());
            const double dirs = in(7).toBool() ? 2 : 1;
            auto layer = [&](double input) {
                return rule == CostRule::Lstm ? lstmFlops(steps, batch, input, hidden, dirs)
                                              : gruFlops(steps, batch, input, hidden, dirs);
            };
            return layer(static_cast<double>(x[2])) + (layers - 1) * layer(hidden * dirs);
        }
        case CostRule::Einsum: {
            std::vector<Shape> operands;
            for (const at::Tensor &t : in(1).toTensorVector())
                operands.push_back(Shape(t.sizes().begin(), t.sizes().end()));
            return std::max(0.0, einsumFlops(in(0).toStringRef(), operands));
        }
        }
        return 0;
    }

    void addOp(Node *n)
    {
        std::string op = n->kind().toUnqualString();
        op.erase(0, op.find_first_not_of('_')); // _convolution -> convolution
        const CostRule rule = atenCostRule(op);
        if (rule == CostRule::Unknown)
            ++m_unknown[op];
        GraphBuilder::NodeSpec s;
        s.scope = scopeOf(n);
        std::string base = (s.scope.empty() ? "" : s.scope + "/") + op;
        const int seen = m_ids[base]++;
        s.id = seen == 0 ? base : base + "_" + std::to_string(seen);
        s.op = op;
        s.flops = std::max(0.0, flopsOf(n, op, rule));
        for (const Value *out : n->outputs())
            s.outBytes += ivalueBytes(m_values[out]);
        std::vector<std::pair<int, double>> inputs;
        for (const Value *in : n->inputs()) {
            auto it = m_flow.find(in);
            if (it == m_flow.end())
                continue;
            s.paramBytes += it->second.params;
            inputs.insert(inputs.end(), it->second.sources.begin(), it->second.sources.end());
        }
        if (m_builder.nodeCount() >= kMaxNodes)
            throw InputError("the model unrolls to more than " + std::to_string(kMaxNodes) + " ops");
        const int v = m_builder.addNode(std::move(s));
        std::map<int, double> edges; // one edge per producer: the largest tensor it sends
        for (const auto &[u, bytes] : inputs)
            edges[u] = std::max(edges[u], bytes);
        for (const auto &[u, bytes] : edges)
            m_builder.addEdge(u, v, bytes);
        for (const Value *out : n->outputs()) {
            Flow &f = m_flow[out];
            f.sources = {{v, ivalueBytes(m_values[out])}};
            f.params = 0;
        }
    }

    GraphBuilder m_builder;
    std::vector<std::string> &m_warnings;
    std::unordered_map<const Value *, c10::IValue> m_values;
    std::unordered_map<const Value *, Flow> m_flow;
    std::unordered_map<std::string, int> m_ids;
    std::map<std::string, int> m_unknown;
    int m_branches = 0, m_loops = 0;
};

std::vector<LoadOptions::Input> recordedInputs(const std::string &path, const std::string &text)
{
    std::vector<LoadOptions::Input> inputs;
    try {
        const auto doc = nlohmann::json::parse(text);
        for (const auto &entry : doc.at("inputs")) {
            LoadOptions::Input in;
            in.shape = entry.at("shape").get<Shape>();
            if (entry.contains("dtype"))
                in.dtype = entry.at("dtype").get<std::string>();
            inputs.push_back(in);
        }
    } catch (const nlohmann::json::exception &e) {
        throw InputError(path + ": its input_shapes.json is not {\"inputs\": [{\"shape\": [...], \"dtype\": ...}]} (" +
                         jsonErrorText(e) + ")");
    }
    return inputs;
}

} // namespace

namespace {

uint32_t le32(const std::string &b, size_t at)
{
    return static_cast<uint32_t>(static_cast<unsigned char>(b[at])) |
           static_cast<uint32_t>(static_cast<unsigned char>(b[at + 1])) << 8 |
           static_cast<uint32_t>(static_cast<unsigned char>(b[at + 2])) << 16 |
           static_cast<uint32_t>(static_cast<unsigned char>(b[at + 3])) << 24;
}

// A TorchScript file is a zip archive whose directory sits at its end: the end record declares
// where the directory starts and how long it is. A file cut short has no end record, or one
// that declares more than is there; say so with the offsets rather than LibTorch's words.
void checkArchiveComplete(const std::string &path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        throw InputError(path + ": cannot open");
    const long long size = static_cast<long long>(in.tellg());
    const long long tail = std::min<long long>(size, 65536 + 22);
    std::string bytes(static_cast<size_t>(tail), '\0');
    in.seekg(size - tail);
    in.read(bytes.data(), tail);
    const size_t end = bytes.rfind(std::string("PK\x05\x06", 4));
    if (end == std::string::npos || end + 22 > bytes.size())
        throw InputError(path + ": not a readable TorchScript file (no zip end record in the last " +
                         std::to_string(tail) + " of " + std::to_string(size) +
                         " bytes: cut short, or not an archive)");
    const long long record = size - tail + static_cast<long long>(end);
    const long long dirBytes = le32(bytes, end + 12), dirStart = le32(bytes, end + 16);
    if (dirStart + dirBytes > record)
        throw InputError(path + ": not a readable TorchScript file (the zip directory declared at byte " +
                         std::to_string(dirStart) + " with " + std::to_string(dirBytes) + " bytes ends past byte " +
                         std::to_string(record) + " of " + std::to_string(size) + " bytes: cut short)");
}

} // namespace

Graph importTorchScript(const std::string &path, const LoadOptions &options, std::vector<std::string> &warnings)
{
    checkArchiveComplete(path);
    torch::jit::ExtraFilesMap extra{{"input_shapes.json", ""}};
    torch::jit::Module module;
    try {
        module = torch::jit::load(path, torch::kCPU, extra);
    } catch (const c10::Error &e) {
        throw InputError(path + ": not a readable TorchScript file (" + firstLine(e.what_without_backtrace()) + ")");
    } catch (const std::exception &e) {
        throw InputError(path + ": not a readable TorchScript file (" + firstLine(e.what()) + ")");
    }
    module.eval();
    auto method = module.find_method("forward");
    if (!method)
        throw InputError(path + ": the module has no forward() method");
    std::vector<LoadOptions::Input> inputs = options.inputs;
    if (inputs.empty() && !extra["input_shapes.json"].empty())
        inputs = recordedInputs(path, extra["input_shapes.json"]);
    const size_t wanted = method->num_inputs() - 1; // without self
    if (inputs.empty())
        throw InputError(path + ": the shapes of forward()'s " + std::to_string(wanted) +
                         " input(s) are not recorded in the file; give them with --input-shape (e.g. "
                         "1x3x224x224, or 2x5:int64), one per input");
    if (inputs.size() != wanted)
        throw InputError(path + ": forward() takes " + std::to_string(wanted) + " input(s), " +
                         std::to_string(inputs.size()) + " shape(s) given");

    // forward() runs on real tensors of these shapes: inputs that take a tenth of the memory free
    // leave little for what they produce (a batch of 2^20 images asked for 630 GB, and the kernel
    // would have killed the app with its unsaved work).
    double inputBytes = 0;
    for (const LoadOptions::Input &in : inputs) {
        double elements = 1;
        for (size_t d = 0; d < in.shape.size(); ++d)
            elements *= static_cast<double>(d == 0 && options.batch > 0 ? options.batch : in.shape[d]);
        inputBytes += elements * static_cast<double>(c10::elementSize(dtypeOf(in.dtype, path)));
    }
    const MachineMemory memory = machineMemory();
    if (memory.availableBytes > 0 && inputBytes > 0.1 * memory.availableBytes) {
        char why[200];
        std::snprintf(why, sizeof why,
                      ": its inputs at these shapes take %.3g GB, more than a tenth of the %.3g GB free, and running "
                      "forward() on them would take more; give a smaller batch or shape",
                      inputBytes / 1e9, memory.availableBytes / 1e9);
        throw InputError(path + why);
    }

    std::shared_ptr<torch::jit::Graph> graph = method->graph()->copy();
    torch::jit::Inline(*graph);
    torch::NoGradGuard noGrad;
    const at::Generator inputValues = at::detail::createCPUGenerator(0); // never the process-global one
    Interpreter run(baseName(path), warnings);
    run.bind(graph->inputs()[0], module._ivalue());
    for (size_t i = 0; i < inputs.size(); ++i) {
        Shape shape = inputs[i].shape;
        if (options.batch > 0 && !shape.empty())
            shape[0] = options.batch;
        const c10::ScalarType type = dtypeOf(inputs[i].dtype, path);
        const at::Tensor t = at::isFloatingType(type) ? torch::randn(shape, inputValues, torch::dtype(type))
                                                      : torch::zeros(shape, torch::dtype(type));
        run.bind(graph->inputs()[i + 1], t);
    }
    try {
        run.runBlock(graph->block());
        return run.finish();
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    } catch (const c10::Error &e) {
        throw InputError(path + ": " + firstLine(e.what_without_backtrace()));
    }
}

} // namespace ps
