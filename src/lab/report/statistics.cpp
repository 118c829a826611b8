// Summaries, Student's t distribution and Welch's test. References: Numerical Recipes in C, 2nd
// ed., §6.1 (log-gamma, Lanczos), §6.4 (incomplete beta, continued fraction), §14.2 (Student's
// t and Welch's test); Fieller, "Some problems in interval estimation", JRSS B 16 (1954).
#include "lab/report/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
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

/// Continued fraction of I_x(a, b) (Numerical Recipes' betacf), modified Lentz's method.
double beta_continued_fraction(double a, double b, double x) {
    constexpr int k_max_iterations = 10000;
    constexpr double k_epsilon = 1e-15;
    constexpr double k_tiny = 1e-300;
    const double qab = a + b;
    const double qap = a + 1.0;
    const double qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 - qab * x / qap;
    if (std::fabs(d) < k_tiny) {
        d = k_tiny;
    }
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= k_max_iterations; ++m) {
        const double dm = m;
        const double m2 = 2.0 * dm;
        // Even step.
        double aa = dm * (b - dm) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < k_tiny) {
            d = k_tiny;
        }
        c = 1.0 + aa / c;
        if (std::fabs(c) < k_tiny) {
            c = k_tiny;
        }
        d = 1.0 / d;
        h *= d * c;
        // Odd step.
        aa = -(a + dm) * (qab + dm) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < k_tiny) {
            d = k_tiny;
        }
        c = 1.0 + aa / c;
        if (std::fabs(c) < k_tiny) {
            c = k_tiny;
        }
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1.0) < k_epsilon) {
            break;
        }
    }
    return h;
}

/// P(|T| > |t|) for Student's t: I_{df/(df+t²)}(df/2, 1/2), accurate for tiny p-values too.
double two_sided_tail(double t, double df) {
    if (std::isinf(t)) {
        return 0.0;
    }
    return incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
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

double log_gamma(double x) {
    // Lanczos approximation, g = 7, 9 coefficients (relative error below 1e-15 for x > 0).
    static constexpr std::array<double, 9> k_coefficients = {
        0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
        771.32342877765313,   -176.61502916214059,   12.507343278686905,
        -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
    if (x < 0.5) {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx).
        return std::log(std::numbers::pi / std::fabs(std::sin(std::numbers::pi * x)))
               - log_gamma(1.0 - x);
    }
    const double z = x - 1.0;
    double sum = k_coefficients[0];
    for (size_t i = 1; i < k_coefficients.size(); ++i) {
        sum += k_coefficients[i] / (z + static_cast<double>(i));
    }
    const double t = z + 7.5;
    return 0.5 * std::log(2.0 * std::numbers::pi) + (z + 0.5) * std::log(t) - t + std::log(sum);
}

double incomplete_beta(double a, double b, double x) {
    if (x <= 0.0) {
        return 0.0;
    }
    if (x >= 1.0) {
        return 1.0;
    }
    const double front = std::exp(log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * std::log(x)
                                  + b * std::log1p(-x));
    // The continued fraction converges fast for x < (a+1)/(a+b+2); use the symmetry
    // I_x(a, b) = 1 - I_{1-x}(b, a) on the other side.
    if (x < (a + 1.0) / (a + b + 2.0)) {
        return front * beta_continued_fraction(a, b, x) / a;
    }
    return 1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double student_t_cdf(double t, double df) {
    if (std::isnan(t)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const double tail = 0.5 * two_sided_tail(t, df);
    return t > 0.0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double df) {
    if (!(p > 0.0 && p < 1.0) || !(df > 0.0)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (p == 0.5) {
        return 0.0;
    }
    // Solve P(T > t) = q for t > 0 and use the symmetry of the distribution.
    const double q = p > 0.5 ? 1.0 - p : p;
    double low = 0.0;
    double high = 1.0;
    while (0.5 * two_sided_tail(high, df) > q && high < 1e300) {
        low = high;
        high *= 2.0;
    }
    for (int i = 0; i < 2000 && high - low > 1e-13 * high; ++i) {
        const double mid = 0.5 * (low + high);
        if (0.5 * two_sided_tail(mid, df) > q) {
            low = mid;
        } else {
            high = mid;
        }
    }
    const double t = 0.5 * (low + high);
    return p > 0.5 ? t : -t;
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
