#pragma once
// The cluster as editable tables: devices (name, type, speed, memory, per-op overhead), links
// between named devices (bandwidth, latency, both ways or one), and the default link. Every edit is validated by
// building a new Cluster; a valid one is offered with clusterEdited (the app makes it an undoable command); an invalid
// one shows why and waits to be fixed (the document keeps the last valid cluster).
#include "core/cluster/Cluster.h"

#include <QWidget>

class QTableWidget;
class QLabel;
class QDoubleSpinBox;

namespace ps {

class ClusterTable : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterTable(QWidget *parent = nullptr);
    void setCluster(const Cluster &cluster);
    QTableWidget *table() const { return m_table; }
    QTableWidget *linkTable() const { return m_links; }
    QString errorText() const;

    // The cluster the table describes now (throws InputError when it is not valid).
    Cluster currentCluster() const;

Q_SIGNALS:
    void clusterEdited(const Cluster &cluster);

public Q_SLOTS:
    void addDevice();
    void removeSelectedDevice();
    void addLink();
    void removeSelectedLink();

private:
    void edited();
    QTableWidget *m_table, *m_links;
    QLabel *m_error;
    QDoubleSpinBox *m_bandwidth, *m_latency;
    Cluster m_cluster;
    bool m_filling = false;
};

} // namespace ps
