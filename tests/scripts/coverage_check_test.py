#!/usr/bin/env python3
"""scripts/coverage-check: docs/studies/coverage.md agrees with experiments/*.toml, and each way
the two can disagree is found, with its file and line.

Run by ctest (label docs); no server, no pglab binary.
"""

import importlib.machinery
import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
loader = importlib.machinery.SourceFileLoader("coverage_check", str(ROOT / "scripts" / "coverage-check"))
spec = importlib.util.spec_from_loader("coverage_check", loader)
coverage_check = importlib.util.module_from_spec(spec)
loader.exec_module(coverage_check)

TABLE = """# rows

3 items: 1 covered, 1 partial, 0 missing, 1 untestable

| # | the paper | pglab | status | note |
|---|---|---|---|---|
| 2.28 | time 5.7x | claim | covered | |
| 2.29 | WAL `a|b` | measured | partial | no claim yet |
| 0.2 | 9.1 | - | untestable | no 9.1 binaries |
"""

EXPERIMENT = """name = "x"
[[steps]]
type = "sql"
sql = "SELECT 1"
items = ["2.29"]

[[claims]]
text = "faster"
items = ["2.28"]
explanation = "the disk"
hypothesis = true
"""


class CoverageCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        (self.dir / "experiments").mkdir()

    def run_check(self, table=TABLE, experiment=EXPERIMENT):
        (self.dir / "coverage.md").write_text(table, encoding="utf-8")
        (self.dir / "experiments" / "a.toml").write_text(experiment, encoding="utf-8")
        return coverage_check.check(self.dir / "coverage.md", self.dir / "experiments")

    def test_agreeing_table_and_files(self):
        self.assertEqual(self.run_check(), [])

    def test_a_row_the_table_does_not_have(self):
        problems = self.run_check(experiment=EXPERIMENT.replace('"2.29"', '"2.99"'))
        self.assertTrue(any("a.toml:2: step 1 names row 2.99" in p for p in problems), problems)

    def test_a_tested_row_marked_missing(self):
        table = TABLE.replace("| partial | no claim yet |", "| missing | no claim yet |").replace(
            "1 partial, 0 missing", "0 partial, 1 missing")
        problems = self.run_check(table=table)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("coverage.md:8: row 2.29 is marked missing, but", problems[0])

    def test_a_covered_row_nothing_names(self):
        problems = self.run_check(experiment=EXPERIMENT.replace('items = ["2.28"]\n', ""))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("coverage.md:7: row 2.28 is covered, but no claim or step names it", problems[0])
        # a file of the repository named in the pglab column covers it
        table = TABLE.replace("| claim | covered |", "| `scripts/coverage-check` | covered |")
        self.assertEqual(self.run_check(table=table, experiment=EXPERIMENT.replace('items = ["2.28"]\n', "")), [])

    def test_a_setting_or_check_a_row_quotes_must_be_the_files(self):
        experiment = EXPERIMENT.replace('sql = "SELECT 1"', 'sql = "SELECT 1"\nname = "lag"\nmemory_limit = "64MB"')
        table = TABLE.replace("| measured | partial |", "| check `lag` in `memory_limit = \"64MB\"` | partial |")
        self.assertEqual(self.run_check(table=table, experiment=experiment), [])
        problems = self.run_check(table=table.replace('"64MB"', '"96MB"').replace("`lag`", "`lags`"),
                                  experiment=experiment)
        self.assertEqual(len(problems), 2, problems)
        self.assertIn('coverage.md:8: row 2.29 quotes `memory_limit = "96MB"`, which no file naming it sets', problems[0])
        self.assertIn("coverage.md:8: row 2.29 names check `lags`, which no file naming it has", problems[1])

    def test_a_row_without_its_note(self):
        problems = self.run_check(table=TABLE.replace("no 9.1 binaries", ""))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("coverage.md:9: row 0.2 is untestable without a note", problems[0])

    def test_an_explanation_without_what_it_rests_on(self):
        problems = self.run_check(experiment=EXPERIMENT.replace("hypothesis = true\n", ""))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("a.toml:7: claim 1 explains without saying what the explanation rests on", problems[0])
        self.assertEqual(self.run_check(experiment=EXPERIMENT.replace(
            "hypothesis = true", 'evidence = "probe:wal.fpi"')), [])

    def test_a_count_line_that_is_not_the_rows(self):
        problems = self.run_check(table=TABLE.replace("1 covered, 1 partial", "2 covered, 0 partial"))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("coverage.md:3: the count line says 3 items: 2 covered, 0 partial", problems[0])
        self.assertIn("the rows give 3: 1 covered, 1 partial, 0 missing, 1 untestable", problems[0])

    def test_bad_rows(self):
        table = TABLE + "| 4.1 | x | y | maybe | z |\n| 2.28 | again | y | covered | |\n| 4.2 | short |\n"
        problems = self.run_check(table=table)
        self.assertTrue(any("row 4.1: status \"maybe\" is not one of" in p for p in problems), problems)
        self.assertTrue(any("row 2.28 is in the table twice (first at line 7)" in p for p in problems), problems)
        self.assertTrue(any("row 4.2 has 2 columns, not 5" in p for p in problems), problems)

    def test_the_repository_agrees(self):
        self.assertEqual(coverage_check.check(ROOT / "docs" / "studies" / "coverage.md", ROOT / "experiments"), [])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:])
