#include "views/ToolTip.h"

#include <QHelpEvent>
#include <QToolTip>

namespace ps {

void answerToolTip(const QHelpEvent &help, const QString &text, QWidget *widget)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help.globalPos(), text, widget);
}

} // namespace ps
