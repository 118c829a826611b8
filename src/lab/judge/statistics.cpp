// Summaries, intervals and Welch's test. Student's t distribution is Boost.Math's; references:
// Welch, "The generalization of Student's problem", Biometrika 34 (1947); Fieller, "Some problems
// in interval estimation", JRSS B 16 (1954).
#include "lab/judge/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace pglab::lab::judge {

namespace {

constexpr double k_confidence = 0.95; // of the summaries' and Welch's intervals

/// Where the distributions' functions meet a domain error (a df of 0, a NaN) they give NaN
/// instead of throwing: the callers check their inputs, and a report never stops on a figure.
using Quiet = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;
using StudentT = boost::math::students_t_distribution<double, Quiet>;
using FisherF = boost::math::fisher_f_distribution<double, Quiet>;

/// P(|T| > |t|) for Student's t, from the complement so that tiny p-values keep their digits.
double two_sided_tail(double t, double df) {
    if (std::isinf(t)) {
        return 0.0;
    }
    return 2.0 * boost::math::cdf(boost::math::complement(StudentT(df), std::fabs(t)));
}

/// m_a - m_b of two samples' moments (of their values, or of their logs), the variance of that
/// difference (s_a²/n_a + s_b²/n_b) and its Welch–Satterthwaite degrees of freedom (with no
/// variance at all, the pooled ones).
struct MeanDifference {
    double difference = 0;
    double variance = 0;
    double df = 0;
};

MeanDifference mean_difference(const Moments& a, const Moments& b) {
    const double va = a.variance / static_cast<double>(a.n);
    const double vb = b.variance / static_cast<double>(b.n);
    const auto na1 = static_cast<double>(a.n - 1);
    const auto nb1 = static_cast<double>(b.n - 1);
    const double se2 = va + vb;
    return {a.mean - b.mean, se2,
            se2 > 0.0 ? se2 * se2 / (va * va / na1 + vb * vb / nb1) : na1 + nb1};
}

Interval centred_interval(double centre, double half_width) {
    return Interval{centre - half_width, centre + half_width, true};
}

/// The t quantile of a two-sided `confidence` interval.
double two_sided_quantile(double confidence, double df) {
    return student_t_quantile(0.5 + confidence / 2, df);
}

/// `i` without the part below 0 when the quantity cannot be negative: the interval then keeps
/// its coverage (every value it drops is impossible). An unbounded interval stays as it is.
Interval at_least_zero_when(bool non_negative, Interval i) {
    if (non_negative && i.bounded) {
        i.low = std::max(i.low, 0.0);
    }
    return i;
}

} // namespace

double mean(std::span<const double> values) {
    if (values.empty()) {
        return 0.0;
    }
    // Two-pass: the sum of the deviations from a first estimate corrects rounding.
    const double first =
        std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    double correction = 0.0;
    for (const double v : values) {
        correction += v - first;
    }
    return first + correction / static_cast<double>(values.size());
}

std::optional<double> sample_stddev(std::span<const double> values) {
    if (values.size() < 2) {
        return std::nullopt;
    }
    const double m = mean(values);
    double sum2 = 0.0;
    for (const double v : values) {
        sum2 += (v - m) * (v - m);
    }
    return std::sqrt(sum2 / static_cast<double>(values.size() - 1));
}

double median(std::span<const double> values) {
    if (values.empty()) {
        return 0.0;
    }
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const size_t half = sorted.size() / 2;
    if (sorted.size() % 2 == 1) {
        return sorted[half];
    }
    return (sorted[half - 1] + sorted[half]) / 2.0;
}

Summary summarize(std::span<const double> values) {
    return summarize(values, sample_of(values));
}

Summary summarize(std::span<const double> values, const Sample& sample) {
    Summary s;
    s.n = values.size();
    if (values.empty()) {
        return s;
    }
    s.mean = mean(values);
    s.median = median(values);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    s.stddev = sample_stddev(values);
    if (s.stddev && s.mean != 0.0) {
        s.cv = *s.stddev / std::fabs(s.mean);
    }
    s.log_scale = sample.log.has_value();
    s.ci95 = typical_interval(sample, k_confidence);
    return s;
}

