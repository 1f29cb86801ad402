#include "views/DeviceColors.h"

#include "core/io/DotFormat.h"

namespace ps {

QColor deviceQColor(int device)
{
    if (device < 0)
        return unplacedColor();
    return QColor(QString::fromStdString(deviceColor(device)));
}

QColor unplacedColor()
{
    return QColor(200, 200, 200);
}

} // namespace ps
