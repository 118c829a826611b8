// The report's "Environment" section: the pglab that ran it, the machine, the units, the plan, the
// runs, what the matrix varies, and one row per server (version, installation, initdb options,
// the settings the experiment set, the emulated machine).
#pragma once

#include "lab/report/document.hpp"
#include "lab/report/environment.hpp"
#include "lab/report/results.hpp"

#include <string>
#include <vector>

namespace pglab::lab::report {

void add_environment_section(const Environment& env, const ResultsDir& results,
                             const std::vector<std::string>& varying, Document& doc);

} // namespace pglab::lab::report
