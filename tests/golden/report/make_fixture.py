#!/usr/bin/env python3
"""Writes tests/golden/report/results-fixture/, a hand-made results directory in the format of
docs/results-format.md: PostgreSQL 16 vs 17 at 5, 10 and 20 clients (study S3), 3 measured runs
and 1 warm-up per cell, with the defects a report must cope with: a failed run, a corrupt line,
a torn last line, planned runs that never ran, a checkpoint inside a measured run, a client-bound
run and a noisy cell. Deterministic: running it again gives the same files."""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "results-fixture")
rng = random.Random(20240611)

EXPERIMENT = '''name = "pg16-vs-pg17"
description = "TPC-B-like throughput, VACUUM and an index-only scan on PostgreSQL 16 and 17"
question = "Is PostgreSQL 17 faster than 16 at TPC-B-like load and at VACUUM?"
repeat = 3
warmup = 1
order = "interleaved"
seed = 42
on_error = "continue"

[servers.pg16]
version = "16"
initdb = ["--data-checksums"]
settings = { shared_buffers = "256MB", autovacuum = false, max_wal_size = "1GB" }

[servers.pg17]
version = "17"
initdb = ["--data-checksums"]
settings = { shared_buffers = "256MB", autovacuum = false, max_wal_size = "1GB" }

[matrix]
server = ["pg16", "pg17"]
clients = [5, 10, 20]
scale = 10
duration = 10

[[steps]]
type = "init"
once = true

[[steps]]
type = "bench"
name = "tpcb"
options = ["--jobs=2"]

[[steps]]
type = "timed-sql"
name = "vacuum"
sql = "VACUUM pgbench_accounts"

[[steps]]
type = "explain"
name = "ios"
sql = "SELECT aid FROM pgbench_accounts WHERE aid < 300001"

[[claims]]
text = "17 vacuums 5.7x faster than 16"
source = "seed 002"
step = "vacuum"
metric = "server_ms"
ratio = ["server=pg17 clients=10", "server=pg16 clients=10"]
paper = 0.175
tolerance = 0.2
explanation = "The paper's disk flushes far more slowly than this machine's"

[[claims]]
text = "tps is equal within 3% on both versions"
source = "seed 002"
step = "tpcb"
metric = "tps"
ratio = ["server=pg17 clients=10", "server=pg16 clients=10"]
paper = 1.0
tolerance = 0.03

[[claims]]
text = "tps stays flat from 5 to 20 clients"
step = "tpcb"
metric = "tps"
shape = "flat"
over = "clients"
cell = "server=pg17"
tolerance = 0.05

[[claims]]
text = "a 128kB record size halves tps"
source = "seed 004"
untestable = "needs a ZFS file system with a record size per data directory"
'''

SERVERS = {"pg16": ("16.12", 160012), "pg17": ("17.8", 170008)}
CLIENTS = [5, 10, 20]
BASE_TPS = {("pg16", 5): 1194.4, ("pg16", 10): 1199.3, ("pg16", 20): 1229.0,
            ("pg17", 5): 1228.1, ("pg17", 10): 1201.6, ("pg17", 20): 1236.3}
START_US = 1718093702000000


def slot_high(v):
    if v < 2048:
        return v
    b = v.bit_length() - 11
    return ((v >> b) << b) + (1 << b) - 1


def histogram(values):
    values = sorted(values)
    slots = {}
    for v in values:
        h = slot_high(v)
        slots[h] = slots.get(h, 0) + 1
    n = len(values)
    s = float(sum(values))
    s2 = float(sum(v * v for v in values))
    mean = s / n
    var = max(0.0, s2 / n - mean * mean)

    def pct(p):
        rank = max(1, round(p / 100.0 * n))
        return min(slot_high(values[rank - 1]), values[-1])
    enc = "pglab.hist/1 count=%d min=%d max=%d sum=%r sum2=%r clamped=0 slots=%s" % (
        n, values[0], values[-1], s, s2, ",".join("%d:%d" % kv for kv in sorted(slots.items())))
    return {"count": n, "min_us": values[0], "max_us": values[-1], "mean_us": round(mean, 3),
            "stddev_us": round(var ** 0.5, 3),
            "percentiles_us": {"p50": pct(50), "p90": pct(90), "p99": pct(99),
                               "p99.9": pct(99.9), "p99.99": pct(99.99)},
            "clamped": 0, "buckets": [[k, c] for k, c in sorted(slots.items())], "encoded": enc}


