// lab/judge: descriptive and inferential statistics for judgements, reports and comparisons:
// summaries with a 95% confidence interval, intervals on the scale a quantity lives on (Sample),
// Student's t distribution, Welch's two-sample test and the paired test with intervals for the
// difference and the ratio. Pure functions: no I/O, no allocation beyond the copies median()
// needs.
#pragma once

#include "lab/judge/judgement.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace pglab::lab::judge {

/// What a table row shows for one cell. Fields that need more values than there are (a
/// standard deviation of one value) are empty optionals; n == 0 leaves everything empty.
struct Summary {
    size_t n = 0;
    double mean = 0;
    double min = 0;
    double max = 0;
    double median = 0;
    std::optional<double> stddev; ///< sample standard deviation (n - 1 denominator), n >= 2
    /// 95% CI of the typical value (typical_interval(): the geometric mean's when every value is
    /// positive, else the mean's); none under k_min_runs_for_interval values
    std::optional<Interval> ci95;
    bool log_scale = false;   ///< every value positive: ci95 is the geometric mean's
    std::optional<double> cv; ///< coefficient of variation sd / |mean| (mean != 0)
};

double mean(std::span<const double> values);

/// Sample standard deviation (n - 1 denominator); empty for fewer than two values.
std::optional<double> sample_stddev(std::span<const double> values);

/// Median (mean of the two middle values for an even count); 0 when empty.
double median(std::span<const double> values);

/// n, mean, sd, median, min, max, 95% CI of the typical value and CV of `values`.
Summary summarize(std::span<const double> values);

/// P(T <= t) for Student's t with `df` > 0 degrees of freedom (df need not be an integer; from
/// Boost.Math); NaN outside.
double student_t_cdf(double t, double df);

/// The `p` quantile (0 < p < 1) of Student's t with `df` > 0 degrees of freedom; NaN outside.
double student_t_quantile(double p, double df);

/// What an interval of a mean needs of a sample: its size, mean and sample variance (n - 1).
struct Moments {
    size_t n = 0;
    double mean = 0;
    double variance = 0; ///< 0 for fewer than two values
};

Moments moments_of(std::span<const double> values);

/// `m` as it would be after `extra` more values of the same mean and variance: how many more
/// runs would likely decide a question (the interval narrows as t(n-1)·s/√n).
Moments with_more_values(Moments m, size_t extra);

/// The two-sided `confidence` (0.9, 0.95) t-interval of the mean; none under two values.
std::optional<Interval> mean_interval(const Moments& m, double confidence);

/// Fieller's two-sided `confidence` interval of mean_a / mean_b (see welch()); none under two
/// values a side, unbounded when mean_b is not significantly different from 0.
std::optional<Interval> ratio_interval(const Moments& a, const Moments& b, double confidence);

/// No interval is given under this many runs: with two, a t-interval is as wide as it is
/// meaningless (t(0.975, 1) = 12.7); the runs are shown instead.
inline constexpr size_t k_min_runs_for_interval = 3;

/// A cell's runs as their intervals read them. A quantity whose runs are all positive (a time,
/// a rate, a byte count) is read on the log scale: its figure is the geometric mean, its
/// interval never leaves the positives, and a ratio's interval is Welch's on the difference of
/// the logs. Any other (a count that can be 0) is read as it is, a ratio by Fieller's interval;
/// when no value is negative, neither is the interval (it is cut at 0: a count of 0, 0 and 2 has
/// a mean whose t-interval reaches below 0, a count never does).
struct Sample {
    Moments linear;
    std::optional<Moments> log; ///< of ln(value), when every value is positive
    /// A proportion's (proportion_sample_of()): of each run's empirical log-odds. Then `log` is
    /// empty: a proportion is read on this scale instead.
    std::optional<Moments> logit;
    bool non_negative = false; ///< no value below 0 (and at least one value)
};

Sample sample_of(std::span<const double> values);

/// The runs of a proportion: `percents` (0–100) of `trials` each (the blocks a hit ratio counts
/// hits among; parallel to `percents`). Read on the log-odds scale, each run as its empirical
/// logit ln((x + ½) / (n − x + ½)) with x = p·n (the ½ keeps 0% and 100% finite, less so the
/// more it counted): its figure is the proportion of the mean log-odds, its interval the
/// t-interval of the log-odds taken back, so that it never leaves 0–100%. Runs that all gave
/// the same percentage (100% each) are that percentage, with that one point as their interval.
Sample proportion_sample_of(std::span<const double> percents, std::span<const double> trials);

/// summarize() with the interval as `sample` reads the same runs (a proportion's, on the
/// log-odds scale).
Summary summarize(std::span<const double> values, const Sample& sample);

/// `s` after `extra` more runs of the same means and variances.
Sample with_more_values(Sample s, size_t extra);

/// The figure the runs stand for: their geometric mean on the log scale, else their mean.
double typical_value(const Sample& s);

/// The two-sided `confidence` interval of typical_value(), never below 0 for a non-negative
/// sample; none under k_min_runs_for_interval.
std::optional<Interval> typical_interval(const Sample& s, double confidence);

/// The ratio of a to b: of their geometric means when both are on the log scale, of their
/// typical values when they are proportions, else of their means (so that it is the figure
/// typical_ratio_interval() surrounds); 0 when the denominator is.
double typical_ratio(const Sample& a, const Sample& b);

