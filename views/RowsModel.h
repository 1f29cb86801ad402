#pragma once
// An editable table over a vector of plain rows, its columns described by functions (no item per
// cell, so a table of a million rows costs what the rows cost). A cell edit that parses is kept
// and reported with changed(); one that does not is refused with why (the row stays as it was).
#include <QAbstractTableModel>
#include <QString>

#include <cmath>
#include <functional>
#include <utility>
#include <vector>

namespace ps {

template <class Row>
class RowsModel : public QAbstractTableModel
{
public:
    struct Column
    {
        QString header;
        std::function<QString(const Row &)> text;            // none: a check box column
        std::function<QString(Row &, const QString &)> edit; // sets the cell; a reason when it cannot
        bool Row::*check = nullptr;
    };

    // `rowWord` names a row in a refusal ("row 3: 'fast' is not a non-negative number").
    RowsModel(std::vector<Column> columns, QString rowWord, QObject *parent)
        : QAbstractTableModel(parent), m_columns(std::move(columns)), m_rowWord(std::move(rowWord))
    {}

    std::function<void()> changed;
    std::function<void(const QString &)> refused;

    const std::vector<Row> &rows() const { return m_rows; }
    // New rows; as many as before, they replace the old in place, so that the views keep their
    // current cell, selection and scroll position (the cluster after an edit or an undo).
    void reset(std::vector<Row> rows)
    {
        if (rows.size() == m_rows.size() && !rows.empty()) {
            m_rows = std::move(rows);
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
            return;
        }
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    void append(Row row)
    {
        const int r = rowCount();
        beginInsertRows({}, r, r);
        m_rows.push_back(std::move(row));
        endInsertRows();
    }
    // Removes the rows `drop` says, keeping the others in order.
    void removeIf(const std::function<bool(int, const Row &)> &drop)
    {
        std::vector<Row> kept;
        kept.reserve(m_rows.size());
        for (size_t r = 0; r < m_rows.size(); ++r)
            if (!drop(static_cast<int>(r), m_rows[r]))
                kept.push_back(std::move(m_rows[r]));
        reset(std::move(kept));
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section < columnCount())
            return m_columns[static_cast<size_t>(section)].header;
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    Qt::ItemFlags flags(const QModelIndex &index) const override
    {
        if (!index.isValid())
            return Qt::NoItemFlags;
        const Column &c = m_columns[static_cast<size_t>(index.column())];
        return Qt::ItemIsEnabled | Qt::ItemIsSelectable | (c.check ? Qt::ItemIsUserCheckable : Qt::ItemIsEditable);
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid())
            return {};
        const Column &c = m_columns[static_cast<size_t>(index.column())];
        const Row &row = m_rows[static_cast<size_t>(index.row())];
        if (c.check)
            return role == Qt::CheckStateRole ? QVariant(row.*c.check ? Qt::Checked : Qt::Unchecked) : QVariant();
        return role == Qt::DisplayRole || role == Qt::EditRole ? QVariant(c.text(row)) : QVariant();
    }
    bool setData(const QModelIndex &index, const QVariant &value, int role) override
    {
        if (!index.isValid())
            return false;
        const Column &c = m_columns[static_cast<size_t>(index.column())];
        Row &row = m_rows[static_cast<size_t>(index.row())];
        if (c.check) {
            if (role != Qt::CheckStateRole)
                return false;
            row.*c.check = value.toInt() == Qt::Checked;
        } else {
            if (role != Qt::EditRole)
                return false;
            const QString text = value.toString().trimmed();
            const QString why = c.edit(row, text);
            if (!why.isEmpty()) {
                if (refused)
                    refused(QStringLiteral("%1 %2: '%3' %4").arg(m_rowWord).arg(index.row() + 1).arg(text, why));
                return false;
            }
        }
        Q_EMIT dataChanged(index, index);
        if (changed)
            changed();
        return true;
    }

    // A column of a number shown divided by `scale` (a non-negative, finite one).
    static Column number(QString header, std::function<double &(Row &)> field, double scale)
    {
        Column c;
        c.header = std::move(header);
        c.text = [field, scale](const Row &r) { return QString::number(field(const_cast<Row &>(r)) / scale, 'g', 6); };
        c.edit = [field, scale](Row &r, const QString &text) {
            bool ok = false;
            const double v = text.toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                return QStringLiteral("is not a non-negative number");
            field(r) = v * scale;
            return QString();
        };
        return c;
    }
    // A column of a name or other text.
    static Column text(QString header, std::function<std::string &(Row &)> field)
    {
        Column c;
        c.header = std::move(header);
        c.text = [field](const Row &r) { return QString::fromStdString(field(const_cast<Row &>(r))); };
        c.edit = [field](Row &r, const QString &text) {
            field(r) = text.toStdString();
            return QString();
        };
        return c;
    }

private:
    std::vector<Column> m_columns;
    QString m_rowWord;
    std::vector<Row> m_rows;
};

} // namespace ps
