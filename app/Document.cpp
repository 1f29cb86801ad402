#include "app/Document.h"

#include "app/commands/AssignNodesCommand.h"
#include "app/commands/EditClusterCommand.h"
#include "app/commands/PinNodesCommand.h"
#include "app/commands/ProducerCommand.h"
#include "core/InputError.h"
#include "core/placers/PlacerRegistry.h"
#include "core/sim/Simulator.h"

#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <numeric>

namespace ps {

namespace {
// Where each device of `names` (a cluster's, before a change) is in `now`: -1 where none has its name.
std::vector<int> devicesNamedIn(const std::vector<std::string> &names, const Cluster &now)
{
    std::vector<int> to(names.size());
    for (size_t d = 0; d < names.size(); ++d)
        to[d] = now.findDevice(names[d]);
    return to;
}

// Device `d` (-1: none) after the change `moved` maps: -1 where it is gone.
int movedTo(const std::vector<int> &moved, int d)
{
    return d >= 0 && d < static_cast<int>(moved.size()) ? moved[static_cast<size_t>(d)] : -1;
}
} // namespace

Document::Document(QObject *parent) : QObject(parent) {}
Document::~Document() = default;

std::vector<std::string> Document::deviceNames() const
{
    return m_cluster->deviceNames();
}

std::vector<int> Document::initialPlacement(QString *made, QString *why) const
{
    if (!ready())
        return std::vector<int>(m_graph ? m_graph->nodeCount() : 0, 0);
    const Constraints c = constraints();
    try {
        PlacerResult r = openingPlacement({*m_graph, *m_cluster, c, {}});
        if (made)
            *made = QString::fromStdString(r.spec);
        return r.placement.devices();
    } catch (const InputError &e) {
        if (made)
            made->clear();
        if (why)
            *why = QString::fromUtf8(e.what());
        return std::vector<int>(m_graph->nodeCount(), 0);
    }
}

void Document::setGraph(std::shared_ptr<const Graph> graph, const QString &path,
                        std::shared_ptr<const PlacerResult> initial)
{
    m_graph = std::move(graph);
    graphPath = path;
    unplaced.clear();
    m_pins.assign(m_graph ? m_graph->nodeCount() : 0, -1);
    m_undo.clear();
    m_clusterUndoable = false;
    rebuildSimulator();
    const auto fits = [&] {
        const std::vector<int> &d = initial->placement.devices();
        return static_cast<int>(d.size()) == m_graph->nodeCount() &&
               std::all_of(d.begin(), d.end(), [&](int x) { return x >= 0 && x < m_cluster->deviceCount(); });
    };
    if (initial && ready() && fits()) {
        m_placement = initial->placement.devices();
        producer = QString::fromStdString(initial->spec);
    } else {
        m_placement = initialPlacement(&producer, &unplaced);
    }
    Q_EMIT graphChanged();
    resimulate();
}

QString Document::openingText(const QString &path, const Cluster &cluster)
{
    if (!path.isEmpty())
        return tr("Open cluster %1").arg(QFileInfo(path).fileName());
    return cluster.name().empty() ? tr("Open cluster preset")
                                  : tr("Open cluster preset %1").arg(QString::fromStdString(cluster.name()));
}

void Document::setCluster(const Cluster &cluster, const QString &path, const std::vector<int> *fresh)
{
    setCluster(std::make_shared<const Cluster>(cluster), path, fresh);
}

void Document::setCluster(std::shared_ptr<const Cluster> cluster, const QString &path, const std::vector<int> *fresh)
{
    if (ready() && !m_placement.empty()) {
        // With a graph placed, one undo step (the placement, the pins and the steering session of
        // the cluster it replaces come back on undo; they were gone for good). Each op stays on
        // the device of the same name; ops whose device is gone are placed anew.
        std::vector<int> placed;
        if (fresh && static_cast<int>(fresh->size()) == m_graph->nodeCount()) {
            placed = *fresh; // (the app places off the GUI thread)
        } else {
            // (initialPlacement places on m_cluster; it needs no simulator)
            const std::shared_ptr<const Cluster> before = std::exchange(m_cluster, cluster);
            placed = initialPlacement();
            m_cluster = before;
        }
        const std::vector<int> moved = devicesNamedIn(deviceNames(), *cluster);
        ClusterState after{cluster, m_placement, m_pins, path};
        for (size_t v = 0; v < after.placement.size(); ++v) {
            const int d = movedTo(moved, after.placement[v]);
            after.placement[v] = d >= 0 ? d : placed[v];
        }
        for (int &p : after.pins)
            p = movedTo(moved, p);
        m_undo.push(new EditClusterCommand(this, {m_cluster, m_placement, m_pins, clusterPath}, std::move(after),
                                           openingText(path, *cluster)));
        return;
    }
    if (!m_graph && m_cluster->deviceCount() > 0) { // the cluster it replaces may hold the table's edits
        const QString text = openingText(path, *cluster);
        m_undo.push(
            new EditClusterCommand(this, {m_cluster, {}, {}, clusterPath}, {std::move(cluster), {}, {}, path}, text));
        return;
    }
    m_cluster = std::move(cluster);
    clusterPath = path;
    m_undo.clear();
    m_clusterUndoable = false;
    rebuildSimulator();
    if (m_graph)
        m_placement = fresh && static_cast<int>(fresh->size()) == m_graph->nodeCount() ? *fresh : initialPlacement();
    Q_EMIT clusterChanged();
    resimulate();
}

void Document::restore(std::shared_ptr<const Graph> graph, const Cluster &cluster, std::vector<int> placement,
                       std::vector<int> pins)
{
    m_graph = std::move(graph);
    m_cluster = std::make_shared<const Cluster>(cluster);
    m_placement = std::move(placement);
    m_pins = std::move(pins);
    m_undo.clear();
    m_clusterUndoable = false;
    rebuildSimulator();
    Q_EMIT graphChanged();
    Q_EMIT clusterChanged();
    resimulate();
}

void Document::rebuildSimulator()
{
    m_simulator.reset();
    m_schedule.reset();
    if (ready())
        m_simulator = std::make_unique<Simulator>(*m_graph, *m_cluster);
}

void Document::resimulate()
{
    m_simulationError.clear();
    if (m_simulator && static_cast<int>(m_placement.size()) == m_graph->nodeCount()) {
        QElapsedTimer timer;
        timer.start();
        std::shared_ptr<Schedule> schedule;
        try {
            schedule = std::make_shared<Schedule>(m_simulator->simulate(m_placement));
        } catch (const InputError &e) { // costs beyond a double (spec section 5): no schedule to show
            m_schedule.reset();
            m_simulationError = tr("This placement cannot be simulated: %1").arg(QString::fromStdString(e.what()));
            Q_EMIT message(m_simulationError);
            Q_EMIT placementChanged();
            return;
        }
        // The person's pins are constraints like the graph's: the core reports both.
        schedule->violations = constraintViolations(*m_graph, *m_cluster, constraints(), m_placement, schedule->memory);
        schedule->feasible = schedule->violations.empty();
        m_schedule = std::move(schedule);
        m_simulationMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    } else {
        m_schedule.reset();
    }
    Q_EMIT placementChanged();
}

void Document::assign(const std::vector<int> &nodes, int device)
{
    if (!ready() || device < 0 || device >= m_cluster->deviceCount())
        return;
    std::vector<int> changed;
    for (int v : nodes)
        if (v >= 0 && v < m_graph->nodeCount() && m_placement[v] != device)
            changed.push_back(v);
    if (changed.empty())
        return;
    pushPlacement(changed, std::vector<int>(changed.size(), device), QStringLiteral("manual"),
                  tr("Move %n op(s) to %1", nullptr, static_cast<int>(changed.size()))
                      .arg(QString::fromStdString(m_cluster->device(device).name)));
}

void Document::pushPlacement(const std::vector<int> &nodes, const std::vector<int> &devices, const QString &made,
                             const QString &text)
{
    if (nodes.empty() && producer == made)
        return;
    m_undo.beginMacro(text); // one step: the devices and their provenance
    if (!nodes.empty())
        m_undo.push(new AssignNodesCommand(this, nodes, devices, text));
    if (producer != made)
        m_undo.push(new ProducerCommand(this, made));
    m_undo.endMacro();
}

void Document::applyPlacement(const std::vector<int> &devices, const QString &what)
{
    if (!ready() || static_cast<int>(devices.size()) != m_graph->nodeCount())
        return;
    std::vector<int> nodes, to;
    for (int v = 0; v < m_graph->nodeCount(); ++v)
        if (devices[v] != m_placement[v]) {
            nodes.push_back(v);
            to.push_back(devices[v]);
        }
    pushPlacement(nodes, to, what, tr("Apply %1").arg(what));
}

void Document::setPinned(const std::vector<int> &nodes, bool pinned)
{
    if (!ready() || nodes.empty())
        return;
    std::vector<int> pins;
    for (int v : nodes)
        pins.push_back(pinned ? m_placement[v] : -1);
    if (pinned) { // pins that contradict a colocation group are refused, not run into by every model
        Constraints tentative = constraints();
        for (size_t i = 0; i < nodes.size(); ++i)
            tentative.pin(nodes[i], pins[i]);
        if (const std::string why = tentative.contradiction(*m_graph, *m_cluster); !why.empty()) {
            Q_EMIT message(tr("Not pinned: %1").arg(QString::fromStdString(why)));
            return;
        }
    }
    m_undo.push(new PinNodesCommand(this, nodes, pins,
                                    pinned ? tr("Pin %n op(s)", nullptr, static_cast<int>(nodes.size()))
                                           : tr("Unpin %n op(s)", nullptr, static_cast<int>(nodes.size()))));
}

void Document::editCluster(std::shared_ptr<const Cluster> cluster)
{
    if (!m_graph) { // one undo step, as with a graph (there was no undo before one was open)
        const QString text = describeClusterEdit(*m_cluster, *cluster);
        m_undo.push(new EditClusterCommand(this, {m_cluster, {}, {}, clusterPath},
                                           {std::move(cluster), {}, {}, clusterPath}, text));
        return;
    }
    // The table edits in place, appends or removes: with as many devices as before, each kept its
    // position (a rename too); otherwise each is found by its name. Ops on a device that is gone
    // go to the fastest remaining device, its pins are dropped.
    std::vector<int> moved(m_cluster->deviceCount());
    if (cluster->deviceCount() == m_cluster->deviceCount())
        std::iota(moved.begin(), moved.end(), 0);
    else
        moved = devicesNamedIn(m_cluster->deviceNames(), *cluster);
    const auto follow = [&](std::vector<int> devices, int gone, int &lost) {
        for (int &d : devices)
            if (d >= 0) {
                const int to = movedTo(moved, d);
                d = to >= 0 ? to : gone;
                lost += to < 0;
            }
        return devices;
    };
    const int fastest = cluster->devicesBySpeed().empty() ? 0 : cluster->devicesBySpeed().front();
    int rehomed = 0, unpinned = 0;
    ClusterState after{cluster, follow(m_placement, fastest, rehomed), follow(m_pins, -1, unpinned), clusterPath};
    // What went with a removed device, said in the History dock (a dropped pin was said nowhere).
    QString what;
    if (rehomed > 0)
        what += tr("%n op(s) to %1", nullptr, rehomed).arg(QString::fromStdString(cluster->device(fastest).name));
    if (unpinned > 0)
        what += (what.isEmpty() ? QString() : QStringLiteral(", ")) + tr("%n pin(s) dropped", nullptr, unpinned);
    const QString text =
        describeClusterEdit(*m_cluster, *cluster) + (what.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(what));
    m_undo.push(new EditClusterCommand(this, {m_cluster, m_placement, m_pins, clusterPath}, std::move(after), text));
}

void Document::setDevices(const std::vector<int> &nodes, const std::vector<int> &devices)
{
    for (size_t i = 0; i < nodes.size(); ++i)
        m_placement[nodes[i]] = devices[i];
    resimulate();
}

void Document::setPins(const std::vector<int> &nodes, const std::vector<int> &pins)
{
    for (size_t i = 0; i < nodes.size(); ++i)
        m_pins[nodes[i]] = pins[i];
    resimulate();
}

void Document::replaceCluster(const ClusterState &state)
{
    m_cluster = state.cluster;
    clusterPath = state.path;
    m_placement = state.placement;
    m_pins = state.pins;
    m_clusterUndoable = true;
    rebuildSimulator();
    Q_EMIT clusterChanged();
    resimulate();
}

Constraints Document::constraints() const
{
    return m_graph && m_cluster->deviceCount() > 0 ? Constraints::fromGraph(*m_graph, *m_cluster, m_pins)
                                                   : Constraints();
}

std::vector<int> Document::opCountPerDevice() const
{
    std::vector<int> count(m_cluster->deviceCount(), 0);
    for (int d : m_placement)
        if (d >= 0 && d < static_cast<int>(count.size()))
            ++count[d];
    return count;
}

std::vector<char> Document::flaggedNodes() const
{
    if (!ready() || !m_schedule)
        return std::vector<char>(m_placement.size(), 0);
    return violatingNodes(*m_cluster, constraints(), m_placement, m_schedule->memory);
}

} // namespace ps
