// The report's words for what the client (pglab) cost during a step (judge::ClientCost): how it
// ran, and the warning when it took so much of the server's machine that a run measured the
// client as much as the server.
#pragma once

#include "lab/report/metrics.hpp"

#include <optional>
#include <string>

namespace pglab::lab::report {

/// "250 clients a thread on 2 threads, epoll, pinned"; "" when nothing of it is known.
std::string placement_text(const judge::ClientCost& cost);

/// The warning for a step whose client took more than `limit` of the machine in some measured
/// run while the server ran on the same machine, naming each such run, its share and how the
/// client ran; nullopt when no run did.
std::optional<std::string> client_bound_warning(const StepData& step, double limit);

} // namespace pglab::lab::report
