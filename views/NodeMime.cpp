#include "views/NodeMime.h"

#include <QDataStream>
#include <QIODevice>

namespace ps {

QMimeData *makeNodeMime(const std::vector<int> &nodes)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << static_cast<qint32>(nodes.size());
    for (int v : nodes)
        out << static_cast<qint32>(v);
    auto *mime = new QMimeData;
    mime->setData(kNodeMimeType, bytes);
    return mime;
}

std::vector<int> nodesFromMime(const QMimeData *mime)
{
    std::vector<int> nodes;
    if (!mime || !mime->hasFormat(kNodeMimeType))
        return nodes;
    QDataStream in(mime->data(kNodeMimeType));
    qint32 n = 0;
    in >> n;
    for (qint32 i = 0; i < n && !in.atEnd(); ++i) {
        qint32 v;
        in >> v;
        nodes.push_back(v);
    }
    return nodes;
}

} // namespace ps
