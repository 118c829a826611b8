"""Figures in prose, filled in from the stored runs like the tables: a hand-typed figure drifts.

A figure in a sentence is written between an opening marker that says where it comes from and a
closing one; `scripts/doc-tables render` writes the stored figure between them and `render --check`
fails when the text there is not that figure. Both markers are HTML comments: Markdown shows only
the figure.

    <!-- fig: ID claim=N field=FIELD [fmt=FMT] -->0.476<!-- /fig -->
    <!-- fig: ID cell=N step=KEY metric=NAME field=FIELD [fmt=FMT] -->7%<!-- /fig -->

ID is a stored result (docs/studies/results/ID/). claim=N is the Nth claim of its claims.csv
(1 is the first); its fields: value, ci95, ci90 (an interval "low – high"), verdict, look, looks.
cell=N is the cell numbered N in its cells.csv (the `cell` column) for the step and metric; its
fields: mean, median, min, max, sd, ci95, cv, n. FMT: ratio (three decimals), sig (four
significant digits, thousands separated), pct (a ratio as a change: "+2.8%"), percent (a share
as a percentage: "7%"), int. By default a claim's figures are ratio when the claim is a ratio
and sig otherwise, a cell's cv is percent, n and a look int, the rest sig.
"""

import re

from stored_csv import Problem, read_rows, significant, stored_folder

FIGURE = re.compile(r"<!-- fig: (\S+)((?: \w+=\S+)*) -->(.*?)<!-- /fig -->")


def change(v):
    """A ratio as a change, with a real minus sign: 1.028 → "+2.8%", 0.991 → "−0.9%"."""
    text = f"{(v - 1) * 100:+.1f}%"
    return text.replace("-", "−")


FORMATS = {
    "ratio": lambda v: f"{v:.3f}",
    "sig": significant,
    "pct": change,
    "percent": lambda v: f"{v * 100:.0f}%",
    "int": lambda v: f"{v:.0f}",
}


def _format(value, fmt, where):
    if fmt not in FORMATS:
        raise Problem(f"{where}: fmt={fmt} is not one of: {', '.join(FORMATS)}")
    try:
        return FORMATS[fmt](float(value))
    except ValueError as error:
        raise Problem(f"{where}: \"{value}\" is not a number") from error


def _interval(row, level, fmt, where):
    low, high = row.get(f"{level}_low", ""), row.get(f"{level}_high", "")
    if low == "" or high == "":
        raise Problem(f"{where}: the figure has no {level} interval")
    return f"{_format(low, fmt, where)} – {_format(high, fmt, where)}"


def _claim_figure(folder, options, where):
    rows = read_rows(folder / "claims.csv")
    n = int(options["claim"])
    if not 1 <= n <= len(rows):
        raise Problem(f"{where}: {folder.name} has {len(rows)} claims, not a claim {n}")
    row = rows[n - 1]
    field = options.get("field", "value")
    if field == "verdict":
        return row["verdict"]
    if field in ("look", "looks"):
        return row[field]
    fmt = options.get("fmt", "ratio" if row["kind"] == "ratio" else "sig")
    if field == "value":
        return _format(row["value"], fmt, where)
    if field in ("ci95", "ci90"):
        return _interval(row, field, fmt, where)
    raise Problem(f"{where}: a claim has no field {field} (value, ci95, ci90, verdict, look, looks)")


def _cell_figure(folder, options, where):
    step, metric = options.get("step"), options.get("metric")
    found = [r for r in read_rows(folder / "cells.csv")
             if r["cell"] == options["cell"] and r["step"] == step and r["metric"] == metric]
    if not found:
        raise Problem(f"{where}: {folder.name} kept no cell {options['cell']} of step {step} with metric {metric}")
    row = found[0]
    field = options.get("field", "mean")
    if field == "ci95":
        return _interval(row, "ci95", options.get("fmt", "sig"), where)
    column = {"sd": "stddev"}.get(field, field)
    if column not in ("mean", "median", "min", "max", "stddev", "cv", "n"):
        raise Problem(f"{where}: a cell has no field {field} (mean, median, min, max, sd, ci95, cv, n)")
    default = {"cv": "percent", "n": "int"}.get(field, "sig")
    return _format(row[column], options.get("fmt", default), where)


def fill_figures(line, results, where):
    """The line with each inline figure written as its stored run gives it."""

    def stored_figure(match):
        ident, rest = match.group(1), match.group(2)
        options = dict(item.split("=", 1) for item in rest.split())
        folder = stored_folder(results, ident, where)
        if "claim" in options:
            figure = _claim_figure(folder, options, where)
        elif "cell" in options:
            figure = _cell_figure(folder, options, where)
        else:
            raise Problem(f"{where}: a figure names claim=N or cell=N")
        return match.group(0)[: match.start(3) - match.start(0)] + figure + "<!-- /fig -->"

    return FIGURE.sub(stored_figure, line)
