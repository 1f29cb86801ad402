#include "app/Exporter.h"

#include "app/Document.h"
#include "core/InputError.h"
#include "core/io/ClusterJson.h"
#include "core/io/FileKind.h"
#include "core/io/GraphJson.h"
#include "core/io/JsonText.h"
#include "core/io/OrderedObject.h"
#include "core/io/PlacementCsv.h"
#include "core/io/PlacementJson.h"
#include "core/placement/Constraints.h"
#include "core/placement/Placement.h"
#include "core/sim/Simulator.h"
#include "views/Format.h"

#include <QBuffer>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace ps {

namespace {

void requireReady(const QString &path, const Document &d)
{
    if (!d.ready())
        throw InputError(path.toStdString() + ": open a graph and a cluster first");
}

void writeText(const QString &path, const std::string &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit())
        throw InputError(path.toStdString() + ": cannot write: " + file.errorString().toStdString());
}

// A scope as a PyTorch module path: "encoder/layer0" -> "encoder.layer0".
std::string modulePath(std::string scope)
{
    std::replace(scope.begin(), scope.end(), '/', '.');
    return scope;
}

PlacementDoc docOf(const Document &d)
{
    Placement p(d.placement());
    p.producerModel = d.producer.toStdString();
    return toDoc(p, *d.graph(), d.cluster());
}

// A device's kind in a framework, from its type: PyTorch's device types ("cpu", "cuda", "xla" for
// a TPU, else the type as written: "npu", "xpu", "mps"); TensorFlow's ("CPU", "GPU", else the type
// in capitals: "TPU", "NPU"). An NPU was written as the next CUDA device.
enum class Framework { Torch, TensorFlow };
std::string kindIn(Framework framework, std::string type)
{
    std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
    if (type == "gpu")
        type = "cuda";
    if (framework == Framework::Torch)
        return type == "tpu" ? "xla" : type;
    if (type == "cuda")
        type = "gpu";
    std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::toupper(c); });
    return type;
}

// "kind:N": N counts the devices of the same kind before it; a CPU is PyTorch's "cpu" alone.
QString deviceName(const Document &d, int device, Framework framework)
{
    const std::string kind = kindIn(framework, d.cluster().device(device).type);
    int n = 0;
    for (int i = 0; i < device; ++i)
        n += kindIn(framework, d.cluster().device(i).type) == kind;
    const QString name = QString::fromStdString(kind);
    if (framework == Framework::Torch)
        return kind == "cpu" ? name : QStringLiteral("%1:%2").arg(name).arg(n);
    return QStringLiteral("/device:%1:%2").arg(name).arg(n);
}

} // namespace

void exportPlacementJson(const QString &path, const Document &d)
{
    requireReady(path, d);
    writePlacementJson(path.toStdString(), docOf(d));
}

void exportGraphJson(const QString &path, const Document &d)
{
    if (!d.graph())
        throw InputError(path.toStdString() + ": open a graph first");
    writeText(path, graphToJson(*d.graph()));
}

void exportClusterJson(const QString &path, const Document &d)
{
    if (d.cluster().deviceCount() == 0)
        throw InputError(path.toStdString() + ": open a cluster first");
    writeText(path, clusterToJson(d.cluster()));
}

QString withExtension(const QString &path, const QString &extension)
{
    const QString last = extension.mid(extension.lastIndexOf('.'));
    if (path.isEmpty() || path.endsWith(extension, Qt::CaseInsensitive) || path.endsWith(last, Qt::CaseInsensitive))
        return path;
    return path + extension;
}

void exportPlacementCsv(const QString &path, const Document &d)
{
    requireReady(path, d);
    writePlacementCsv(path.toStdString(), docOf(d));
}

void exportPlacementDot(const QString &path, const Document &d)
{
    requireReady(path, d);
    const Placement p(d.placement());
    saveGraph(path.toStdString(), *d.graph(), &d.cluster(), &p);
}

