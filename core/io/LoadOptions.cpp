#include "core/io/LoadOptions.h"

#include "core/InputError.h"

#include <cstdlib>

namespace ps {

LoadOptions::Input LoadOptions::parseInput(const std::string &text)
{
    Input input;
    const size_t colon = text.find(':');
    const std::string dims = text.substr(0, colon);
    if (colon != std::string::npos)
        input.dtype = text.substr(colon + 1);
    size_t start = 0;
    for (;;) {
        const size_t x = dims.find_first_of("x,", start);
        const std::string part = dims.substr(start, x == std::string::npos ? std::string::npos : x - start);
        char *end = nullptr;
        const long long d = std::strtoll(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || d < 1 || input.dtype.empty())
            throw InputError("input shape '" + text + "': expected dimensions like 1x3x224x224 or 2x5:int64");
        input.shape.push_back(d);
        if (x == std::string::npos)
            break;
        start = x + 1;
    }
    return input;
}

} // namespace ps
