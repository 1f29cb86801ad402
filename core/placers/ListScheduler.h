#pragma once
// The machinery of list schedulers (HEFT, CPOP and the contention-aware variants): per-device
// timelines, earliest-finish evaluation of a node on a device (with insertion into idle gaps
// when asked), and, when contention is modelled, per-link timelines on which every transfer is
// booked as the simulator would queue it, one copy per destination device.
#include "core/placers/FeasibilityTracker.h"
#include "core/sim/CostModel.h"

#include <chrono>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

class Constraints;
struct RunControl;

// Busy intervals of one device or link, sorted and disjoint, in blocks that know their widest
// inner gap, so that a search for a gap skips the blocks without one (a scan of every interval
// was half of HEFT's 3 s on 200,000 ops). The answers are those of a scan of one sorted list.
class Timeline
{
public:
    // Earliest start >= ready of a slot of `length`; in a gap when insertion is allowed.
    double earliest(double ready, double length, bool insertion) const;
    void add(double start, double end);
    double end() const { return m_blocks.empty() ? 0.0 : m_blocks.back().busy.back().end; }

private:
    struct Interval
    {
        double start, end;
    };
    struct Block
    {
        std::vector<Interval> busy; // never empty
        double widestGap = 0;       // the largest busy[i].start - max(busy[..i).end), i >= 1
        double lastEnd = 0;         // max(busy[..].end)
        void measure();
    };
    std::vector<Block> m_blocks;
};

// The device free first (the earliest end, the lower index on a tie) among k devices, as a
// tournament tree: setting one device's end costs log k. Scanning every device for each op cost
// 0.16 s of the ops a stopped HEFT placed afterwards on 2,048 devices.
class FreeFirst
{
public:
    explicit FreeFirst(int k);
    void set(int d, double end);
    int first() const { return m_winner[1]; }

private:
    void play(int node); // node's winner from its children's
    int m_leaves = 1;
    std::vector<double> m_end;
    std::vector<int> m_winner; // by tree node (1: the root; leaves from m_leaves); -1: no device
};

class ListScheduler
{
public:
    struct Options
    {
        bool insertion = true;   // fill idle gaps on devices
        bool contention = false; // book transfers on links instead of assuming them free
        bool fasterTies = false; // equal finish times go to the faster device (else the lower index)
        // Weigh only the inputs' devices and the device free first (every device when none of
        // them has room): for clusters of thousands of devices, where weighing each costs seconds.
        bool near = false;
    };
    struct Slot
    {
        double start = 0, finish = std::numeric_limits<double>::infinity();
    };

    ListScheduler(const Graph &graph, const Cluster &cluster, const Constraints &constraints, Options options);

    // Where v would run on d, all its predecessors being placed; finish = inf if d has no room.
    Slot evaluate(int v, int d) const;
    // The device with the earliest finish (the least-bad one, noted, when none has room).
    int best(int v, Slot &slot);
    void commit(int v, int d, const Slot &slot);

    const CostModel &costs() const { return m_costs; }
    FeasibilityTracker &tracker() { return m_tracker; }
    const std::vector<int> &devices() const { return m_device; }
    const std::vector<double> &finishes() const { return m_finish; }
    // When device d is free after everything scheduled on it.
    double deviceFree(int d) const { return m_devices[d].end(); }
    double plannedMakespan() const;

    // Cancelled, or the time limit spent since the scheduler was made (a placer makes it first:
    // ranks and the loop count). With thousands of devices each op weighs every device, and
    // heft-c on the 58k-op GNMT took 17 s under a 5 s limit.
    bool stopped(const RunControl &control) const;
    // After a stop: every op not placed yet, in topological order, scheduled by the `near` rule
    // from then on. Returns each op's device and notes what `placer` did.
    std::vector<int> placeRest(const std::string &placer, std::vector<std::string> &notes);

private:
    double inputReady(int v, int d) const;
    // best()'s rule for one device: d replaces chosen (-1 for none yet) if v finishes earlier there.
    void consider(int v, int d, int &chosen, Slot &slot) const;
    // The earliest finish among v's inputs' devices and the device free first; -1 if none has room.
    int bestNear(int v, Slot &slot) const;
    double arrival(int p, int d, double bytes) const; // contention-aware arrival of p's output on d

    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    const Graph &m_graph;
    const Cluster &m_cluster;
    CostModel m_costs;
    FeasibilityTracker m_tracker;
    Options m_options;
    std::vector<int> m_device;
    std::vector<double> m_finish;
    std::vector<Timeline> m_devices;
    FreeFirst m_freeFirst; // over m_devices' ends
    // Per ordered device pair that has carried a transfer (a * k + b): a k x k table was 400 MB
    // with 4,096 devices, allocated by every contention-aware run.
    std::unordered_map<long long, Timeline> m_links;
    // Per producer (with contention), the copies of its output booked so far: (device, arrival).
    // A producer has a few; a hash over (producer, device) pairs was a third of m-etf-c's time on
    // 1,024 GPUs.
    std::vector<std::vector<std::pair<int, double>>> m_booked;
    const std::pair<int, double> *booked(int p, int d) const;
};

// HEFT's upward rank with mean compute and mean communication costs, memoised in reverse
// topological order; CPOP's downward rank likewise in topological order.
std::vector<double> upwardRanks(const CostModel &costs);
std::vector<double> downwardRanks(const CostModel &costs);

} // namespace ps
