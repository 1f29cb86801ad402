#pragma once
// The numbers of the current placement: makespan, lower bound and ratio, feasibility with every
// violation, bytes moved, and per-device balance.
#include "core/cluster/Cluster.h"
#include "core/sim/Schedule.h"

#include <QLabel>

namespace ps {

class MetricsView : public QLabel
{
    Q_OBJECT
public:
    explicit MetricsView(QWidget *parent = nullptr);
    void setState(const Cluster &cluster, const Schedule *schedule, const std::vector<int> &opCount);
};

} // namespace ps
