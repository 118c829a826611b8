// Verdicts that stay valid when pglab looks after every round. A `repeat` until decided judges
// the claims after the first `min` rounds and after each round it adds, and stops adding rounds
// for a claim at the first look that decides it. Judged at each look with the levels of a single
// look, the chance that some look decides wrongly grows with the looks: the 5% a false "agrees"
// may have became 7–9% over 13–16 looks in the synthetic experiments of the test below, and a
// false "differs" 9.5–11% where 2.5% is promised. So each look spends only part of the error
// rate, by a group-sequential design fixed before the first run:
//
// - The looks are planned: one at each number of runs from the first that has an interval
//   (`min`, or 3) to `max`, the information fraction of each its runs over `max`.
// - An alpha-spending function (Lan & DeMets, 1983) of O'Brien and Fleming's type,
//   2·(1 − Φ(z(1 − α/2)/√t)), says how much of the one-sided error rate α may be spent by the
//   fraction t: almost nothing at the first looks, most of it at the last, so that a claim the
//   runs can decide only near `max` keeps about half the chance one look at `max` has to decide
//   it (a Pocock-type function stops sooner when the answer is plain, but kept a sixth of that
//   chance on this VM's noise).
// - Each look's boundary is the value of the t statistic that, among paths of runs simulated
//   once per plan (100,000, a fixed seed), as many cross there and at no earlier look as the
//   function allows; read as a nominal level p, the look's interval is the two-sided 1 − 2·p
//   interval of the figure (Student's t at its degrees of freedom). The t statistics of normal
//   runs at successive looks have a law free of the mean and the spread, so this is exact for a
//   figure read by a one-sample t (a value; a ratio judged in pairs) and a nominal level for the
//   others (Welch's, Fieller's, a product's, a spread's interval).
//
// Both one-sided tests behind "agrees" spend α = 5% each (the 90% interval at a single look),
// the one behind "differs" α = 2.5% (the 95% interval). A plan of one look (a fixed `repeat`)
// gets exactly those. tests/unit/lab/judge_sequential_test.cpp checks the design on synthetic
// experiments at the band's edge with drift and noise like this VM's, and says what it costs.
#pragma once

#include <cstddef>

namespace pglab::lab::judge {

/// The looks a claim's verdict is read at: one per number of runs from `first` to `last`; or a
/// single look at whatever runs there are (first = last = 0).
struct LookPlan {
    std::size_t first = 0;
    std::size_t last = 0;

    /// The plan of a `repeat` until decided: a look after each round from `min_runs` (or the
    /// fewest runs with an interval, if more) to `max_runs`.
    static LookPlan rounds(std::size_t min_runs, std::size_t max_runs);

    bool sequential() const { return last > first; }

    /// How many looks there are (1 for a single look).
    std::size_t count() const { return sequential() ? last - first + 1 : 1; }

    /// The look (1-based) that `runs` runs are: those before the first look count as the first,
    /// those after the last as the last.
    std::size_t look_of(std::size_t runs) const;

    bool operator==(const LookPlan&) const = default;
};

/// The one-sided error rates the intervals of a look are read at.
struct Levels {
    double agree = 0.05;   ///< each one-sided test "agrees" needs (a 90% interval at one look)
    double differ = 0.025; ///< the one-sided test "differs" needs (a 95% interval at one look)
    std::size_t look = 1;  ///< which look (1-based)
    std::size_t looks = 1; ///< of how many planned

    /// The two-sided confidence of the interval each reads: 1 − 2·rate.
    double agree_confidence() const { return 1.0 - 2.0 * agree; }

    double differ_confidence() const { return 1.0 - 2.0 * differ; }

    bool operator==(const Levels&) const = default;
};

/// The one-sided error rates "agrees" and "differs" may be read at with `runs` runs under
/// `plan`.
Levels levels_at(const LookPlan& plan, std::size_t runs);

/// The one-sided level α(t) the spending function allows to be spent by information fraction t.
double spent_by(double alpha, double fraction);

} // namespace pglab::lab::judge
