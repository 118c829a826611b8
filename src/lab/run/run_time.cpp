// lab/run: ms_between, iso_now, step_key.
#include "lab/run/run_time.hpp"

#include <fmt/format.h>

#include <ctime>

namespace pglab::lab::run {

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string iso_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
    std::string s = buf; // +0200 -> +02:00
    if (s.size() <= 5) {
        return s;
    }
    return s.substr(0, s.size() - 2) + ":" + s.substr(s.size() - 2);
}

std::string step_key(const experiment::Step& step, std::size_t index) {
    return step.name.empty() ? fmt::format("{}:{}", index, experiment::step_type_name(step.type))
                             : step.name;
}

} // namespace pglab::lab::run
