#include "core/graph/FlopRules.h"

#include <algorithm>
#include <map>

namespace ps {

double elementCount(const Shape &shape)
{
    double n = 1;
    for (int64_t d : shape) {
        if (d < 0)
            return -1;
        n *= static_cast<double>(d);
    }
    return n;
}

namespace {
// The product of shape[from..], or -1 when unknown or too short.
double tailCount(const Shape &shape, size_t from)
{
    if (shape.size() < from)
        return -1;
    return elementCount(Shape(shape.begin() + static_cast<long>(from), shape.end()));
}

double twiceProduct(double a, double b)
{
    return a < 0 || b < 0 ? kUnknownFlops : 2 * a * b;
}
} // namespace

double convFlops(const Shape &out, const Shape &weight)
{
    return twiceProduct(elementCount(out), tailCount(weight, 1));
}

double convTransposeFlops(const Shape &in, const Shape &weight)
{
    return twiceProduct(elementCount(in), tailCount(weight, 1));
}

double matMulFlops(const Shape &a0, const Shape &b0)
{
    if (a0.empty() || b0.empty())
        return kUnknownFlops;
    Shape a = a0, b = b0;
    if (a.size() == 1)
        a.insert(a.begin(), 1);
    if (b.size() == 1)
        b.push_back(1);
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    if (m < 0 || k < 0 || n < 0)
        return kUnknownFlops;
    // Broadcast batch dimensions, aligned from the right.
    const size_t ba = a.size() - 2, bb = b.size() - 2, batchRank = std::max(ba, bb);
    double batch = 1;
    for (size_t i = 0; i < batchRank; ++i) {
        const int64_t da = i < batchRank - ba ? 1 : a[i - (batchRank - ba)];
        const int64_t db = i < batchRank - bb ? 1 : b[i - (batchRank - bb)];
        if (da < 0 || db < 0)
            return kUnknownFlops;
        batch *= static_cast<double>(std::max(da, db));
    }
    return batch * gemmFlops(static_cast<double>(m), static_cast<double>(n), static_cast<double>(k));
}

double gemmFlops(double m, double n, double k)
{
    return 2 * m * n * k;
}

double poolFlops(const Shape &out, const Shape &kernel)
{
    const double o = elementCount(out), w = elementCount(kernel);
    return o < 0 || w < 0 ? kUnknownFlops : o * w;
}

double lstmFlops(double steps, double batch, double input, double hidden, double directions)
{
    const double perStep =
        gemmFlops(batch, 4 * hidden, input) + gemmFlops(batch, 4 * hidden, hidden) + 13 * batch * hidden;
    return steps * directions * perStep;
}

double gruFlops(double steps, double batch, double input, double hidden, double directions)
{
    const double perStep =
        gemmFlops(batch, 3 * hidden, input) + gemmFlops(batch, 3 * hidden, hidden) + 11 * batch * hidden;
    return steps * directions * perStep;
}

double einsumFlops(const std::string &equation, const std::vector<Shape> &operands)
{
    std::string eq;
    for (char c : equation)
        if (c != ' ')
            eq.push_back(c);
    const size_t arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    if (lhs.find('.') != std::string::npos)
        return kUnknownFlops;
    std::map<char, int64_t> size;
    size_t operand = 0, dim = 0;
    for (char c : lhs) {
        if (c == ',') {
            if (operand >= operands.size() || dim != operands[operand].size())
                return kUnknownFlops;
            ++operand;
            dim = 0;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) || operand >= operands.size() ||
            dim >= operands[operand].size())
            return kUnknownFlops;
        const int64_t d = operands[operand][dim++];
        if (d < 0)
            return kUnknownFlops;
        auto [it, inserted] = size.emplace(c, d);
        if (!inserted && it->second != d && it->second != 1 && d != 1)
            return kUnknownFlops;
        it->second = std::max(it->second, d);
    }
    if (operand + 1 != operands.size() || dim != operands[operand].size())
        return kUnknownFlops;
    double product = 1;
    for (const auto &entry : size)
        product *= static_cast<double>(entry.second);
    return 2 * product;
}

} // namespace ps
