#pragma once
// The numbers of the current placement: makespan, lower bound and ratio, feasibility with its
// violations (the first few, and how many more), bytes moved, and per-device balance in a table
// that sorts by any column and stays quick with thousands of devices.
#include "core/cluster/Cluster.h"
#include "core/sim/Schedule.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace ps {

class DeviceBalanceModel;

class MetricsView : public QWidget
{
    Q_OBJECT
public:
    explicit MetricsView(QWidget *parent = nullptr);
    // Without a schedule it shows `noSchedule` (why there is none), or asks for a graph and a cluster.
    void setState(const Cluster &cluster, const Schedule *schedule, const std::vector<int> &opCount,
                  const QString &noSchedule = {});
    // What it shows as plain text: the summary, then one line per device (name, busy, memory, ops).
    QString text() const;
    QTableView *balanceTable() const { return m_table; }

    static constexpr int kShownViolations = 12;

private:
    QLabel *m_summary;
    QTableView *m_table;
    DeviceBalanceModel *m_model;
};

} // namespace ps
