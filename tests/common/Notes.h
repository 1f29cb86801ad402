#pragma once
// Whether a run's notes say something: the tests' one way to read what a family reported.
#include <algorithm>
#include <string>

namespace ps::test {

// (a PlacerResult, a Partition: anything with `notes`)
template <class Result>
bool hasNote(const Result &r, const std::string &fragment)
{
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string &n) { return n.find(fragment) != std::string::npos; });
}

} // namespace ps::test
