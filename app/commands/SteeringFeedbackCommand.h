#pragma once
// One undo step of steering feedback (a weight change, a family's weight, a preference, a
// verdict): redo applies `forward`, undo applies `backward`, each recorded by the session like
// any feedback, so the log replays what the person did, undos included.
#include "core/steering/SteeringTypes.h"

#include <QUndoCommand>

namespace ps {

class SteeringController;

class SteeringFeedbackCommand : public QUndoCommand
{
public:
    SteeringFeedbackCommand(SteeringController *controller, SteeringFeedback forward, SteeringFeedback backward,
                            const QString &text);
    void redo() override;
    void undo() override;

private:
    SteeringController *m_controller;
    SteeringFeedback m_forward, m_backward;
};

} // namespace ps
