#pragma once
// A JSON object, in the order given, built from keys known to be distinct (node ids, device
// names) in linear time. ordered_json's operator[] searches the keys so far on every insert:
// quadratic in a graph's ops (about 2 s for the 57,969-op GNMT, 25 s for 200,000 ops).
#include <nlohmann/json.hpp>

#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace ps {

using OrderedMembers = std::vector<std::pair<const std::string, nlohmann::ordered_json>>;

inline nlohmann::ordered_json orderedObject(OrderedMembers members)
{
    return nlohmann::ordered_json::object_t(std::make_move_iterator(members.begin()),
                                            std::make_move_iterator(members.end()));
}

} // namespace ps
