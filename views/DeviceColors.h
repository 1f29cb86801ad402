#pragma once
// One colour per device, the same in every view and in DOT exports (core's palette).
#include <QColor>

namespace ps {

QColor deviceQColor(int device);
QColor unplacedColor();

} // namespace ps