def bench_doc(server, clients, tps, start_us):
    version, num = SERVERS[server]
    duration = 10.0
    mean_ms = clients / tps * 1000.0
    # 400 sampled latencies stand for the run's transactions in the histogram (log-normal).
    lat = [max(200, int(rng.lognormvariate(0, 0.45) * mean_ms * 900)) for _ in range(400)]
    h = histogram(lat)
    points = []
    t0 = start_us // 1000000
    first = 1.0 - (start_us % 1000000) / 1e6
    for i in range(12):
        d = first if i == 0 else (1.0 if i < 11 else duration - first - 10 + 1)
        d = max(0.05, min(1.0, d))
        per = tps * (1 + rng.gauss(0, 0.04))
        points.append({"time_s": t0 + i, "elapsed_s": round(i - (1 - first), 3),
                       "duration_s": round(d, 3), "transactions": int(per * d),
                       "tps": round(per, 3), "failures": 0, "skipped": 0,
                       "latency_mean_ms": round(mean_ms, 3),
                       "latency_p99_ms": round(mean_ms * 2.8, 3),
                       "latency_max_ms": round(mean_ms * 4.1, 3)})
    tx = int(tps * duration)
    return {
        "version": "pglab.bench/1", "client_version": "0.1.0", "server_version": version,
        "server_version_num": num,
        "settings": {"shared_buffers": "256MB", "autovacuum": "off", "max_wal_size": "1GB"},
        "start_time_us": start_us,
        "options": {"transaction_type": "<builtin: TPC-B (sort of)>", "scale": 10,
                    "partition_method": None, "partitions": 0, "query_mode": "simple",
                    "clients": clients, "threads": 2, "transactions_per_client": None,
                    "duration_s": 10, "connect_per_transaction": False, "rate_tps": None,
                    "latency_limit_ms": None, "max_tries": 1, "failures_detailed": False,
                    "progress_s": 0, "report_per_command": False, "random_seed": None},
        "totals": {"transactions": tx, "skipped": 0, "failed": 0, "failed_percent": 0.0,
                   "serialization_failures": 0, "deadlock_failures": 0, "retried": 0,
                   "retries": 0, "late": 0, "duration_s": duration, "tps": round(tps, 6),
                   "latency_measured": True, "latency_average_ms": round(mean_ms, 6),
                   "latency_stddev_ms": round(h["stddev_us"] / 1000, 6),
                   "lag_average_ms": None, "lag_max_ms": None,
                   "connection_time_kind": "initial",
                   "connection_time_ms": round(2.1 * clients + rng.uniform(0, 1), 3),
                   "aborted_clients": 0, "interrupted": False},
        "latency": h, "service_time": None, "scripts": [],
        "series": {"interval_s": 1, "points": points}}


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "experiment.toml"), "w") as f:
        f.write(EXPERIMENT)
    cells = []
    for server in ["pg16", "pg17"]:
        for c in CLIENTS:
            cells.append({"index": len(cells),
                          "label": "server=%s clients=%d scale=10 duration=10" % (server, c),
                          "server": server,
                          "values": {"server": server, "clients": c, "scale": 10,
                                     "duration": 10}})
    order_rng = random.Random(42)
    runs = []
    for rnd in range(1, 4):
        idx = list(range(len(cells)))
        order_rng.shuffle(idx)
        for ci in idx:
            if rnd == 1:
                runs.append({"run": len(runs), "cell": ci, "repetition": 1, "warmup": True,
                             "round": rnd})
            runs.append({"run": len(runs), "cell": ci, "repetition": rnd, "warmup": False,
                         "round": rnd})
    steps = [{"index": 0, "key": "0:init", "name": "", "type": "init", "measure": False},
             {"index": 1, "key": "tpcb", "name": "tpcb", "type": "bench", "measure": True},
             {"index": 2, "key": "vacuum", "name": "vacuum", "type": "timed-sql",
              "measure": True},
             {"index": 3, "key": "ios", "name": "ios", "type": "explain", "measure": True}]
    plan = {"version": "pglab.plan/1", "experiment": "pg16-vs-pg17",
            "description": "TPC-B-like throughput, VACUUM and an index-only scan on "
                           "PostgreSQL 16 and 17",
            "file": "experiments/pg16-vs-pg17.toml", "created_at": "2024-06-11T10:15:00+02:00",
            "seed": 42, "seed_source": "file", "order": "interleaved", "repeat": 3,
            "warmup": 1, "on_error": "continue", "variables": ["server", "clients", "scale",
                                                               "duration"],
            "servers": [{"name": "pg16", "version": "16", "bin_dir": "", "existing": False},
                        {"name": "pg17", "version": "17", "bin_dir": "", "existing": False}],
            "steps": steps, "cells": cells, "runs": runs,
            "pglab_version": "0.1.0", "pglab_commit": "0123456789ab",
            "machine": {"cpu_model": "Intel(R) Xeon(R) CPU @ 2.20GHz", "cores": 2,
                        "memory_bytes": 25769803776, "kernel": "Linux 6.1.0-18-amd64 x86_64"}}
    with open(os.path.join(OUT, "plan.json"), "w") as f:
        json.dump(plan, f, indent=2)
        f.write("\n")

    failed_run, corrupt_run, torn_run = 9, 14, 21
    missing = {22, 23}
    checkpoint_run = next(r["run"] for r in runs if r["run"] >= 5 and not r["warmup"])
    client_bound_run = 17
    lines = []
    t_us = START_US
    once_done = set()
    for r in runs:
        if r["run"] in missing:
            continue
        cell = cells[r["cell"]]
        server, clients = cell["server"], cell["values"]["clients"]
        version, num = SERVERS[server]
        tps = BASE_TPS[(server, clients)] * (1 + rng.gauss(0, 0.012))
        if (server, clients) == ("pg17", 20):  # a noisy cell
            tps *= [1.0, 0.78, 1.21][r["repetition"] - 1]
        if r["warmup"]:
            tps *= 0.93
        run_dir = "runs/%04d" % r["run"]
        ok = r["run"] != failed_run
        init_step = {"index": 0, "key": "0:init", "type": "init", "server": server,
                     "error": None, "probes": None}
        if server in once_done:
            init_step.update({"status": "skipped", "skip_reason": "once", "elapsed_ms": None,
                              "log": None})
        else:
            once_done.add(server)
            init_step.update({"status": "ok", "elapsed_ms": round(rng.uniform(9000, 9800), 1),
                              "log": run_dir + "/00-init.log",
                              "arguments": ["--scale=10"], "exit_status": 0})
        cpu_client = rng.uniform(700, 900)
        if r["run"] == client_bound_run:
            cpu_client = 6500.0
        probes_bench = {
            "elapsed_s": 10.02,
            "wal.bytes": int(tps * 10 * 620 * (0.97 if server == "pg17" else 1.0)),
            "wal.records": int(tps * 10 * 6.1), "wal.fpi": int(tps * 10 * 0.05),
            "db.xact_commit": int(tps * 10) + 3,
            "db.blks_hit": int(tps * 10 * 48), "db.blks_read": int(tps * 10 * 0.4),
            "checkpointer.num_timed": 1 if r["run"] == checkpoint_run else 0,
            "checkpointer.num_requested": 0,
            "checkpointer.buffers_written": 2210 if r["run"] == checkpoint_run else 0,
            "server.cpu_user_s": round(tps * 10 * 0.62 / 1000, 3),
            "server.cpu_system_s": round(tps * 10 * 0.31 / 1000, 3),
            "server.cpu_s": round(tps * 10 * 0.93 / 1000, 3),
            "client.cpu_user_s": round(cpu_client / 1000, 3),
            "client.cpu_system_s": round(cpu_client * 0.4 / 1000, 3),
            "client.cpu_s": round(cpu_client * 1.4 / 1000, 3)}
        if ok:
            bench = {"index": 1, "key": "tpcb", "type": "bench", "server": server,
                     "status": "ok", "error": None, "elapsed_ms": round(10000 + rng.uniform(8, 30), 1),
                     "log": run_dir + "/01-bench.log", "probes": probes_bench,
                     "arguments": ["--jobs=2", "--client=%d" % clients, "--time=10"],
                     "exit_status": 0, "bench": bench_doc(server, clients, tps, t_us)}
            vac_ms = (1595.0 if server == "pg16" else 1354.0) * (1 + rng.gauss(0, 0.015))
            vacuum = {"index": 2, "key": "vacuum", "type": "timed-sql", "server": server,
                      "status": "ok", "error": None, "elapsed_ms": round(vac_ms + 1.3, 3),
                      "log": run_dir + "/02-timed-sql.log",
                      "probes": {"elapsed_s": round(vac_ms / 1000 + 0.004, 4),
                                 "wal.bytes": int((66.8e6 if server == "pg16" else 65.3e6)
                                                  * (1 + rng.gauss(0, 0.01))),
                                 "wal.records": 61234, "checkpointer.num_timed": 0,
                                 "checkpointer.num_requested": 0,
                                 "server.cpu_user_s": round(vac_ms * 0.55 / 1000, 3),
                                 "server.cpu_system_s": round(vac_ms * 0.2 / 1000, 3),
                                 "server.cpu_s": round(vac_ms * 0.75 / 1000, 3)},
                      "statement": "VACUUM pgbench_accounts", "session": "default",
                      "client_ms": round(vac_ms + 1.3, 3), "server_ms": round(vac_ms, 3),
                      "rows": None}
            exe = 58.0 * (1 + rng.gauss(0, 0.03))
            explain = {"index": 3, "key": "ios", "type": "explain", "server": server,
                       "status": "ok", "error": None, "elapsed_ms": round(exe + 2.1, 3),
                       "log": run_dir + "/03-explain.log",
                       "probes": {"elapsed_s": round(exe / 1000 + 0.003, 4),
                                  "db.blks_hit": 823, "db.blks_read": 0,
                                  "checkpointer.num_timed": 0},
                       "statement": "SELECT aid FROM pgbench_accounts WHERE aid < 300001",
                       "session": "default",
                       "explain": {"execution_ms": round(exe, 3),
                                   "planning_ms": round(rng.uniform(0.08, 0.12), 3),
                                   "total_cost": 8542.43,
                                   "node_types": ["Index Only Scan"],
                                   "shared_hit_blocks": 823, "shared_read_blocks": 0,
                                   "heap_fetches": 0, "rows": 300000}}
            run_steps = [init_step, bench, vacuum, explain]
            error = None
        else:
            bench = {"index": 1, "key": "tpcb", "type": "bench", "server": server,
                     "status": "failed",
                     "error": "connection to server on socket failed: No such file or directory",
                     "elapsed_ms": 3.2, "log": run_dir + "/01-bench.log", "probes": None,
                     "arguments": ["--jobs=2", "--client=%d" % clients, "--time=10"],
                     "exit_status": 1, "bench": None}
            not_run = [{"index": i, "key": k, "type": t, "server": server,
                        "status": "not-run", "error": None, "elapsed_ms": None, "log": None,
                        "probes": None} for i, k, t in [(2, "vacuum", "timed-sql"),
                                                        (3, "ios", "explain")]]
            run_steps = [init_step, bench] + not_run
            error = {"step": 1, "step_key": "tpcb",
                     "reason": "connection to server on socket failed: No such file or "
                               "directory"}
        line = {"version": "pglab.run/1", "experiment": "pg16-vs-pg17", "run": r["run"],
                "cell": r["cell"], "values": cell["values"], "label": cell["label"],
                "repetition": r["repetition"], "warmup": r["warmup"], "round": r["round"],
                "seed": 42, "status": "ok" if ok else "failed", "error": error,
                "started_at": "2024-06-11T10:%02d:%02d+02:00" % (15 + r["run"] // 4,
                                                                 (r["run"] * 13) % 60),
                "start_time_us": t_us,
                "timings": {"total_ms": 11850.2, "server_ms": 12.5, "steps_ms": 11820.4,
                            "overhead_ms": 17.3, "restarts": 0},
                "server": {"name": server, "version": version, "version_num": num,
                           "bin_dir": "/usr/lib/postgresql/%s/bin" % version.split(".")[0],
                           "cluster": 1,
                           "settings": {"shared_buffers": "256MB", "autovacuum": "off",
                                        "max_wal_size": "1GB"},
                           "requested": {"shared_buffers": "256MB", "autovacuum": "off",
                                         "max_wal_size": "1GB"}},
                "steps": run_steps}
        text = json.dumps(line, separators=(",", ":"))
        if r["run"] == corrupt_run:
            text = text[:180] + "#garbage#" + text[400:]  # a damaged line in the middle
        if r["run"] == torn_run:
            text = text[:1500]  # killed while writing: no final newline
            lines.append(text)
            break
        lines.append(text + "\n")
        t_us += 12_000_000
    with open(os.path.join(OUT, "results.jsonl"), "w") as f:
        f.write("".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
