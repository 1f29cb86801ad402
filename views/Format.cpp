#include "views/Format.h"

namespace ps {

QString formatSeconds(double s)
{
    if (!(s < 1e6)) // a week and more (a cluster whose links take forever): 5.61e+307 s, not 300 digits
        return QString::number(s, 'g', 4) + " s";
    if (s >= 1)
        return QString::number(s, 'f', 4) + " s";
    if (s >= 1e-3)
        return QString::number(s * 1e3, 'f', 3) + " ms";
    return QString::number(s * 1e6, 'f', 2) + " µs";
}

QString formatBytes(double b)
{
    const char *units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    return QString::number(b, b < 1e6 ? 'f' : 'g', b < 10 ? 2 : b < 1e6 ? 1 : 4) + " " + units[u];
}

} // namespace ps