void exportTimelineCsv(const QString &path, const Document &d)
{
    requireReady(path, d);
    if (!d.schedule())
        throw InputError(path.toStdString() +
                         ": this placement cannot be simulated (see the Log), so it has no timeline");
    const Schedule &s = *d.schedule();
    const Graph &g = *d.graph();
    std::string out = "kind,name,device,start_s,end_s,bytes\n";
    char buf[128];
    auto quoted = [](const std::string &text) {
        std::string q = "\"";
        for (char c : text)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    for (int v = 0; v < g.nodeCount(); ++v) {
        std::snprintf(buf, sizeof buf, ",%.17g,%.17g,%.17g\n", s.start[v], s.finish[v], g.outBytes(v));
        out += "op," + quoted(g.id(v)) + "," + quoted(d.cluster().device(d.placement()[v]).name) + buf;
    }
    for (const Transfer &t : s.transfers) {
        std::snprintf(buf, sizeof buf, ",%.17g,%.17g,%.17g\n", t.start, t.end, t.bytes);
        out += "transfer," + quoted(g.id(t.producer)) + "," +
               quoted(d.cluster().device(t.src).name + "->" + d.cluster().device(t.dst).name) + buf;
    }
    writeText(path, out);
}

QString torchDeviceName(const Document &d, int device)
{
    return deviceName(d, device, Framework::Torch);
}

QString tensorFlowDeviceName(const Document &d, int device)
{
    return deviceName(d, device, Framework::TensorFlow);
}

namespace {

// Each module path (scope, dotted) goes to the device that runs most of its ops; ops without a
// scope are listed under "" as accelerate's device_map does for the root.
std::map<std::string, int> deviceOfModule(const Document &d)
{
    const Graph &g = *d.graph();
    std::map<std::string, std::map<int, int>> votes;
    for (int v = 0; v < g.nodeCount(); ++v)
        ++votes[modulePath(g.scope(v))][d.placement()[v]];
    std::map<std::string, int> devices;
    for (const auto &[module, count] : votes) {
        int best = count.begin()->first;
        for (const auto &[device, n] : count)
            if (n > count.at(best))
                best = device;
        devices[module] = best;
    }
    return devices;
}

} // namespace

void exportTorchDeviceMap(const QString &path, const Document &d)
{
    requireReady(path, d);
    nlohmann::ordered_json map = nlohmann::ordered_json::object();
    for (const auto &[module, device] : deviceOfModule(d))
        map[module] = torchDeviceName(d, device).toStdString();
    writeText(path, jsonText(map, 2) + "\n");
}

QString torchDeviceMapNote(const Document &d)
{
    if (!d.ready())
        return {};
    const Graph &g = *d.graph();
    const std::map<std::string, int> module = deviceOfModule(d);
    std::vector<int> followed(static_cast<size_t>(g.nodeCount()));
    int moved = 0;
    for (int v = 0; v < g.nodeCount(); ++v) {
        followed[v] = module.at(modulePath(g.scope(v)));
        moved += followed[v] != d.placement()[v];
    }
    if (moved == 0)
        return QObject::tr("The device_map keeps every op where the placement has it");
    Simulator simulator(g, d.cluster());
    const Schedule schedule = simulator.simulate(followed);
    const std::vector<char> flagged = violatingNodes(d.cluster(), d.constraints(), followed, schedule.memory);
    const int broken = static_cast<int>(std::count(flagged.begin(), flagged.end(), 1));
    QString note = QObject::tr("The device_map places whole modules: %1 of %2 ops go to another device than the "
                               "placement's, and it runs %3 where the placement runs %4")
                       .arg(moved)
                       .arg(g.nodeCount())
                       .arg(formatSeconds(schedule.makespan),
                            d.schedule() ? formatSeconds(d.schedule()->makespan) : QObject::tr("(not simulated)"));
    if (broken > 0)
        note += QObject::tr("; %n op(s) break a pin, a colocation or a device's memory there", nullptr, broken);
    return note;
}

void exportTensorFlowDevices(const QString &path, const Document &d)
{
    requireReady(path, d);
    const Graph &g = *d.graph();
    std::vector<std::string> names;
    for (int k = 0; k < d.cluster().deviceCount(); ++k)
        names.push_back(tensorFlowDeviceName(d, k).toStdString());
    OrderedMembers map;
    map.reserve(static_cast<size_t>(g.nodeCount()));
    for (int v = 0; v < g.nodeCount(); ++v)
        map.emplace_back(g.id(v), names[static_cast<size_t>(d.placement()[v])]);
    writeText(path, jsonText(orderedObject(std::move(map)), 1) + "\n");
}

void exportWidgetImage(const QString &path, QWidget *widget)
{
    if (path.endsWith(".svg", Qt::CaseInsensitive)) {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(widget->size());
        svg.setViewBox(widget->rect());
        svg.setTitle(widget->windowTitle());
        QPainter painter(&svg);
        widget->render(&painter);
        painter.end();
        writeText(path, bytes.toStdString());
        return;
    }
    if (!path.endsWith(".png", Qt::CaseInsensitive))
        throw InputError(path.toStdString() + ": images are written as .png or .svg");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !widget->grab().save(&file, "PNG") || !file.commit())
        throw InputError(path.toStdString() + ": cannot write the image");
}

} // namespace ps
