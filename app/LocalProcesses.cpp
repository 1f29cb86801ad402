#include "app/LocalProcesses.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>

namespace ps {

QString cliProgram()
{
    if (const QString given = qEnvironmentVariable("PLACEMENT_CLI"); !given.isEmpty())
        return given;
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString &p : {dir + "/placement-cli", dir + "/cli/placement-cli"})
        if (QFileInfo(p).isExecutable())
            return p;
    return QStandardPaths::findExecutable("placement-cli");
}

int freeLoopbackPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace ps
