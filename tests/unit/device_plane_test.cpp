// The judge's client of its device helper (judge/device_plane.hpp), against a stand-in helper
// that speaks the same protocol with host memory (fake_device_helper.cpp): the GPU side itself
// is tested on a GPU (tests/gpu, TimedDataStaysOnTheDeviceUnlessTurnedOff and others).
#include "judge/device_plane.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "judge/checker.hpp"
#include "judge/device_guards.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

RunnerSpec fake_helper() {
  RunnerSpec s;
  s.binary = FAKE_DEVICE_HELPER;
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

// A reordering of two axes (a transpose's) makes one move per few elements: hundreds of thousands
// in a list. The plane sends them in requests the helper applies in one launch each
// (protocol::kDevMovesPerRequest), and every move lands.
TEST(DevicePlane, ALongListOfMovesGoesInRequestsOfOneLaunchEach) {
  DevicePlane plane(fake_helper());
  ASSERT_EQ(plane.unavailable(), "");
  const size_t elements = 3 * protocol::kDevMovesPerRequest + 17;
  std::string why;
  DevicePlane::Buffer a = plane.allocate(elements * 4, false, &why), b = plane.allocate(elements * 4, false, &why);
  std::vector<uint32_t> data(elements);
  for (size_t i = 0; i < elements; ++i) data[i] = static_cast<uint32_t>(i * 2654435761u);
  plane.upload(a, 0, data.data(), elements * 4);
  std::vector<ByteMove> reversed;  // element i to elements - 1 - i, one move each
  for (size_t i = 0; i < elements; ++i) reversed.push_back({i * 4, (elements - 1 - i) * 4, 4});
  plane.move(b, a, reversed);
  std::vector<uint32_t> got(elements);
  plane.download(b, 0, got.data(), elements * 4);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), data.rbegin()));
}

// A view of a buffer (a timed lane's placement: judge/placements.hpp) is the same bytes from its
// base on: every operation given the view lands there, and views of one buffer at different
// bases compare, copy and move between each other.
TEST(DevicePlane, AViewsOffsetsAreFromItsBase) {
  DevicePlane plane(fake_helper());
  ASSERT_EQ(plane.unavailable(), "");
  std::string why;
  DevicePlane::Buffer whole = plane.allocate(3 * 4096, false, &why);
  ASSERT_NE(whole.id, 0u) << why;
  const std::vector<unsigned char> zero(3 * 4096, 0);
  plane.upload(whole, 0, zero.data(), zero.size());
  DevicePlane::Buffer first = whole.view(0, 4096), second = whole.view(4096, 4096), third = whole.view(8192, 4096);
  auto data = pattern(4096, 11);
  plane.upload(second, 0, data.data(), 4096);
  std::vector<unsigned char> back(3 * 4096);
  plane.download(whole, 0, back.data(), back.size());
  EXPECT_TRUE(std::equal(back.begin() + 4096, back.begin() + 8192, data.begin()));
  EXPECT_TRUE(std::all_of(back.begin(), back.begin() + 4096, [](unsigned char c) { return c == 0; }));
  std::vector<unsigned char> part(100);
  plane.download(second, 1000, part.data(), 100);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), data.begin() + 1000));
  // Copy and move from one view to another; compare the two.
  plane.copy(third, 0, second, 0, 2048);
  plane.move(third, second, {{2048, 2048, 2048}});
  auto same = plane.compare(second, third, {{0, 4096}});
  EXPECT_EQ(same.at(0).bytes, 0u) << "the third view holds the second's bytes";
  auto differ = plane.compare(first, third, {{0, 4096}});
  EXPECT_GT(differ.at(0).bytes, 0u) << "the first view is still zero";
  plane.fill(third, 400, 1, 4, 0xFFFFFFFFu);
  auto one = plane.compare(second, third, {{0, 4096}});
  EXPECT_EQ(one.at(0).first, 400u);
  EXPECT_LE(one.at(0).bytes, 4u);
  // Guard zones scattered into a view land at its base too.
  std::vector<unsigned char> image(4096, 0x5A);
  plane.upload_scattered(first, reinterpret_cast<const std::byte*>(image.data()), {{16, 16, 8}});
  plane.download(whole, 0, back.data(), 32);
  EXPECT_EQ(back[16], 0x5A);
  EXPECT_EQ(back[24], 0);
  EXPECT_THROW(plane.release(second), InternalError)
      << "a view is not an allocation of its own";
  plane.release(whole);
}

