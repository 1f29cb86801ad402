#include "core/io/JsonSplice.h"

#include <cstring>

namespace ps {

namespace {
// A placeholder is "\x01" and its index: as JSON text, "\u0001" then the digits, quoted. No
// other string in our documents holds a control character, and a dumped one would read "\u0001".
constexpr char kMark = '\x01';
constexpr const char *kDumpedMark = "\"\\u0001";
} // namespace

std::string JsonSplice::hold(std::string rawJson)
{
    m_texts.push_back(std::move(rawJson));
    return kMark + std::to_string(m_texts.size() - 1);
}

std::string JsonSplice::fill(const std::string &dumped) const
{
    if (m_texts.empty())
        return dumped;
    std::string out;
    size_t size = dumped.size();
    for (const std::string &t : m_texts)
        size += t.size();
    out.reserve(size);
    const size_t markLength = std::strlen(kDumpedMark);
    size_t from = 0;
    for (size_t at = dumped.find(kDumpedMark); at != std::string::npos; at = dumped.find(kDumpedMark, from)) {
        size_t end = at + markLength, index = 0;
        bool digits = false;
        while (end < dumped.size() && dumped[end] >= '0' && dumped[end] <= '9') {
            index = index * 10 + static_cast<size_t>(dumped[end++] - '0');
            digits = true;
        }
        if (!digits || end >= dumped.size() || dumped[end] != '"' || index >= m_texts.size()) {
            out.append(dumped, from, end - from); // not a placeholder: kept as it is
            from = end;
            continue;
        }
        out.append(dumped, from, at - from);
        out += m_texts[index];
        from = end + 1;
    }
    out.append(dumped, from, std::string::npos);
    return out;
}

} // namespace ps
