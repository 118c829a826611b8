// gnuplot scripts for the report's four kinds of chart. gnuplot runs with the chart's directory
// as working directory and relative file names, so the kept .gp files redraw as they are.
#include "lab/report/chart.hpp"

#include "util/output_file.hpp"
#include "util/subprocess.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pglab::lab::report {

namespace {

namespace fs = std::filesystem;

constexpr int k_width = 760;
constexpr int k_height = 400;

/// A string literal for gnuplot (single quotes; a quote is doubled).
std::string gp_quote(std::string_view text) {
    return util::doubling_quoted(text, '\'');
}

std::string number(double v) {
    return fmt::format("{:.10g}", v);
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    size_t pos = 0;
    while ((pos = text.find(from, pos)) != std::string::npos) {
        text.replace(pos, from.size(), to);
        pos += to.size();
    }
}

} // namespace

std::optional<fs::path> find_gnuplot() {
    if (const char* env = std::getenv("PGLAB_GNUPLOT");
        env != nullptr) { // NOLINT(concurrency-mt-unsafe)
        if (*env == '\0') {
            return std::nullopt;
        }
        return fs::path(env);
    }
    const char* path = std::getenv("PATH"); // NOLINT(concurrency-mt-unsafe)
    std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        std::error_code ec;
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "gnuplot";
        if (fs::is_regular_file(candidate, ec)) {
            return candidate;
        }
    }
    return std::nullopt;
}

std::string chart_data(const ChartSpec& spec) {
    std::string out;
    if (spec.kind == ChartKind::bars) {
        // One row per category: index, then mean and stddev of each series.
        out += "# category";
        for (const auto& s : spec.series) {
            out += fmt::format(" \"{} mean\" \"{} sd\"", s.title, s.title);
        }
        out += '\n';
        for (size_t c = 0; c < spec.categories.size(); ++c) {
            out += fmt::format("\"{}\"", spec.categories[c]);
            for (const auto& s : spec.series) {
                const ChartPoint* found = nullptr;
                for (const auto& p : s.points) {
                    if (static_cast<size_t>(p.x) == c) {
                        found = &p;
                    }
                }
                if (found != nullptr) {
                    out += fmt::format(" {} {}", number(found->y),
                                       number(found->error < 0 ? 0.0 : found->error));
                } else {
                    out += " NaN NaN";
                }
            }
            out += '\n';
        }
        return out;
    }
    for (size_t i = 0; i < spec.series.size(); ++i) {
        if (i > 0) {
            out += "\n\n"; // a new gnuplot index block
        }
        out += fmt::format("# {}\n", spec.series[i].title);
        for (const auto& p : spec.series[i].points) {
            out += fmt::format("{} {} {}\n", number(p.x), number(p.y),
                               number(p.error < 0 ? 0.0 : p.error));
        }
    }
    return out;
}

