#include "core/generators/ImageModelGenerators.h"
#include "core/generators/NetBuilder.h"

namespace ps {

Graph generateVgg16(int batch, int imageSize)
{
    using T = NetBuilder::Tensor;
    NetBuilder n("vgg-16");
    T x = n.input("input", {batch, 3, imageSize, imageSize});
    // Simonyan and Zisserman 2015, configuration D: five blocks of 3x3 convolutions.
    const std::vector<std::vector<int64_t>> blocks = {
        {64, 64}, {128, 128}, {256, 256, 256}, {512, 512, 512}, {512, 512, 512}};
    for (size_t b = 0; b < blocks.size(); ++b) {
        NetBuilder::Scope s(n, "block" + std::to_string(b + 1));
        for (size_t c = 0; c < blocks[b].size(); ++c) {
            const std::string name = "conv" + std::to_string(c + 1);
            x = n.conv(x, blocks[b][c], 3, 3, 1, 1, 1, name, true);
            x = n.elementwise("Relu", {x}, name + "_relu");
        }
        x = n.maxPool(x, 2, 2, 0, "pool");
    }
    NetBuilder::Scope s(n, "classifier");
    x = n.flatten(x);
    for (int i = 1; i <= 2; ++i) {
        const std::string name = "fc" + std::to_string(i);
        x = n.linear(x, 4096, name);
        x = n.elementwise("Relu", {x}, name + "_relu");
        x = n.reshape(x, x.shape, name + "_dropout", "Dropout");
    }
    x = n.linear(x, 1000, "fc3");
    n.elementwise("Softmax", {x}, "softmax");
    return n.build();
}

} // namespace ps
