// The solution's entry-point signature, generated from the task, and the header that carries it.
#pragma once

#include <string>

#include "core/task.hpp"

namespace arena {

enum class SignatureFlavor { kCpu, kCuda };

// "void sgemm_f32(const float* A, ..., int64_t K)" (CUDA adds "cudaStream_t stream").
std::string signature_declaration(const Task& task, SignatureFlavor flavor);

// The whole arena_signature.h a solution is compiled against.
std::string signature_header(const Task& task, SignatureFlavor flavor);

// C source of `arena_invoke`, the judge's one fixed entry into any solution: it unpacks an array
// of pointers and scalars and calls the task's entry point with them.
std::string invoke_shim(const Task& task, SignatureFlavor flavor);

}  // namespace arena
