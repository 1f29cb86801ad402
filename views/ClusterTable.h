#pragma once
// The cluster as editable tables: devices (name, type, speed, memory, per-op overhead), links
// between named devices (bandwidth, latency, both ways or one), and the default link. Every edit is validated by
// building a new Cluster; a valid one is offered with clusterEdited (the app makes it an undoable command); an invalid
// one shows why and waits to be fixed (the document keeps the last valid cluster). The tables are
// views over the rows (no item per cell), so a cluster with a link for each pair of 1,024
// devices opens and edits without holding the window.
#include "core/cluster/Cluster.h"

#include <QWidget>

#include <string>
#include <vector>

class QTableView;
class QLabel;
class QDoubleSpinBox;

namespace ps {

template <class Row>
class RowsModel;

class ClusterTable : public QWidget
{
    Q_OBJECT
public:
    // A link as the table shows it: devices by name, so that a name being typed may be unknown.
    struct LinkRow
    {
        std::string src, dst;
        Link link;
        bool both = true;
    };

    explicit ClusterTable(QWidget *parent = nullptr);
    ~ClusterTable() override;
    // Fills the table, unless it shows `cluster` already (the copy it offered with clusterEdited:
    // refilling 523,776 links took 126 ms after each edit of one).
    void setCluster(std::shared_ptr<const Cluster> cluster);
    QTableView *table() const { return m_table; }
    QTableView *linkTable() const { return m_links; }
    QString errorText() const;

    // The cluster the table describes now (throws InputError when it is not valid).
    Cluster currentCluster() const;

Q_SIGNALS:
    void clusterEdited(std::shared_ptr<const Cluster> cluster);

public Q_SLOTS:
    void addDevice();
    void removeSelectedDevice();
    void addLink();
    void removeSelectedLink();

private:
    void edited();
    // Renames `device` and the links that name it; a reason instead when another device has `name`.
    QString rename(Device &device, const std::string &name);
    void showError(const QString &why);
    RowsModel<Device> *m_deviceRows;
    RowsModel<LinkRow> *m_linkRows;
    QTableView *m_table, *m_links;
    std::shared_ptr<const Cluster> m_shown; // what the rows show, when they show a whole cluster
    QLabel *m_error;
    QDoubleSpinBox *m_bandwidth, *m_latency;
    std::string m_name; // the cluster's (copying the cluster took 60 ms with a link for each pair)
    bool m_filling = false;
};

} // namespace ps
