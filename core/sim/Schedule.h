#pragma once
// The simulator's report of one placement (spec sections 5-7).
#include <string>
#include <vector>

namespace ps {

struct Transfer
{
    int producer; // node whose output moves
    int src, dst; // devices (the link src -> dst)
    double start, end;
    double bytes;
};

// One step of the critical path, latest first: an op, a transfer, or a wait for a link.
struct CriticalStep
{
    enum Kind { Op, TransferStep } kind;
    int index; // node for Op, index into Schedule::transfers for TransferStep
};

struct LowerBound
{
    double bound = 0;        // max(criticalPath, work)
    double criticalPath = 0; // longest path with each op at its fastest device, edges free
    double work = 0;         // total work / total speed
};

struct Schedule
{
    double makespan = 0;
    LowerBound lowerBound;
    double ratio() const { return lowerBound.bound > 0 ? makespan / lowerBound.bound : 1.0; }

    bool feasible = true;
    std::vector<std::string> violations; // "memory:DEV", "pin:NODE", "colocate:GROUP"

    std::vector<double> busy;          // per device, summed in the order ops start
    std::vector<double> memory;        // per device, summed in node file order
    std::vector<double> start, finish; // per op
    std::vector<Transfer> transfers;   // in the order they were issued
    double movedBytes = 0;
    long long transferCount = 0;
    std::vector<CriticalStep> criticalPath; // from the op that finishes last back to time 0

    // The ops of the critical path (its transfers left out), in its order.
    std::vector<int> criticalOps() const
    {
        std::vector<int> ops;
        for (const CriticalStep &step : criticalPath)
            if (step.kind == CriticalStep::Op)
                ops.push_back(step.index);
        return ops;
    }
};

} // namespace ps
