#include "app/cli/ProgressBar.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <unistd.h>

namespace ps::cli {

ProgressBar::ProgressBar(std::ostream &stream, std::string label)
    : m_stream(stream), m_label(std::move(label)), m_enabled(::isatty(STDERR_FILENO) == 1),
      m_start(std::chrono::steady_clock::now()), m_last(m_start)
{}

void ProgressBar::update(double fraction, const std::string &message)
{
    if (!m_enabled)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_start < std::chrono::seconds(1) || now - m_last < std::chrono::milliseconds(100))
        return;
    m_last = now;
    const int width = 30, filled = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * width);
    char line[256];
    std::snprintf(line, sizeof line, "\r%s [%s%s] %3d%% %.40s", m_label.c_str(), std::string(filled, '#').c_str(),
                  std::string(width - filled, '.').c_str(), static_cast<int>(fraction * 100), message.c_str());
    m_stream << line << std::flush;
    m_drawn = true;
}

void ProgressBar::finish()
{
    if (m_drawn)
        m_stream << "\r\033[K" << std::flush;
    m_drawn = false;
}

} // namespace ps::cli
