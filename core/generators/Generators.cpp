#include "core/generators/Generators.h"

#include "core/InputError.h"
#include "core/generators/GnmtGenerator.h"
#include "core/generators/ImageModelGenerators.h"
#include "core/generators/LayeredRandomGenerator.h"
#include "core/generators/MoeGenerator.h"
#include "core/generators/RnnLmGenerator.h"
#include "core/generators/TransformerGenerator.h"

#include <cmath>

namespace ps {

const std::vector<GeneratorInfo> &generators()
{
    static const std::vector<GeneratorInfo> list = {
        {"layered-random",
         "layered random DAG of the HEFT/GiPH papers",
         {{"nodes", 1000, 1, 1e7, true, "nodes"},
          {"alpha", 1, 0.01, 100, false, "shape: < 1 tall and thin, > 1 short and wide"},
          {"out_degree", 2, 0, 100, false, "edges per node on average"},
          {"ccr", 0.5, 0, 1000, false, "communication-to-computation ratio"},
          {"heterogeneity", 0.5, 0, 1, false, "spread of node costs"},
          {"mean_flops", 1e9, 0, 1e18, false, "mean FLOPs per node"}},
         [](const std::map<std::string, double> &v, uint64_t seed) {
             LayeredRandomParams p;
             p.nodes = static_cast<int>(v.at("nodes"));
             p.alpha = v.at("alpha");
             p.outDegree = v.at("out_degree");
             p.ccr = v.at("ccr");
             p.heterogeneity = v.at("heterogeneity");
             p.meanFlops = v.at("mean_flops");
             p.seed = seed;
             return generateLayeredRandom(p);
         }},
        {"rnnlm",
         "L-layer LSTM language model unrolled over T steps, every gate an op",
         {{"layers", 2, 1, 64, true, "LSTM layers"},
          {"steps", 20, 1, 10000, true, "unrolled time steps"},
          {"batch", 64, 1, 1e6, true, "batch size"},
          {"hidden", 2048, 1, 1e6, true, "hidden units"},
          {"vocab", 40000, 1, 1e7, true, "vocabulary size"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             RnnLmParams p;
             p.layers = static_cast<int>(v.at("layers"));
             p.steps = static_cast<int>(v.at("steps"));
             p.batch = static_cast<int>(v.at("batch"));
             p.hidden = static_cast<int>(v.at("hidden"));
             p.vocab = static_cast<int>(v.at("vocab"));
             return generateRnnLm(p);
         }},
        {"gnmt",
         "GNMT encoder-decoder: LSTM stacks (bidirectional first encoder layer, residuals) with attention",
         {{"layers", 8, 2, 64, true, "layers of the encoder and of the decoder"},
          {"source_steps", 50, 1, 10000, true, "unrolled source steps"},
          {"target_steps", 50, 1, 10000, true, "unrolled target steps"},
          {"batch", 128, 1, 1e6, true, "batch size"},
          {"hidden", 1024, 1, 1e6, true, "hidden units"},
          {"vocab", 32000, 1, 1e7, true, "vocabulary size"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             GnmtParams p;
             p.layers = static_cast<int>(v.at("layers"));
             p.sourceSteps = static_cast<int>(v.at("source_steps"));
             p.targetSteps = static_cast<int>(v.at("target_steps"));
             p.batch = static_cast<int>(v.at("batch"));
             p.hidden = static_cast<int>(v.at("hidden"));
             p.vocab = static_cast<int>(v.at("vocab"));
             return generateGnmt(p);
         }},
        {"moe",
         "sparsely-gated mixture-of-experts LM: LSTM, MoE (top-k gating, E experts), LSTM, softmax",
         {{"steps", 20, 1, 10000, true, "unrolled steps"},
          {"batch", 64, 1, 1e6, true, "batch size"},
          {"hidden", 1024, 1, 1e6, true, "hidden units"},
          {"experts", 16, 1, 4096, true, "experts"},
          {"top_k", 4, 1, 4096, true, "experts per example"},
          {"expert_hidden", 4096, 1, 1e6, true, "hidden units of an expert"},
          {"vocab", 32000, 1, 1e7, true, "vocabulary size"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             MoeParams p;
             p.steps = static_cast<int>(v.at("steps"));
             p.batch = static_cast<int>(v.at("batch"));
             p.hidden = static_cast<int>(v.at("hidden"));
             p.experts = static_cast<int>(v.at("experts"));
             p.topK = static_cast<int>(v.at("top_k"));
             p.expertHidden = static_cast<int>(v.at("expert_hidden"));
             p.vocab = static_cast<int>(v.at("vocab"));
             return generateMoe(p);
         }},
        {"inception-v3",
         "Inception-V3 (Szegedy et al. 2016) as torchvision builds it, inference",
         {{"batch", 1, 1, 1e5, true, "batch size"}, {"image_size", 299, 75, 4096, true, "input height and width"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             return generateInceptionV3(static_cast<int>(v.at("batch")), static_cast<int>(v.at("image_size")));
         }},
        {"resnet-50",
         "ResNet-50 (He et al. 2016, torchvision v1.5), inference",
         {{"batch", 1, 1, 1e5, true, "batch size"}, {"image_size", 224, 32, 4096, true, "input height and width"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             return generateResNet50(static_cast<int>(v.at("batch")), static_cast<int>(v.at("image_size")));
         }},
        {"vgg-16",
         "VGG-16 (Simonyan and Zisserman 2015, configuration D), inference",
         {{"batch", 1, 1, 1e5, true, "batch size"},
          {"image_size", 224, 224, 224, true, "input height and width (fixed: the classifier expects 7x7)"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             return generateVgg16(static_cast<int>(v.at("batch")), static_cast<int>(v.at("image_size")));
         }},
        {"transformer",
         "encoder-decoder Transformer (Vaswani et al. 2017): attention, feed-forward, layer norm per layer",
         {{"layers", 6, 1, 256, true, "encoder layers and decoder layers"},
          {"d_model", 512, 8, 65536, true, "model width"},
          {"heads", 8, 1, 1024, true, "attention heads (divide d_model)"},
          {"d_ff", 2048, 1, 1e6, true, "feed-forward width"},
          {"source_length", 128, 1, 1e6, true, "source sequence length"},
          {"target_length", 128, 1, 1e6, true, "target sequence length"},
          {"batch", 32, 1, 1e5, true, "batch size"},
          {"vocab", 32000, 1, 1e7, true, "vocabulary size"}},
         [](const std::map<std::string, double> &v, uint64_t) {
             TransformerParams p;
             p.layers = static_cast<int>(v.at("layers"));
             p.dModel = static_cast<int>(v.at("d_model"));
             p.heads = static_cast<int>(v.at("heads"));
             p.dFeedForward = static_cast<int>(v.at("d_ff"));
             p.sourceLength = static_cast<int>(v.at("source_length"));
             p.targetLength = static_cast<int>(v.at("target_length"));
             p.batch = static_cast<int>(v.at("batch"));
             p.vocab = static_cast<int>(v.at("vocab"));
             return generateTransformer(p);
         }},
    };
    return list;
}

Graph generate(const std::string &name, const std::map<std::string, double> &values, uint64_t seed)
{
    for (const GeneratorInfo &g : generators()) {
        if (g.name != name)
            continue;
        std::map<std::string, double> filled;
        for (const GeneratorParam &p : g.params)
            filled[p.name] = p.defaultValue;
        for (const auto &[key, value] : values) {
            auto it = filled.find(key);
            if (it == filled.end()) {
                std::string known;
                for (const GeneratorParam &p : g.params)
                    known += (known.empty() ? "" : ", ") + p.name;
                throw InputError(name + " has no parameter '" + key + "' (" + known + ")");
            }
            for (const GeneratorParam &p : g.params)
                if (p.name == key && (value < p.min || value > p.max || (p.integer && value != std::floor(value))))
                    throw InputError(name + ": '" + key + "' must be " + (p.integer ? "a whole number " : "") +
                                     "from " + messageNumber(p.min) + " to " + messageNumber(p.max));
            it->second = value;
        }
        try {
            return g.make(filled, seed);
        } catch (const InputError &e) {
            rethrowWithContext(e, name);
        }
    }
    std::string known;
    for (const GeneratorInfo &g : generators())
        known += (known.empty() ? "" : ", ") + g.name;
    throw InputError("unknown generator '" + name + "' (available: " + known + ")");
}

} // namespace ps
