#include "core/graph/Graph.h"

#include <algorithm>

namespace ps {

int Graph::findNode(std::string_view id) const
{
    auto it = m_index.find(std::string(id));
    return it == m_index.end() ? -1 : it->second;
}

Span<Graph::ComputeOverride> Graph::computeOverrides(int v) const
{
    if (m_compute.empty())
        return {};
    const ComputeOverride *base = m_compute.data();
    return {base + m_computeOff[v], base + m_computeOff[v + 1]};
}

int Graph::findDeviceType(std::string_view type) const
{
    auto it = std::find(m_typeNames.begin(), m_typeNames.end(), type);
    return it == m_typeNames.end() ? -1 : static_cast<int>(it - m_typeNames.begin());
}

} // namespace ps
