#pragma once
// Whether a run's notes say something: the tests' one way to read what a family reported.
#include "core/placers/Placer.h"

#include <algorithm>
#include <string>

namespace ps::test {

inline bool hasNote(const PlacerResult &r, const std::string &fragment)
{
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string &n) { return n.find(fragment) != std::string::npos; });
}

} // namespace ps::test
