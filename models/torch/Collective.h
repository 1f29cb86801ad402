#pragma once
// Private to models/torch: data-parallel training over processes with torch.distributed's c10d
// (a TCPStore rendezvous kept by rank 0, a Gloo process group for the collectives). With one
// process every call is local and free, so a family's training loop is written once.
//
// Every rank calls the same collectives in the same order; a decision that could differ between
// ranks (out of time, a batch cut short) goes through any() so that all ranks take it together.
// A rank that cannot join, joins with different inputs, or is lost inside a step raises an
// error naming the rank and the cause instead of hanging.
#include "core/InputError.h"
#include "core/family/ModelFamily.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace at { // LibTorch's, named here only (the .cpp files that call these include LibTorch)
class Tensor;
struct Generator;
} // namespace at

namespace ps::learn {

// A rank was lost (stopped, killed, cut off) inside a collective: the run ends instead of hanging.
class LostRank : public RunAborted
{
public:
    using RunAborted::RunAborted;
};

class Collective
{
public:
    // Joins the group (world size 1: nothing to join). Throws InputError when the master cannot
    // be reached or its port is taken, when the ranks disagree on the world size or on the
    // fingerprint (naming the first key that differs), or when not every rank joins in time.
    explicit Collective(const Distribution &distribution);
    ~Collective();
    Collective(const Collective &) = delete;
    Collective &operator=(const Collective &) = delete;

    int rank() const { return m_distribution.rank; }
    int size() const { return m_distribution.worldSize; }
    bool leader() const { return m_distribution.leader(); }
    // Whether global item i (a sample, a graph of a step) is this rank's: i mod size == rank.
    bool mine(long long i) const { return i % size() == rank(); }

    // True when the flag is true on any rank.
    bool any(bool flag);
    // Element-wise sums over the ranks (every rank gets them).
    std::vector<double> sum(std::vector<double> values);
    // Every rank's value, by rank.
    std::vector<double> perRank(double mine);
    // Sums the parameters' gradients over the ranks, in place (missing gradients count as zero).
    void sumGradients(const std::vector<at::Tensor> &parameters);
    // Every rank takes rank 0's parameter values.
    void shareParameters(const std::vector<at::Tensor> &parameters);
    // The placement of the rank with the lowest key (ties: the lowest rank), on every rank.
    std::vector<int> bestOf(double key, const std::vector<int> &devices);
    // Waits until every rank is here (before rank 0 takes the rendezvous down).
    void barrier();

    // What the collectives cost this rank so far: calls, seconds waiting in them (the all-reduce
    // itself and waiting for slower ranks), bytes sent in.
    long long calls() const { return m_calls; }
    double seconds() const { return m_seconds; }
    long long bytesSent() const { return m_bytes; }
    // "data-parallel over N processes: ..." for a run's notes.
    std::string note() const;

    // Throws LostRank naming this rank, what it was doing and the cause.
    [[noreturn]] void fail(const std::string &during, const std::exception &e) const;

private:
    struct Group;
    Distribution m_distribution;
    std::unique_ptr<Group> m_group;
    long long m_calls = 0, m_bytes = 0;
    double m_seconds = 0;
    // Runs one collective on t, counting it; LostRank (naming `during`) when it fails.
    void collective(const std::string &during, std::vector<at::Tensor> &t, int kind, int root = 0);
};

// Values in a c10d store are bytes; ours are text.
std::vector<uint8_t> storeValue(const std::string &text);
std::string storeText(const std::vector<uint8_t> &value);

// The first line of an exception's message (c10's without its backtrace).
std::string firstLine(const std::exception &e);
// Silences c10d's own logging of failed connects and binds (our errors say it once, plainly).
void quietDistributedLogging();

// A generator for global sample `sample` of training step `step`: the same draws whichever rank
// takes the sample, so N processes sample what one process does.
at::Generator sampleGenerator(uint64_t seed, long long step, long long sample);

} // namespace ps::learn