/// The two-sided `confidence` interval of typical_ratio(): exp of Welch's interval of the
/// difference of the logs when both are on the log scale; for proportions, the quotient of the
/// two proportions' own intervals at 1 − (1 − confidence)/2 each (Bonferroni: both hold together
/// at `confidence`, and no bound leaves what the two proportions can be); else Fieller's (which
/// may be unbounded; cut at 0 when neither side has a negative value); none under
/// k_min_runs_for_interval runs a side.
std::optional<Interval> typical_ratio_interval(const Sample& a, const Sample& b, double confidence);

/// One factor of a product of typical values: a sample and its power, +1 above the line, -1
/// below it. (A/B)/(C/D), a ratio of ratios, is A^1 B^-1 C^-1 D^1.
struct Factor {
    const Sample* sample = nullptr;
    int power = 1;
};

/// The product of the factors' typical values (geometric means), when every factor's runs are
/// positive; none otherwise (such a product is read on the log scale only).
std::optional<double> product_of(std::span<const Factor> factors);

/// Its two-sided `confidence` interval: exp(Σ p·m ± t·√Σ s²/n) of the factors' logs, t at the
/// Welch–Satterthwaite degrees of freedom of that sum (Satterthwaite, 1946); none under
/// k_min_runs_for_interval runs of a factor or when one is not on the log scale. Factors whose
/// runs were all alike contribute their value and no variance.
std::optional<Interval> product_interval(std::span<const Factor> factors, double confidence);

/// How much two samples' runs vary, read on one scale: the standard deviations of their logs
/// when both are positive (about the coefficient of variation when it is small), of their
/// log-odds when both are proportions, else of their values.
struct Spreads {
    double a = 0;
    double b = 0;
    const char* scale = ""; ///< "sd of the logs", "sd of the log-odds", "sd"
};

/// None under two runs a side.
std::optional<Spreads> spreads_of(const Sample& a, const Sample& b);

/// Spreads' a over b; none under two runs a side or when b's runs do not vary.
std::optional<double> spread_ratio(const Sample& a, const Sample& b);

/// Its two-sided `confidence` interval, from the F distribution of the ratio of two sample
/// variances of normal runs: √(F / F((1+c)/2; n_a−1, n_b−1)) to √(F / F((1−c)/2; ...)); none
/// under k_min_runs_for_interval runs a side or when b's runs do not vary.
std::optional<Interval> spread_ratio_interval(const Sample& a, const Sample& b, double confidence);

/// Welch's unequal-variance comparison of two independent samples `a` and `b`.
struct WelchResult {
    double mean_a = 0;
    double mean_b = 0;
    double difference = 0;  ///< mean_a - mean_b
    double ratio = 0;       ///< typical_ratio(a, b): of geometric means on the log scale
    bool log_scale = false; ///< both samples positive: t, df, p and the ratio from the logs
    double t = 0;       ///< (m_a - m_b) / √(s_a²/n_a + s_b²/n_b), of the logs on the log scale
    double df = 0;      ///< Welch–Satterthwaite degrees of freedom
    double p_value = 1; ///< two-sided
    Interval difference_ci; ///< 95% CI of mean_a - mean_b (Welch, of the values as they are)
    Interval ratio_ci;      ///< 95% CI of `ratio` (typical_ratio_interval())
    bool paired = false;    ///< paired_test(): t, df, p and the intervals of the pairs' differences
};

/// Welch's t-test of `a` against `b` with 95% intervals. Needs k_min_runs_for_interval values
/// on each side; empty otherwise. When both samples have zero variance, t is ±infinity (p = 0)
/// if they differ and 0 (p = 1) if not, and the intervals collapse to points.
///
/// Positive samples are compared on the log scale (the ratio of geometric means, Welch's test
/// and interval of the difference of the logs). Others by their means, the ratio interval
/// Fieller's: the set of ρ for which mean_a - ρ·mean_b is not significantly different from 0,
/// i.e. (m_a - ρ m_b)² <= t² (v_a + ρ² v_b) with v = s²/n and t the 0.975 quantile at the
/// Welch–Satterthwaite degrees of freedom of m_a - R·m_b (R = m_a / m_b), unbounded when m_b is
/// itself not significantly different from 0.
/// How welch() reads its samples: on the log scale when both are positive (automatic), or as
/// they are (as_is: the textbook test, and what a sample that may hold a 0 gets anyway).
enum class Scale : uint8_t { automatic, as_is };

std::optional<WelchResult> welch(std::span<const double> a, std::span<const double> b,
                                 Scale scale = Scale::automatic);

/// The paired t-test of `a` against `b`, a[i] and b[i] measured together (one round of a paired
/// or interleaved plan): what drifts between rounds moves both and cancels in their difference.
/// Both positive: on the log scale, the ratio exp of the mean of ln a[i] − ln b[i] and its
/// interval exp of their t-interval (as the report's claims judge a ratio in pairs); otherwise
/// the difference is tested and the ratio is welch()'s. `difference` is the mean of a[i] − b[i].
/// Empty unless both have k_min_runs_for_interval values, as many on each side.
std::optional<WelchResult> paired_test(std::span<const double> a, std::span<const double> b);

} // namespace pglab::lab::judge
