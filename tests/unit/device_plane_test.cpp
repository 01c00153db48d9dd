// The judge's client of its device helper (judge/device_plane.hpp), against a stand-in helper
// that speaks the same protocol with host memory (fake_device_helper.cpp): the GPU side itself
// is tested on a GPU (tests/gpu, TimedDataStaysOnTheDeviceUnlessTurnedOff and others).
#include "judge/device_plane.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/error.hpp"

namespace arena {
namespace {

RunnerSpec fake_helper() {
  RunnerSpec s;
  s.binary = FAKE_DEVICE_HELPER;
  s.library = "-";
  s.extra_args = {"0"};
  return s;
}

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed) % 251);
  return v;
}

// More than the 64 MiB staging region: uploads and downloads go through it in pieces.
TEST(DevicePlane, UploadAndDownloadGoThroughTheStagingRegionInPieces) {
  DevicePlane plane(fake_helper());
  ASSERT_EQ(plane.unavailable(), "");
  std::string why;
  const size_t n = (size_t{64} << 20) + 12345;
  DevicePlane::Buffer b = plane.allocate(n, false, &why);
  ASSERT_NE(b.id, 0u) << why;
  EXPECT_GE(b.bytes, n);
  EXPECT_EQ(b.fd, -1) << "only exported buffers come with a descriptor";
  auto data = pattern(n, 7);
  plane.upload(b, 0, data.data(), n);
  std::vector<unsigned char> back(n);
  plane.download(b, 0, back.data(), n);
  EXPECT_EQ(back, data);
  plane.release(b);
  EXPECT_EQ(b.id, 0u);
}

TEST(DevicePlane, MovesFillsAndComparesSayWhereBytesDiffer) {
  DevicePlane plane(fake_helper());
  std::string why;
  DevicePlane::Buffer a = plane.allocate(4096, false, &why), b = plane.allocate(4096, false, &why);
  auto data = pattern(4096, 3);
  plane.upload(a, 0, data.data(), data.size());
  // b = a with its two halves swapped.
  plane.move(b, a, {{0, 2048, 2048}, {2048, 0, 2048}});
  std::vector<unsigned char> got(4096);
  plane.download(b, 0, got.data(), got.size());
  EXPECT_TRUE(std::equal(got.begin(), got.begin() + 2048, data.begin() + 2048));
  EXPECT_TRUE(std::equal(got.begin() + 2048, got.end(), data.begin()));
  plane.copy(b, 0, a, 0, 4096);
  plane.fill(b, 1000, 10, 4, 0x7FC00001u);  // ten fp32 NaNs with a payload, at byte 1000
  auto d = plane.compare(a, b, {{0, 1000}, {996, 100}, {2000, 2096}});
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].bytes, 0u);
  EXPECT_EQ(d[0].first, ~uint64_t{0});
  EXPECT_GT(d[1].bytes, 0u);
  EXPECT_LE(d[1].bytes, 40u);
  EXPECT_GE(d[1].first, 4u) << "the first differing byte is at or after 1000, 4 into the range";
  EXPECT_EQ(d[2].bytes, 0u);
}

// A device without room answers, it does not die: the judge falls back to its host path with
// the reason, and the plane still serves smaller buffers.
TEST(DevicePlane, NoRoomIsAnAnswerAndThePlaneGoesOn) {
  setenv("FAKE_DEVICE_BYTES", "1048576", 1);
  DevicePlane plane(fake_helper());
  ASSERT_EQ(plane.unavailable(), "");
  unsetenv("FAKE_DEVICE_BYTES");
  std::string why;
  DevicePlane::Buffer big = plane.allocate(size_t{8} << 20, true, &why);
  EXPECT_EQ(big.id, 0u);
  EXPECT_EQ(big.fd, -1);
  EXPECT_NE(why.find("could not allocate"), std::string::npos) << why;
  EXPECT_NE(why.find("out of memory"), std::string::npos) << why;
  DevicePlane::Buffer small = plane.allocate(4096, true, &why);
  ASSERT_NE(small.id, 0u);
  ASSERT_GE(small.fd, 0) << "an exported buffer comes with its descriptor";
  const unsigned char bytes[4] = {1, 2, 3, 4};
  plane.upload(small, 8, bytes, 4);
  // The descriptor maps the same memory (a runner maps it as its device copy of the region).
  void* p = mmap(nullptr, 4096, PROT_READ, MAP_SHARED, small.fd, 0);
  ASSERT_NE(p, MAP_FAILED);
  EXPECT_EQ(std::memcmp(static_cast<unsigned char*>(p) + 8, bytes, 4), 0);
  munmap(p, 4096);
  plane.release(small);
}

TEST(DevicePlane, AHelperThatCannotStartMakesThePlaneUnavailableWithTheReason) {
  RunnerSpec s = fake_helper();
  s.binary = "/nonexistent/arena-device-helper";
  DevicePlane plane(s);
  EXPECT_NE(plane.unavailable().find("the device helper did not start"), std::string::npos) << plane.unavailable();
  std::string why;
  EXPECT_THROW(plane.allocate(4096, false, &why), InternalError);
}

}  // namespace
}  // namespace arena
