#include "views/MetricsView.h"

#include "views/DeviceColors.h"
#include "views/Format.h"

namespace ps {

MetricsView::MetricsView(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setAlignment(Qt::AlignTop | Qt::AlignLeft);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(8);
    setWordWrap(true);
}

void MetricsView::setState(const Cluster &cluster, const Schedule *s, const std::vector<int> &opCount)
{
    if (!s) {
        setText(tr("<i>Open a graph and a cluster to see metrics.</i>"));
        return;
    }
    QString html = QStringLiteral("<table cellspacing=4>");
    auto row = [&](const QString &name, const QString &value) {
        html += QStringLiteral("<tr><td>%1</td><td align=right><b>%2</b></td></tr>").arg(name, value);
    };
    row(tr("Makespan"), formatSeconds(s->makespan));
    row(tr("Lower bound"), formatSeconds(s->lowerBound.bound));
    row(tr("Ratio to bound"), QString::number(s->ratio(), 'f', 3) + "×");
    row(tr("Bytes moved"), formatBytes(s->movedBytes));
    row(tr("Transfers"), QString::number(s->transferCount));
    const std::vector<std::string> &violations = s->violations;
    const bool feasible = violations.empty();
    row(tr("Feasible"),
        feasible ? tr("<span style='color:#2a7a2a'>yes</span>") : tr("<span style='color:#c00'>no</span>"));
    html += "</table>";
    if (!feasible) {
        html += QStringLiteral("<p style='color:#c00'>");
        for (const std::string &v : violations) {
            QString text = QString::fromStdString(v).toHtmlEscaped();
            const size_t colon = v.find(':');
            const std::string kind = v.substr(0, colon), what = colon == std::string::npos ? "" : v.substr(colon + 1);
            if (kind == "memory") {
                const int d = cluster.findDevice(what);
                if (d >= 0 && d < static_cast<int>(s->memory.size()))
                    text = tr("%1 holds %2 of %3 (over by %4)")
                               .arg(QString::fromStdString(what).toHtmlEscaped(), formatBytes(s->memory[d]),
                                    formatBytes(cluster.device(d).memoryBytes),
                                    formatBytes(s->memory[d] - cluster.device(d).memoryBytes));
            } else if (kind == "pin") {
                text = tr("%1 is not on its pinned device").arg(QString::fromStdString(what).toHtmlEscaped());
            } else if (kind == "colocate") {
                text = tr("colocation group %1 is split").arg(QString::fromStdString(what).toHtmlEscaped());
            }
            html += "• " + text + "<br>";
        }
        html += "</p>";
    }
    html += tr("<p><b>Balance</b></p><table cellspacing=3><tr><th></th><th>busy</th><th>memory</th><th>ops</th></tr>");
    for (int d = 0; d < cluster.deviceCount(); ++d) {
        const double busy = s->makespan > 0 && d < static_cast<int>(s->busy.size()) ? s->busy[d] / s->makespan : 0;
        const double mem = d < static_cast<int>(s->memory.size()) ? s->memory[d] : 0;
        const bool over = mem > cluster.device(d).memoryBytes;
        html += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2</td><td align=right>%3%</td>"
                               "<td align=right%4>%5</td><td align=right>%6</td></tr>")
                    .arg(deviceQColor(d).name(), QString::fromStdString(cluster.device(d).name).toHtmlEscaped())
                    .arg(busy * 100, 0, 'f', 1)
                    .arg(over ? " style='color:#c00'" : "")
                    .arg(formatBytes(mem))
                    .arg(d < static_cast<int>(opCount.size()) ? opCount[d] : 0);
    }
    html += "</table>";
    setText(html);
}

} // namespace ps
