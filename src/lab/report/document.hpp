// A report as a list of blocks (headings, paragraphs, lists, tables, charts) that the Markdown
// and HTML writers render the same way, so the two formats never say different things.
#pragma once

#include <string>
#include <vector>

namespace pglab::lab::report {

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> numeric; ///< per column: right-aligned
};

/// A chart: its SVG (inline in HTML) and the file it was written to (linked from Markdown).
struct ChartRef {
    std::string title;
    std::string svg_file; ///< relative to the report's directory ("charts/1_bench-tps.svg")
    std::string svg;      ///< gnuplot's SVG text
};

enum class BlockKind : uint8_t { heading, paragraph, list, table, chart, warning_list };

struct Block {
    BlockKind kind = BlockKind::paragraph;
    int level = 1;                  ///< heading level (1 = title)
    std::string text;               ///< heading, paragraph
    std::vector<std::string> items; ///< list, warning_list
    Table table;
    ChartRef chart;
};

struct Document {
    std::string title;
    std::vector<Block> blocks;

    void heading(int level, std::string text);
    void paragraph(std::string text);
    void list(std::vector<std::string> items);
    void warnings(std::vector<std::string> items);
    void table(Table t);
    void chart(ChartRef c);
};

/// Markdown (GitHub flavour): pipes in cells escaped, charts as image links.
std::string render_markdown(const Document& doc);

/// One self-contained HTML page: inline CSS, charts as inline SVG, no external reference.
std::string render_html(const Document& doc);

} // namespace pglab::lab::report
