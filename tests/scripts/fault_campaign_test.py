#!/usr/bin/env python3
"""bench/fault-campaign: a small campaign (SIGINT and a killed postmaster in the sleep step)
is survived and reported by kind; bad input is refused. Run by ctest with the pglab binary as
its first argument (label lab: it starts real throwaway servers)."""

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "bench" / "fault-campaign"
PGLAB = None  # set from argv


def campaign(*args):
    return subprocess.run([sys.executable, str(TOOL), "--pglab", PGLAB, *args], capture_output=True, text=True,
                          timeout=900)


class FaultCampaignTest(unittest.TestCase):
    def test_a_small_campaign_is_survived_and_counted_by_kind(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "campaign.json"
            r = campaign("--seed", "3", "--faults", "sigint,postmaster", "--steps", "sleep", "--json", str(out))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertRegex(r.stdout, r"fault-campaign: sigint in sleep \+\d\.\d{3} s \(landed in [^)]+\): survived")
            self.assertIn("fault-campaign: 2 faults, 2 survived, 0 lost", r.stdout)
            doc = json.loads(out.read_text(encoding="utf-8"))
            self.assertEqual(doc["tool"], "bench/fault-campaign")
            self.assertEqual(doc["seed"], 3)
            self.assertEqual(doc["by_kind"], {"sigint": {"tried": 1, "survived": 1, "lost": 0},
                                              "postmaster": {"tried": 1, "survived": 1, "lost": 0}})
            # README's table reads the stored file as it is (scripts/doc-tables' faults region).
            stored = Path(tmp) / "results"
            stored.mkdir()
            (stored / "fault-campaign-20261207T0400Z.json").write_text(out.read_text(encoding="utf-8"),
                                                                       encoding="utf-8")
            page = Path(tmp) / "doc.md"
            page.write_text(f"<!-- faults: {stored} -->\n<!-- end -->\n", encoding="utf-8")
            rendered = subprocess.run([sys.executable, str(ROOT / "scripts" / "doc-tables"), "render", str(page)],
                                      capture_output=True, text=True)
            self.assertEqual(rendered.returncode, 0, rendered.stderr)
            self.assertRegex(page.read_text(encoding="utf-8"), r"\| [^|]*seed 3 \| postmaster \| 1 \| 1 \| 0 \|")

    def test_bad_input_is_refused(self):
        r = campaign("--faults", "sigint,meteor")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown fault meteor: known are sigint, sigkill, postmaster, backend, disk-full", r.stderr)
        r = campaign("--steps", "vacuum")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown step kind vacuum", r.stderr)


if __name__ == "__main__":
    PGLAB = sys.argv.pop(1)
    unittest.main()
