#include "core/io/LoadOptions.h"

#include "core/InputError.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace ps {

LoadOptions::Input LoadOptions::parseInput(const std::string &text)
{
    Input input;
    const size_t colon = text.find(':');
    const std::string dims = text.substr(0, colon);
    if (colon != std::string::npos)
        input.dtype = text.substr(colon + 1);
    size_t start = 0;
    double elements = 1;
    for (;;) {
        const size_t x = dims.find_first_of("x,", start);
        const std::string part = dims.substr(start, x == std::string::npos ? std::string::npos : x - start);
        char *end = nullptr;
        errno = 0;
        const long long d = std::strtoll(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || d < 1 || errno == ERANGE || input.dtype.empty())
            throw InputError("input shape '" + text + "': expected dimensions like 1x3x224x224 or 2x5:int64");
        input.shape.push_back(d);
        elements *= static_cast<double>(d);
        if (elements > kMaxElements)
            throw InputError("input shape '" + text + "': more than 2^40 elements in one input");
        if (x == std::string::npos)
            break;
        start = x + 1;
    }
    return input;
}

long long LoadOptions::parseBatch(const std::string &text)
{
    char *end = nullptr;
    errno = 0;
    const long long batch = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || batch < 1 || batch > kMaxBatch)
        throw InputError("--batch needs a whole number from 1 to " + std::to_string(kMaxBatch) + ", not '" + text +
                         "'");
    return batch;
}

} // namespace ps
