// read_machine_info: CPU model and memory from a proc directory, cores and kernel of this machine;
// missing or odd files leave fields unknown instead of failing.
#include "util/machine_info.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace pglab::util {
namespace {

namespace fs = std::filesystem;

class MachineInfoTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/pglab-machine-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(m_dir / name) << text;
    }

    fs::path m_dir;
};

TEST_F(MachineInfoTest, ReadsTheFirstModelNameAndMemTotal) {
    write("cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
                     "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\n"
                     "processor\t: 1\nmodel name\t: Another CPU\n");
    write("meminfo", "MemTotal:       24641796 kB\nMemFree:         1000000 kB\n");
    const MachineInfo m = read_machine_info(m_dir);
    EXPECT_EQ(m.cpu_model, "Intel(R) Xeon(R) CPU @ 2.20GHz");
    EXPECT_EQ(m.memory_bytes, 24641796LL * 1024);
    EXPECT_EQ(m.cores, static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)));
    EXPECT_EQ(m.kernel.rfind("Linux ", 0), 0U) << m.kernel;
}

TEST_F(MachineInfoTest, MissingOrOddFilesLeaveFieldsUnknown) {
    EXPECT_EQ(read_machine_info(m_dir).cpu_model, "");
    EXPECT_EQ(read_machine_info(m_dir).memory_bytes, 0);
    write("cpuinfo", "model name\t:\nmodel name:   \n"); // ARM kernels have no model name at all
    write("meminfo", "MemTotal: lots\n");
    const MachineInfo m = read_machine_info(m_dir);
    EXPECT_EQ(m.cpu_model, "");
    EXPECT_EQ(m.memory_bytes, 0);
}

TEST(MachineInfoLiveTest, ThisMachineIsKnown) {
    const MachineInfo m = read_machine_info();
    EXPECT_GT(m.cores, 0);
    EXPECT_GT(m.memory_bytes, 0);
    EXPECT_FALSE(m.kernel.empty());
}

} // namespace
} // namespace pglab::util
