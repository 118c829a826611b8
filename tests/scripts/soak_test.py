#!/usr/bin/env python3
"""bench/soak: a failing case is printed with its output and the load when it ended, the
summary counts runs and failures by case, and bad input is refused with the range.

Run by ctest (label scripts). It soaks a build directory of its own, a hand-written
CTestTestfile.cmake with one case that passes and one that fails, for a few seconds under the
real stress-ng load, so that it needs neither a server nor pglab's build.
"""

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "bench" / "soak"

CTEST_FILE = """\
add_test(passes "sh" "-c" "echo fine")
set_tests_properties(passes PROPERTIES LABELS "server")
add_test(fails "sh" "-c" "echo the race shows here; exit 1")
set_tests_properties(fails PROPERTIES LABELS "lab")
add_test(elsewhere "sh" "-c" "exit 1")
set_tests_properties(elsewhere PROPERTIES LABELS "reference")
"""


def soak(*args):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)


@unittest.skipIf(shutil.which("stress-ng") is None, "stress-ng is not installed (scripts/bootstrap installs it)")
class SoakTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="soak-test."))
        self.build = self.tmp / "build"
        self.build.mkdir()
        (self.build / "CTestTestfile.cmake").write_text(CTEST_FILE, encoding="utf-8")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_a_failure_is_printed_with_its_output_and_load_and_counted(self):
        summary = self.tmp / "soak.json"
        r = soak("--seconds", "1", "--build", str(self.build), "--labels", "server,lab", "--json", str(summary))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("under: stress-ng --cpu", r.stdout)
        self.assertRegex(r.stdout, r"soak: FAILED fails \(round 1, ended \d\d:\d\d:\d\d UTC, load [0-9.]+")
        self.assertIn("    the race shows here", r.stdout)
        doc = json.loads(summary.read_text(encoding="utf-8"))
        rounds = doc["rounds"]  # as many as fit in the second, the last one finished
        self.assertGreaterEqual(rounds, 1)
        self.assertIn(f"soak:   {rounds}× fails", r.stdout)
        self.assertEqual(doc["tool"], "bench/soak")
        self.assertIn("machine", doc)
        self.assertEqual(doc["cases"], 2)  # never the reference label's
        self.assertEqual((doc["case_runs"], doc["passed"], doc["failed"]), (2 * rounds, rounds, rounds))
        self.assertEqual(doc["failures_by_case"], {"fails": rounds})
        self.assertTrue(doc["load"]["command"].startswith("stress-ng --cpu"))
        self.assertIsNotNone(doc["failures"][0]["load"]["load1"])
        # README's table reads the stored file as it is (scripts/doc-tables' soak region).
        stored = self.tmp / "results"
        stored.mkdir()
        shutil.copy(summary, stored / "soak-20261207T0300Z.json")
        doc_file = self.tmp / "doc.md"
        doc_file.write_text(f"<!-- soak: {stored} -->\n<!-- end -->\n", encoding="utf-8")
        rendered = subprocess.run([sys.executable, str(ROOT / "scripts" / "doc-tables"), "render", str(doc_file)],
                                  capture_output=True, text=True)
        self.assertEqual(rendered.returncode, 0, rendered.stderr)
        table = doc_file.read_text(encoding="utf-8")
        self.assertIn("| run | cases | load | minutes | rounds | case runs | failures |", table)
        self.assertIn(f"| labels server, lab (2) | `stress-ng --cpu", table)
        self.assertIn(f"| {rounds} | {2 * rounds} | {rounds}× `fails` |", table)
        leftover = subprocess.run(["pgrep", "-f", str(self.build / "soak")], capture_output=True)
        self.assertEqual(leftover.returncode, 1, "stress-ng was left running")

    def test_a_case_file_narrows_the_set(self):
        cases = self.tmp / "cases"
        cases.write_text("# the one that passes\n^passes$\n", encoding="utf-8")
        r = soak("--seconds", "1", "--build", str(self.build), "--cases", str(cases))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"soak: 1 cases, (\d+) runs in \1 rounds over")
        self.assertIn("; 0 failures", r.stdout)

    def test_bad_input_is_refused(self):
        for minutes in ("0", "601", "ten"):
            r = soak("--check", "--minutes", minutes)
            self.assertEqual(r.returncode, 2)
            self.assertIn(f"MINUTES must be whole minutes from 1 to 600, not '{minutes}'", r.stderr)
        r = soak("--seconds", "1", "--build", str(self.tmp / "none"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("is not a configured build directory", r.stderr)
        bad = self.tmp / "bad-cases"
        bad.write_text("Lab(\n", encoding="utf-8")
        r = soak("--seconds", "1", "--build", str(self.build), "--cases", str(bad))
        self.assertIn(f"{bad}:1: not a regular expression", r.stderr)


if __name__ == "__main__":
    unittest.main()
