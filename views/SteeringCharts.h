#pragma once
// Two small charts of the Steering dock: the agreement matrix (pairwise share of ops placed
// alike among the top candidates, after aligning equal devices) and hyperparameters against
// score for one family (evaluated points, and the predictor's estimate along one parameter).
#include <QString>
#include <QWidget>

#include <vector>

namespace ps {

class AgreementMatrixView : public QWidget
{
    Q_OBJECT
public:
    explicit AgreementMatrixView(QWidget *parent = nullptr);
    // similarity[i][j] in [0, 1]; labels per row.
    void setMatrix(std::vector<std::vector<double>> similarity, std::vector<QString> labels);
    double value(int i, int j) const { return m_similarity.at(i).at(j); }
    // What the cell under `pos` says ("#10 and #25: 87% of ops placed alike"), shown on hover:
    // small cells carry no number. Empty off the cells.
    QString tipAt(const QPoint &pos) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    static constexpr double kLeft = 44, kTop = 4; // the labels' column, the margin above
    double cellSize() const;

    std::vector<std::vector<double>> m_similarity;
    std::vector<QString> m_labels;
};

class ParamScoreView : public QWidget
{
    Q_OBJECT
public:
    explicit ParamScoreView(QWidget *parent = nullptr);
    // Points: (parameter value, score); curve: the estimate along the parameter, with its band.
    struct Point
    {
        double x, y;
    };
    // `measure` names the score's axis ("log(score / best)").
    void setData(const QString &parameter, std::vector<Point> evaluated, std::vector<Point> estimate,
                 std::vector<double> uncertainty, const QString &measure = QString());
    const std::vector<Point> &evaluated() const { return m_evaluated; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_parameter, m_measure;
    std::vector<Point> m_evaluated, m_estimate;
    std::vector<double> m_uncertainty;
};

} // namespace ps
