#include "core/io/JsonError.h"

namespace ps {

std::string jsonErrorText(const std::exception &e)
{
    std::string what = e.what();
    if (size_t close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
        what = what.substr(close + 2);
    if (what.size() > 300)
        what = what.substr(0, 300) + "...";
    return what;
}

} // namespace ps
