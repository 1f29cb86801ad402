#pragma once
// The model map of a steering session: every candidate as a glyph in objective space (two
// selectable axes), coloured by family, sized by its agreement with the person's edits, the
// Pareto front of the two axes outlined, the best candidate ringed. Click selects (Ctrl adds).
#include "core/steering/SteeringTypes.h"

#include <QWidget>

#include <map>
#include <vector>

namespace ps {

class ModelMapView : public QWidget
{
    Q_OBJECT
public:
    enum class Axis { Ratio, Bytes, Memory, Imbalance, Score };
    static QString axisName(Axis a);
    static double axisValue(Axis a, const CandidateInfo &c);

    explicit ModelMapView(QWidget *parent = nullptr);
    // Usable candidates only; agreement in [0, 1] per candidate (same order); best: an id or -1.
    void setCandidates(std::vector<CandidateInfo> candidates, std::vector<double> agreement, int best);
    void setAxes(Axis x, Axis y);
    void setSelection(const std::vector<int> &ids);
    const std::vector<int> &selection() const { return m_selection; }
    // Pareto-optimal candidates for the current axes (both minimised), by x.
    std::vector<int> paretoFront() const;
    // The candidate whose glyph is under a widget point, or -1.
    int candidateAt(const QPoint &p) const;
    QPointF glyphCentre(int id) const;
    // Colours follow the order of the families given (distinct for the first twenty).
    void setFamilies(const std::vector<std::string> &families);
    QColor familyColor(const std::string &family) const;
    // Where the legend of the families present goes: the corner of the plot with the fewest glyphs
    // over it, the best candidate counting 8 and the Pareto front 3 (top right when several tie),
    // at most half the plot's height tall (more columns instead). It is drawn under the glyphs.
    QRectF legendRect() const;
    bool logX() const { return m_logX; }
    bool logY() const { return m_logY; }

Q_SIGNALS:
    void selectionChangedByUser(const std::vector<int> &ids);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QRectF plotRect() const;
    // The legend's layout: the families present, its rows (filled column by column) and its frame.
    struct Legend
    {
        std::vector<std::string> families;
        int rows = 1;
        QRectF box;
    };
    Legend legend(const std::vector<int> &front) const;
    QPointF toWidget(double x, double y) const;
    QPointF centreOf(const CandidateInfo &c) const; // where a candidate's glyph is drawn
    void updateRanges();

    std::vector<CandidateInfo> m_candidates;
    std::vector<double> m_agreement;
    int m_best = -1;
    Axis m_x = Axis::Ratio, m_y = Axis::Bytes;
    double m_x0 = 0, m_x1 = 1, m_y0 = 0, m_y1 = 1;
    bool m_logX = false, m_logY = false; // when the values span more than a factor of ten
    std::vector<std::string> m_families;
    std::vector<int> m_selection;
};

} // namespace ps
