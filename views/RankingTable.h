#pragma once
// The ranking of a steering session: one row per usable candidate with its family, the combined
// score, each objective term, agreement with the person's edits, the simulator runs it cost and
// its hyperparameters. Sortable by any column; a filter hides rows whose family or
// hyperparameters do not contain the text.
#include "core/steering/SteeringTypes.h"

#include <QTableWidget>

#include <vector>

namespace ps {

class RankingTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column {
        Rank,
        Id,
        Family,
        Score,
        Ratio,
        Bytes,
        Memory,
        Imbalance,
        Agreement,
        Evaluations,
        Wall, // the run's wall time: budgets count simulator runs, and some families spend far more time per run
        Verdict,
        Params, // last: the longest, so the numbers stay in view in a narrow dock
        ColumnCount
    };

    explicit RankingTable(QWidget *parent = nullptr);
    // Candidates in rank order; agreement per candidate, same order.
    void setRows(const std::vector<CandidateInfo> &ranked, const std::vector<double> &agreement);
    void setFilter(const QString &text);
    void setSelectedIds(const std::vector<int> &ids);
    std::vector<int> selectedIds() const;
    int idAt(int row) const;
    int visibleRows() const;

Q_SIGNALS:
    void selectionChangedByUser(const std::vector<int> &ids);

private:
    QString m_filter;
    bool m_settingSelection = false;
};

} // namespace ps
