// The HTML report of the stored results fixture, rendered by headless Chromium: every chart is
// present and visible, nothing is loaded from outside the file, the page logs no error, and a
// screenshot is kept under the build directory (test-artifacts/report-html/report.png).
// Skipped without /usr/bin/chromium or gnuplot (scripts/bootstrap installs both).
#include "support/files.hpp"
#include "support/run_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path k_chromium = "/usr/bin/chromium";

using support::read_file;

bool have_gnuplot() {
    return support::run_command({"sh", "-c", "command -v gnuplot"}).exit_code == 0;
}

/// Headless Chromium as root: no sandbox, no GPU, nothing that reaches the network.
std::vector<std::string> chromium_argv(const fs::path& profile) {
    return {k_chromium.string(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--no-first-run",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--user-data-dir=" + profile.string()};
}

// Runs first in <head>: records errors and console.error calls before the page does anything.
constexpr const char* k_capture_errors = R"(<script>
window.__pglabErrors = [];
window.addEventListener('error', function (e) { window.__pglabErrors.push('error: ' + e.message); }, true);
var __pglabConsoleError = console.error;
console.error = function () { window.__pglabErrors.push('console.error: ' + Array.prototype.join.call(arguments, ' ')); __pglabConsoleError.apply(console, arguments); };
</script>)";

// Runs last in <body>: checks each chart and writes the verdict into the DOM for --dump-dom.
constexpr const char* k_check_charts = R"(<script>
(function () {
  var out = [];
  var figures = document.querySelectorAll('figure.chart');
  out.push('charts=' + figures.length);
  figures.forEach(function (f, i) {
    var svg = f.querySelector('svg');
    if (!svg) { out.push('chart ' + i + ': no svg'); return; }
    var r = svg.getBoundingClientRect();
    var style = getComputedStyle(svg);
    var drawn = svg.querySelectorAll('path, polyline, polygon, rect, line').length;
    if (r.width < 200 || r.height < 100) out.push('chart ' + i + ': too small ' + r.width + 'x' + r.height);
    if (style.display === 'none' || style.visibility !== 'visible' || style.opacity === '0') out.push('chart ' + i + ': hidden');
    if (drawn < 10) out.push('chart ' + i + ': nothing drawn');
  });
  var resources = performance.getEntriesByType('resource').map(function (e) { return e.name; });
  if (resources.length) out.push('external resources: ' + resources.join(' '));
  window.__pglabErrors.forEach(function (e) { out.push(e); });
  var pre = document.createElement('pre');
  pre.id = 'pglab-check';
  pre.textContent = out.join('\n');
  document.body.appendChild(pre);
})();
</script>)";

class ReportHtmlTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::exists(k_chromium)) {
            GTEST_SKIP() << k_chromium << " is not installed (scripts/bootstrap installs it)";
        }
        if (!have_gnuplot()) {
            GTEST_SKIP() << "gnuplot is not installed: the report has no charts to check";
        }
        m_dir = fs::path(PGLAB_BINARY).parent_path() / "test-artifacts" / "report-html";
        fs::create_directories(m_dir); // kept between tests: the screenshot is an artifact
    }

    fs::path m_dir;
};

TEST_F(ReportHtmlTest, ChartsAreVisibleAndThePageIsSelfContained) {
    const fs::path fixture = fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report/results-fixture";
    const fs::path html = m_dir / "report.html";
    fs::remove_all(m_dir / "charts");
    fs::remove(m_dir / "report.png");
    const support::CommandResult r =
        support::run_command({support::pglab_binary(), "report", fixture.string(), "--format",
                              "html", "--output", html.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const std::string page = read_file(html);
    ASSERT_FALSE(page.empty());

    // Self-contained: no reference to another file or host (SVG namespace names are not loads).
    EXPECT_EQ(page.find("src="), std::string::npos);
    EXPECT_EQ(page.find("<link"), std::string::npos);
    EXPECT_EQ(page.find("url("), std::string::npos);
    std::string stripped = std::regex_replace(page, std::regex(R"(xmlns(:xlink)?="[^"]*")"), "");
    EXPECT_EQ(stripped.find("http"), std::string::npos);

    const size_t expected_charts = [&] {
        size_t n = 0;
        for (size_t pos = 0; (pos = page.find("<figure class=\"chart\"", pos)) != std::string::npos;
             ++pos) {
            ++n;
        }
        return n;
    }();
    // The measured steps' charts (tps, latency, WAL, percentiles, per second); the appendix of
    // setup steps and unclaimed probes has tables only.
    EXPECT_GE(expected_charts, 8U) << "tps, latency, WAL, percentiles, per-second charts...";

    // The checking copy: error capture first, chart checks last.
    std::string checked = page;
    checked.insert(checked.find("<head>") + 6, k_capture_errors);
    checked.insert(checked.rfind("</body>"), k_check_charts);
    const fs::path check_html = m_dir / "report-check.html";
    std::ofstream(check_html, std::ios::binary) << checked;

    auto argv = chromium_argv(m_dir / "profile-dom");
    argv.push_back("--dump-dom");
    argv.push_back("file://" + check_html.string());
    const support::CommandResult dom =
        support::run_command(argv, {}, {}, std::chrono::seconds(120));
    ASSERT_EQ(dom.exit_code, 0) << support::describe(dom);
    const size_t start = dom.out.find("<pre id=\"pglab-check\">");
    ASSERT_NE(start, std::string::npos) << "the check script did not run:\n" << dom.err;
    const size_t end = dom.out.find("</pre>", start);
    const std::string verdict = dom.out.substr(start + 22, end - start - 22);
    EXPECT_EQ(verdict, "charts=" + std::to_string(expected_charts));
    // Chromium logs the page's console messages as "INFO:CONSOLE:<line>] ..." on stderr.
    EXPECT_EQ(dom.err.find(":CONSOLE"), std::string::npos) << dom.err;

    // The screenshot artifact, of the report as it is.
    auto shot = chromium_argv(m_dir / "profile-shot");
    shot.push_back("--window-size=1280,6000");
    shot.push_back("--screenshot=" + (m_dir / "report.png").string());
    shot.push_back("file://" + html.string());
    const support::CommandResult png =
        support::run_command(shot, {}, {}, std::chrono::seconds(120));
    ASSERT_EQ(png.exit_code, 0) << support::describe(png);
    ASSERT_TRUE(fs::exists(m_dir / "report.png"));
    EXPECT_GT(fs::file_size(m_dir / "report.png"), 20000U);
    fs::remove_all(m_dir / "profile-dom");
    fs::remove_all(m_dir / "profile-shot");
}

TEST_F(ReportHtmlTest, WithoutGnuplotTheReportKeepsItsTablesAndSaysHowToGetCharts) {
    const fs::path fixture = fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report/results-fixture";
    const fs::path html = m_dir / "no-charts.html";
    const support::CommandResult r = support::run_command(
        {support::pglab_binary(), "report", fixture.string(), "--output", html.string()},
        {{"PGLAB_GNUPLOT", ""}});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const std::string page = read_file(html);
    EXPECT_EQ(page.find("<svg"), std::string::npos);
    EXPECT_NE(page.find("apt-get install gnuplot-nox"), std::string::npos);
    EXPECT_NE(page.find("<table>"), std::string::npos);
    EXPECT_NE(r.err.find("results.jsonl line 15: not valid JSON"), std::string::npos) << r.err;
}

} // namespace
