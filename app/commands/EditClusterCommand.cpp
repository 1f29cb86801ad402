#include "app/commands/EditClusterCommand.h"

#include <QObject>

#include <algorithm>

namespace ps {

namespace {
QString name(const std::string &s)
{
    return QString::fromStdString(s);
}

QString number(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace

QString describeClusterEdit(const Cluster &a, const Cluster &b)
{
    const int n = std::min(a.deviceCount(), b.deviceCount());
    if (a.deviceCount() != b.deviceCount()) {
        const Cluster &more = a.deviceCount() > b.deviceCount() ? a : b, &less = &more == &a ? b : a;
        std::string which = more.device(more.deviceCount() - 1).name;
        for (int d = 0; d < more.deviceCount(); ++d)
            if (less.findDevice(more.device(d).name) < 0) {
                which = more.device(d).name;
                break;
            }
        return (&more == &b ? QObject::tr("Add device %1") : QObject::tr("Remove device %1")).arg(name(which));
    }
    for (int d = 0; d < n; ++d) {
        const Device &x = a.device(d), &y = b.device(d);
        const QString who = name(x.name);
        if (x.name != y.name)
            return QObject::tr("Rename %1 to %2").arg(who, name(y.name));
        if (x.type != y.type)
            return QObject::tr("%1: type %2 to %3").arg(who, name(x.type), name(y.type));
        if (x.flopsPerS != y.flopsPerS)
            return QObject::tr("%1: %2 to %3 TFLOP/s").arg(who, number(x.flopsPerS / 1e12), number(y.flopsPerS / 1e12));
        if (x.memoryBytes != y.memoryBytes)
            return QObject::tr("%1: memory %2 to %3 GB")
                .arg(who, number(x.memoryBytes / 1e9), number(y.memoryBytes / 1e9));
        if (x.opOverheadS != y.opOverheadS)
            return QObject::tr("%1: overhead %2 to %3 µs")
                .arg(who, number(x.opOverheadS * 1e6), number(y.opOverheadS * 1e6));
    }
    const auto &la = a.explicitLinks(), &lb = b.explicitLinks();
    if (la.size() != lb.size())
        return la.size() < lb.size() ? QObject::tr("Add link") : QObject::tr("Remove link");
    for (size_t i = 0; i < la.size(); ++i) {
        const auto &x = la[i], &y = lb[i];
        if (x.src != y.src || x.dst != y.dst || x.bidirectional != y.bidirectional ||
            x.link.bandwidthBytesPerS != y.link.bandwidthBytesPerS || x.link.latencyS != y.link.latencyS)
            return QObject::tr("Edit link %1–%2").arg(name(b.device(y.src).name), name(b.device(y.dst).name));
    }
    if (a.defaultLink().has_value() != b.defaultLink().has_value() ||
        (b.defaultLink() && (a.defaultLink()->bandwidthBytesPerS != b.defaultLink()->bandwidthBytesPerS ||
                             a.defaultLink()->latencyS != b.defaultLink()->latencyS)))
        return QObject::tr("Edit the default link");
    return QObject::tr("Edit cluster");
}

EditClusterCommand::EditClusterCommand(Document *document, ClusterState before, ClusterState after, const QString &text)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)), m_after(std::move(after))
{}

void EditClusterCommand::undo()
{
    m_document->replaceCluster(m_before);
}
void EditClusterCommand::redo()
{
    m_document->replaceCluster(m_after);
}

} // namespace ps
