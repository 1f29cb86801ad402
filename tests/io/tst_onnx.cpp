// The ONNX importer on models assembled here with the ONNX C++ API: FLOPs checked against hand
// computation (spec section 9), scopes, edges, warnings, a symbolic batch, and malformed files.
#include "common/GraphChecks.h"
#include "common/TestFiles.h"
#include "core/InputError.h"
#include "core/io/FileKind.h"

#include <onnx/onnx_pb.h>

#include <QtTest>

#include <fstream>
#include <variant>

using namespace ps;
using ps::test::flopsOf;

namespace {

using Dim = std::variant<int64_t, std::string>;

class ModelMaker
{
public:
    ModelMaker()
    {
        m.set_ir_version(8);
        auto *opset = m.add_opset_import();
        opset->set_domain("");
        opset->set_version(17);
        m.mutable_graph()->set_name("test");
    }
    onnx::GraphProto &g() { return *m.mutable_graph(); }

    void input(const std::string &name, const std::vector<Dim> &dims)
    {
        auto *v = g().add_input();
        v->set_name(name);
        auto *t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(onnx::TensorProto::FLOAT);
        auto *shape = t->mutable_shape();
        for (const Dim &d : dims) {
            auto *dim = shape->add_dim();
            if (std::holds_alternative<int64_t>(d))
                dim->set_dim_value(std::get<int64_t>(d));
            else
                dim->set_dim_param(std::get<std::string>(d));
        }
    }
    onnx::TensorProto &weight(const std::string &name, const std::vector<int64_t> &dims)
    {
        auto *t = g().add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        int64_t n = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            n *= d;
        }
        for (int64_t i = 0; i < n; ++i)
            t->add_float_data(0.5f);
        return *t;
    }
    onnx::NodeProto &node(const std::string &op, const std::vector<std::string> &in,
                          const std::vector<std::string> &out, const std::string &name = {})
    {
        auto *n = g().add_node();
        n->set_op_type(op);
        n->set_name(name);
        for (const auto &i : in)
            n->add_input(i);
        for (const auto &o : out)
            n->add_output(o);
        return *n;
    }
    static void ints(onnx::NodeProto &n, const std::string &name, const std::vector<int64_t> &values)
    {
        auto *a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values)
            a->add_ints(v);
    }
    static void integer(onnx::NodeProto &n, const std::string &name, int64_t value)
    {
        auto *a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }
    static void text(onnx::NodeProto &n, const std::string &name, const std::string &value)
    {
        auto *a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(value);
    }
    void output(const std::string &name) { g().add_output()->set_name(name); }
    std::string save(const QTemporaryDir &dir, const QString &file)
    {
        std::string bytes;
        m.SerializeToString(&bytes);
        return test::writeFile(dir, file, QByteArray::fromStdString(bytes));
    }
    onnx::ModelProto m;
};

} // namespace

