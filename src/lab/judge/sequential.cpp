// The group-sequential levels of sequential.hpp: the spending function, each look's boundary
// placed among simulated paths of the t statistic, and the levels of a plan's looks, computed
// once per plan.
#include "lab/judge/sequential.hpp"

#include "lab/judge/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <numbers>
#include <random>
#include <utility>

namespace pglab::lab::judge {

namespace {

/// Paths simulated to place the boundaries: the chance of crossing over all looks is then within
/// about ±0.0007 of 5%.
constexpr std::size_t k_paths = 100'000;
/// Past this many runs at the last look the boundaries are not simulated: each look is read at
/// what the function spends on it alone (Bonferroni over the looks: valid, and more cautious).
constexpr std::size_t k_most_simulated_runs = 200;

double upper_tail(double z) {
    return 0.5 * std::erfc(z / std::numbers::sqrt2);
}

/// z with upper_tail(z) = p.
double upper_quantile(double p) {
    return boost::math::quantile(boost::math::complement(boost::math::normal_distribution<>(), p));
}

/// Standard normal values from a seeded Mersenne twister by Box and Muller's transform: the
/// same values from every compiler and library (std::normal_distribution's are not), so that
/// every build reads a look at the same levels.
class Normals {
public:
    double next() {
        if (m_spare) {
            m_spare = false;
            return m_second;
        }
        constexpr double k_scale = 1.0 / 18446744073709551616.0; // 2^-64
        const double u1 = (static_cast<double>(m_random()) + 0.5) * k_scale;
        const double u2 = static_cast<double>(m_random()) * k_scale;
        const double radius = std::sqrt(-2.0 * std::log(u1));
        m_second = radius * std::sin(2.0 * std::numbers::pi * u2);
        m_spare = true;
        return radius * std::cos(2.0 * std::numbers::pi * u2);
    }

private:
    std::mt19937_64 m_random{20261207};
    double m_second = 0;
    bool m_spare = false;
};

double fraction_of(std::size_t runs, const LookPlan& plan) {
    return static_cast<double>(runs) / static_cast<double>(plan.last);
}

/// The levels of each look when it spends alone what the function allows there.
std::vector<double> bonferroni_levels(const LookPlan& plan, double alpha) {
    std::vector<double> out;
    double before = 0;
    for (std::size_t runs = plan.first; runs <= plan.last; ++runs) {
        const double now = spent_by(alpha, fraction_of(runs, plan));
        out.push_back(now - before);
        before = now;
    }
    return out;
}

/// One error rate spent over the looks: which simulated paths have crossed a boundary so far,
/// and each look's level.
struct Spending {
    double alpha = 0;
    std::vector<bool> crossed;
    std::vector<double> levels;
    double spent = 0;
};

/// The boundary of the look with `runs` runs, from the t statistics `t` of every path: the value
/// that as many paths not crossed before cross as the function allows to be spent here; as a
/// level, the chance of Student's t with runs − 1 degrees of freedom beyond it.
void place_boundary(Spending& s, const LookPlan& plan, std::size_t runs,
                    const std::vector<double>& t) {
    const double now = spent_by(s.alpha, fraction_of(runs, plan));
    const double target = now - s.spent;
    s.spent = now;
    const auto crossing = static_cast<std::size_t>(std::llround(target * k_paths));
    std::vector<double> open;
    for (std::size_t i = 0; i < k_paths; ++i) {
        if (!s.crossed[i]) {
            open.push_back(t[i]);
        }
    }
    if (crossing == 0 || crossing > open.size()) {
        // Too rare a crossing to place among the paths: the look spends its share alone.
        s.levels.push_back(target);
        return;
    }
    const auto nth = open.begin() + static_cast<std::ptrdiff_t>(crossing - 1);
    std::nth_element(open.begin(), nth, open.end(), std::greater<>());
    const double boundary = *nth;
    for (std::size_t i = 0; i < k_paths; ++i) {
        s.crossed[i] = s.crossed[i] || t[i] >= boundary;
    }
    s.levels.push_back(1.0 - student_t_cdf(boundary, static_cast<double>(runs - 1)));
}

/// The nominal levels of `plan`'s looks for each of `alphas`, by simulation: the t statistics of
/// runs drawn from one normal distribution have a joint law at successive looks that does not
/// depend on its mean or spread, so paths of N(0, 1) runs place the boundaries of every claim
/// read by a one-sample t (a value, a ratio in pairs) exactly, up to the simulation's error; the
/// others read them as nominal levels.
std::vector<std::vector<double>> simulated_levels(const LookPlan& plan,
                                                  const std::vector<double>& alphas) {
    std::vector<Spending> spendings;
    for (const double alpha : alphas) {
        spendings.push_back(Spending{alpha, std::vector<bool>(k_paths, false), {}, 0});
    }
    Normals normals;
    std::vector<double> sum(k_paths, 0.0);
    std::vector<double> squares(k_paths, 0.0);
    std::vector<double> t(k_paths, 0.0);
    for (std::size_t runs = 1; runs <= plan.last; ++runs) {
        for (std::size_t i = 0; i < k_paths; ++i) {
            const double x = normals.next();
            sum[i] += x;
            squares[i] += x * x;
        }
        if (runs < plan.first) {
            continue;
        }
        const auto n = static_cast<double>(runs);
        for (std::size_t i = 0; i < k_paths; ++i) {
            const double mean = sum[i] / n;
            const double variance = std::max(0.0, (squares[i] - n * mean * mean) / (n - 1));
            t[i] = variance > 0 ? mean / std::sqrt(variance / n) : 0.0;
        }
        for (Spending& s : spendings) {
            place_boundary(s, plan, runs, t);
        }
    }
    std::vector<std::vector<double>> out;
    for (Spending& s : spendings) {
        out.push_back(std::move(s.levels));
    }
    return out;
}

using PlanLevels = std::pair<std::vector<double>, std::vector<double>>; ///< agree, differ

/// The levels of a plan's looks for "agrees" and "differs", computed once per plan.
const PlanLevels& levels_of_plan(const LookPlan& plan) {
    static std::mutex lock;
    static std::map<std::pair<std::size_t, std::size_t>, PlanLevels> known;
    const std::scoped_lock hold(lock);
    const auto key = std::make_pair(plan.first, plan.last);
    if (const auto it = known.find(key); it != known.end()) {
        return it->second;
    }
    const Levels single;
    if (plan.last > k_most_simulated_runs) {
        return known
            .emplace(key, PlanLevels{bonferroni_levels(plan, single.agree),
                                     bonferroni_levels(plan, single.differ)})
            .first->second;
    }
    std::vector<std::vector<double>> levels = simulated_levels(plan, {single.agree, single.differ});
    return known.emplace(key, PlanLevels{std::move(levels[0]), std::move(levels[1])}).first->second;
}

} // namespace

LookPlan LookPlan::rounds(std::size_t min_runs, std::size_t max_runs) {
    const std::size_t first = std::max(min_runs, k_min_runs_for_interval);
    return first < max_runs ? LookPlan{first, max_runs} : LookPlan{};
}

std::size_t LookPlan::look_of(std::size_t runs) const {
    if (!sequential()) {
        return 1;
    }
    return std::clamp(runs, first, last) - first + 1;
}

Levels levels_at(const LookPlan& plan, std::size_t runs) {
    Levels out;
    if (!plan.sequential()) {
        return out;
    }
    out.look = plan.look_of(runs);
    out.looks = plan.count();
    const auto& [agree, differ] = levels_of_plan(plan);
    out.agree = agree[out.look - 1];
    out.differ = differ[out.look - 1];
    return out;
}

double spent_by(double alpha, double fraction) {
    // O'Brien and Fleming's type: 2·(1 − Φ(z(1 − α/2) / √t)).
    const double t = std::clamp(fraction, 0.0, 1.0);
    return t <= 0 ? 0.0 : 2.0 * upper_tail(upper_quantile(alpha / 2) / std::sqrt(t));
}

} // namespace pglab::lab::judge
