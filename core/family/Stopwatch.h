#pragma once
// Wall time on the steady clock, in seconds: how budgets (RunControl::budget.timeLimitS) and the
// wall times results report are measured.

#include <chrono>

namespace ps {

inline double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace ps
