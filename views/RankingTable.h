#pragma once
// The ranking of a steering session: one row per usable candidate with its family,
// hyperparameters, each objective term, the combined score, agreement with the person's edits and
// the simulator runs it cost. Sortable by any column; a filter hides rows whose family or
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
        Params,
        Score,
        Ratio,
        Bytes,
        Memory,
        Imbalance,
        Agreement,
        Evaluations,
        Verdict,
        ColumnCount
    };

    explicit RankingTable(QWidget *parent = nullptr);
    // Candidates in rank order; agreement per candidate, same order.
    void setRows(const std::vector<Candidate> &ranked, const std::vector<double> &agreement);
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
