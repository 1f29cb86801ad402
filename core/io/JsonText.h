#pragma once
// JSON as text, for everything this program writes with nlohmann: bytes that are not UTF-8 (a
// Latin-1 file name, argument or error message) become U+FFFD instead of nlohmann's exception,
// which ended a command with "internal error" after its work was done.
#include <nlohmann/json.hpp>

#include <string>

namespace ps {

template <class J>
std::string jsonText(const J &json, int indent = -1)
{
    return json.dump(indent, ' ', false, J::error_handler_t::replace);
}

} // namespace ps
