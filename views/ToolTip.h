#pragma once
// A view's answer to a tooltip event: its text for the place under the pointer, shown, or any
// tooltip hidden where there is none.
#include <QString>

class QHelpEvent;
class QWidget;

namespace ps {

void answerToolTip(const QHelpEvent &help, const QString &text, QWidget *widget);

} // namespace ps
