// gnuplot data files and scripts of the report's charts, SVG inlining, and (when gnuplot is
// installed) that each kind of chart draws.
#include "lab/report/chart.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

namespace pglab::lab::report {
namespace {

namespace fs = std::filesystem;

ChartSpec lines_spec() {
    ChartSpec s;
    s.kind = ChartKind::lines;
    s.title = "tps against clients";
    s.x_label = "clients";
    s.y_label = "tps";
    s.series = {{"server=pg16", {{40, 310.5, 12.25}, {80, 322, 8}}},
                {"server=pg17", {{40, 330, 10}, {80, 351.75, -1}}}};
    return s;
}

ChartSpec bars_spec() {
    ChartSpec s;
    s.kind = ChartKind::bars;
    s.title = "VACUUM time";
    s.y_label = "ms";
    s.categories = {"params.where=95%", "params.where=5%"};
    s.series = {{"pg16", {{0, 10431, 120}, {1, 413, 4}}}, {"pg17", {{0, 1815, 20}}}};
    return s;
}

TEST(ReportChartTest, DataFilesHoldOneBlockPerSeriesOrOneRowPerCategory) {
    EXPECT_EQ(chart_data(lines_spec()), "# server=pg16\n40 310.5 12.25\n80 322 8\n\n\n"
                                        "# server=pg17\n40 330 10\n80 351.75 0\n");
    EXPECT_EQ(chart_data(bars_spec()),
              "# category \"pg16 mean\" \"pg16 sd\" \"pg17 mean\" \"pg17 sd\"\n"
              "\"params.where=95%\" 10431 120 1815 20\n"
              "\"params.where=5%\" 413 4 NaN NaN\n");
}

TEST(ReportChartTest, ScriptsPlotEverySeriesWithErrorBars) {
    const std::string gp = chart_script(lines_spec(), "c.dat", "c.svg");
    EXPECT_NE(gp.find("set terminal svg"), std::string::npos);
    EXPECT_NE(gp.find("noenhanced"), std::string::npos); // "settings.work_mem" stays as written
    EXPECT_NE(gp.find("set output 'c.svg'"), std::string::npos);
    EXPECT_NE(gp.find("'c.dat' index 0 using 1:2:3 with yerrorlines"), std::string::npos);
    EXPECT_NE(gp.find("'' index 1 using 1:2:3 with yerrorlines lw 2 pt 7 title 'server=pg17'"),
              std::string::npos);
    const std::string bars = chart_script(bars_spec(), "b.dat", "b.svg");
    EXPECT_NE(bars.find("set style histogram errorbars"), std::string::npos);
    EXPECT_NE(bars.find("'b.dat' using 2:3:xtic(1) title 'pg16'"), std::string::npos);
    EXPECT_NE(bars.find("'' using 4:5 title 'pg17'"), std::string::npos);
    ChartSpec quoted = lines_spec();
    quoted.title = "it's";
    EXPECT_NE(chart_script(quoted, "q.dat", "q.svg").find("set title 'it''s'"), std::string::npos);
}

// Charts set side by side (one per cell) share a scale when given one (issue 62).
TEST(ReportChartTest, AGivenTopIsTheYAxisOfEveryChartOfTheSet) {
    EXPECT_NE(chart_script(lines_spec(), "c.dat", "c.svg").find("set yrange [0:*]\n"),
              std::string::npos);
    ChartSpec shared = lines_spec();
    shared.y_max = 1234.5;
    const std::string gp = chart_script(shared, "c.dat", "c.svg");
    EXPECT_NE(gp.find("set yrange [0:1234.5]\n"), std::string::npos) << gp;
    EXPECT_EQ(gp.find("[0:*]"), std::string::npos) << gp;
}

TEST(ReportChartTest, InlineSvgGetsUniqueIdsAndATitle) {
    const std::string svg = "<?xml version=\"1.0\"?>\n<svg width=\"10\">\n<title>Gnuplot</title>"
                            "<g id=\"gnuplot_canvas\"><path id='gpPt0'/><use xlink:href='#gpPt0'/>"
                            "</g></svg>";
    const std::string out = inline_svg(svg, 3, "a < b");
    EXPECT_EQ(out.rfind("<svg class=\"chart\" role=\"img\" width=\"10\">", 0), 0U) << out;
    EXPECT_NE(out.find("<title>a &lt; b</title>"), std::string::npos);
    EXPECT_NE(out.find("id=\"c3-gnuplot_canvas\""), std::string::npos);
    EXPECT_NE(out.find("id='c3-gpPt0'"), std::string::npos);
    EXPECT_NE(out.find("href='#c3-gpPt0'"), std::string::npos);
}

TEST(ReportChartTest, GnuplotDrawsEveryKind) {
    const auto gnuplot = find_gnuplot();
    if (!gnuplot) {
        GTEST_SKIP() << "gnuplot is not installed";
    }
    const fs::path dir = fs::temp_directory_path() / ("pglab-chart-" + std::to_string(getpid()));
    fs::create_directories(dir);
    ChartSpec percentiles;
    percentiles.kind = ChartKind::percentiles;
    percentiles.title = "latency";
    percentiles.series = {{"all", {{1, 2.5, -1}, {10, 4, -1}, {100, 9, -1}, {1000, 15, -1}}}};
    ChartSpec time;
    time.kind = ChartKind::time;
    time.title = "tps per second";
    time.series = {{"run 1", {{0, 1200, -1}, {1, 1210, -1}, {2, 1190, -1}}}};
    int n = 0;
    for (const ChartSpec& spec : {lines_spec(), bars_spec(), percentiles, time}) {
        const std::string stem = "chart" + std::to_string(n++);
        const auto svg = draw_chart(spec, dir, stem, *gnuplot);
        ASSERT_TRUE(svg.has_value()) << stem << ": " << svg.error().message << "\n"
                                     << svg.error().detail;
        EXPECT_NE(svg->find("<svg"), std::string::npos);
        EXPECT_TRUE(fs::exists(dir / (stem + ".dat")));
        EXPECT_TRUE(fs::exists(dir / (stem + ".gp")));
    }
    fs::remove_all(dir);
}

} // namespace
} // namespace pglab::lab::report