double student_t_cdf(double t, double df) {
    if (std::isnan(t) || !(df > 0.0)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (std::isinf(t)) {
        return t > 0 ? 1.0 : 0.0;
    }
    return boost::math::cdf(StudentT(df), t);
}

double student_t_quantile(double p, double df) {
    if (!(p > 0.0 && p < 1.0) || !(df > 0.0)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return boost::math::quantile(StudentT(df), p);
}

Moments moments_of(std::span<const double> values) {
    const double sd = sample_stddev(values).value_or(0.0);
    return Moments{values.size(), mean(values), sd * sd};
}

Moments with_more_values(Moments m, size_t extra) {
    m.n += extra;
    return m;
}

std::optional<Interval> mean_interval(const Moments& m, double confidence) {
    if (m.n < 2) {
        return std::nullopt;
    }
    const auto n = static_cast<double>(m.n);
    return centred_interval(m.mean,
                            two_sided_quantile(confidence, n - 1) * std::sqrt(m.variance / n));
}

std::optional<Interval> ratio_interval(const Moments& a, const Moments& b, double confidence) {
    if (a.n < 2 || b.n < 2) {
        return std::nullopt;
    }
    const double ratio = b.mean != 0.0 ? a.mean / b.mean : 0.0;
    const double va = a.variance / static_cast<double>(a.n);
    const double vb = b.variance / static_cast<double>(b.n);
    const auto na1 = static_cast<double>(a.n - 1);
    const auto nb1 = static_cast<double>(b.n - 1);
    // The Welch–Satterthwaite degrees of freedom of m_a - R·m_b; with no variance at all, the
    // pooled ones.
    const double vb_r = ratio * ratio * vb;
    const double ratio_var = va + vb_r;
    const double df =
        ratio_var > 0.0 ? ratio_var * ratio_var / (va * va / na1 + vb_r * vb_r / nb1) : na1 + nb1;
    const double t = two_sided_quantile(confidence, df);
    const double t2 = t * t;
    // Fieller: (m_a - ρ m_b)² <= t² (v_a + ρ² v_b) ⇔ A ρ² - 2 B ρ + C <= 0.
    const double qa = b.mean * b.mean - t2 * vb;
    const double qb = a.mean * b.mean;
    const double qc = a.mean * a.mean - t2 * va;
    if (qa <= 0.0) {
        return Interval{0.0, 0.0, false};
    }
    const double root = std::sqrt(std::max(0.0, qb * qb - qa * qc));
    return Interval{(qb - root) / qa, (qb + root) / qa, true};
}

Sample sample_of(std::span<const double> values) {
    Sample s;
    s.linear = moments_of(values);
    bool positive = !values.empty();
    s.non_negative = positive;
    for (const double v : values) {
        positive = positive && v > 0.0;
        s.non_negative = s.non_negative && v >= 0.0;
    }
    if (positive) {
        std::vector<double> logs(values.size());
        std::transform(values.begin(), values.end(), logs.begin(),
                       [](double v) { return std::log(v); });
        s.log = moments_of(logs);
    }
    return s;
}

Sample proportion_sample_of(std::span<const double> percents, std::span<const double> trials) {
    Sample s;
    s.linear = moments_of(percents);
    s.non_negative = !percents.empty();
    std::vector<double> log_odds(percents.size());
    for (size_t i = 0; i < percents.size(); ++i) {
        const double n = i < trials.size() ? std::max(trials[i], 0.0) : 0.0;
        const double x = std::clamp(percents[i] / 100.0, 0.0, 1.0) * n;
        log_odds[i] = std::log((x + 0.5) / (n - x + 0.5));
    }
    s.logit = moments_of(log_odds);
    return s;
}

Sample with_more_values(Sample s, size_t extra) {
    s.linear = with_more_values(s.linear, extra);
    for (std::optional<Moments>* scale : {&s.log, &s.logit}) {
        if (*scale) {
            **scale = with_more_values(**scale, extra);
        }
    }
    return s;
}

namespace {

/// Every run gave the same figure (a count the runs reproduce): its value is the figure itself,
/// not exp(log(x)) a unit in the last place off, and its interval that one point.
bool all_alike(const Sample& s) {
    return s.linear.n >= 1 && s.linear.variance == 0.0;
}

/// The percentage whose log-odds is `z`.
double percent_of_log_odds(double z) {
    return 100.0 / (1.0 + std::exp(-z));
}

} // namespace

double typical_value(const Sample& s) {
    if (all_alike(s)) {
        return s.linear.mean;
    }
    if (s.logit) {
        return percent_of_log_odds(s.logit->mean);
    }
    return s.log ? std::exp(s.log->mean) : s.linear.mean;
}

std::optional<Interval> typical_interval(const Sample& s, double confidence) {
    if (s.linear.n < k_min_runs_for_interval) {
        return std::nullopt;
    }
    if (all_alike(s)) {
        return Interval{s.linear.mean, s.linear.mean, true};
    }
    if (s.logit) {
        const Interval z = *mean_interval(*s.logit, confidence);
        return Interval{percent_of_log_odds(z.low), percent_of_log_odds(z.high), true};
    }
    if (!s.log) {
        return at_least_zero_when(s.non_negative, *mean_interval(s.linear, confidence));
    }
    const Interval logs = *mean_interval(*s.log, confidence);
    return Interval{std::exp(logs.low), std::exp(logs.high), true};
}

double typical_ratio(const Sample& a, const Sample& b) {
    if (a.logit || b.logit) {
        const double denominator = typical_value(b);
        return denominator != 0.0 ? typical_value(a) / denominator : 0.0;
    }
    if (a.log && b.log && !(all_alike(a) && all_alike(b))) {
        return std::exp(a.log->mean - b.log->mean);
    }
    // One side may be 0: both by their means, as Fieller's interval reads them.
    return b.linear.mean != 0.0 ? a.linear.mean / b.linear.mean : 0.0;
}

std::optional<Interval> typical_ratio_interval(const Sample& a, const Sample& b,
                                               double confidence) {
    if (a.linear.n < k_min_runs_for_interval || b.linear.n < k_min_runs_for_interval) {
        return std::nullopt;
    }
    if (all_alike(a) && all_alike(b) && b.linear.mean != 0.0) {
        const double ratio = a.linear.mean / b.linear.mean;
        return Interval{ratio, ratio, true};
    }
    if (a.logit || b.logit) {
        const double each = 1.0 - (1.0 - confidence) / 2.0;
        const Interval ia = *typical_interval(a, each);
        const Interval ib = *typical_interval(b, each);
        if (ib.low <= 0.0) {
            return Interval{0.0, 0.0, false};
        }
        return Interval{ia.low / ib.high, ia.high / ib.low, true};
    }
    if (!a.log || !b.log) {
        return at_least_zero_when(a.non_negative && b.non_negative,
                                  *ratio_interval(a.linear, b.linear, confidence));
    }
    const MeanDifference d = mean_difference(*a.log, *b.log);
    const double half = two_sided_quantile(confidence, d.df) * std::sqrt(d.variance);
    return Interval{std::exp(d.difference - half), std::exp(d.difference + half), true};
}

std::optional<double> product_of(std::span<const Factor> factors) {
    const bool exact = std::all_of(factors.begin(), factors.end(),
                                   [](const Factor& f) { return all_alike(*f.sample); });
    double log_sum = 0.0;
    double product = 1.0;
    for (const Factor& f : factors) {
        if (!f.sample->log) {
            return std::nullopt;
        }
        log_sum += f.power * f.sample->log->mean;
        product *= f.power > 0 ? f.sample->linear.mean : 1.0 / f.sample->linear.mean;
    }
    // Runs alike everywhere: the counts' own product, not exp(log) an ulp off.
    return exact ? product : std::exp(log_sum);
}

std::optional<Interval> product_interval(std::span<const Factor> factors, double confidence) {
    const auto value = product_of(factors);
    if (!value) {
        return std::nullopt;
    }
    double variance = 0.0;
    double df_denominator = 0.0;
    double df_pooled = 0.0;
    for (const Factor& f : factors) {
        const Moments& m = *f.sample->log;
        if (m.n < k_min_runs_for_interval) {
            return std::nullopt;
        }
        const double v = m.variance / static_cast<double>(m.n);
        variance += v;
        df_denominator += v * v / static_cast<double>(m.n - 1);
        df_pooled += static_cast<double>(m.n - 1);
    }
    if (variance == 0.0) {
        return Interval{*value, *value, true};
    }
    const double df = df_denominator > 0.0 ? variance * variance / df_denominator : df_pooled;
    const double half = two_sided_quantile(confidence, df) * std::sqrt(variance);
    const double centre = std::log(*value);
    return Interval{std::exp(centre - half), std::exp(centre + half), true};
}

namespace {

/// The moments both samples are read on for their spreads, and the scale's name.
struct CommonScale {
    const Moments* a;
    const Moments* b;
    const char* name;
};

CommonScale common_scale(const Sample& a, const Sample& b) {
    if (a.log && b.log) {
        return {&*a.log, &*b.log, "sd of the logs"};
    }
    if (a.logit && b.logit) {
        return {&*a.logit, &*b.logit, "sd of the log-odds"};
    }
    return {&a.linear, &b.linear, "sd"};
}

} // namespace

std::optional<Spreads> spreads_of(const Sample& a, const Sample& b) {
    const CommonScale c = common_scale(a, b);
    if (c.a->n < 2 || c.b->n < 2) {
        return std::nullopt;
    }
    return Spreads{std::sqrt(c.a->variance), std::sqrt(c.b->variance), c.name};
}

std::optional<double> spread_ratio(const Sample& a, const Sample& b) {
    const auto s = spreads_of(a, b);
    if (!s || s->b <= 0.0) {
        return std::nullopt;
    }
    return s->a / s->b;
}

std::optional<Interval> spread_ratio_interval(const Sample& a, const Sample& b, double confidence) {
    const CommonScale c = common_scale(a, b);
    const Moments* ma = c.a;
    const Moments* mb = c.b;
    if (ma->n < k_min_runs_for_interval || mb->n < k_min_runs_for_interval || mb->variance <= 0.0) {
        return std::nullopt;
    }
    const double f = ma->variance / mb->variance;
    const FisherF dist(static_cast<double>(ma->n - 1), static_cast<double>(mb->n - 1));
    const double upper = boost::math::quantile(dist, 0.5 + confidence / 2);
    const double lower = boost::math::quantile(dist, 0.5 - confidence / 2);
    return Interval{std::sqrt(f / upper), std::sqrt(f / lower), true};
}

std::optional<WelchResult> welch(std::span<const double> a, std::span<const double> b,
                                 Scale scale) {
    if (a.size() < k_min_runs_for_interval || b.size() < k_min_runs_for_interval) {
        return std::nullopt;
    }
    Sample sa = sample_of(a);
    Sample sb = sample_of(b);
    if (scale == Scale::as_is) {
        sa.log.reset();
        sb.log.reset();
    }
    WelchResult r;
    r.mean_a = sa.linear.mean;
    r.mean_b = sb.linear.mean;
    r.difference = r.mean_a - r.mean_b;
    r.ratio = typical_ratio(sa, sb);
    r.log_scale = sa.log && sb.log;
    const MeanDifference linear = mean_difference(sa.linear, sb.linear);
    const MeanDifference tested = r.log_scale ? mean_difference(*sa.log, *sb.log) : linear;
    r.df = tested.df;
    if (tested.variance > 0.0) {
        r.t = tested.difference / std::sqrt(tested.variance);
        r.p_value = two_sided_tail(r.t, r.df);
    } else if (tested.difference != 0.0) {
        r.t = std::copysign(std::numeric_limits<double>::infinity(), tested.difference);
        r.p_value = 0.0;
    }
    r.difference_ci = centred_interval(r.difference, two_sided_quantile(k_confidence, linear.df)
                                                         * std::sqrt(linear.variance));
    const auto ratio_ci = typical_ratio_interval(sa, sb, k_confidence);
    r.ratio_ci = ratio_ci.value_or(Interval{0.0, 0.0, false});
    return r;
}

std::optional<WelchResult> paired_test(std::span<const double> a, std::span<const double> b) {
    if (a.size() != b.size() || a.size() < k_min_runs_for_interval) {
        return std::nullopt;
    }
    const Sample sa = sample_of(a);
    const Sample sb = sample_of(b);
    WelchResult r;
    r.paired = true;
    r.mean_a = sa.linear.mean;
    r.mean_b = sb.linear.mean;
    r.log_scale = sa.log && sb.log;
    std::vector<double> differences(a.size());
    std::vector<double> log_ratios;
    for (std::size_t i = 0; i < a.size(); ++i) {
        differences[i] = a[i] - b[i];
        if (r.log_scale) {
            log_ratios.push_back(std::log(a[i]) - std::log(b[i]));
        }
    }
    const Moments linear = moments_of(differences);
    const Moments tested = r.log_scale ? moments_of(log_ratios) : linear;
    r.df = static_cast<double>(a.size() - 1);
    if (const double se = std::sqrt(tested.variance / static_cast<double>(a.size())); se > 0.0) {
        r.t = tested.mean / se;
        r.p_value = two_sided_tail(r.t, r.df);
    } else if (tested.mean != 0.0) {
        r.t = std::copysign(std::numeric_limits<double>::infinity(), tested.mean);
        r.p_value = 0.0;
    }
    r.difference = linear.mean;
    r.difference_ci = *mean_interval(linear, k_confidence);
    if (r.log_scale) {
        const Interval logs = *mean_interval(tested, k_confidence);
        r.ratio = std::exp(tested.mean);
        r.ratio_ci = Interval{std::exp(logs.low), std::exp(logs.high), true};
    } else {
        // Not all positive: the ratio of the means, its interval as the unpaired runs give it.
        r.ratio = typical_ratio(sa, sb);
        r.ratio_ci =
            typical_ratio_interval(sa, sb, k_confidence).value_or(Interval{0.0, 0.0, false});
    }
    return r;
}

} // namespace pglab::lab::judge
