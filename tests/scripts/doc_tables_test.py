#!/usr/bin/env python3
"""scripts/doc-tables: README.md and docs/studies.md agree with their stored results; stale tables fail.

Run by ctest (label docs) with the pglab binary as its first argument; it needs no server: the
report fixture of tests/golden/report/ is a finished results directory.
"""

import csv
import datetime as dt
import gzip
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "doc-tables"
FIXTURE = ROOT / "tests" / "golden" / "report" / "results-fixture"
PGLAB = None  # set from argv


def finished_copy(target):
    """The report fixture without its torn lines and without the runs they were: a finished run."""
    shutil.copytree(FIXTURE, target)
    records = []
    for line in (target / "results.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    (target / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    plan = json.loads((target / "plan.json").read_text(encoding="utf-8"))
    done = {r["run"] for r in records}
    plan["runs"] = [r for r in plan["runs"] if r["run"] in done]
    # Made by a pglab anyone can rebuild: main's commit (store refuses any other).
    plan["pglab_commit"] = commit_on_main()
    (target / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    return target


def commit_on_main():
    for ref in ("main", "origin/main", "HEAD"):
        found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", ref],
                               capture_output=True, text=True)
        if found.returncode == 0:
            return found.stdout.strip()[:12]
    return ""


def with_commit(target, commit):
    """`target`'s plan.json made to name `commit` as the pglab that ran it."""
    plan = json.loads((target / "plan.json").read_text(encoding="utf-8"))
    plan["pglab_commit"] = commit
    (target / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    return target


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)


class DocTablesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # One stored copy of the fixture (pglab draws its charts: seconds), copied for each case.
        cls.shared = Path(tempfile.mkdtemp(prefix="doc-tables-test."))
        cls.finished = finished_copy(cls.shared / "finished")
        stored = run("store", str(cls.finished), "--id", "fixture", "--results", str(cls.shared / "results"),
                     "--pglab", PGLAB, "--chart", "tpcb-tps")
        assert stored.returncode == 0, stored.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.shared)

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="doc-tables-test."))
        self.results = self.tmp / "results"
        shutil.copytree(self.shared / "results", self.results)
        self.doc = self.tmp / "doc.md"
        self.doc.write_text(
            "# Studies\n\nProse before.\n\n<!-- claims: fixture -->\nold table\n<!-- end -->\n\n"
            "<!-- cells: fixture step=tpcb metric=tps -->\n<!-- end -->\n\n"
            "<!-- chart: fixture name=tpcb-tps -->\n<!-- end -->\n\nProse after.\n",
            encoding="utf-8",
        )

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def render(self, *extra):
        return run("render", "--results", str(self.results), *extra, str(self.doc))

    def test_the_repository_docs_match_their_stored_results(self):
        checked = run("render", "--check")
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_the_studies_page_answers_each_study_first_and_briefly(self):
        page = (ROOT / "docs" / "studies.md").read_text(encoding="utf-8")
        self.assertLess(len(page.splitlines()), 700)
        self.assertIn("<!-- headlines: studies/headlines.toml -->", page.split("\n## ")[1])  # the first section
        studies = [s for s in re.split(r"\n(?=## )", page) if re.match(r"## (S\d|A/A)", s)]
        self.assertGreaterEqual(len(studies), 10)
        for study in studies:
            title, first = study.split("\n")[0], study.split("\n\n")[1]
            self.assertTrue(first.startswith("**Answer.**"), title)
            words = re.sub(r"<!--.*?-->", "", first, flags=re.S).split()
            self.assertLessEqual(len(words), 150, title)

    def test_every_stored_result_keeps_the_runs_recheck_judges_again(self):
        results = ROOT / "docs" / "studies" / "results"
        without = [d.name for d in sorted(results.iterdir())
                   if (d / "about.json").is_file() and not (d / "runs" / "results.jsonl.gz").is_file()]
        self.assertEqual(without, [], "stored results that `ctest -R recheck-stored` cannot judge again")

    def test_store_keeps_claims_cells_and_the_facts_of_the_run(self):
        folder = self.results / "fixture"
        about = json.loads((folder / "about.json").read_text(encoding="utf-8"))
        plan = json.loads((self.finished / "plan.json").read_text(encoding="utf-8"))
        self.assertEqual(about["file"], plan["file"])
        self.assertEqual(about["experiment"], Path(plan["file"]).stem)  # not a chart's name
        self.assertEqual(about["machine"], plan.get("machine"))
        self.assertEqual(about["runs"], sum(1 for r in plan["runs"] if not r.get("warmup")))
        self.assertEqual(about["pglab_commit"], plan["pglab_commit"])  # the pglab that ran it
        self.assertEqual(self.render().returncode, 0)
        self.assertIn(f"; pglab built from commit {commit_on_main()}. Stored in", self.doc.read_text(encoding="utf-8"))
        self.assertTrue((folder / "claims.csv").read_text(encoding="utf-8").startswith("claim,"))
        # The runs the claims were judged on are kept, and this pglab judges them as stored.
        with gzip.open(folder / "runs" / "results.jsonl.gz", "rt", encoding="utf-8") as f:
            self.assertEqual(f.read(), (self.finished / "results.jsonl").read_text(encoding="utf-8"))
        self.assertEqual(about["runs_kept_bytes"], sum(p.stat().st_size for p in (folder / "runs").iterdir()))
        self.assertIn("`pglab report --recheck` judges them again", self.doc.read_text(encoding="utf-8"))
        rechecked = subprocess.run([PGLAB, "report", "--recheck", str(folder)], capture_output=True, text=True)
        self.assertEqual(rechecked.returncode, 0, rechecked.stdout + rechecked.stderr)
        self.assertIn("claims judged again, as stored", rechecked.stdout)
        self.assertTrue((folder / "cells.csv").read_text(encoding="utf-8").startswith("step,"))
        self.assertTrue((folder / "checks.csv").read_text(encoding="utf-8").startswith("run,"))

    def test_store_keeps_the_cells_of_the_claims_metrics_and_those_asked_for(self):
        def metrics(ident):
            rows = (self.results / ident / "cells.csv").read_text(encoding="utf-8").splitlines()[1:]
            return {row.split(",")[2] for row in rows}

        claims = (self.results / "fixture" / "claims.csv").read_text(encoding="utf-8")
        self.assertIn("server_ms", claims)
        self.assertEqual(metrics("fixture"), {"tps", "client_ms", "server_ms", "latency_avg_ms"})
        stored = run("store", str(self.finished), "--id", "more", "--results", str(self.results), "--pglab", PGLAB,
                     "--metric", "latency_p99_ms")
        self.assertEqual(stored.returncode, 0, stored.stderr)
        self.assertEqual(metrics("more"), {"tps", "client_ms", "server_ms", "latency_avg_ms", "latency_p99_ms"})
        self.doc.write_text("<!-- cells: fixture step=tpcb metric=latency_p99_ms -->\n<!-- end -->\n", encoding="utf-8")
        checked = self.render()
        self.assertEqual(checked.returncode, 1)
        self.assertIn("kept no cell of step 'tpcb' with metric 'latency_p99_ms' (store it with --metric NAME)",
                      checked.stderr)

    def test_render_fills_the_marked_regions_and_keeps_the_prose(self):
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertNotIn("old table", text)
        self.assertIn("Prose before.", text)
        self.assertIn("Prose after.", text)
        self.assertIn("| claim | paper | measured | verdict |", text)
        self.assertIn("| cell | runs | mean | 95% CI | min – max |", text)
        self.assertIn("](results/fixture/tpcb-tps.svg)", text)  # relative to the doc
        self.assertEqual(self.render("--check").returncode, 0)  # rendering again changes nothing

    def test_render_writes_a_linked_document_and_keeps_the_link(self):
        kept = self.tmp / "kept"
        kept.mkdir()
        self.doc.rename(kept / "doc.md")
        self.doc.symlink_to(Path("kept") / "doc.md")
        (kept / "doc.md").chmod(0o600)
        self.assertEqual(self.render().returncode, 0)
        self.assertTrue(self.doc.is_symlink())
        self.assertIn("| claim | paper | measured | verdict |", (kept / "doc.md").read_text(encoding="utf-8"))
        self.assertEqual((kept / "doc.md").stat().st_mode & 0o777, 0o600)
        self.assertEqual(sorted(p.name for p in kept.iterdir()), ["doc.md"])

    def test_pglabs_own_claims_get_a_column_of_their_own(self):
        claims = self.results / "fixture" / "claims.csv"
        with claims.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(rows[0]["own"], "false")
        rows[0]["own"] = "true"
        with claims.open("w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(rows)
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("| claim | paper | pglab's own | measured | verdict |", text)
        first = next(l for l in text.splitlines() if l.startswith("| " + rows[0]["claim"]))
        self.assertTrue(first.startswith(f"| {rows[0]['claim']} | - | {rows[0]['paper']} |"), first)

    def test_a_second_table_of_the_same_claims_leaves_the_quotes_to_the_first(self):
        self.doc.write_text("<!-- claims: fixture paper=above -->\n<!-- end -->\n", encoding="utf-8")
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("| claim | measured | verdict |", text)
        self.assertIn("The paper's words are in the table above.", text)
        self.assertNotIn(self.fixture_claims()[0]["paper"], text)

    def test_a_stale_table_fails_the_check_with_a_diff(self):
        self.render()
        text = self.doc.read_text(encoding="utf-8")
        line = next(l for l in text.splitlines() if l.startswith("| ") and "| differs: " in l)
        self.doc.write_text(text.replace(line, line.replace("| differs: ", "| agrees: ")), encoding="utf-8")
        checked = self.render("--check")
        self.assertEqual(checked.returncode, 1)
        self.assertIn("-" + line.replace("| differs: ", "| agrees: "), checked.stdout)
        self.assertIn("+" + line, checked.stdout)
        self.assertIn("differs from its stored results", checked.stderr)

    def test_a_stored_result_changed_without_rendering_fails_the_check(self):
        self.render()
        claims = self.results / "fixture" / "claims.csv"
        claims.write_text(claims.read_text(encoding="utf-8").replace("differs", "agrees"), encoding="utf-8")
        self.assertEqual(self.render("--check").returncode, 1)

    def test_a_marker_naming_no_stored_result_is_an_error_at_its_line(self):
        self.doc.write_text("# S\n\n<!-- claims: nowhere -->\n<!-- end -->\n", encoding="utf-8")
        checked = self.render("--check")
        self.assertEqual(checked.returncode, 1)
        self.assertIn(f"{self.doc}:3: no stored result \"nowhere\"", checked.stderr)

    def test_an_unclosed_marker_is_an_error(self):
        self.doc.write_text("<!-- claims: fixture -->\ntext\n", encoding="utf-8")
        checked = self.render()
        self.assertEqual(checked.returncode, 1)
        self.assertIn(f"{self.doc}:1: the claims marker has no <!-- end -->", checked.stderr)

    def test_a_chart_the_report_did_not_draw_is_refused(self):
        stored = run("store", str(self.finished), "--id", "other", "--results", str(self.results), "--pglab", PGLAB,
                     "--chart", "tpcb-tsp")
        self.assertEqual(stored.returncode, 1)
        self.assertIn("--chart tpcb-tsp: the report drew no tpcb-tsp.svg (it drew: ", stored.stderr)
        self.assertEqual(sorted(p.name for p in self.results.iterdir()), ["fixture"])  # nothing half-stored

    def headlines(self, *entries):
        """A headlines file beside the doc and a doc that opens with its table."""
        (self.tmp / "headlines.toml").write_text("\n".join(entries), encoding="utf-8")
        self.doc.write_text("# S\n\n<!-- headlines: headlines.toml -->\n<!-- end -->\n", encoding="utf-8")

    def fixture_claims(self):
        with (self.results / "fixture" / "claims.csv").open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    def test_the_headline_table_reads_each_verdict_and_figure_from_the_stored_run(self):
        first = self.fixture_claims()[0]
        self.headlines(
            '[[headline]]\nnumber = 1\nstudy = "S9"\npaper = "the paper\'s figure (000:1)"\nrun = "fixture"\n'
            f'claims = ["{first["claim"]}"]\nwhy = "the mechanism"\n',
            '[[headline]]\nnumber = 2\nstudy = "S9"\npaper = "a 64-core result"\n'
            'status = "cannot be tested here"\nwhy = "2 cores here"\n',
        )
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        figure = first["measured"].split(" = ")[0]
        self.assertIn(f"| 1 | S9 | the paper's figure (000:1) | {figure} | **{first['verdict']}** | the mechanism | "
                      "[fixture](results/fixture/) |", text)
        self.assertIn("| 2 | S9 | a 64-core result | - | **cannot be tested here** | 2 cores here | - |", text)
        self.assertIn(f"2 results; by the verdict of their first claim: ", text)
        # The verdict is the stored run's: judged again differently, the table is stale.
        claims = self.results / "fixture" / "claims.csv"
        other = "agrees" if first["verdict"] != "agrees" else "differs"
        claims.write_text(claims.read_text(encoding="utf-8").replace(first["verdict"], other), encoding="utf-8")
        self.assertEqual(self.render("--check").returncode, 1)

    def test_a_headline_naming_a_claim_the_run_does_not_make_is_an_error_at_its_line(self):
        self.headlines('[[headline]]\nnumber = 1\nstudy = "S9"\npaper = "p"\nrun = "fixture"\n'
                       'claims = ["a claim nobody made"]\nwhy = "w"\n')
        checked = self.render("--check")
        self.assertEqual(checked.returncode, 1)
        self.assertIn(f"{self.doc}:3: headline 1: fixture has no claim \"a claim nobody made\" (its claims: ",
                      checked.stderr)

    def test_headlines_out_of_order_or_without_a_why_are_refused(self):
        self.headlines('[[headline]]\nnumber = 2\nstudy = "S9"\npaper = "p"\nstatus = "not claimed"\nwhy = "w"\n')
        checked = self.render("--check")
        self.assertEqual(checked.returncode, 1)
        self.assertIn("headlines are not numbered 1 to 1 in order", checked.stderr)
        self.headlines('[[headline]]\nnumber = 1\nstudy = "S9"\npaper = "p"\nstatus = "not claimed"\n')
        self.assertIn("headline 1 has no why", self.render("--check").stderr)
        self.headlines('[[headline]]\nnumber = 1\nstudy = "S9"\npaper = "p"\nstatus = "maybe"\nwhy = "w"\n')
        self.assertIn('status "maybe" is not one of: not claimed, cannot be tested here', self.render("--check").stderr)

    def test_a_figure_in_a_sentence_is_the_stored_one_and_a_hand_typed_change_fails(self):
        first = self.fixture_claims()[0]
        low, high = float(first["ci95_low"]), float(first["ci95_high"])
        self.doc.write_text("The interval is <!-- fig: fixture claim=1 field=ci95 fmt=ratio -->?<!-- /fig -->, "
                            "the verdict <!-- fig: fixture claim=1 field=verdict -->?<!-- /fig -->.\n",
                            encoding="utf-8")
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn(f"-->{low:.3f} – {high:.3f}<!-- /fig -->, the verdict <!-- fig: fixture claim=1 "
                      f"field=verdict -->{first['verdict']}<!-- /fig -->.", text)
        self.doc.write_text(text.replace(f"{low:.3f} – ", "0.999 – "), encoding="utf-8")
        checked = self.render("--check")
        self.assertEqual(checked.returncode, 1)
        self.assertIn("differs from its stored results", checked.stderr)

    def test_a_figure_naming_a_claim_the_run_does_not_have_is_an_error_at_its_line(self):
        count = len(self.fixture_claims())
        self.doc.write_text(f"# S\n\nIt is <!-- fig: fixture claim={count + 1} -->1<!-- /fig -->.\n",
                            encoding="utf-8")
        checked = self.render("--check")
        self.assertEqual(checked.returncode, 1)
        self.assertIn(f"{self.doc}:3: fixture has {count} claims, not a claim {count + 1}", checked.stderr)

    def test_a_run_nobody_can_rebuild_is_refused_unless_told_why(self):
        made_up = with_commit(finished_copy(self.tmp / "made-up"), "0123456789ab")
        refused = run("store", str(made_up), "--id", "other", "--results", str(self.results), "--pglab", PGLAB)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("which is not in", refused.stderr)
        self.assertIn("nobody can rebuild the pglab that made it", refused.stderr)
        self.assertEqual(sorted(p.name for p in self.results.iterdir()), ["fixture"])
        modified = with_commit(finished_copy(self.tmp / "modified"), "0123456789ab-modified")
        refused = run("store", str(modified), "--id", "other", "--results", str(self.results), "--pglab", PGLAB)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("a pglab built from a modified tree (0123456789ab-modified)", refused.stderr)
        # Told why, it stores the run and keeps the reason with it.
        kept = run("store", str(modified), "--id", "other", "--results", str(self.results), "--pglab", PGLAB,
                   "--because", "a fixture")
        self.assertEqual(kept.returncode, 0, kept.stderr)
        about = json.loads((self.results / "other" / "about.json").read_text(encoding="utf-8"))
        self.assertEqual(about["stored_despite"]["because"], "a fixture")
        self.assertIn("modified tree", about["stored_despite"]["problem"])

    def test_an_unfinished_run_is_refused(self):
        stored = run("store", str(FIXTURE), "--results", str(self.results), "--pglab", PGLAB)
        self.assertEqual(stored.returncode, 1)
        self.assertIn("planned runs finished", stored.stderr)

    def test_the_load_is_summarised_from_samples_taken_during_the_run(self):
        about = json.loads((self.results / "fixture" / "about.json").read_text(encoding="utf-8"))
        start = dt.datetime.fromisoformat(about["started"]).timestamp()
        log = self.tmp / "load.log"
        log.write_text(f"{start - 100} 9.0 9 9\n{start - 30} 0.5 1 1\n{start} 1.5 1 1\n{start + 1} 2.5 2 2\n",
                       encoding="utf-8")
        stored = run("store", str(self.finished), "--id", "loaded", "--results", str(self.results), "--pglab", PGLAB,
                     "--load-log", str(log))
        self.assertEqual(stored.returncode, 0, stored.stderr)
        load = json.loads((self.results / "loaded" / "about.json").read_text(encoding="utf-8"))["load"]
        # During the run, and the last sample of the minute before it (not the one 100 s before).
        self.assertEqual(load, {"samples": 2, "min": 1.5, "max": 2.5, "mean": 2.0, "before": 0.5})
        # The fixture's runs ran beside no other benchmark process.
        beside = json.loads((self.results / "loaded" / "about.json").read_text(encoding="utf-8"))["beside"]
        self.assertEqual(beside, {"runs": 0, "processes": []})

    def write_session(self, folder, started, select_tps, select_cpu, conn):
        folder.mkdir(parents=True, exist_ok=True)
        session = {
            "tool": "bench/compare-pgbench", "pgbench": "pgbench (PostgreSQL) 15.18", "runs": 5,
            "started": started, "finished": started, "pglab": "abc1234",
            "machine": {"cpus": 2, "cpu_model": "AMD EPYC", "memory_kib": 1, "kernel": "Linux"},
            "load_at_start": "0.50 0.40 0.30", "load_at_end": "2.10 1.00 0.50",
            "workloads": [
                {"workload": "select-only -M prepared -c 8 -j 2", "shown": "tps,cpu_us_per_tx",
                 "tps": {"ratio": select_tps}, "cpu_us_per_tx": {"ratio": select_cpu}, "conn_ms": {"ratio": 9}},
                {"workload": "500 clients connecting (-c 500 -j 2 -t 1)", "shown": "conn_ms",
                 "tps": {"ratio": 9}, "conn_ms": {"ratio": conn}},
            ],
        }
        (folder / f"compare-pgbench-{started[:10]}.json").write_text(json.dumps(session), encoding="utf-8")

    def test_the_speed_table_gives_the_range_over_the_stored_sessions(self):
        sessions = self.tmp / "speed"
        self.write_session(sessions, "2026-12-05T08:50:00Z", 1.05, 0.72, 1.06)
        self.doc.write_text(f"<!-- speed: {sessions} -->\n<!-- end -->\n", encoding="utf-8")
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("one session so far (no range yet)", text)
        self.assertIn("| `select-only -M prepared -c 8 -j 2` | 1.05 | 0.72 |  |", text)
        self.write_session(sessions, "2026-12-06T09:00:00Z", 0.93, 0.99, 1.10)
        self.assertEqual(self.render("--check").returncode, 1)  # a new session makes the table stale
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("2 sessions (the range of their ratios)", text)
        self.assertIn("5 December 2026 08:50 UTC (pgbench 15.18, 5 runs of each program, "
                      "load average 0.50 at the start and 2.10 at the end)", text)
        self.assertIn("| `select-only -M prepared -c 8 -j 2` | 0.93 – 1.05 | 0.72 – 0.99 |  |", text)
        self.assertIn("| `500 clients connecting (-c 500 -j 2 -t 1)` |  |  | initial connection time 1.06 – 1.10 |", text)

    def test_sessions_whose_ratios_round_alike_give_one_figure(self):
        sessions = self.tmp / "speed"
        self.write_session(sessions, "2026-12-05T08:50:00Z", 1.001, 0.72, 1.06)
        self.write_session(sessions, "2026-12-06T09:00:00Z", 0.998, 0.99, 1.06)
        self.doc.write_text(f"<!-- speed: {sessions} -->\n<!-- end -->\n", encoding="utf-8")
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("| `select-only -M prepared -c 8 -j 2` | 1.00 | 0.72 – 0.99 |  |", text)
        self.assertIn("| `500 clients connecting (-c 500 -j 2 -t 1)` |  |  | initial connection time 1.06 |", text)

    def write_matrix(self, folder, started, tps):
        """A --matrix session of three cells whose tps ratios are `tps` (CPU ratios 1/tps)."""
        folder.mkdir(parents=True, exist_ok=True)
        cells = [("tpcb", 1, 1), ("tpcb", 2, 2), ("select1", 250, 2)]
        rows = []
        for (workload, cpt, j), ratio in zip(cells, tps):
            row = {"workload": f"{workload}, {cpt} a thread", "shown": "tps,cpu_us_per_tx",
                   "matrix": {"workload": workload, "clients_per_thread": cpt, "threads": j, "duration_s": 5}}
            for column in ("cpu_us_per_tx", "user_us_per_tx", "sys_us_per_tx"):
                row[column] = {"ratio": round(1 / ratio, 3)}
            row["tps"] = {"ratio": ratio}
            if cpt <= 2:
                row["syscalls_per_tx"] = {"pgbench": "total=24.64 recvfrom=12.16", "pglab": "total=9.87 io_uring_enter=8.79"}
            rows.append(row)
        session = {
            "tool": "bench/compare-pgbench", "pgbench": "pgbench (PostgreSQL) 15.18", "runs": 5, "duration_s": 5,
            "matrix": True, "started": started, "finished": started, "pglab": "abc1234",
            "machine": {"cpus": 2, "cpu_model": "AMD EPYC", "memory_kib": 1, "kernel": "Linux"},
            "load_at_start": "0.50 0.40 0.30", "load_at_end": "2.10 1.00 0.50", "workloads": rows,
        }
        (folder / f"compare-pgbench-{started[:10]}-matrix.json").write_text(json.dumps(session), encoding="utf-8")

    def render_matrix_regions(self, sessions, options, more=""):
        """README's speed-matrix region (then `more`) in self.doc and bench/README.md's speed-grid
        in grid.md, both with the marker's `options`, rendered; grid.md's path."""
        grid = self.tmp / "grid.md"
        self.doc.write_text(f"<!-- speed-matrix: {sessions}{options} -->\n<!-- end -->\n{more}", encoding="utf-8")
        grid.write_text(f"<!-- speed-grid: {sessions}{options} -->\n<!-- end -->\n", encoding="utf-8")
        self.assertEqual(self.render().returncode, 0)
        rendered = run("render", str(grid))
        self.assertEqual(rendered.returncode, 0, rendered.stderr)
        return grid

    def test_the_client_cost_grid_shows_its_worst_and_median_cells_not_its_best(self):
        sessions = self.tmp / "speed"
        self.write_session(sessions, "2026-12-05T08:50:00Z", 1.05, 0.72, 1.06)
        self.write_matrix(sessions, "2026-12-06T09:00:00Z", [0.80, 1.00, 1.25])
        self.write_matrix(sessions, "2026-12-07T09:00:00Z", [0.90, 0.95, 1.30])
        grid = self.render_matrix_regions(sessions, "", f"<!-- speed: {sessions} -->\n<!-- end -->\n")
        text = self.doc.read_text(encoding="utf-8")
        # The lowest tps ratio and the highest cost, in each session; the median of the cells.
        self.assertIn("| tps | 0.80 – 0.90 (`tpcb, 1 client a thread, -j 1`) | 0.95 – 1.00 |", text)
        self.assertIn("| client CPU per transaction | 1.11 – 1.25 (`tpcb, 1 client a thread, -j 1`) | 1.00 – 1.05 |",
                      text)
        # The sessions of the grid are not rows of the workloads' table.
        self.assertIn("| `select-only -M prepared -c 8 -j 2` | 1.05 | 0.72 |  |", text)
        self.assertNotIn("a thread` |", text.split("<!-- speed:")[1])
        cells = grid.read_text(encoding="utf-8")
        self.assertIn("| `tpcb, 2 clients a thread, -j 2` | 0.95 – 1.00 | 1.00 – 1.05 | 1.00 – 1.05 | 1.00 – 1.05 "
                      "| 24.64 / 9.87 |", cells)
        self.assertIn("| `select1, 250 clients a thread, -j 2` | 1.25 – 1.30 | 0.77 – 0.80 | 0.77 – 0.80 | "
                      "0.77 – 0.80 |  |", cells)

    def test_the_client_cost_grid_since_a_time_leaves_the_sessions_before_it_out(self):
        sessions = self.tmp / "speed"
        self.write_matrix(sessions, "2026-12-06T09:00:00Z", [0.50, 1.00, 1.25])
        self.write_matrix(sessions, "2026-12-07T09:00:00Z", [0.90, 0.95, 1.30])
        grid = self.render_matrix_regions(sessions, " since=2026-12-07T08:00Z")
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("the sessions from 7 December 2026 08:00 UTC on (those before, of a pglab that ran its "
                      "clients differently, are stored but not shown): one session so far", text)
        self.assertIn("| tps | 0.90 (`tpcb, 1 client a thread, -j 1`) | 0.95 |", text)
        self.assertIn("| `tpcb, 1 client a thread, -j 1` | 0.90 |", grid.read_text(encoding="utf-8"))
        # A time after every session, and one that is no time: errors at the marker's line.
        self.doc.write_text(f"<!-- speed-matrix: {sessions} since=2026-12-08T00:00Z -->\n<!-- end -->\n",
                            encoding="utf-8")
        none = self.render()
        self.assertEqual(none.returncode, 1)
        self.assertIn("no stored bench/compare-pgbench --matrix result started at 2026-12-08T00:00Z or later",
                      none.stderr)
        self.doc.write_text(f"<!-- speed-matrix: {sessions} since=yesterday -->\n<!-- end -->\n", encoding="utf-8")
        bad = self.render()
        self.assertEqual(bad.returncode, 1)
        self.assertIn(":1: since=yesterday is not a time", bad.stderr)

    def write_overhead(self, folder, started, steady, steps_max):
        folder.mkdir(parents=True, exist_ok=True)
        session = {
            "tool": "bench/lab-overhead", "runs": 20, "started": started, "finished": started,
            "pglab": "abc1234", "machine": {"cpus": 2, "cpu_model": "AMD EPYC", "memory_kib": 1, "kernel": "Linux"},
            "load_at_start": "0.50 0.40 0.30", "load_at_end": "1.10 1.00 0.50",
            "plans": [
                {"plan": "steady", "what": "a one-statement step", "runs": 20, "median_ms": steady,
                 "min_ms": 0.1, "max_ms": 2.0},
                {"plan": "steps", "what": "five steps", "runs": 20, "median_ms": 17.0, "min_ms": 15.0,
                 "max_ms": steps_max},
            ],
        }
        (folder / f"lab-overhead-{started[:10]}.json").write_text(json.dumps(session), encoding="utf-8")

    def test_the_overhead_table_gives_the_range_over_the_stored_sessions(self):
        sessions = self.tmp / "bench"
        self.write_session(sessions, "2026-12-05T08:50:00Z", 1.05, 0.72, 1.06)  # not read here
        self.doc.write_text(f"<!-- overhead: {sessions} -->\n<!-- end -->\n", encoding="utf-8")
        missing = self.render()
        self.assertEqual(missing.returncode, 1)
        self.assertIn("no stored bench/lab-overhead --json result", missing.stderr)
        self.write_overhead(sessions, "2026-12-05T09:00:00Z", 0.34, 30.0)
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("one session so far (no range yet)", text)
        self.assertIn("| a one-statement step | 0.3 ms | 2.0 ms |", text)
        self.write_overhead(sessions, "2026-12-06T09:00:00Z", 1.04, 22.0)
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("2 sessions (the range of their figures)", text)
        self.assertIn("5 December 2026 09:00 UTC (20 runs a cell, load average 0.50 at the start and 1.10 at the end)",
                      text)
        self.assertIn("| a one-statement step | 0.3 – 1.0 ms | 2.0 ms |", text)
        self.assertIn("| five steps | 17.0 ms | 22.0 – 30.0 ms |", text)

    def write_make_test(self, folder, started, compile_s, passed=True):
        folder.mkdir(parents=True, exist_ok=True)
        phases = [("configure", 3.2), ("compile", compile_s), ("ctest", 170.0)]
        run = {
            "tool": "bench/fresh-make-test", "started": started, "finished": started, "pglab": "abc1234",
            "machine": {"cpus": 2, "cpu_model": "AMD EPYC", "memory_kib": 1, "kernel": "Linux"},
            "load_at_start": "0.50 0.40 0.30", "load_at_end": "1.10 1.00 0.50", "passed": passed,
            "caches": "empty caches",
            "make_test": {"phases": [{"name": n, "seconds": t, "status": 0} for n, t in phases], "labels": [],
                          "seconds": sum(t for _, t in phases)},
        }
        (folder / f"fresh-make-test-{started[:13]}.json").write_text(json.dumps(run), encoding="utf-8")

    def test_the_make_test_table_gives_the_range_over_the_runs_that_passed(self):
        runs = self.tmp / "bench"
        self.doc.write_text(f"<!-- make-test: {runs} -->\n<!-- end -->\n", encoding="utf-8")
        runs.mkdir()
        missing = self.render()
        self.assertEqual(missing.returncode, 1)
        self.assertIn("no stored bench/fresh-make-test --json result", missing.stderr)
        self.write_make_test(runs, "2026-12-05T09:00:00Z", 300.0, passed=False)
        failed_only = self.render()
        self.assertEqual(failed_only.returncode, 1)
        self.assertIn("passed", failed_only.stderr)
        self.write_make_test(runs, "2026-12-05T10:00:00Z", 304.4)
        self.write_make_test(runs, "2026-12-06T09:00:00Z", 350.0)
        self.assertEqual(self.render().returncode, 0)
        text = self.doc.read_text(encoding="utf-8")
        self.assertIn("3 runs (the range of their figures)", text)
        self.assertIn("5 December 2026 09:00 UTC (at abc1234, load average 0.50 at the start and 1.10 at the end)"
                      " (failed: not counted)", text)
        self.assertIn("| configure | 3 s |", text)
        self.assertIn("| compile | 304 – 350 s |", text)
        self.assertIn("| all | 478 – 523 s (8.0 – 8.7 minutes) |", text)


if __name__ == "__main__":
    PGLAB = sys.argv.pop(1)
    unittest.main()
