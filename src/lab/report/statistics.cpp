// Summaries, intervals and Welch's test. Student's t distribution is Boost.Math's; references:
// Welch, "The generalization of Student's problem", Biometrika 34 (1947); Fieller, "Some problems
// in interval estimation", JRSS B 16 (1954).
#include "lab/report/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace pglab::lab::report {

namespace {

constexpr double k_confidence = 0.95; // of the summaries' and Welch's intervals

/// sd² / n of a sample with at least two values.
double variance_of_mean(std::span<const double> values) {
    const double sd = sample_stddev(values).value_or(0.0);
    return sd * sd / static_cast<double>(values.size());
}

/// Where the distributions' functions meet a domain error (a df of 0, a NaN) they give NaN
/// instead of throwing: the callers check their inputs, and a report never stops on a figure.
using Quiet = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;
using StudentT = boost::math::students_t_distribution<double, Quiet>;

/// P(|T| > |t|) for Student's t, from the complement so that tiny p-values keep their digits.
double two_sided_tail(double t, double df) {
    if (std::isinf(t)) {
        return 0.0;
    }
    return 2.0 * boost::math::cdf(boost::math::complement(StudentT(df), std::fabs(t)));
}

Interval centred_interval(double centre, double half_width) {
    return Interval{centre - half_width, centre + half_width, true};
}

/// The t quantile of a two-sided `confidence` interval.
double two_sided_quantile(double confidence, double df) {
    return student_t_quantile(0.5 + confidence / 2, df);
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
    if (s.stddev) {
        const auto n = static_cast<double>(s.n);
        const double t = two_sided_quantile(k_confidence, n - 1.0);
        s.ci95 = centred_interval(s.mean, t * *s.stddev / std::sqrt(n));
        if (s.mean != 0.0) {
            s.cv = *s.stddev / std::fabs(s.mean);
        }
    }
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

std::optional<WelchResult> welch(std::span<const double> a, std::span<const double> b) {
    if (a.size() < 2 || b.size() < 2) {
        return std::nullopt;
    }
    WelchResult r;
    r.mean_a = mean(a);
    r.mean_b = mean(b);
    r.difference = r.mean_a - r.mean_b;
    r.ratio = r.mean_b != 0.0 ? r.mean_a / r.mean_b : 0.0;
    const double va = variance_of_mean(a);
    const double vb = variance_of_mean(b);
    const double na1 = static_cast<double>(a.size() - 1);
    const double nb1 = static_cast<double>(b.size() - 1);
    const double se2 = va + vb;
    // Welch–Satterthwaite; with no variance at all the pooled df is the natural limit.
    const double pooled_df = na1 + nb1;
    r.df = se2 > 0.0 ? se2 * se2 / (va * va / na1 + vb * vb / nb1) : pooled_df;
    if (se2 > 0.0) {
        r.t = r.difference / std::sqrt(se2);
        r.p_value = two_sided_tail(r.t, r.df);
    } else if (r.difference != 0.0) {
        r.t = std::copysign(std::numeric_limits<double>::infinity(), r.difference);
        r.p_value = 0.0;
    }
    const double tq = two_sided_quantile(k_confidence, r.df);
    r.difference_ci = centred_interval(r.difference, tq * std::sqrt(se2));

    r.ratio_ci = *ratio_interval(moments_of(a), moments_of(b), k_confidence);
    return r;
}

} // namespace pglab::lab::report
