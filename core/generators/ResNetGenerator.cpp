#include "core/generators/ImageModelGenerators.h"
#include "core/generators/NetBuilder.h"

namespace ps {

namespace {
using T = NetBuilder::Tensor;

// The bottleneck block of He et al. 2016 (torchvision's v1.5: the stride on the 3x3 conv).
T bottleneck(NetBuilder &n, const T &x, int64_t width, int64_t stride)
{
    const int64_t out = 4 * width;
    T y = n.convBnRelu(x, width, 1, 1, 1, 0, 0, "conv1");
    y = n.convBnRelu(y, width, 3, 3, stride, 1, 1, "conv2");
    y = n.conv(y, out, 1, 1, 1, 0, 0, "conv3");
    y = n.elementwise("BatchNormalization", {y}, "bn3", 4.0 * static_cast<double>(out));
    T identity = x;
    if (stride != 1 || x.shape[1] != out) {
        NetBuilder::Scope s(n, "downsample");
        identity = n.conv(x, out, 1, 1, stride, 0, 0);
        identity = n.elementwise("BatchNormalization", {identity}, "bn", 4.0 * static_cast<double>(out));
    }
    y = n.elementwise("Add", {y, identity}, "add");
    return n.elementwise("Relu", {y}, "relu");
}
} // namespace

Graph generateResNet50(int batch, int imageSize)
{
    NetBuilder n("resnet-50");
    T x = n.input("input", {batch, 3, imageSize, imageSize});
    x = n.convBnRelu(x, 64, 7, 7, 2, 3, 3, "stem");
    x = n.maxPool(x, 3, 2, 1, "stem/maxpool");
    const int blocks[] = {3, 4, 6, 3};
    for (int layer = 0; layer < 4; ++layer) {
        const int64_t width = 64LL << layer;
        for (int b = 0; b < blocks[layer]; ++b) {
            NetBuilder::Scope s(n, "layer" + std::to_string(layer + 1) + "/" + std::to_string(b));
            x = bottleneck(n, x, width, b == 0 && layer > 0 ? 2 : 1);
        }
    }
    NetBuilder::Scope head(n, "head");
    x = n.flatten(n.globalAvgPool(x, "avgpool"));
    x = n.linear(x, 1000, "fc");
    n.elementwise("Softmax", {x}, "softmax");
    return n.build();
}

} // namespace ps
