#pragma once
// The tree of '/'-separated name scopes of a graph's nodes, used to group and collapse in views.
// Index 0 is the root (the empty scope); every other entry is one path segment.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class ScopeTree
{
public:
    struct Scope
    {
        std::string name; // the last segment, e.g. "conv1"
        std::string path; // the full path, e.g. "stem/conv1"
        int parent = -1;
        int depth = 0;
        std::vector<int> children;
        int directNodes = 0;   // graph nodes whose scope is exactly this one
        int totalNodes = 0;    // ... in this scope or below
        double totalFlops = 0; // summed in node file order
    };

    ScopeTree();

    // Returns the index of the scope with this path, creating it (and its ancestors) if needed.
    // Empty segments ("a//b", leading or trailing '/') are skipped.
    int intern(std::string_view path);
    int find(std::string_view path) const;

    const Scope &scope(int index) const { return m_scopes[index]; }
    int size() const { return static_cast<int>(m_scopes.size()); }
    // Number of scopes other than the root.
    int scopeCount() const { return size() - 1; }

    // Fills directNodes/totalNodes/totalFlops from the nodes' scopes (called by GraphBuilder).
    void accumulate(const std::vector<int> &nodeScope, const std::vector<double> &flops);

private:
    std::vector<Scope> m_scopes;
    std::unordered_map<std::string, int> m_byPath;
};

} // namespace ps
