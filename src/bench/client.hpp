// One benchmark client: its connection, variables, random state and position in the scripts.
// A client belongs to exactly one Worker, which alone touches it.
#pragma once

#include "pg/connection.hpp"
#include "pg/query_result.hpp"
#include "script/prng.hpp"
#include "script/variables.hpp"
#include "util/clock.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pglab::bench {

/// The client state machine, with pgbench's state names. Each state says what it does and
/// where it goes next.
enum class ClientState : uint8_t {
    choose_script,    ///< pick a script by weight -> prepare_throttle (with -R) or start_tx
    prepare_throttle, ///< -R: schedule the next slot (maybe skip late slots) -> throttle
    throttle,         ///< -R: sleep until the scheduled start -> start_tx
    start_tx,         ///< connect if -C, save the random state for retries -> start_command
    connecting,       ///< -C: non-blocking connect in progress -> start_command
    start_command,    ///< run the current command: SQL -> wait_result, meta -> end_command,
                      ///< \sleep -> sleep, end of script -> end_tx
    wait_prepare,     ///< prepared mode: wait for the statement's preparation -> send the query
    wait_result,      ///< read the results of an SQL command -> end_command, error or aborted
    sleep,            ///< \sleep in progress -> end_command
    end_command,      ///< record -r time, move to the next command -> start_command
    error,            ///< a retryable error: roll back if in a transaction -> wait_rollback/retry
    wait_rollback,    ///< waiting for ROLLBACK -> retry or failure
    retry,            ///< decide between retrying and failing -> start_command or failure
    failure,          ///< count the failed transaction -> end_tx
    end_tx,           ///< record statistics, disconnect if -C -> choose_script or finished
    aborted,          ///< stopped by an error; the run will exit with 2
    finished,         ///< done (transactions or time exhausted)
};

/// The kind of error the current transaction hit (pgbench's EStatus): serialization and
/// deadlock failures may be retried; another SQL error ends the transaction as a failure only
/// under --continue-on-error (19), and aborts the client otherwise.
enum class TxError : uint8_t { none, serialization, deadlock, other };

struct Client {
    int id = 0;        ///< 0-based over the whole run
    uint32_t slot = 0; ///< index in its worker's client list (epoll and timer key)
    bool done = false; ///< finished or aborted, and accounted for
    pg::Connection conn;
    script::Variables vars;
    script::Prng prng;          ///< the client's function generator (random() etc.)
    script::Prng prng_at_start; ///< its state at the start of the transaction, for retries

    ClientState state = ClientState::choose_script;
    int script = 0;              ///< index of the running script
    int command = 0;             ///< index of the current command in the script
    int next_command = 0;        ///< where end_command goes (command + 1, or a conditional's jump)
    bool branch_pending = false; ///< jumped to an \elif/\else because a condition was false
    bool timer_armed = false;    ///< a wake-up for this client is in the worker's timer heap

    usec_t tx_scheduled = 0; ///< scheduled start (-R) or start of the transaction
    usec_t tx_begin = 0;     ///< actual start of the transaction
    usec_t cmd_begin = 0;    ///< start of the current command
    usec_t wake_at = 0;      ///< end of the current \sleep or throttle wait
    usec_t conn_begin = 0;   ///< -C: start of the connection attempt

    int64_t tx_done = 0; ///< transactions ended (successful, failed or skipped), for -t
    uint32_t tries = 1;  ///< attempts of the current transaction
    TxError tx_error = TxError::none;
    int error_command = 0; ///< command where the retryable error occurred
    /// --continue-on-error: the error's query and message, for the abort pgbench reports when
    /// the connection turns out to be lost (set only on that error path)
    int error_query = 0;
    std::string error_text;

    int result_index = 0;        ///< index of the current result in a compound query
    pg::QueryResult held_result; ///< \gset/\aset: the previous result, kept until the next
    bool draining = false;       ///< discarding the rest of a failed query's results
    int pipeline_syncs = 0;      ///< syncs sent and not yet read back
    bool pipeline_failed = false;
    bool want_write = false; ///< waiting for the socket to become writable
    bool registered = false; ///< socket registered in the worker's epoll set
    int registered_fd = -1;
    uint32_t registered_events = 0;

    std::vector<uint8_t> prepared; ///< per prepared statement: prepared on this connection
    std::string sql_buffer;        ///< simple mode: substituted text
    std::vector<std::string> param_values;
    std::vector<bool> param_nulls;
    std::vector<const char*> param_ptrs;

    explicit Client(const script::VariableTable& table) : vars(table) {}
};

} // namespace pglab::bench
