#pragma once
// Numbers as the views show them.
#include <QString>

namespace ps {

QString formatSeconds(double s); // "12.345 ms"
QString formatBytes(double b);   // "1.22 GB" (decimal units: 1 GB = 1e9 bytes)

} // namespace ps
