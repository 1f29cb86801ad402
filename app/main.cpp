// placement-studio [FILE...] [--screenshot FILE [--dock NAME]]
#include "app/Document.h"
#include "app/MainWindow.h"
#include "app/RunsPanel.h"
#include "app/SteeringPanel.h"
#include "core/InputError.h"
#include "core/io/LoadOptions.h"
#include "models/ModelImporters.h"
#include "views/GraphView.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QThread>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void usage()
{
    std::puts("usage: placement-studio [FILE...] [--batch N] [--input-shape DIMS]... [--run 'MODEL key=value...']\n"
              "                        [--screenshot PNG [--dock NAME]]\n"
              "  FILE        graphs (.graph.json[.gz], .dot, .onnx, .pt, METIS .graph), clusters,\n"
              "              placements or a session (.pstudio); none: a built-in example\n"
              "  --batch N   a model file's batch size (fixes a symbolic one); --input-shape DIMS: a\n"
              "              model input, e.g. 1x3x224x224 or 2x5:int64 (one per input, in order)\n"
              "  --run SPEC  start a model run in the Models dock once the files are open (repeatable);\n"
              "              SPEC is 'MODEL key=value...', time=S and seed=N set its budget and seed,\n"
              "              processes=N runs a learner over N local processes\n"
              "  --steer N   run N steering rounds in the Steering dock once the files are open\n"
              "  --size WxH  the window's size\n"
              "  --screenshot PNG  render the window (or one dock: graph, devices, timeline, metrics,\n"
              "              models, steering, history, log) offscreen once everything is loaded, and exit\n"
              "              (status 1 when a file failed to open or a run failed: the picture shows it)");
}

// Waits until loads and the graph layout are done (at most `limitMs`).
bool settle(ps::MainWindow &window, int limitMs)
{
    QElapsedTimer timer;
    timer.start();
    int quiet = 0;
    while (timer.elapsed() < limitMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        quiet = window.busy() ? 0 : quiet + 1;
        if (quiet > 10)
            return true;
        QThread::msleep(10);
    }
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    QString screenshot, dockName, size;
    int steerRounds = 0;
    QStringList inputs, runs;
    ps::LoadOptions importOptions; // for model files among the inputs
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            usage();
            return 0;
        }
        if (!std::strcmp(argv[i], "--version")) {
            std::puts("placement-studio " PS_VERSION);
            return 0;
        }
        if (!std::strcmp(argv[i], "--screenshot") || !std::strcmp(argv[i], "--dock") ||
            !std::strcmp(argv[i], "--run") || !std::strcmp(argv[i], "--size") || !std::strcmp(argv[i], "--steer") ||
            !std::strcmp(argv[i], "--batch") || !std::strcmp(argv[i], "--input-shape")) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "error: %s needs a value\n", argv[i]);
                return 2;
            }
            if (!std::strcmp(argv[i], "--batch") || !std::strcmp(argv[i], "--input-shape")) {
                try {
                    if (!std::strcmp(argv[i], "--batch"))
                        importOptions.batch = ps::LoadOptions::parseBatch(argv[++i]);
                    else
                        importOptions.inputs.push_back(ps::LoadOptions::parseInput(argv[++i]));
                } catch (const ps::InputError &e) {
                    std::fprintf(stderr, "error: %s\n", e.what());
                    return 2;
                }
                continue;
            }
            if (!std::strcmp(argv[i], "--run")) {
                runs << QString::fromLocal8Bit(argv[++i]);
                continue;
            }
            if (!std::strcmp(argv[i], "--steer")) {
                steerRounds = std::atoi(argv[++i]);
                if (steerRounds < 1 || steerRounds > 1000) {
                    std::fprintf(stderr, "error: --steer needs a number of rounds from 1 to 1000\n");
                    return 2;
                }
                continue;
            }
            if (!std::strcmp(argv[i], "--size")) {
                size = QString::fromLocal8Bit(argv[++i]);
                continue;
            }
            QString &target = !std::strcmp(argv[i], "--screenshot") ? screenshot : dockName;
            target = QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        inputs << QString::fromLocal8Bit(argv[i]);
    }
    if (!screenshot.isEmpty() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setOrganizationName("PlacementStudio");
    QApplication::setApplicationName("Placement Studio");
    QApplication::setApplicationVersion(PS_VERSION);
    ps::installModelImporters();

    ps::MainWindow window;
    if (inputs.isEmpty()) {
        bool recovered = false;
        if (screenshot.isEmpty() && QFile::exists(ps::MainWindow::autosavePath()) &&
            QMessageBox::question(nullptr, QObject::tr("Placement Studio"),
                                  QObject::tr("The last session ended without saving. Recover its work?")) ==
                QMessageBox::Yes)
            recovered = window.recoverAutosave();
        if (!recovered)
            window.openExample();
    } else {
        window.openFiles(inputs, importOptions);
    }
    if (!size.isEmpty()) {
        const QStringList wh = size.split('x');
        if (wh.size() != 2 || wh[0].toInt() < 200 || wh[1].toInt() < 200) {
            std::fprintf(stderr, "error: --size needs WIDTHxHEIGHT, e.g. 1600x1000\n");
            return 2;
        }
        window.resize(wh[0].toInt(), wh[1].toInt());
    }
    window.show();
    if (!runs.isEmpty()) {
        settle(window, 120000); // the files first
        for (const QString &spec : runs)
            window.runsPanel()->startSpec(spec);
    }
    if (steerRounds > 0) {
        settle(window, 120000);
        window.steeringPanel()->runRounds(steerRounds);
    }
    if (screenshot.isEmpty())
        return app.exec();

    if (!settle(window, 120000))
        std::fprintf(stderr, "warning: still loading after 120 s; the screenshot shows the state so far\n");
    QWidget *target = &window;
    if (!dockName.isEmpty()) {
        QDockWidget *dock = window.dock(dockName);
        if (!dock) {
            std::fprintf(stderr, "error: no dock named '%s'\n", qPrintable(dockName));
            return 2;
        }
        dock->show();
        dock->raise();
        settle(window, 2000);
        target = dock;
    }
    if (!target->grab().save(screenshot)) {
        std::fprintf(stderr, "error: cannot write %s\n", qPrintable(screenshot));
        return 2;
    }
    std::printf("wrote %s\n", qPrintable(screenshot));
    // The picture shows what went wrong, but a script must hear of it too.
    if (window.errorCount() > 0) {
        QString text = window.lastError();
        if (window.errorCount() > 1)
            text += QStringLiteral(" (and %1 more; see the Log)").arg(window.errorCount() - 1);
        std::fprintf(stderr, "error: %s\n", qPrintable(text));
        return 1;
    }
    return 0;
}
