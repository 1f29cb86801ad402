#include "core/graph/ScopeTree.h"

namespace ps {

ScopeTree::ScopeTree()
{
    m_scopes.push_back(Scope{});
    m_byPath.emplace(std::string(), 0);
}

int ScopeTree::find(std::string_view path) const
{
    auto it = m_byPath.find(std::string(path));
    return it == m_byPath.end() ? -1 : it->second;
}

int ScopeTree::intern(std::string_view path)
{
    if (auto it = m_byPath.find(std::string(path)); it != m_byPath.end())
        return it->second;
    int current = 0;
    std::string prefix;
    size_t pos = 0;
    while (pos <= path.size()) {
        size_t slash = path.find('/', pos);
        if (slash == std::string_view::npos)
            slash = path.size();
        std::string_view segment = path.substr(pos, slash - pos);
        pos = slash + 1;
        if (segment.empty())
            continue;
        if (!prefix.empty())
            prefix += '/';
        prefix += segment;
        auto it = m_byPath.find(prefix);
        if (it != m_byPath.end()) {
            current = it->second;
            continue;
        }
        Scope s;
        s.name = std::string(segment);
        s.path = prefix;
        s.parent = current;
        s.depth = m_scopes[current].depth + 1;
        int index = size();
        m_scopes[current].children.push_back(index);
        m_scopes.push_back(std::move(s));
        m_byPath.emplace(prefix, index);
        current = index;
    }
    // Remember the spelling as given too ("a//b" resolves like "a/b").
    m_byPath.emplace(std::string(path), current);
    return current;
}

void ScopeTree::accumulate(const std::vector<int> &nodeScope, const std::vector<double> &flops)
{
    for (Scope &s : m_scopes) {
        s.directNodes = s.totalNodes = 0;
        s.totalFlops = 0;
    }
    for (size_t v = 0; v < nodeScope.size(); ++v) {
        m_scopes[nodeScope[v]].directNodes++;
        for (int s = nodeScope[v]; s >= 0; s = m_scopes[s].parent) {
            m_scopes[s].totalNodes++;
            m_scopes[s].totalFlops += flops[v];
        }
    }
}

} // namespace ps
