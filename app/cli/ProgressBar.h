#pragma once
// A progress bar on stderr for work slower than a second, drawn only when stderr is a
// terminal, at most 10 times a second.
#include <chrono>
#include <iosfwd>
#include <string>

namespace ps::cli {

class ProgressBar
{
public:
    ProgressBar(std::ostream &stream, std::string label);
    void update(double fraction, const std::string &message);
    void finish();

private:
    std::ostream &m_stream;
    std::string m_label;
    bool m_enabled;
    bool m_drawn = false;
    std::chrono::steady_clock::time_point m_start, m_last;
};

} // namespace ps::cli
