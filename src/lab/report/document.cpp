// Markdown and HTML writers of a Document. The HTML page has no script and no external
// reference: everything it shows is in the file.
#include "lab/report/document.hpp"

#include "lab/report/chart.hpp"

#include <fmt/format.h>

namespace pglab::lab::report {

namespace {

std::string md_cell(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '|') {
            out += "\\|";
        } else if (c == '\n') {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

/// `code` spans of Markdown paragraphs as <code> in HTML (the only inline markup used).
std::string html_inline(std::string_view text) {
    std::string out;
    bool in_code = false;
    for (const char c : text) {
        if (c == '`') {
            out += in_code ? "</code>" : "<code>";
            in_code = !in_code;
        } else {
            out += escape_markup(std::string_view(&c, 1));
        }
    }
    if (in_code) {
        out += "</code>";
    }
    return out;
}

std::string anchor(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            out += c;
        } else if (c >= 'A' && c <= 'Z') {
            out += static_cast<char>(c - 'A' + 'a');
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    return out;
}

constexpr std::string_view k_css = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1100px;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #345; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { margin-top: 1.5em; color: #345; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: .25em .6em; }
th { background: #eef2f6; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafafa; }
code { background: #f2f2f2; padding: 0 .2em; border-radius: 3px; }
ul.warnings { background: #fff6e0; border-left: 4px solid #e0a000; padding: .6em 1em .6em 2em; }
figure.chart { margin: 1em 0; }
figure.chart svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 85%; color: #555; }
)";

} // namespace

void Document::heading(int level, std::string text) {
    Block b;
    b.kind = BlockKind::heading;
    b.level = level;
    b.text = std::move(text);
    blocks.push_back(std::move(b));
}

void Document::paragraph(std::string text) {
    Block b;
    b.kind = BlockKind::paragraph;
    b.text = std::move(text);
    blocks.push_back(std::move(b));
}

void Document::list(std::vector<std::string> items) {
    Block b;
    b.kind = BlockKind::list;
    b.items = std::move(items);
    blocks.push_back(std::move(b));
}

void Document::warnings(std::vector<std::string> items) {
    Block b;
    b.kind = BlockKind::warning_list;
    b.items = std::move(items);
    blocks.push_back(std::move(b));
}

void Document::table(Table t) {
    Block b;
    b.kind = BlockKind::table;
    b.table = std::move(t);
    blocks.push_back(std::move(b));
}

void Document::chart(ChartRef c) {
    Block b;
    b.kind = BlockKind::chart;
    b.chart = std::move(c);
    blocks.push_back(std::move(b));
}

std::string render_markdown(const Document& doc) {
    std::string out;
    for (const auto& b : doc.blocks) {
        switch (b.kind) {
        case BlockKind::heading:
            out += fmt::format("{} {}\n\n", std::string(static_cast<size_t>(b.level), '#'), b.text);
            break;
        case BlockKind::paragraph:
            out += b.text + "\n\n";
            break;
        case BlockKind::list:
        case BlockKind::warning_list:
            for (const auto& item : b.items) {
                out += fmt::format("- {}{}\n", b.kind == BlockKind::warning_list ? "⚠ " : "", item);
            }
            out += '\n';
            break;
        case BlockKind::table: {
            const Table& t = b.table;
            out += "|";
            for (const auto& h : t.header) {
                out += " " + md_cell(h) + " |";
            }
            out += "\n|";
            for (size_t i = 0; i < t.header.size(); ++i) {
                const bool num = i < t.numeric.size() && t.numeric[i];
                out += num ? "---:|" : "---|";
            }
            out += '\n';
            for (const auto& row : t.rows) {
                out += "|";
                for (const auto& cell : row) {
                    out += " " + md_cell(cell) + " |";
                }
                out += '\n';
            }
            out += '\n';
            break;
        }
        case BlockKind::chart:
            out += fmt::format("![{}]({})\n\n", b.chart.title, b.chart.svg_file);
            break;
        }
    }
    while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') {
        out.pop_back();
    }
    return out;
}

std::string render_html(const Document& doc) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
                       escape_markup(doc.title), k_css);
    int chart_number = 0;
    for (const auto& b : doc.blocks) {
        switch (b.kind) {
        case BlockKind::heading:
            out += fmt::format("<h{0} id=\"{2}\">{1}</h{0}>\n", b.level, html_inline(b.text),
                               anchor(b.text));
            break;
        case BlockKind::paragraph:
            out += fmt::format("<p>{}</p>\n", html_inline(b.text));
            break;
        case BlockKind::list:
        case BlockKind::warning_list:
            out += b.kind == BlockKind::warning_list ? "<ul class=\"warnings\">\n" : "<ul>\n";
            for (const auto& item : b.items) {
                out += fmt::format("<li>{}</li>\n", html_inline(item));
            }
            out += "</ul>\n";
            break;
        case BlockKind::table: {
            const Table& t = b.table;
            out += "<table>\n<thead><tr>";
            for (const auto& h : t.header) {
                out += fmt::format("<th>{}</th>", escape_markup(h));
            }
            out += "</tr></thead>\n<tbody>\n";
            for (const auto& row : t.rows) {
                out += "<tr>";
                for (size_t i = 0; i < row.size(); ++i) {
                    const bool num = i < t.numeric.size() && t.numeric[i];
                    out += num ? "<td class=\"num\">" : "<td>";
                    out += html_inline(row[i]) + "</td>";
                }
                out += "</tr>\n";
            }
            out += "</tbody>\n</table>\n";
            break;
        }
        case BlockKind::chart:
            ++chart_number;
            out += fmt::format("<figure class=\"chart\" id=\"chart-{}\">\n{}\n<figcaption>{} "
                               "(<code>{}</code>)</figcaption>\n</figure>\n",
                               chart_number, inline_svg(b.chart.svg, chart_number, b.chart.title),
                               escape_markup(b.chart.title), escape_markup(b.chart.svg_file));
            break;
        }
    }
    out += "</body>\n</html>\n";
    return out;
}

} // namespace pglab::lab::report
