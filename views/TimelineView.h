#pragma once
// A Gantt chart of the simulator's schedule: one row per device with its ops, one per link that
// carries transfers. The critical path is outlined in red, selected ops in black. The wheel zooms
// around the cursor, dragging pans, double-click fits; hover shows details, a click selects. Rows
// that do not fit scroll with the scroll bar beside them, or the wheel over their labels or with
// Shift.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/sim/Schedule.h"

#include <QWidget>

#include <memory>
#include <vector>

class QScrollBar;

namespace ps {

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);
    void setData(std::shared_ptr<const Graph> graph, const Cluster &cluster, std::shared_ptr<const Schedule> schedule,
                 const std::vector<int> &device);
    void setSelection(const std::vector<int> &nodes);
    void fit();
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    // The op under a widget point, or -1.
    int opAt(const QPoint &pos) const;
    // The rows in view: the first, and how many fit.
    int firstVisibleRow() const;
    int visibleRowCount() const;
    void scrollToRow(int row);
    QSize sizeHint() const override { return {800, 240}; }

Q_SIGNALS:
    void opClicked(int node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Row
    {
        QString label;
        bool link = false;
        int device = -1;
        std::vector<int> items; // ops (device rows) or transfer indices (link rows), by start
    };
    double timeAt(double x) const;
    double xAt(double t) const;
    double plotWidth() const; // pixels of time, right of the labels and left of the scroll bar
    void updateRowBar();
    int rowAt(int y) const;
    int transferAt(const QPoint &pos) const;

    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const Schedule> m_schedule;
    std::vector<Row> m_rows;
    std::vector<char> m_critical, m_criticalTransfer, m_selected;
    double m_t0 = 0, m_span = 1; // visible time window
    QPoint m_dragFrom;
    double m_dragT0 = 0;
    bool m_dragged = false;
    QScrollBar *m_rowBar; // its value is the first row in view
};

} // namespace ps
