#pragma once
// When gdp's search moves on: its race over the fast placers' starts, and its restarts. After each
// iteration the schedule says whether the policy goes on, starts again from the incumbent, moves to
// the next racing start, or (the race over) goes on from the best placement any start found.
// Plain logic, apart from the network: the caller restarts the policy and moves the prior.
//
// A racing start's part ends with a restart, or with its share of the budget once it had two
// iterations (one to sample, one to learn from); the race ends with its share, starts not reached
// yet left out, or with the run. A restart is due when `restartAfter` iterations in a row sampled
// one placement (the policy collapsed), or `stallAfter` found nothing better than the best before
// them (0: never). Decisions that every rank of a data-parallel run must take alike go through
// `agree` (true when it is true on some rank), in the same order on every rank.
#include <cstddef>
#include <functional>

namespace ps {

class StartRace
{
public:
    enum class Next {
        Go,        // the same policy goes on
        Restart,   // the policy starts again, anchored at the incumbent
        NextStart, // the policy starts again at the racing start current() names
        Incumbent, // the race is over: the policy starts again at the best placement found
    };

    // starts: the racing starts, the given one first (1: no race); share: the race's share of the
    // budget, split equally between the starts; began: the run's progress (0..1) when it began.
    StartRace(size_t starts, double share, double began, int restartAfter, int stallAfter);

    // After an iteration: the best reward of its batch, whether every sample was one placement,
    // and the run's progress after it.
    Next after(double batchBest, bool oneMakespan, double progress, const std::function<bool(bool)> &agree);
    // After NextStart, once the start was judged: where its part begins.
    void startBegan(double progress) { m_partFrom = progress; }

    bool racing() const { return m_current < m_starts; }
    size_t current() const { return m_current; }
    int raced() const { return m_raced; }
    int restarts() const { return m_restarts; }

private:
    size_t m_starts, m_current;
    double m_share, m_part, m_began, m_partFrom;
    int m_restartAfter, m_stallAfter;
    int m_collapsed = 0, m_stalled = 0, m_partIterations = 0, m_raced = 0, m_restarts = 0;
    double m_bestReward; // the best batch reward since this start (or since the race ended)
};

} // namespace ps