class TestOnnx : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void convGemmPoolByHand()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {int64_t(1), int64_t(4), int64_t(8), int64_t(8)});
        mm.weight("w", {6, 2, 3, 3});
        mm.weight("b", {6});
        auto &conv = mm.node("Conv", {"x", "w", "b"}, {"c"}, "/features/block1/conv");
        ModelMaker::integer(conv, "group", 2);
        ModelMaker::ints(conv, "pads", {1, 1, 1, 1});
        ModelMaker::ints(conv, "kernel_shape", {3, 3});
        mm.node("Relu", {"c"}, {"r"}, "/features/block1/relu");
        auto &pool = mm.node("MaxPool", {"r"}, {"p"}, "/features/pool");
        ModelMaker::ints(pool, "kernel_shape", {3, 3});
        ModelMaker::ints(pool, "strides", {2, 2});
        ModelMaker::ints(pool, "pads", {1, 1, 1, 1});
        mm.node("GlobalAveragePool", {"r"}, {"gap"}, "/head/gap");
        mm.node("Flatten", {"p"}, {"f"}, "/head/flatten");
        mm.weight("fc", {10, 96});
        auto &gemm = mm.node("Gemm", {"f", "fc"}, {"y"}, "/head/fc");
        ModelMaker::integer(gemm, "transB", 1);
        mm.node("Softmax", {"y"}, {"s"}, "/head/softmax");
        mm.output("s");
        mm.output("gap");
        LoadedFile file = loadFile(mm.save(dir, "cnn.onnx"));
        QVERIFY(file.graph);
        const Graph &g = *file.graph;
        QCOMPARE(g.nodeCount(), 7);
        // Conv: 2 * N*Cout*H*W * (Cin/groups)*Kh*Kw with padding keeping 8x8.
        QCOMPARE(flopsOf(g, "/features/block1/conv"), 2.0 * 1 * 6 * 8 * 8 * 2 * 3 * 3);
        const int c = g.findNode("/features/block1/conv");
        QCOMPARE(g.paramBytes(c), 4.0 * (6 * 2 * 3 * 3 + 6));
        QCOMPARE(g.outBytes(c), 4.0 * 6 * 8 * 8);
        QCOMPARE(g.scope(c), std::string("features/block1"));
        QCOMPARE(flopsOf(g, "/features/block1/relu"), 6.0 * 8 * 8);
        QCOMPARE(flopsOf(g, "/features/pool"), 6.0 * 4 * 4 * 9); // [1,6,4,4] x 3x3 windows
        QCOMPARE(flopsOf(g, "/head/gap"), 6.0 * 8 * 8);          // one per input element
        QCOMPARE(flopsOf(g, "/head/flatten"), 0.0);
        QCOMPARE(flopsOf(g, "/head/fc"), 2.0 * 1 * 10 * 96); // transB: [1,96] x [96,10]
        QCOMPARE(flopsOf(g, "/head/softmax"), 10.0);
        // One edge per consumed tensor, carrying that tensor's bytes; relu feeds pool and gap.
        const int relu = g.findNode("/features/block1/relu");
        QCOMPARE(g.outDegree(relu), 2);
        QCOMPARE(g.successorBytes(relu)[0], 4.0 * 6 * 8 * 8);
        QVERIFY(file.warnings.empty());
    }

    void matMulEinsumRecurrentByHand()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("a", {int64_t(2), int64_t(3), int64_t(4), int64_t(5)});
        mm.weight("w", {5, 7});
        mm.node("MatMul", {"a", "w"}, {"m1"}, "batched");
        mm.input("p", {int64_t(2), int64_t(1), int64_t(4), int64_t(5)});
        mm.input("q", {int64_t(3), int64_t(5), int64_t(6)});
        mm.node("MatMul", {"p", "q"}, {"m2"}, "broadcast");
        mm.input("e1", {int64_t(2), int64_t(3), int64_t(4)});
        mm.input("e2", {int64_t(2), int64_t(4), int64_t(5)});
        auto &einsum = mm.node("Einsum", {"e1", "e2"}, {"e"}, "einsum");
        ModelMaker::text(einsum, "equation", "bij,bjk->bik");
        mm.input("seq", {int64_t(5), int64_t(2), int64_t(3)});
        mm.weight("W", {1, 16, 3});
        mm.weight("R", {1, 16, 4});
        auto &lstm = mm.node("LSTM", {"seq", "W", "R"}, {"Y", "Y_h"}, "lstm");
        ModelMaker::integer(lstm, "hidden_size", 4);
        mm.weight("Wg", {2, 12, 3});
        mm.weight("Rg", {2, 12, 4});
        auto &gru = mm.node("GRU", {"seq", "Wg", "Rg"}, {"G"}, "gru");
        ModelMaker::integer(gru, "hidden_size", 4);
        auto &bidi = gru; // the direction attribute must agree with W's first dimension
        ModelMaker::text(bidi, "direction", "bidirectional");
        mm.input("img", {int64_t(1), int64_t(4), int64_t(5), int64_t(5)});
        mm.weight("wt", {4, 3, 3, 3});
        mm.node("ConvTranspose", {"img", "wt"}, {"up"}, "deconv");
        mm.input("ln", {int64_t(2), int64_t(7), int64_t(8)});
        mm.weight("gamma", {8});
        mm.node("LayerNormalization", {"ln", "gamma"}, {"lnout"}, "layernorm");
        mm.input("rs", {int64_t(2), int64_t(6)});
        mm.node("ReduceSum", {"rs"}, {"rsum"}, "reduce");
        for (const char *o : {"m1", "m2", "e", "Y", "G", "rsum", "up", "lnout"})
            mm.output(o);
        const Graph g = loadGraph(mm.save(dir, "mm.onnx"));
        QCOMPARE(flopsOf(g, "batched"), 2.0 * (2 * 3) * 4 * 7 * 5);
        QCOMPARE(flopsOf(g, "broadcast"), 2.0 * (2 * 3) * 4 * 6 * 5);
        QCOMPARE(flopsOf(g, "einsum"), 2.0 * 2 * 3 * 4 * 5);
        // LSTM, 5 steps of batch 2: x W (2x16x3) + h R (2x16x4) + 13 elementwise per unit.
        QCOMPARE(flopsOf(g, "lstm"), 5.0 * (2 * 2 * 16 * 3 + 2 * 2 * 16 * 4 + 13 * 2 * 4));
        QCOMPARE(flopsOf(g, "gru"), 2.0 * 5 * (2 * 2 * 12 * 3 + 2 * 2 * 12 * 4 + 11 * 2 * 4));
        QCOMPARE(flopsOf(g, "reduce"), 12.0);
        // Every input pixel times every output channel's kernel: 2 * 1*4*5*5 * 3*3*3.
        QCOMPARE(flopsOf(g, "deconv"), 2.0 * 4 * 5 * 5 * 3 * 9);
        QCOMPARE(g.outBytes(g.findNode("deconv")), 4.0 * 3 * 7 * 7);
        QCOMPARE(flopsOf(g, "layernorm"), 2.0 * 7 * 8);
        QCOMPARE(g.outBytes(g.findNode("lstm")), 4.0 * (5 * 1 * 2 * 4 + 1 * 2 * 4)); // Y and Y_h
    }

    void unknownOpsAndControlFlowWarnOnce()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {int64_t(2), int64_t(3)});
        mm.node("Relu", {"x"}, {"r"});
        mm.node("FancyOp", {"r"}, {"f1"});
        mm.node("FancyOp", {"f1"}, {"f2"});
        auto &custom = mm.node("Thing", {"f2"}, {"t"});
        custom.set_domain("com.example");
        mm.output("t");
        // An If whose branches read the Relu's output from the enclosing graph.
        mm.input("cond", {});
        mm.g().mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
        auto &branch = mm.node("If", {"cond"}, {"o"}, "branch");
        for (const char *side : {"then_branch", "else_branch"}) {
            auto *a = branch.add_attribute();
            a->set_name(side);
            a->set_type(onnx::AttributeProto::GRAPH);
            auto *body = a->mutable_g();
            body->set_name(side);
            auto *id = body->add_node();
            id->set_op_type("Identity");
            id->add_input("r");
            id->add_output(std::string(side) + "_out");
            body->add_output()->set_name(std::string(side) + "_out");
        }
        mm.output("o");
        LoadedFile file = loadFile(mm.save(dir, "unknown.onnx"));
        QCOMPARE(file.graph->nodeCount(), 5);
        const int relu = file.graph->findNode("Relu_0");
        QCOMPARE(file.graph->outDegree(relu), 2); // FancyOp_1 and the If that reads r inside
        QVERIFY(file.graph->findNode("branch") >= 0);
        QCOMPARE(file.graph->flops(file.graph->findNode("FancyOp_1")), 0.0);
        QCOMPARE(file.graph->id(1), std::string("FancyOp_1")); // unnamed: type and position
        QCOMPARE(file.warnings.size(), size_t(3));             // types, control flow, unknown shapes
        QVERIFY2(QString::fromStdString(file.warnings[0])
                     .startsWith("3 ops of 2 unknown types: FancyOp (2), com.example.Thing (1)"),
                 file.warnings[0].c_str());
        QVERIFY2(QString::fromStdString(file.warnings[1]).startsWith("1 control-flow op"), file.warnings[1].c_str());
    }

    void symbolicBatch()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {std::string("N"), int64_t(3), int64_t(4)});
        mm.weight("w", {4, 5});
        mm.node("MatMul", {"x", "w"}, {"y"}, "mm");
        mm.node("Relu", {"y"}, {"r"}, "relu");
        mm.output("r");
        const std::string path = mm.save(dir, "batch.onnx");
        LoadedFile open = loadFile(path);
        QCOMPARE(open.graph->flops(0), 0.0);
        QVERIFY(!open.warnings.empty());
        QVERIFY(QString::fromStdString(open.warnings.back()).contains("2 ops have outputs or inputs of unknown shape"));
        QVERIFY(QString::fromStdString(open.warnings.back()).contains("--batch"));
        LoadOptions options;
        options.batch = 8;
        LoadedFile fixed = loadFile(path, options);
        QVERIFY(fixed.warnings.empty());
        QCOMPARE(flopsOf(*fixed.graph, "mm"), 2.0 * 8 * 3 * 5 * 4);
        QCOMPARE(fixed.graph->outBytes(1), 4.0 * 8 * 3 * 5);
    }

    // --input-shape gives an ONNX model's open dimensions, one shape per input in order (only
    // TorchScript read them: an ONNX model stayed at 0 FLOPs without a word).
    void inputShapes()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {std::string("N"), std::string("S"), int64_t(4)});
        mm.weight("w", {4, 5});
        mm.node("MatMul", {"x", "w"}, {"y"}, "mm");
        mm.node("Relu", {"y"}, {"r"}, "relu");
        mm.output("r");
        const std::string path = mm.save(dir, "open.onnx");
        auto shaped = [&](const std::vector<std::string> &shapes) {
            LoadOptions options;
            for (const std::string &s : shapes)
                options.inputs.push_back(LoadOptions::parseInput(s));
            return loadFile(path, options);
        };
        const LoadedFile fixed = shaped({"8x3x4"});
        QVERIFY(fixed.warnings.empty());
        QCOMPARE(flopsOf(*fixed.graph, "mm"), 2.0 * 8 * 3 * 5 * 4);
        QCOMPARE(fixed.graph->outBytes(1), 4.0 * 8 * 3 * 5);
        auto refused = [&](const std::vector<std::string> &shapes) {
            try {
                shaped(shapes);
            } catch (const InputError &e) {
                return QString(e.what());
            }
            return QString("accepted");
        };
        QCOMPARE(refused({"8x3"}),
                 QString::fromStdString(path) + ": input 'x' has 3 dimensions; --input-shape 8x3 gives 2");
        QCOMPARE(refused({"8x3x5"}), QString::fromStdString(path) +
                                         ": input 'x' has dimension 2 of 4 in the model; --input-shape 8x3x5 gives 5");
        QCOMPARE(refused({"8x3x4", "2"}),
                 QString::fromStdString(path) + ": the model has 1 input(s) ('x'); 2 --input-shape given");
        // An input with no shape recorded takes the one given.
        ModelMaker bare;
        bare.g().add_input()->set_name("x");
        bare.g().mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        bare.weight("w", {4, 5});
        bare.node("MatMul", {"x", "w"}, {"y"}, "mm");
        bare.output("y");
        LoadOptions options;
        options.inputs.push_back(LoadOptions::parseInput("2x4"));
        const LoadedFile given = loadFile(bare.save(dir, "bare.onnx"), options);
        QCOMPARE(flopsOf(*given.graph, "mm"), 2.0 * 2 * 5 * 4);
    }

    void malformedFiles()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {int64_t(2), int64_t(3)});
        mm.weight("w", {3, 300});
        mm.node("MatMul", {"x", "w"}, {"y"});
        mm.output("y");
        std::string bytes;
        mm.m.SerializeToString(&bytes);
        auto expectError = [&](const QString &name, const QByteArray &content, const char *fragment) {
            const std::string path = test::writeFile(dir, name, content);
            try {
                loadFile(path);
                QFAIL(qPrintable(name + " was accepted"));
            } catch (const InputError &e) {
                QVERIFY2(QString(e.what()).contains(fragment), e.what());
                QVERIFY2(QString(e.what()).contains(name), e.what());
            }
        };
        expectError("truncated.onnx", QByteArray::fromStdString(bytes.substr(0, bytes.size() / 2)), "truncated");
        expectError("garbage.onnx", QByteArray("\x12\x34 this is not a protobuf at all \xff\xff\xff", 35), "not");
        expectError("empty.onnx", QByteArray(), "not an ONNX model");
        expectError("text.onnx", QByteArray("graph { node { op_type: \"Relu\" } }"), "not");
        auto &w = *mm.g().mutable_initializer(0);
        w.clear_float_data();
        w.set_data_location(onnx::TensorProto::EXTERNAL);
        auto *location = w.add_external_data();
        location->set_key("location");
        location->set_value("weights.bin");
        mm.m.SerializeToString(&bytes);
        expectError("external.onnx", QByteArray::fromStdString(bytes), "external data file ('weights.bin')");
        QVERIFY_EXCEPTION_THROWN(loadFile(dir.filePath("missing.onnx").toStdString()), InputError);
    }

    // What fuzz_onnx found: ONNX's shape inference divides by strides, dilations, kernel sizes and
    // groups unchecked (SIGFPE); such models are refused first.
    void fuzzFindingsAreRefused()
    {
        try {
            loadFile(std::string(PS_SOURCE_DIR) + "/tests/data/fuzz_strides_zero.onnx");
            QFAIL("strides=0 was accepted");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("(MaxPool) has strides that are not all positive"), e.what());
        }
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {int64_t(1), int64_t(4), int64_t(8), int64_t(8)});
        mm.weight("w", {4, 1, 3, 3});
        ModelMaker::integer(mm.node("Conv", {"x", "w"}, {"y"}, "conv"), "group", 0);
        mm.output("y");
        std::string bytes;
        mm.m.SerializeToString(&bytes);
        try {
            loadFile(test::writeFile(dir, "group0.onnx", QByteArray::fromStdString(bytes)));
            QFAIL("group=0 was accepted");
        } catch (const InputError &e) {
            QVERIFY2(QString(e.what()).contains("node 'conv' (Conv) has group"), e.what());
        }
    }

    // A model cut short is an error at every length, never a smaller graph; the error says
    // where the file ends and what was declared there.
    void everyPrefixIsRefused()
    {
        QTemporaryDir dir;
        ModelMaker mm;
        mm.input("x", {int64_t(8), int64_t(64)});
        mm.weight("w1", {64, 64});
        mm.weight("w2", {64, 300}); // over 64 KiB: skipped on the way in
        mm.node("MatMul", {"x", "w1"}, {"h"});
        mm.node("Relu", {"h"}, {"r"});
        mm.node("MatMul", {"r", "w2"}, {"y"});
        mm.output("y");
        std::string bytes;
        mm.m.SerializeToString(&bytes);
        const std::string whole = test::writeFile(dir, "whole.onnx", QByteArray::fromStdString(bytes));
        QCOMPARE(loadFile(whole).graph->nodeCount(), 3);
        int accepted = 0, withOffset = 0, tried = 0;
        QString firstAccepted;
        // Every length inside the structure (before and after the big tensor), a sample inside it.
        for (size_t cut = 1; cut < bytes.size(); cut += (cut < 4000 || cut + 4000 > bytes.size()) ? 1 : 997) {
            ++tried;
            const std::string path = test::writeFile(dir, "cut.onnx", QByteArray::fromStdString(bytes.substr(0, cut)));
            try {
                loadFile(path);
                if (accepted++ == 0)
                    firstAccepted = QString::number(cut);
            } catch (const InputError &e) {
                withOffset += QString(e.what()).contains(QString("of %1 bytes").arg(cut));
            }
        }
        QVERIFY2(accepted == 0,
                 qPrintable(QString("%1 prefixes loaded, the first %2 bytes long").arg(accepted).arg(firstAccepted)));
        QCOMPARE(withOffset, tried);
    }
};

QTEST_GUILESS_MAIN(TestOnnx)
#include "tst_onnx.moc"
