#pragma once
// Private to models/torch: where the learners' large CPU tensors live. See TensorMemory.cpp.
#include <cstddef>
#include <memory>

namespace ps::learn {

// From the first call on, LibTorch's CPU tensors of 1 MB and more are mapped in whole huge pages
// (transparent huge pages, where the kernel allows them on request) and, while any learned run
// holds the returned token, kept for reuse when freed (up to 1 GB, or an eighth of the machine's
// memory if less). When the last token goes, the kept blocks go back to the kernel.
std::shared_ptr<void> holdTensorMemory();
// The bytes of freed blocks kept for reuse now.
size_t keptTensorBytes();

} // namespace ps::learn
