#include "app/commands/SteeringFeedbackCommand.h"

#include "app/SteeringController.h"

namespace ps {

SteeringFeedbackCommand::SteeringFeedbackCommand(SteeringController *controller, SteeringFeedback forward,
                                                 SteeringFeedback backward, const QString &text)
    : QUndoCommand(text), m_controller(controller), m_forward(std::move(forward)), m_backward(std::move(backward))
{}

void SteeringFeedbackCommand::redo()
{
    m_controller->apply(m_forward);
}

void SteeringFeedbackCommand::undo()
{
    m_controller->apply(m_backward);
}

} // namespace ps
