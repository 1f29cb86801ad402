#include "views/ClusterTable.h"

#include "core/InputError.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ps {

namespace {
enum Column { Name, Type, Tflops, MemoryGb, OverheadUs, Columns };
enum LinkColumn { Src, Dst, Bandwidth, Latency, Both, LinkColumns };

QTableWidgetItem *numberItem(double v)
{
    return new QTableWidgetItem(QString::number(v, 'g', 6));
}
} // namespace

ClusterTable::ClusterTable(QWidget *parent)
    : QWidget(parent), m_table(new QTableWidget(0, Columns, this)), m_links(new QTableWidget(0, LinkColumns, this))
{
    m_links->setHorizontalHeaderLabels({tr("From"), tr("To"), tr("GB/s"), tr("Latency (µs)"), tr("Both ways")});
    m_links->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_links->verticalHeader()->hide();
    m_table->setMinimumHeight(70);
    m_links->setMinimumHeight(50);
    m_links->setToolTip(tr("Links that differ from the default link; device names as in the table above"));
    m_table->setHorizontalHeaderLabels(
        {tr("Device"), tr("Type"), tr("TFLOP/s"), tr("Memory (GB)"), tr("Overhead (µs)")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
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
    connect(m_table, &QTableWidget::itemChanged, this, &ClusterTable::edited);
    connect(m_links, &QTableWidget::itemChanged, this, &ClusterTable::edited);
    connect(addLinkButton, &QPushButton::clicked, this, &ClusterTable::addLink);
    connect(removeLinkButton, &QPushButton::clicked, this, &ClusterTable::removeSelectedLink);
    connect(m_bandwidth, &QDoubleSpinBox::editingFinished, this, &ClusterTable::edited);
    connect(m_latency, &QDoubleSpinBox::editingFinished, this, &ClusterTable::edited);
    connect(add, &QPushButton::clicked, this, &ClusterTable::addDevice);
    connect(remove, &QPushButton::clicked, this, &ClusterTable::removeSelectedDevice);
}

void ClusterTable::setCluster(const Cluster &cluster)
{
    m_cluster = cluster;
    m_filling = true;
    m_table->setRowCount(cluster.deviceCount());
    for (int d = 0; d < cluster.deviceCount(); ++d) {
        const Device &dev = cluster.device(d);
        m_table->setItem(d, Name, new QTableWidgetItem(QString::fromStdString(dev.name)));
        m_table->setItem(d, Type, new QTableWidgetItem(QString::fromStdString(dev.type)));
        m_table->setItem(d, Tflops, numberItem(dev.flopsPerS / 1e12));
        m_table->setItem(d, MemoryGb, numberItem(dev.memoryBytes / 1e9));
        m_table->setItem(d, OverheadUs, numberItem(dev.opOverheadS * 1e6));
    }
    m_links->setRowCount(static_cast<int>(cluster.explicitLinks().size()));
    for (size_t i = 0; i < cluster.explicitLinks().size(); ++i) {
        const auto &l = cluster.explicitLinks()[i];
        const int r = static_cast<int>(i);
        m_links->setItem(r, Src, new QTableWidgetItem(QString::fromStdString(cluster.device(l.src).name)));
        m_links->setItem(r, Dst, new QTableWidgetItem(QString::fromStdString(cluster.device(l.dst).name)));
        m_links->setItem(r, Bandwidth, numberItem(l.link.bandwidthBytesPerS / 1e9));
        m_links->setItem(r, Latency, numberItem(l.link.latencyS * 1e6));
        auto *both = new QTableWidgetItem;
        both->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        both->setCheckState(l.bidirectional ? Qt::Checked : Qt::Unchecked);
        m_links->setItem(r, Both, both);
    }
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
    ClusterBuilder builder(m_cluster.name());
    for (int r = 0; r < m_table->rowCount(); ++r) {
        auto text = [&](int c) { return m_table->item(r, c) ? m_table->item(r, c)->text().trimmed() : QString(); };
        auto number = [&](int c, double scale) {
            bool ok = false;
            const double v = text(c).toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                throw InputError("row " + std::to_string(r + 1) + ": '" + text(c).toStdString() +
                                 "' is not a non-negative number");
            return v * scale;
        };
        Device d;
        d.name = text(Name).toStdString();
        d.type = text(Type).toStdString();
        d.flopsPerS = number(Tflops, 1e12);
        d.memoryBytes = number(MemoryGb, 1e9);
        d.opOverheadS = number(OverheadUs, 1e-6);
        builder.addDevice(d);
    }
    for (int r = 0; r < m_links->rowCount(); ++r) {
        auto text = [&](int c) { return m_links->item(r, c) ? m_links->item(r, c)->text().trimmed() : QString(); };
        auto number = [&](int c, double scale) {
            bool ok = false;
            const double v = text(c).toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                throw InputError("link " + std::to_string(r + 1) + ": '" + text(c).toStdString() +
                                 "' is not a non-negative number");
            return v * scale;
        };
        const bool both = m_links->item(r, Both) && m_links->item(r, Both)->checkState() == Qt::Checked;
        builder.addLink(text(Src).toStdString(), text(Dst).toStdString(),
                        {number(Bandwidth, 1e9), number(Latency, 1e-6)}, both);
    }
    builder.setDefaultLink({m_bandwidth->value() * 1e9, m_latency->value() * 1e-6});
    return builder.build();
}

void ClusterTable::edited()
{
    if (m_filling)
        return;
    try {
        Cluster c = currentCluster();
        m_error->hide();
        Q_EMIT clusterEdited(c);
    } catch (const InputError &e) {
        m_error->setText(tr("Not applied: %1").arg(QString::fromStdString(e.what())));
        m_error->show();
    }
}

void ClusterTable::addDevice()
{
    m_filling = true;
    const int r = m_table->rowCount();
    m_table->insertRow(r);
    int n = r;
    QString name;
    do
        name = QStringLiteral("gpu:%1").arg(n++);
    while (m_cluster.findDevice(name.toStdString()) >= 0);
    const Device like = r > 0 ? m_cluster.device(r - 1) : Device{"", "gpu", 14e12, 16e9, 1e-5};
    m_table->setItem(r, Name, new QTableWidgetItem(name));
    m_table->setItem(r, Type, new QTableWidgetItem(QString::fromStdString(like.type)));
    m_table->setItem(r, Tflops, numberItem(like.flopsPerS / 1e12));
    m_table->setItem(r, MemoryGb, numberItem(like.memoryBytes / 1e9));
    m_table->setItem(r, OverheadUs, numberItem(like.opOverheadS * 1e6));
    m_filling = false;
    edited();
}

void ClusterTable::addLink()
{
    if (m_table->rowCount() < 2)
        return;
    m_filling = true;
    const int r = m_links->rowCount();
    m_links->insertRow(r);
    m_links->setItem(r, Src, new QTableWidgetItem(m_table->item(0, Name)->text()));
    m_links->setItem(r, Dst, new QTableWidgetItem(m_table->item(1, Name)->text()));
    m_links->setItem(r, Bandwidth, numberItem(m_bandwidth->value()));
    m_links->setItem(r, Latency, numberItem(m_latency->value()));
    auto *both = new QTableWidgetItem;
    both->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    both->setCheckState(Qt::Checked);
    m_links->setItem(r, Both, both);
    m_filling = false;
    edited();
}

void ClusterTable::removeSelectedLink()
{
    const int r = m_links->currentRow() >= 0 ? m_links->currentRow() : m_links->rowCount() - 1;
    if (r < 0)
        return;
    m_filling = true;
    m_links->removeRow(r);
    m_filling = false;
    edited();
}

void ClusterTable::removeSelectedDevice()
{
    const int r = m_table->currentRow() >= 0 ? m_table->currentRow() : m_table->rowCount() - 1;
    if (r < 0 || m_table->rowCount() <= 1) {
        m_error->setText(tr("A cluster needs at least one device."));
        m_error->show();
        return;
    }
    m_filling = true;
    const QString name = m_table->item(r, Name) ? m_table->item(r, Name)->text().trimmed() : QString();
    m_table->removeRow(r);
    for (int l = m_links->rowCount() - 1; l >= 0; --l) // links of the removed device go with it
        if ((m_links->item(l, Src) && m_links->item(l, Src)->text().trimmed() == name) ||
            (m_links->item(l, Dst) && m_links->item(l, Dst)->text().trimmed() == name))
            m_links->removeRow(l);
    m_filling = false;
    edited();
}

} // namespace ps
