#pragma once
// What a steering session keeps of each arm (a family, a composition, or local search over earlier
// candidates): private to core/steering's SteeringSession*.cpp files.
#include "core/steering/ParamSpace.h"
#include "core/steering/SteeringSession.h"

#include <string>

namespace ps {

struct SteeringSession::Arm
{
    std::string name; // a family, a composition, or "local-search" (refines earlier candidates)
    ParamSpace space;
    bool refine = false;
    bool trains = false;
    bool searches = false;   // has a local-search stage, or is `budgeted`: takes an evaluation budget
    bool budgeted = false;   // a learned placer the simulator judges: takes a share of what is left
    bool takesStart = false; // starts from a given placement (refiners, gdp, giph; not rl-seq2seq)
    double weight = 1;
    int duplicates = 0;   // proposals that found an already known placement
    int earned = 0;       // learned arms: rounds in which they placed in the top three
    long long fewest = 1; // the fewest simulator runs a run costs (its stages' fixed costs together)
};

} // namespace ps
