#include "views/MetricsView.h"

#include "core/sim/Objective.h"
#include "views/DeviceColors.h"
#include "views/Format.h"

#include <QAbstractTableModel>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

namespace ps {

// One row per device: its name (in its colour), busy share of the makespan, memory held (red
// where over its capacity) and op count. Sorts by the numbers, not their text.
class DeviceBalanceModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    struct Row
    {
        QString name;
        double busy = 0, memory = 0;
        bool over = false;
        int ops = 0;
    };

    void setRows(std::vector<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 4; }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        static const char *names[] = {"device", "busy", "memory", "ops"};
        return tr(names[section]);
    }

    QVariant data(const QModelIndex &index, int role) const override
    {
        const Row &r = m_rows[static_cast<size_t>(index.row())];
        const int c = index.column();
        switch (role) {
        case Qt::DisplayRole:
            if (c == 0)
                return r.name;
            if (c == 1)
                return QString::number(r.busy * 100, 'f', 1) + "%";
            if (c == 2)
                return formatBytes(r.memory);
            return r.ops;
        case Qt::UserRole: // what the column sorts by
            if (c == 0)
                return index.row();
            if (c == 1)
                return r.busy;
            if (c == 2)
                return r.memory;
            return r.ops;
        case Qt::DecorationRole: return c == 0 ? QVariant(deviceQColor(index.row())) : QVariant();
        case Qt::ForegroundRole: return c == 2 && r.over ? QVariant(QColor(0xcc, 0, 0)) : QVariant();
        case Qt::TextAlignmentRole: return c == 0 ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default: return {};
        }
    }

    const std::vector<Row> &rows() const { return m_rows; }

private:
    std::vector<Row> m_rows;
};

MetricsView::MetricsView(QWidget *parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_model = new DeviceBalanceModel(this);
    auto *sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_model);
    sorted->setSortRole(Qt::UserRole);
    m_table = new QTableView;
    m_table->setModel(sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setResizeContentsPrecision(64); // not every row of thousands
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setToolTip(tr("Per device: busy time as a share of the makespan, memory held (red: over its "
                           "capacity) and ops. Click a header to sort."));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void MetricsView::setState(const Cluster &cluster, const Schedule *s, const std::vector<int> &opCount,
                           const QString &noSchedule)
{
    if (!s) {
        m_summary->setText(noSchedule.isEmpty() ? tr("<i>Open a graph and a cluster to see metrics.</i>")
                                                : QStringLiteral("<i>%1</i>").arg(noSchedule.toHtmlEscaped()));
        m_model->setRows({});
        return;
    }
    QString html = QStringLiteral("<table cellspacing=4>");
    auto row = [&](const QString &name, const QString &value) {
        html += QStringLiteral("<tr><td>%1</td><td align=right><b>%2</b></td></tr>").arg(name, value);
    };
    row(tr("Makespan"), formatSeconds(s->makespan));
    row(tr("Lower bound"), formatSeconds(s->lowerBound.bound));
    const std::vector<std::string> &violations = s->violations;
    const bool feasible = violations.empty();
    // At the bound, no placement has a shorter makespan: the searches stop there, and so may the person.
    const bool optimal =
        s->lowerBound.bound > 0 && meetsScoreFloor(Objective{}, s->lowerBound.bound, s->makespan, feasible);
    row(tr("Ratio to bound"), QString::number(s->ratio(), 'f', 3) + "×" + (optimal ? tr(" (optimal)") : QString()));
    row(tr("Bytes moved"), formatBytes(s->movedBytes));
    row(tr("Transfers"), QString::number(s->transferCount));
    row(tr("Feasible"),
        feasible ? tr("<span style='color:#2a7a2a'>yes</span>") : tr("<span style='color:#c00'>no</span>"));
    html += "</table>";
    if (!feasible) {
        html += QStringLiteral("<p style='color:#c00'>");
        const size_t shown = std::min(violations.size(), static_cast<size_t>(kShownViolations));
        for (size_t i = 0; i < shown; ++i) {
            const std::string &v = violations[i];
            QString text = QString::fromStdString(v).toHtmlEscaped();
            const size_t colon = v.find(':');
            const std::string kind = v.substr(0, colon), what = colon == std::string::npos ? "" : v.substr(colon + 1);
            if (kind == "memory") {
                const int d = cluster.findDevice(what);
                if (d >= 0 && d < static_cast<int>(s->memory.size()))
                    text = tr("%1 holds %2 of %3 (over by %4)")
                               .arg(QString::fromStdString(what).toHtmlEscaped(), formatBytes(s->memory[d]),
                                    formatBytes(cluster.device(d).memoryBytes),
                                    formatBytes(s->memory[d] - cluster.device(d).memoryBytes));
            } else if (kind == "pin") {
                text = tr("%1 is not on its pinned device").arg(QString::fromStdString(what).toHtmlEscaped());
            } else if (kind == "colocate") {
                text = tr("colocation group %1 is split").arg(QString::fromStdString(what).toHtmlEscaped());
            }
            html += "• " + text + "<br>";
        }
        if (violations.size() > shown)
            html += tr("… and %n more", nullptr, static_cast<int>(violations.size() - shown));
        html += "</p>";
    }
    m_summary->setText(html);

    std::vector<DeviceBalanceModel::Row> rows;
    rows.reserve(static_cast<size_t>(cluster.deviceCount()));
    for (int d = 0; d < cluster.deviceCount(); ++d) {
        DeviceBalanceModel::Row r;
        r.name = QString::fromStdString(cluster.device(d).name);
        r.busy = s->makespan > 0 && d < static_cast<int>(s->busy.size()) ? s->busy[d] / s->makespan : 0;
        r.memory = d < static_cast<int>(s->memory.size()) ? s->memory[d] : 0;
        r.over = r.memory > cluster.device(d).memoryBytes;
        r.ops = d < static_cast<int>(opCount.size()) ? opCount[d] : 0;
        rows.push_back(std::move(r));
    }
    m_model->setRows(std::move(rows));
}

QString MetricsView::text() const
{
    QTextDocument summary;
    summary.setHtml(m_summary->text());
    QString text = summary.toPlainText();
    for (int r = 0; r < m_model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_model->columnCount(); ++c)
            cells << m_model->data(m_model->index(r, c), Qt::DisplayRole).toString();
        text += "\n" + cells.join('\t');
    }
    return text;
}

} // namespace ps
