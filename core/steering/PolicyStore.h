#pragma once
// Where a steering session's learned candidates keep their trained policies, so that a later
// candidate of the same arm continues a policy (`checkpoint=`) instead of training a fresh one:
// a learned arm's budget then grows across rounds as one run's would. A private temporary
// directory made on first use and removed with the store, or one borrowed from the steer process
// (a worker process on the same machine; elsewhere the path is absent and each run starts fresh).
// The private directory's name carries the process id; making one removes those of processes that
// no longer run (a session killed before it could clean up).
#include <cstdint>
#include <mutex>
#include <string>

namespace ps {

class PolicyStore
{
public:
    PolicyStore() = default;
    ~PolicyStore();
    PolicyStore(const PolicyStore &) = delete;
    PolicyStore &operator=(const PolicyStore &) = delete;

    // Uses `dir` (not removed here) where it is a directory; otherwise a private one as usual.
    void borrow(const std::string &dir);
    // The directory, made on first use; empty when none can be made (runs then start fresh).
    std::string dir() const;
    // The policy file of the candidate with this seed; empty without a directory.
    std::string path(uint64_t candidateSeed) const;
    static bool exists(const std::string &path);

private:
    mutable std::mutex m_lock;
    mutable std::string m_dir;
    mutable bool m_made = false; // m_dir is this store's to remove
};

} // namespace ps
