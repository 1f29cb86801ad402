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
    // Decimal units, as the cluster files and the Edit cluster tab give memory (16e9 bytes is
    // "16 GB"): in binary units the cards said a 16 GB GPU held "14.9 GB", labelled GB.
    const char *units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        ++u;
    }
    return QString::number(b, b < 1e6 ? 'f' : 'g', b < 10 ? 2 : b < 1e6 ? 1 : 4) + " " + units[u];
}

} // namespace ps
