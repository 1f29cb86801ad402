#pragma once
// How much memory a run may count on: the machine's, or its container's where a control group
// caps it lower (the kernel then kills a process at the cap, whatever the machine has).
#include <string>

namespace ps {

struct MachineMemory
{
    double totalBytes = -1;     // the machine's memory, or the group's cap when lower; -1: unknown
    double availableBytes = -1; // what could be had now without swapping, within the cap; -1: unknown
};

// Reads /proc/meminfo (MemTotal, MemAvailable) and the memory control group of this process
// (/proc/self/cgroup; cgroup v2's memory.max and memory.current, or v1's memory.limit_in_bytes and
// memory.usage_in_bytes under /sys/fs/cgroup). `root` prefixes every path (tests give a fake tree).
MachineMemory machineMemory(const std::string &root = "");

} // namespace ps
