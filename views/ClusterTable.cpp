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

QTableWidgetItem *numberItem(double v) { return new QTableWidgetItem(QString::number(v, 'g', 6)); }
} // namespace

ClusterTable::ClusterTable(QWidget *parent) : QWidget(parent), m_table(new QTableWidget(0, Columns, this))
{
    m_table->setHorizontalHeaderLabels({tr("Device"), tr("Type"), tr("TFLOP/s"), tr("Memory (GB)"), tr("Overhead (µs)")});
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
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto *links = new QFormLayout;
    links->addRow(tr("Default link bandwidth"), m_bandwidth);
    links->addRow(tr("Default link latency"), m_latency);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table);
    layout->addLayout(links);
    layout->addLayout(buttons);
    layout->addWidget(m_error);
    connect(m_table, &QTableWidget::itemChanged, this, &ClusterTable::edited);
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
    Link fallback = cluster.defaultLink().value_or(cluster.deviceCount() > 1 ? cluster.link(0, 1) : Link{12e9, 1e-5});
    m_bandwidth->setValue(fallback.bandwidthBytesPerS / 1e9);
    m_latency->setValue(fallback.latencyS * 1e6);
    m_error->hide();
    m_filling = false;
}

QString ClusterTable::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

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
    // Explicit links keep their values (renamed with their devices) while no device is added
    // or removed; after that the default link describes every pair.
    for (const auto &l : m_cluster.explicitLinks())
        if (m_table->rowCount() == m_cluster.deviceCount() && l.src < m_table->rowCount() && l.dst < m_table->rowCount() && m_table->item(l.src, Name) &&
            m_table->item(l.dst, Name))
            builder.addLink(m_table->item(l.src, Name)->text().trimmed().toStdString(),
                            m_table->item(l.dst, Name)->text().trimmed().toStdString(), l.link, l.bidirectional);
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

void ClusterTable::removeSelectedDevice()
{
    const int r = m_table->currentRow() >= 0 ? m_table->currentRow() : m_table->rowCount() - 1;
    if (r < 0 || m_table->rowCount() <= 1) {
        m_error->setText(tr("A cluster needs at least one device."));
        m_error->show();
        return;
    }
    m_filling = true;
    m_table->removeRow(r);
    m_filling = false;
    edited();
}

} // namespace ps
