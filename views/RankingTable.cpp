#include "views/RankingTable.h"

#include "views/Format.h"

#include <QHeaderView>

namespace ps {

namespace {

// Sorts by the number behind the text.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString &text, double value) : QTableWidgetItem(text) { setData(Qt::UserRole, value); }
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

} // namespace

RankingTable::RankingTable(QWidget *parent) : QTableWidget(parent)
{
    setColumnCount(ColumnCount);
    setHorizontalHeaderLabels({tr("#"), tr("id"), tr("family"), tr("score"), tr("makespan/bound"), tr("moved"),
                               tr("peak mem"), tr("imbalance"), tr("agreement"), tr("sim runs"), tr("wall"),
                               tr("verdict"), tr("hyperparameters")});
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSortingEnabled(true);
    verticalHeader()->setVisible(false);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(this, &QTableWidget::itemSelectionChanged, this, [this] {
        if (!m_settingSelection)
            Q_EMIT selectionChangedByUser(selectedIds());
    });
}

void RankingTable::setRows(const std::vector<CandidateInfo> &ranked, const std::vector<double> &agreement)
{
    const std::vector<int> keep = selectedIds();
    m_settingSelection = true;
    setSortingEnabled(false);
    // Columns sized to their contents once, after the rows: sized as each item came, 109 rows
    // of a 58k-op GNMT session took 1.7 s here on the first refresh after the session opened.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    setRowCount(static_cast<int>(ranked.size()));
    for (int r = 0; r < static_cast<int>(ranked.size()); ++r) {
        const CandidateInfo &c = ranked[r];
        QString params;
        for (const std::string &p : c.params)
            params += (params.isEmpty() ? "" : " ") + QString::fromStdString(p);
        if (c.refines >= 0 && c.partner >= 0)
            params += QStringLiteral(" (refines #%1 recombined with #%2)").arg(c.refines).arg(c.partner);
        else if (c.refines >= 0 && c.continued)
            params += QStringLiteral(" (refines #%1, continuing its policy)").arg(c.refines);
        else if (c.refines >= 0)
            params += QStringLiteral(" (refines #%1)").arg(c.refines);
        for (const std::string &note : c.notes) // what the run said of its result: raced, kept its start
            params += QStringLiteral(" · ") + QString::fromStdString(note);
        const double ratio = c.terms.bound > 0 ? c.terms.makespan / c.terms.bound : 0;
        setItem(r, Rank, new NumberItem(QString::number(r + 1), r + 1));
        setItem(r, Id, new NumberItem(QString::number(c.id), c.id));
        setItem(r, Family, new QTableWidgetItem(QString::fromStdString(c.arm)));
        auto *paramsItem = new QTableWidgetItem(params);
        paramsItem->setToolTip(params); // the column is often too narrow for all of it
        setItem(r, Params, paramsItem);
        setItem(r, Score, new NumberItem(formatSeconds(c.score), c.score));
        setItem(r, Ratio, new NumberItem(QString::number(ratio, 'f', 3) + (c.terms.feasible ? "" : tr(" ✗")), ratio));
        setItem(r, Bytes, new NumberItem(formatBytes(c.terms.movedBytes), c.terms.movedBytes));
        setItem(r, Memory,
                new NumberItem(QString::number(100 * c.terms.peakMemoryShare, 'f', 1) + "%", c.terms.peakMemoryShare));
        setItem(r, Imbalance, new NumberItem(formatSeconds(c.terms.imbalance), c.terms.imbalance));
        const double a = r < static_cast<int>(agreement.size()) ? agreement[r] : 1.0;
        setItem(r, Agreement, new NumberItem(QString::number(100 * a, 'f', 0) + "%", a));
        setItem(r, Evaluations, new NumberItem(QString::number(c.evaluations), double(c.evaluations)));
        setItem(r, Wall, new NumberItem(QString::number(c.wallS, 'f', c.wallS < 10 ? 2 : 1) + " s", c.wallS));
        setItem(r, Verdict,
                new QTableWidgetItem(c.verdict == CandidateInfo::Verdict::Accepted   ? tr("accepted")
                                     : c.verdict == CandidateInfo::Verdict::Rejected ? tr("rejected")
                                                                                     : QString()));
    }
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setSortingEnabled(true);
    setFilter(m_filter);
    m_settingSelection = false;
    setSelectedIds(keep);
}

void RankingTable::setFilter(const QString &text)
{
    m_filter = text;
    for (int r = 0; r < rowCount(); ++r) {
        const bool show = text.isEmpty() || item(r, Family)->text().contains(text, Qt::CaseInsensitive) ||
                          item(r, Params)->text().contains(text, Qt::CaseInsensitive);
        setRowHidden(r, !show);
    }
}

int RankingTable::visibleRows() const
{
    int n = 0;
    for (int r = 0; r < rowCount(); ++r)
        n += !isRowHidden(r);
    return n;
}

int RankingTable::idAt(int row) const
{
    return item(row, Id) ? item(row, Id)->data(Qt::UserRole).toInt() : -1;
}

std::vector<int> RankingTable::selectedIds() const
{
    std::vector<int> ids;
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, Id) && item(r, Id)->isSelected())
            ids.push_back(idAt(r));
    return ids;
}

void RankingTable::setSelectedIds(const std::vector<int> &ids)
{
    m_settingSelection = true;
    clearSelection();
    for (int r = 0; r < rowCount(); ++r)
        if (std::find(ids.begin(), ids.end(), idAt(r)) != ids.end()) {
            selectionModel()->select(model()->index(r, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    m_settingSelection = false;
}

} // namespace ps
