#pragma once
// The learned families' names, descriptions and hyperparameters (which are tuned, and how), apart
// from their LibTorch code: plain data, so that the tables are read and changed without a torch
// build, and the torch .cpp files hold the algorithms alone.
#include "core/family/ModelFamily.h"

namespace ps {

FamilyInfo gapFamilyInfo();
FamilyInfo rlSeq2SeqFamilyInfo();
FamilyInfo gdpFamilyInfo();
FamilyInfo giphFamilyInfo();

} // namespace ps
