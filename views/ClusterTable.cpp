#include "views/ClusterTable.h"

#include "core/InputError.h"
#include "views/RowsModel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>
#include <utility>

namespace ps {

namespace {
using DeviceRows = RowsModel<Device>;
using LinkRows = RowsModel<ClusterTable::LinkRow>;

QTableView *tableOver(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    view->verticalHeader()->hide();
    // Rows of one height, not measured row by row: a million links scroll as fast as ten.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    return view;
}
} // namespace

ClusterTable::ClusterTable(QWidget *parent) : QWidget(parent)
{
    DeviceRows::Column name = DeviceRows::text(tr("Device"), [](Device &d) -> std::string & { return d.name; });
    name.edit = [this](Device &d, const QString &text) { return rename(d, text.toStdString()); };
    m_deviceRows =
        new DeviceRows({name, DeviceRows::text(tr("Type"), [](Device &d) -> std::string & { return d.type; }),
                        DeviceRows::number(
                            tr("TFLOP/s"), [](Device &d) -> double & { return d.flopsPerS; }, 1e12),
                        DeviceRows::number(
                            tr("Memory (GB)"), [](Device &d) -> double & { return d.memoryBytes; }, 1e9),
                        DeviceRows::number(
                            tr("Overhead (µs)"), [](Device &d) -> double & { return d.opOverheadS; }, 1e-6)},
                       tr("row"), this);
    LinkRows::Column both;
    both.header = tr("Both ways");
    both.check = &LinkRow::both;
    m_linkRows = new LinkRows({LinkRows::text(tr("From"), [](LinkRow &l) -> std::string & { return l.src; }),
                               LinkRows::text(tr("To"), [](LinkRow &l) -> std::string & { return l.dst; }),
                               LinkRows::number(
                                   tr("GB/s"), [](LinkRow &l) -> double & { return l.link.bandwidthBytesPerS; }, 1e9),
                               LinkRows::number(
                                   tr("Latency (µs)"), [](LinkRow &l) -> double & { return l.link.latencyS; }, 1e-6),
                               both},
                              tr("link"), this);
    m_table = tableOver(m_deviceRows, this);
    m_links = tableOver(m_linkRows, this);
    m_table->setMinimumHeight(70);
    m_links->setMinimumHeight(50);
    m_links->setToolTip(tr("Links that differ from the default link; device names as in the table above"));
    m_error = new QLabel(this);
    m_error->setStyleSheet("color: #c00");
    m_error->setWordWrap(true);
    m_error->hide();
    m_bandwidth = new QDoubleSpinBox(this);
    m_bandwidth->setRange(0.001, 1e6);
    m_bandwidth->setDecimals(3);
    m_bandwidth->setSuffix(" GB/s");
    m_latency = new QDoubleSpinBox(this);
    m_latency->setRange(0, 1e6);
    m_latency->setDecimals(2);
    m_latency->setSuffix(" µs");
    auto *add = new QPushButton(tr("Add device"), this);
    auto *remove = new QPushButton(tr("Remove device"), this);
    auto *addLinkButton = new QPushButton(tr("Add link"), this);
    auto *removeLinkButton = new QPushButton(tr("Remove link"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    buttons->addWidget(addLinkButton);
    buttons->addWidget(removeLinkButton);
    auto *links = new QFormLayout;
    links->addRow(tr("Default link bandwidth"), m_bandwidth);
    links->addRow(tr("Default link latency"), m_latency);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_links, 2);
    layout->addLayout(links);
    layout->addLayout(buttons);
    layout->addWidget(m_error);
    m_deviceRows->changed = m_linkRows->changed = [this] { edited(); };
    m_deviceRows->refused = m_linkRows->refused = [this](const QString &why) { showError(why); };
    connect(addLinkButton, &QPushButton::clicked, this, &ClusterTable::addLink);
    connect(removeLinkButton, &QPushButton::clicked, this, &ClusterTable::removeSelectedLink);
    connect(m_bandwidth, &QDoubleSpinBox::editingFinished, this, &ClusterTable::edited);
    connect(m_latency, &QDoubleSpinBox::editingFinished, this, &ClusterTable::edited);
    connect(add, &QPushButton::clicked, this, &ClusterTable::addDevice);
    connect(remove, &QPushButton::clicked, this, &ClusterTable::removeSelectedDevice);
}

ClusterTable::~ClusterTable() = default;

void ClusterTable::setCluster(std::shared_ptr<const Cluster> shown)
{
    if (shown == m_shown)
        return;
    m_shown = std::move(shown);
    const Cluster &cluster = *m_shown;
    m_name = cluster.name();
    m_filling = true;
    m_deviceRows->reset(cluster.devices());
    std::vector<LinkRow> links;
    links.reserve(cluster.explicitLinks().size());
    for (const auto &l : cluster.explicitLinks())
        links.push_back({cluster.device(l.src).name, cluster.device(l.dst).name, l.link, l.bidirectional});
    m_linkRows->reset(std::move(links));
    Link fallback = cluster.defaultLink().value_or(cluster.deviceCount() > 1 ? cluster.link(0, 1) : Link{12e9, 1e-5});
    m_bandwidth->setValue(fallback.bandwidthBytesPerS / 1e9);
    m_latency->setValue(fallback.latencyS * 1e6);
    m_error->hide();
    m_filling = false;
}

QString ClusterTable::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

Cluster ClusterTable::currentCluster() const
{
    ClusterBuilder builder(m_name);
    for (const Device &d : m_deviceRows->rows())
        builder.addDevice(d);
    builder.reserveLinks(m_linkRows->rows().size());
    for (const LinkRow &l : m_linkRows->rows())
        builder.addLink(l.src, l.dst, l.link, l.both);
    builder.setDefaultLink({m_bandwidth->value() * 1e9, m_latency->value() * 1e-6});
    return builder.build();
}

void ClusterTable::showError(const QString &why)
{
    m_error->setText(tr("Not applied: %1").arg(why));
    m_error->show();
}

void ClusterTable::edited()
{
    if (m_filling)
        return;
    try {
        m_shown = std::make_shared<const Cluster>(currentCluster());
        m_error->hide();
        Q_EMIT clusterEdited(m_shown);
    } catch (const InputError &e) {
        m_shown.reset(); // the rows show no cluster now: the next one given fills them
        showError(QString::fromStdString(e.what()));
    }
}

QString ClusterTable::rename(Device &device, const std::string &name)
{
    if (name == device.name)
        return {};
    const std::vector<Device> &devices = m_deviceRows->rows();
    if (std::any_of(devices.begin(), devices.end(), [&](const Device &d) { return &d != &device && d.name == name; }))
        return tr("is the name of another device");
    std::vector<LinkRow> links = m_linkRows->rows();
    bool named = false;
    for (LinkRow &l : links)
        for (std::string *end : {&l.src, &l.dst})
            if (*end == device.name) {
                *end = name;
                named = true;
            }
    if (named)
        m_linkRows->reset(std::move(links));
    device.name = name;
    return {};
}

void ClusterTable::addDevice()
{
    const std::vector<Device> &devices = m_deviceRows->rows();
    Device like = devices.empty() ? Device{"", "gpu", 14e12, 16e9, 1e-5} : devices.back();
    int n = static_cast<int>(devices.size());
    auto taken = [&](const std::string &name) {
        return std::any_of(devices.begin(), devices.end(), [&](const Device &d) { return d.name == name; });
    };
    do
        like.name = "gpu:" + std::to_string(n++);
    while (taken(like.name));
    m_deviceRows->append(like);
    edited();
}

void ClusterTable::addLink()
{
    const std::vector<Device> &devices = m_deviceRows->rows();
    // Between the first two devices that have no link yet either way.
    std::set<std::pair<std::string, std::string>> linked;
    for (const LinkRow &l : m_linkRows->rows()) {
        linked.emplace(l.src, l.dst);
        linked.emplace(l.dst, l.src);
    }
    for (size_t a = 0; a < devices.size(); ++a)
        for (size_t b = a + 1; b < devices.size(); ++b)
            if (!linked.count({devices[a].name, devices[b].name})) {
                m_linkRows->append(
                    {devices[a].name, devices[b].name, {m_bandwidth->value() * 1e9, m_latency->value() * 1e-6}, true});
                edited();
                return;
            }
    showError(devices.size() < 2 ? tr("a link needs two devices") : tr("every pair of devices has a link already"));
}

void ClusterTable::removeSelectedLink()
{
    const int r = m_links->currentIndex().isValid() ? m_links->currentIndex().row() : m_linkRows->rowCount() - 1;
    if (r < 0)
        return;
    m_linkRows->removeIf([r](int i, const LinkRow &) { return i == r; });
    edited();
}

void ClusterTable::removeSelectedDevice()
{
    const int r = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : m_deviceRows->rowCount() - 1;
    if (r < 0 || m_deviceRows->rowCount() <= 1) {
        m_error->setText(tr("A cluster needs at least one device."));
        m_error->show();
        return;
    }
    const std::string name = m_deviceRows->rows()[static_cast<size_t>(r)].name;
    m_deviceRows->removeIf([r](int i, const Device &) { return i == r; });
    // The links of the removed device go with it.
    m_linkRows->removeIf([&](int, const LinkRow &l) { return l.src == name || l.dst == name; });
    edited();
}

} // namespace ps
