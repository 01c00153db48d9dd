// The device helper's own work on a real GPU (label gpu), against the host's: inputs drawn on
// the device are the host generator's (uniform and integer bit for bit, normal within one unit
// in the last place of the dtype), and its tolerance check counts exactly the elements the host
// checker rejects. Skips, saying why, where no GPU is visible.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <vector>

#include "core/dtype_bits.hpp"
#include "core/subprocess.hpp"
#include "core/task_loader.hpp"
#include "judge/checker.hpp"
#include "judge/device_plane.hpp"
#include "judge/input_generator.hpp"
#include "judge/random.hpp"

namespace arena {
namespace {

class DeviceHelper : public ::testing::Test {
 protected:
  void SetUp() override {
    auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
    if (info.exit_code != 0)
      GTEST_SKIP() << "no GPU visible (" << info.output << "): device helper tests skipped";
  }
  static RunnerSpec helper() {
    RunnerSpec s;
    s.binary = ARENA_DEVICE_HELPER;
    s.extra_args = {"0"};
    return s;
  }
};

int mantissa_bits(DType t) {
  switch (t) {
    case DType::kFp32:
      return 23;
    case DType::kFp16:
      return 10;
    case DType::kBf16:
      return 7;
    case DType::kFp8E4m3:
      return 3;
    default:
      return 0;
  }
}

// Every elementwise input of every CUDA task, at its first visible shape, at magnitude 1 and at
// the held-out stress the task declares (heldout.magnitude), the only magnitudes the judge uses.
TEST_F(DeviceHelper, InputsDrawnOnTheDeviceAreTheHostGenerators) {
  DevicePlane plane(helper());
  ASSERT_EQ(plane.unavailable(), "");
  int tensors = 0;
  for (const auto& dir :
       std::filesystem::directory_iterator(std::string(ARENA_SOURCE_DIR) + "/tasks/cuda")) {
    const Task task = load_task(dir.path());
    const Shape& shape = task.visible.at(0);
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      const TensorSpec& spec = task.tensors[i];
      if (spec.role != Role::kInput) continue;
      std::vector<double> magnitudes = {1.0};
      if (task.heldout.magnitude > 1) magnitudes.push_back(task.heldout.magnitude);
      for (double magnitude : magnitudes) {
        auto draw = elementwise_draw(task, shape, i, 0x5EED, magnitude);
        if (!draw) continue;
        const HostBuffer host = generate_input(task, shape, i, 0x5EED, magnitude);
        std::string why;
        DevicePlane::Buffer b = plane.allocate(host.size() + 64, false, &why);
        ASSERT_NE(b.id, 0u) << why;
        plane.generate(b, 64, host.size() / dtype_size(spec.dtype), spec.dtype, *draw);
        HostBuffer device(host.size());
        plane.download(b, 64, device.data(), device.size());
        plane.release(b);
        const std::string what = task.id + " '" + spec.name + "' at " + shape.label() +
                                 " magnitude " + std::to_string(magnitude);
        if (draw->kind != ElementDraw::Kind::kNormal) {
          EXPECT_TRUE(device == host) << what << ": not the host's bytes";
        } else {
          size_t differ = 0;
          const size_t n = host.size() / dtype_size(spec.dtype);
          for (size_t k = 0; k < n; ++k) {
            const double h = load_element(spec.dtype, host.data(), k),
                         d = load_element(spec.dtype, device.data(), k);
            if (h == d || (std::isnan(h) && std::isnan(d))) continue;
            ++differ;
            const double ulp = std::ldexp(1.0, std::ilogb(h) - mantissa_bits(spec.dtype));
            ASSERT_LE(std::fabs(h - d), ulp)
                << what << " element " << k << ": host " << h << ", device " << d;
          }
          EXPECT_LE(differ * 1000, n)
              << what << ": " << differ << " of " << n << " differ by an ulp";
        }
        ++tensors;
      }
    }
  }
  EXPECT_GT(tensors, 20) << "the CUDA tasks' elementwise inputs";
}

// Values around the bound (atol + rtol * |expected|), NaNs and infinities: the device's count
// and first index are the host checker's, for fp32 and bf16 alike.
TEST_F(DeviceHelper, TheToleranceCheckIsTheHostCheckers) {
  DevicePlane plane(helper());
  ASSERT_EQ(plane.unavailable(), "");
  const size_t n = size_t{1} << 22;
  for (DType dtype : {DType::kFp32, DType::kBf16}) {
    const size_t size = dtype_size(dtype);
    // bf16's rtol above its own rounding (2^-8 relative): with 1e-3, a value a bound away from
    // its expected one would round back onto it and the data would not straddle the bound.
    const Tolerance tol = dtype == DType::kFp32 ? Tolerance{1e-5, 1e-3} : Tolerance{1e-3, 1.6e-2};
    HostBuffer expected(n * size), got(n * size);
    for (size_t i = 0; i < n; ++i) {
      const double e = (random_unit(1, i) - 0.5) * 200;
      store_element(dtype, expected.data(), i, e);
      const double stored = load_element(dtype, expected.data(), i);
      const double bound = tol.atol + tol.rtol * std::fabs(stored);
      // Within or past the bound by a hair, either side; now and then a NaN or an infinity.
      double g =
          stored + (random_unit(2, i) < 0.5 ? -1 : 1) * bound * (0.999 + 0.002 * random_unit(3, i));
      const uint64_t r = random_bits(4, i) % 1000;
      if (r == 0) g = std::numeric_limits<double>::quiet_NaN();
      if (r == 1) g = std::numeric_limits<double>::infinity();
      store_element(dtype, got.data(), i, g);
    }
    std::string why;
    DevicePlane::Buffer a = plane.allocate(n * size, false, &why),
                        b = plane.allocate(n * size, false, &why);
    ASSERT_NE(b.id, 0u) << why;
    plane.upload(a, 0, got.data(), got.size());
    plane.upload(b, 0, expected.data(), expected.size());
    const auto device = plane.check(a, 0, b, 0, n, dtype, tol.atol, tol.rtol);
    TensorSpec spec;
    spec.name = "y";
    spec.dtype = dtype;
    const OutputCheck host = check_output(spec, {static_cast<int64_t>(n)}, got.data(),
                                          expected.data(), tol, make_poison(dtype, 0));
    EXPECT_EQ(device.elements, static_cast<uint64_t>(host.mismatches)) << dtype_name(dtype);
    EXPECT_GT(host.mismatches, static_cast<int64_t>(n / 10)) << "the data straddles the bound";
    EXPECT_LT(host.mismatches, static_cast<int64_t>(n)) << "the data straddles the bound";
    ASSERT_TRUE(host.first.has_value());
    EXPECT_EQ(device.first, static_cast<uint64_t>(host.first->index)) << dtype_name(dtype);
    plane.release(a);
    plane.release(b);
  }
}

}  // namespace
}  // namespace arena
