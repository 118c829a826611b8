// The words of a verdict: which case of lab/judge's rules applied, with the figures that decided
// it ("its 90% interval (1.900 – 2.100) lies within 2.000 ± 10%"), with the report's names for
// the judge's rules it words (lab/judge/verdict_rules.hpp).
#pragma once

#include "lab/judge/verdict_rules.hpp"

#include <string>

namespace pglab::lab::report {

using judge::Allowed;
using judge::allowed_by;
using judge::Band;
using judge::decide;
using judge::Decision;
using judge::Evidence;
using judge::k_most_extra_runs;
using judge::Verdict;

/// "2.000 ± 10%", "0 ± 0.5".
std::string band_text(const Band& band);

/// Which case applied, with the figures that decided it: for a verdict, the parts that gave it
/// ("…; …"); for a decision that lacked runs or rules, what it lacked.
std::string decision_words(const Decision& d);

} // namespace pglab::lab::report
