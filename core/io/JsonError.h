#pragma once
// nlohmann's exception text for a person: without its "[json.exception.out_of_range.403] "
// prefix, shortened to 300 characters, e.g. "key 'settings' not found".
#include <exception>
#include <string>

namespace ps {

std::string jsonErrorText(const std::exception &e);

} // namespace ps