// A device without room answers, it does not die: the judge falls back to its host path with
// the reason, and the plane still serves smaller buffers.
TEST(DevicePlane, NoRoomIsAnAnswerAndThePlaneGoesOn) {
  std::optional<testing::ScopedEnv> small_device(std::in_place, "FAKE_DEVICE_BYTES", "1048576");
  DevicePlane plane(fake_helper());
  ASSERT_EQ(plane.unavailable(), "");
  small_device.reset();  // the helper has read it
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

// The device's check of an output counts the elements the host checker rejects, with the
// tolerance, dtype and offsets as sent: NaN against a number, infinities of either sign, a
// difference just past the bound and one just within it.
TEST(DevicePlane, CheckCountsTheElementsTheHostCheckerRejects) {
  DevicePlane plane(fake_helper());
  std::string why;
  DevicePlane::Buffer got = plane.allocate(8192, false, &why), want = plane.allocate(8192, false, &why);
  ASSERT_NE(got.id, 0u) << why;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> expected(300), output(300);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = output[i] = 0.5f + static_cast<float>(i);
  output[7] = nan;                    // NaN where a number is expected
  expected[20] = inf;                 // +inf expected, -inf given
  output[20] = -inf;
  expected[33] = nan;                 // NaN expected and given: passes
  output[33] = nan;
  output[40] = expected[40] + 0.05f;  // past atol + rtol * |expected| = 0.001 + 0.001 * 40.5
  output[41] = expected[41] + 0.04f;  // within 0.001 + 0.001 * 41.5 = 0.0425
  plane.upload(want, 512, expected.data(), expected.size() * 4);
  plane.upload(got, 1024, output.data(), output.size() * 4);
  const Tolerance tol{1e-3, 1e-3};
  auto d = plane.check(got, 1024, want, 512, expected.size(), DType::kFp32, tol.atol, tol.rtol);
  TensorSpec spec;
  spec.name = "y";
  spec.dtype = DType::kFp32;
  OutputCheck host = check_output(spec, {300}, output.data(), expected.data(), tol, make_poison(DType::kFp32, 0));
  EXPECT_EQ(d.elements, static_cast<uint64_t>(host.mismatches));
  EXPECT_EQ(d.elements, 3u);
  ASSERT_TRUE(host.first.has_value());
  EXPECT_EQ(d.first, static_cast<uint64_t>(host.first->index));
  // The same bytes read as bf16 elements: another dtype, another count, still the host's.
  auto b = plane.check(got, 1024, want, 512, 600, DType::kBf16, tol.atol, tol.rtol);
  spec.dtype = DType::kBf16;
  OutputCheck host_b = check_output(spec, {600}, output.data(), expected.data(), tol, make_poison(DType::kBf16, 0));
  EXPECT_EQ(b.elements, static_cast<uint64_t>(host_b.mismatches));
  // Equal buffers: nothing out of tolerance, no first index.
  auto none = plane.check(want, 512, want, 512, 300, DType::kFp32, 0, 0);
  EXPECT_EQ(none.elements, 0u);
  EXPECT_EQ(none.first, ~uint64_t{0});
}

// Guard bytes laid out on the device from their key, copied into a lane's buffer, and a write
// into one found there with the host checker's answer (which zone, how far from the edge).
TEST(DevicePlane, GuardZonesAreLaidOutAndCheckedOnTheDevice) {
  DevicePlane plane(fake_helper());
  std::string why;
  BufferLayout layout = make_layout({1000, 64});
  DevicePlane::Buffer image = plane.allocate(layout.total_bytes, false, &why);
  DevicePlane::Buffer lane = plane.allocate(layout.total_bytes, false, &why);
  ASSERT_NE(lane.id, 0u) << why;
  const uint64_t key = 0xC0FFEE;
  std::vector<ByteMove> zones = upload_guards(plane, image, layout, key);
  EXPECT_EQ(zones.size(), 4u);
  plane.move(lane, image, zones);
  EXPECT_FALSE(guard_violation_on_device(plane, lane, image, layout, key).has_value());
  // The zone after the first tensor, 12 bytes past its end.
  std::vector<unsigned char> before(1);
  plane.download(lane, layout.slots[0].offset + 1000 + 12, before.data(), 1);
  const unsigned char changed = static_cast<unsigned char>(before[0] ^ 0xFF);
  plane.upload(lane, layout.slots[0].offset + 1000 + 12, &changed, 1);
  auto v = guard_violation_on_device(plane, lane, image, layout, key);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->slot, 0u);
  EXPECT_TRUE(v->after);
  EXPECT_EQ(v->byte_distance, 12u);
}

// Inputs drawn by the helper: the draw's fields arrive as sent (kind, key, span, the six
// doubles, the dtype) and element i lands at offset + i * size; the stand-in computes them with
// the same shared formula as the host generator, so its bytes are draw_element's.
TEST(DevicePlane, GenerateSendsTheDrawAsItIs) {
  DevicePlane plane(fake_helper());
  std::string why;
  DevicePlane::Buffer b = plane.allocate(8192, false, &why);
  ASSERT_NE(b.id, 0u) << why;
  struct Case {
    ElementDraw draw;
    DType dtype;
  };
  ElementDraw uniform{ElementDraw::Kind::kUniform, 0x1234, 1, 0.25, 3.0, -1, 2, 0, 1};
  ElementDraw normal{ElementDraw::Kind::kNormal, 0x99, 1, 0.5, 2.0, 0, 1, -0.5, 1.5};
  ElementDraw integer{ElementDraw::Kind::kInteger, 0x42, 17, 0, 1, -3, 13, 0, 1};
  for (const Case& c : {Case{uniform, DType::kFp32}, Case{normal, DType::kBf16}, Case{integer, DType::kInt32}}) {
    const size_t n = 1000, size = dtype_size(c.dtype);
    plane.generate(b, 128, n, c.dtype, c.draw);
    std::vector<std::byte> got(n * size), want(n * size);
    plane.download(b, 128, got.data(), got.size());
    for (size_t i = 0; i < n; ++i) store_element(c.dtype, want.data(), i, draw_element(c.draw, i));
    EXPECT_TRUE(got == want) << dtype_name(c.dtype);
  }
  // Integers stay in [low, low + span).
  std::vector<int32_t> ints(1000);
  plane.download(b, 128, ints.data(), ints.size() * 4);
  EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), -3);
  EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 13);
}

}  // namespace
}  // namespace arena
