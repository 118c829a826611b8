// A test fixture with a directory of its own under /tmp, removed with everything in it after
// the test.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace pglab::lab::testing {

class TempDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string name = "/tmp/pglab-unit-XXXXXX";
        ASSERT_NE(::mkdtemp(name.data()), nullptr);
        m_dir = name;
    }

    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }

    std::filesystem::path m_dir;
};

} // namespace pglab::lab::testing
