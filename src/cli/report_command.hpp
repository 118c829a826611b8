// `pglab report DIR` and `pglab compare DIR [DIR2]`: option parsing, files and exit codes around
// lab/report.
#pragma once

namespace pglab::cli {

/// `pglab report`: 0 when the report was written, 1 on bad options or an unreadable directory.
int report_command(int argc, char** argv);

/// `pglab compare`: 0 when compared (and no significant slowdown beyond --fail-if-slower), 1 on
/// bad options, unreadable directories, no pairable cells, or a slowdown that fails the gate.
int compare_command(int argc, char** argv);

} // namespace pglab::cli
