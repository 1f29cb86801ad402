#include "models/StartRace.h"

#include <algorithm>
#include <limits>

namespace ps {

StartRace::StartRace(size_t starts, double share, double began, int restartAfter, int stallAfter)
    : m_starts(starts), m_current(starts > 1 ? 0 : starts), m_share(share),
      m_part(share / static_cast<double>(std::max<size_t>(1, starts))), m_began(began), m_partFrom(began),
      m_restartAfter(restartAfter), m_stallAfter(stallAfter), m_bestReward(-std::numeric_limits<double>::infinity())
{}

StartRace::Next StartRace::after(double batchBest, bool oneMakespan, double progress,
                                 const std::function<bool(bool)> &agree)
{
    m_collapsed = oneMakespan ? m_collapsed + 1 : 0;
    m_stalled = batchBest > m_bestReward ? 0 : m_stalled + 1;
    m_bestReward = std::max(m_bestReward, batchBest);
    const bool restart =
        (m_restartAfter > 0 && m_collapsed >= m_restartAfter) || (m_stallAfter > 0 && m_stalled >= m_stallAfter);
    const bool partOver = ++m_partIterations >= 2 && progress - m_partFrom >= m_part;
    if (racing() && agree(progress < 1 && (restart || partOver))) {
        m_partIterations = 0;
        m_collapsed = m_stalled = 0;
        m_bestReward = -std::numeric_limits<double>::infinity();
        if (agree(progress - m_began >= m_share))
            m_current = m_starts - 1;
        if (++m_current < m_starts) {
            ++m_raced;
            return Next::NextStart;
        }
        return Next::Incumbent;
    }
    if (!restart)
        return Next::Go;
    m_collapsed = m_stalled = 0;
    ++m_restarts;
    return Next::Restart;
}

} // namespace ps
