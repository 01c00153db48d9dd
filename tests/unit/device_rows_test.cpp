// The per-device tables' shared lookup: the longest key the device's name contains.
#include "judge/device_rows.hpp"

#include <gtest/gtest.h>

#include <array>

namespace arena {
namespace {

struct Row {
  const char* device;
  int value;
};

const char* key(const Row& r) { return r.device; }

TEST(DeviceRows, TheLongestKeyTheNameContainsWinsWhateverTheOrder) {
  const std::array<Row, 3> family_first = {{{"H100", 1}, {"H100 NVL", 2}, {"H200", 3}}};
  const std::array<Row, 3> variant_first = {{{"H100 NVL", 2}, {"H100", 1}, {"H200", 3}}};
  for (const auto* rows : {&family_first, &variant_first}) {
    ASSERT_NE(device_row(*rows, "NVIDIA H100 NVL", key), nullptr);
    EXPECT_EQ(device_row(*rows, "NVIDIA H100 NVL", key)->value, 2);
    EXPECT_EQ(device_row(*rows, "NVIDIA H100 80GB HBM3", key)->value, 1);
    EXPECT_EQ(device_row(*rows, "NVIDIA H200", key)->value, 3);
  }
}

TEST(DeviceRows, NoRowForADeviceNoKeyFits) {
  const std::array<Row, 2> rows = {{{"H100", 1}, {"", 9}}};  // an empty key fits nothing
  EXPECT_EQ(device_row(rows, "NVIDIA A100-SXM4-80GB", key), nullptr);
  EXPECT_EQ(device_row(rows, "", key), nullptr);
}

TEST(DeviceRows, AMeasuredRowFitsOnlyThePartOfItsWholeName) {
  const std::array<Row, 2> rows = {{{"NVIDIA H200", 1}, {"NVIDIA H100 80GB HBM3", 2}}};
  ASSERT_NE(measured_device_row(rows, "NVIDIA H200", key), nullptr);
  EXPECT_EQ(measured_device_row(rows, "NVIDIA H200", key)->value, 1);
  EXPECT_EQ(measured_device_row(rows, "NVIDIA H100 80GB HBM3", key)->value, 2);
  EXPECT_EQ(measured_device_row(rows, "NVIDIA H200 NVL", key), nullptr);  // a variant the name contains
  EXPECT_EQ(measured_device_row(rows, "H200", key), nullptr);
  EXPECT_EQ(measured_device_row(rows, "", key), nullptr);
}

}  // namespace
}  // namespace arena
