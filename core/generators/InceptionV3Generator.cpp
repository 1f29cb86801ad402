#include "core/generators/ImageModelGenerators.h"
#include "core/generators/NetBuilder.h"

namespace ps {

namespace {
using T = NetBuilder::Tensor;

// The "Mixed" blocks of Szegedy et al. 2016 as torchvision builds them.
T inceptionA(NetBuilder &n, const T &x, int64_t poolFeatures)
{
    const T b1 = n.convBnRelu(x, 64, 1, 1, 1, 0, 0, "branch1x1");
    T b5 = n.convBnRelu(x, 48, 1, 1, 1, 0, 0, "branch5x5_1");
    b5 = n.convBnRelu(b5, 64, 5, 5, 1, 2, 2, "branch5x5_2");
    T b3 = n.convBnRelu(x, 64, 1, 1, 1, 0, 0, "branch3x3dbl_1");
    b3 = n.convBnRelu(b3, 96, 3, 3, 1, 1, 1, "branch3x3dbl_2");
    b3 = n.convBnRelu(b3, 96, 3, 3, 1, 1, 1, "branch3x3dbl_3");
    T bp = n.avgPool(x, 3, 1, 1, "branch_pool_avg");
    bp = n.convBnRelu(bp, poolFeatures, 1, 1, 1, 0, 0, "branch_pool");
    return n.concat({b1, b5, b3, bp}, 1);
}

T inceptionB(NetBuilder &n, const T &x)
{
    const T b3 = n.convBnRelu(x, 384, 3, 3, 2, 0, 0, "branch3x3");
    T bd = n.convBnRelu(x, 64, 1, 1, 1, 0, 0, "branch3x3dbl_1");
    bd = n.convBnRelu(bd, 96, 3, 3, 1, 1, 1, "branch3x3dbl_2");
    bd = n.convBnRelu(bd, 96, 3, 3, 2, 0, 0, "branch3x3dbl_3");
    const T bp = n.maxPool(x, 3, 2, 0, "branch_pool");
    return n.concat({b3, bd, bp}, 1);
}

T inceptionC(NetBuilder &n, const T &x, int64_t c7)
{
    const T b1 = n.convBnRelu(x, 192, 1, 1, 1, 0, 0, "branch1x1");
    T b7 = n.convBnRelu(x, c7, 1, 1, 1, 0, 0, "branch7x7_1");
    b7 = n.convBnRelu(b7, c7, 1, 7, 1, 0, 3, "branch7x7_2");
    b7 = n.convBnRelu(b7, 192, 7, 1, 1, 3, 0, "branch7x7_3");
    T bd = n.convBnRelu(x, c7, 1, 1, 1, 0, 0, "branch7x7dbl_1");
    bd = n.convBnRelu(bd, c7, 7, 1, 1, 3, 0, "branch7x7dbl_2");
    bd = n.convBnRelu(bd, c7, 1, 7, 1, 0, 3, "branch7x7dbl_3");
    bd = n.convBnRelu(bd, c7, 7, 1, 1, 3, 0, "branch7x7dbl_4");
    bd = n.convBnRelu(bd, 192, 1, 7, 1, 0, 3, "branch7x7dbl_5");
    T bp = n.avgPool(x, 3, 1, 1, "branch_pool_avg");
    bp = n.convBnRelu(bp, 192, 1, 1, 1, 0, 0, "branch_pool");
    return n.concat({b1, b7, bd, bp}, 1);
}

T inceptionD(NetBuilder &n, const T &x)
{
    T b3 = n.convBnRelu(x, 192, 1, 1, 1, 0, 0, "branch3x3_1");
    b3 = n.convBnRelu(b3, 320, 3, 3, 2, 0, 0, "branch3x3_2");
    T b7 = n.convBnRelu(x, 192, 1, 1, 1, 0, 0, "branch7x7x3_1");
    b7 = n.convBnRelu(b7, 192, 1, 7, 1, 0, 3, "branch7x7x3_2");
    b7 = n.convBnRelu(b7, 192, 7, 1, 1, 3, 0, "branch7x7x3_3");
    b7 = n.convBnRelu(b7, 192, 3, 3, 2, 0, 0, "branch7x7x3_4");
    const T bp = n.maxPool(x, 3, 2, 0, "branch_pool");
    return n.concat({b3, b7, bp}, 1);
}

T inceptionE(NetBuilder &n, const T &x)
{
    const T b1 = n.convBnRelu(x, 320, 1, 1, 1, 0, 0, "branch1x1");
    const T b3 = n.convBnRelu(x, 384, 1, 1, 1, 0, 0, "branch3x3_1");
    const T b3a = n.convBnRelu(b3, 384, 1, 3, 1, 0, 1, "branch3x3_2a");
    const T b3b = n.convBnRelu(b3, 384, 3, 1, 1, 1, 0, "branch3x3_2b");
    const T b3c = n.concat({b3a, b3b}, 1, "branch3x3_concat");
    T bd = n.convBnRelu(x, 448, 1, 1, 1, 0, 0, "branch3x3dbl_1");
    bd = n.convBnRelu(bd, 384, 3, 3, 1, 1, 1, "branch3x3dbl_2");
    const T bda = n.convBnRelu(bd, 384, 1, 3, 1, 0, 1, "branch3x3dbl_3a");
    const T bdb = n.convBnRelu(bd, 384, 3, 1, 1, 1, 0, "branch3x3dbl_3b");
    const T bdc = n.concat({bda, bdb}, 1, "branch3x3dbl_concat");
    T bp = n.avgPool(x, 3, 1, 1, "branch_pool_avg");
    bp = n.convBnRelu(bp, 192, 1, 1, 1, 0, 0, "branch_pool");
    return n.concat({b1, b3c, bdc, bp}, 1);
}
} // namespace

Graph generateInceptionV3(int batch, int imageSize)
{
    NetBuilder n("inception-v3");
    T x = n.input("input", {batch, 3, imageSize, imageSize});
    x = n.convBnRelu(x, 32, 3, 3, 2, 0, 0, "Conv2d_1a_3x3");
    x = n.convBnRelu(x, 32, 3, 3, 1, 0, 0, "Conv2d_2a_3x3");
    x = n.convBnRelu(x, 64, 3, 3, 1, 1, 1, "Conv2d_2b_3x3");
    x = n.maxPool(x, 3, 2, 0, "maxpool1");
    x = n.convBnRelu(x, 80, 1, 1, 1, 0, 0, "Conv2d_3b_1x1");
    x = n.convBnRelu(x, 192, 3, 3, 1, 0, 0, "Conv2d_4a_3x3");
    x = n.maxPool(x, 3, 2, 0, "maxpool2");
    const std::pair<const char *, int64_t> blocksA[] = {{"Mixed_5b", 32}, {"Mixed_5c", 64}, {"Mixed_5d", 64}};
    for (const auto &[name, pool] : blocksA) {
        NetBuilder::Scope s(n, name);
        x = inceptionA(n, x, pool);
    }
    {
        NetBuilder::Scope s(n, "Mixed_6a");
        x = inceptionB(n, x);
    }
    const std::pair<const char *, int64_t> blocksC[] = {
        {"Mixed_6b", 128}, {"Mixed_6c", 160}, {"Mixed_6d", 160}, {"Mixed_6e", 192}};
    for (const auto &[name, c7] : blocksC) {
        NetBuilder::Scope s(n, name);
        x = inceptionC(n, x, c7);
    }
    {
        NetBuilder::Scope s(n, "Mixed_7a");
        x = inceptionD(n, x);
    }
    for (const char *name : {"Mixed_7b", "Mixed_7c"}) {
        NetBuilder::Scope s(n, name);
        x = inceptionE(n, x);
    }
    NetBuilder::Scope head(n, "head");
    x = n.globalAvgPool(x, "avgpool");
    x = n.flatten(n.reshape(x, x.shape, "dropout", "Dropout"));
    x = n.linear(x, 1000, "fc");
    n.elementwise("Softmax", {x}, "softmax");
    return n.build();
}

} // namespace ps
