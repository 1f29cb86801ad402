#pragma once
// The policies shipped with the app (resources/pretrained, made by scripts/pretrain): one
// checkpoint per family and device count (for gap, part count), named
// "<family>-<devices>dev.ckpt". The folder is $PS_PRETRAINED_DIR when set, else the source tree's.
#include <string>
#include <vector>

namespace ps {

std::string pretrainedFolder();
// The device counts a family's shipped policies are for (ascending; empty: none shipped).
std::vector<int> pretrainedDeviceCounts(const std::string &family);
// The shipped checkpoint of `family` for `devices`; an InputError naming the counts that are
// shipped when there is none for this one.
std::string pretrainedCheckpoint(const std::string &family, int devices);

} // namespace ps
