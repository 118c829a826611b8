"""The papers' headline results beside pglab's: the table docs/studies.md opens with.

A headlines file (TOML) lists the results a reader holding a paper checks first, numbered, each
with the paper's figure or words and where it stands, and either the stored run and the claims or
checks of it that test the result, or why nothing does ("not claimed", "cannot be tested here").
The verdict and pglab's figure are never written in that file: they are read from the stored
run's claims.csv and checks.csv, so that the table changes when a run is stored again.

    [[headline]]
    number = 1
    study = "S1a"
    paper = "the index-only scan takes 50–60% of the index scan's time (000:15)"
    run = "s1a-index-only-scan-20261207"          # a stored result under docs/studies/results/
    claims = ["an index-only scan takes 50–60% of the time of the index scan"]
    checks = []                                   # steps of checks.csv, when a check tests it
    why = "one line: the measured mechanism, a hypothesis said to be one, or why it cannot be tested"

    [[headline]]
    number = 15
    study = "S1b–S1e"
    paper = "…"
    status = "cannot be tested here"              # or "not claimed": then no run
    why = "…"
"""

import os
import re
import tomllib

from stored_csv import Problem, cell_text, read_rows, stored_folder

STATUSES = ("not claimed", "cannot be tested here")
VERDICT_WORDS = {"untestable": "cannot be tested here"}


def short_figure(measured):
    """The claim's figure and interval, without the arithmetic behind them: "0.476 (95% CI 0.448 –
    0.505)" of "0.476 (95% CI …) = 39.19 / 82.41 ms, geometric means …"; a shape's levels without
    the ratios between them; a figure whose interval is one point, alone."""
    if not measured:
        return "-"
    for said in ("geometric mean; ", "mean; "):
        measured = measured.replace(said, "")
    if measured[0].isdigit() and " = " in measured:
        figure = measured.split(" = ")[0]
    else:
        figure = measured.split("; ")[0]
    point = re.fullmatch(r"(\S+)( \S+)? \(95% CI (\S+) – (\S+)\)", figure)
    if point and point.group(3) == point.group(4):
        return point.group(1) + (point.group(2) or "")
    return figure


def _claimed(run_dir, names, where):
    rows = {r["claim"]: r for r in read_rows(run_dir / "claims.csv")}
    found = []
    for name in names:
        if name not in rows:
            known = "; ".join(sorted(rows))
            raise Problem(f"{where}: {run_dir.name} has no claim \"{name}\" (its claims: {known})")
        row = rows[name]
        found.append((short_figure(row["measured"]), VERDICT_WORDS.get(row["verdict"], row["verdict"])))
    return found


def _checked(run_dir, steps, where):
    path = run_dir / "checks.csv"
    rows = read_rows(path) if path.is_file() else []
    found = []
    for step in steps:
        mine = [r for r in rows if r["step"] == step]
        if not mine:
            raise Problem(f"{where}: {run_dir.name} has no check of step \"{step}\"")
        passed = sum(1 for r in mine if r["pass"] == "true")
        verdict = "check passed" if passed == len(mine) else f"check failed in {len(mine) - passed} of {len(mine)} runs"
        found.append((mine[0]["actual"], verdict))
    return found


def _one(headline, results, where, doc_dir):
    """(pglab's figure, verdict, stored run) of one headline."""
    status = headline.get("status")
    if status is not None:
        if status not in STATUSES:
            raise Problem(f"{where}: status \"{status}\" is not one of: {', '.join(STATUSES)}")
        if headline.get("run"):
            raise Problem(f"{where}: a headline with status \"{status}\" names no run")
        return "-", status, "-"
    run = headline.get("run")
    if not run:
        raise Problem(f"{where}: a headline names a run and its claims or checks, or a status")
    run_dir = stored_folder(results, run, where)
    found = _claimed(run_dir, headline.get("claims", []), where) + _checked(run_dir, headline.get("checks", []), where)
    if not found:
        raise Problem(f"{where}: headline names run {run} but none of its claims or checks")
    figures = "; ".join(figure for figure, _ in found)
    if all(figure == "-" for figure, _ in found):
        figures = "-"
    verdicts = [verdict for _, verdict in found]
    if len(set(verdicts)) == 1:
        verdict = verdicts[0]
    elif len(verdicts) == 2:
        verdict = "; ".join(verdicts)
    else:  # "agrees (4), differs (1)", in the claims' order
        verdict = ", ".join(f"{v} ({verdicts.count(v)})" for v in dict.fromkeys(verdicts))
    return figures, verdict, f"[{run}]({os.path.relpath(run_dir, doc_dir)}/)"


def read_headlines(path, where):
    try:
        with open(path, "rb") as f:
            headlines = tomllib.load(f).get("headline", [])
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise Problem(f"{where}: cannot read {path}: {error}") from error
    numbers = [h.get("number") for h in headlines]
    if numbers != list(range(1, len(headlines) + 1)):
        raise Problem(f"{where}: {path}'s headlines are not numbered 1 to {len(headlines)} in order")
    for h in headlines:
        missing = [key for key in ("study", "paper", "why") if not h.get(key)]
        if missing:
            raise Problem(f"{where}: headline {h['number']} has no {', '.join(missing)}")
    return headlines


TALLY = {  # a verdict, and how the sentence counting headlines says it
    "agrees": "agree",
    "check passed": "pass their check",
    "differs": "differ",
    "inconclusive": "inconclusive",
    "cannot be tested here": "cannot be tested here",
    "not claimed": "not claimed",
}


def verdict_tally(verdicts):
    """"17 agree, 14 differ, …": each headline counted once, by its first claim's verdict."""
    counts = {}
    for verdict in verdicts:
        first = re.split(r"; | \(|, ", verdict)[0]
        counts[first] = counts.get(first, 0) + 1
    return ", ".join(f"{counts[v]} {TALLY.get(v, v)}" for v in list(TALLY) + sorted(set(counts) - set(TALLY)) if counts.get(v))


def headlines_region(path, results, where, doc_dir):
    rows = []
    for h in read_headlines(path, where):
        figure, verdict, run = _one(h, results, f"{where}: headline {h['number']}", doc_dir)
        rows.append((h["number"], h["study"], h["paper"], figure, verdict, h["why"], run))
    out = [
        f"{len(rows)} results; by the verdict of their first claim: "
        + verdict_tally([verdict for _, _, _, _, verdict, _, _ in rows])
        + ".",
        "",
        "| # | study | the paper | pglab | verdict | why | stored run |",
        "|---:|---|---|---|---|---|---|",
    ]
    for number, study, paper, figure, verdict, why, run in rows:
        cells = [str(number), study, paper, figure, f"**{verdict}**", why, run]
        out.append("| " + " | ".join(cell_text(c) for c in cells) + " |")
    return out
