#pragma once
// Writing a large JSON document indented, with some values on one line: a placement of 58k ops
// indented one number a line took 5 bytes an op (39 MB for ten steering rounds on the 58k-op
// GNMT against 11 MB on one line), and a steering log put into a session was parsed again only to
// be written out. The document holds a placeholder string where such a value goes (hold); the
// dumped text gets the value's own text in its place (fill).
#include <string>
#include <vector>

namespace ps {

class JsonSplice
{
public:
    // A string value to put where `rawJson` (the text of one JSON value) goes.
    std::string hold(std::string rawJson);
    // `dumped` (the document's text) with every placeholder replaced by its value's text.
    std::string fill(const std::string &dumped) const;

private:
    std::vector<std::string> m_texts;
};

} // namespace ps