std::string chart_script(const ChartSpec& spec, const std::string& data_file,
                         const std::string& svg_file) {
    std::string gp;
    gp += fmt::format("set terminal svg size {},{} noenhanced font 'DejaVu Sans,11' background "
                      "rgb 'white'\n",
                      k_width, k_height);
    gp += fmt::format("set output {}\n", gp_quote(svg_file));
    gp += fmt::format("set title {}\n", gp_quote(spec.title));
    gp += fmt::format("set xlabel {}\nset ylabel {}\n", gp_quote(spec.x_label),
                      gp_quote(spec.y_label));
    gp += "set grid ytics lc rgb '#dddddd'\nset key outside right top\nset border 3\n"
          "set tics nomirror\n";
    gp += spec.y_max ? fmt::format("set yrange [0:{}]\n", number(*spec.y_max))
                     : std::string("set yrange [0:*]\n");
    std::vector<std::string> plots;
    switch (spec.kind) {
    case ChartKind::lines:
        if (spec.log_x) {
            gp += "set logscale x 2\n";
        }
        gp += "set offsets graph 0.03, graph 0.03, 0, 0\n";
        for (size_t i = 0; i < spec.series.size(); ++i) {
            plots.push_back(fmt::format("{} index {} using 1:2:3 with yerrorlines lw 2 pt 7 "
                                        "title {}",
                                        i == 0 ? gp_quote(data_file) : "''", i,
                                        gp_quote(spec.series[i].title)));
        }
        break;
    case ChartKind::bars:
        gp += "set style data histogram\nset style histogram errorbars gap 1 lw 1\n"
              "set style fill solid 0.7 border -1\nset boxwidth 0.9\nset xtics rotate by -20\n";
        for (size_t i = 0; i < spec.series.size(); ++i) {
            plots.push_back(fmt::format("{} using {}:{}{} title {}",
                                        i == 0 ? gp_quote(data_file) : "''", 2 + 2 * i, 3 + 2 * i,
                                        i == 0 ? ":xtic(1)" : "", gp_quote(spec.series[i].title)));
        }
        break;
    case ChartKind::percentiles:
        gp += "set logscale x 10\nset xrange [1:*]\n"
              "set xtics ('0%%' 1, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, "
              "'99.999%%' 100000)\n";
        for (size_t i = 0; i < spec.series.size(); ++i) {
            plots.push_back(fmt::format("{} index {} using 1:2 with steps lw 2 title {}",
                                        i == 0 ? gp_quote(data_file) : "''", i,
                                        gp_quote(spec.series[i].title)));
        }
        break;
    case ChartKind::time:
        for (size_t i = 0; i < spec.series.size(); ++i) {
            plots.push_back(fmt::format("{} index {} using 1:2 with lines lw 1.5 title {}",
                                        i == 0 ? gp_quote(data_file) : "''", i,
                                        gp_quote(spec.series[i].title)));
        }
        break;
    }
    gp += "plot ";
    for (size_t i = 0; i < plots.size(); ++i) {
        gp += (i > 0 ? ", \\\n     " : "") + plots[i];
    }
    gp += "\n";
    return gp;
}

Result<std::string> draw_chart(const ChartSpec& spec, const fs::path& dir, const std::string& stem,
                               const fs::path& gnuplot) {
    const std::string data_file = stem + ".dat";
    const std::string script_file = stem + ".gp";
    const std::string svg_file = stem + ".svg";
    PGLAB_TRY(util::write_output_file(dir / data_file, chart_data(spec)));
    PGLAB_TRY(util::write_output_file(dir / script_file, chart_script(spec, data_file, svg_file)));
    util::SpawnOptions opts;
    opts.argv = {gnuplot.string(), script_file};
    opts.working_dir = dir.string();
    opts.timeout = std::chrono::seconds(60);
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_process(opts));
    if (!r.status.success()) {
        return make_error(Error(fmt::format("gnuplot {} drawing \"{}\"", r.status.describe(),
                                            (dir / svg_file).string()),
                                r.err));
    }
    std::ifstream in(dir / svg_file, std::ios::binary);
    std::ostringstream svg;
    svg << in.rdbuf();
    if (svg.str().find("<svg") == std::string::npos) {
        return make_error(fmt::format("gnuplot wrote no SVG to \"{}\"", (dir / svg_file).string()));
    }
    return svg.str();
}

std::string inline_svg(const std::string& svg, int n, const std::string& title) {
    std::string out = svg;
    if (const size_t start = out.find("<svg"); start != std::string::npos) {
        out.erase(0, start);
    }
    const std::string prefix = fmt::format("c{}-", n);
    replace_all(out, "id='", "id='" + prefix);
    replace_all(out, "id=\"", "id=\"" + prefix);
    replace_all(out, "href='#", "href='#" + prefix);
    replace_all(out, "href=\"#", "href=\"#" + prefix);
    replace_all(out, "<title>Gnuplot</title>", "<title>" + escape_markup(title) + "</title>");
    replace_all(out, "<svg ", "<svg class=\"chart\" role=\"img\" ");
    return out;
}

std::string escape_markup(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace pglab::lab::report
