"""What the documents' generators share: a stored CSV's rows, and a figure written the report's way."""

import csv


def read_rows(path):
    """A stored CSV (claims.csv, cells.csv, checks.csv) as one dict per row."""
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def significant(v):
    """Four significant digits, thousands separated (the report's way)."""
    if v == 0:
        return "0"
    digits = max(0, 3 - int(f"{abs(v):e}".split("e")[1]))
    return f"{v:,.{digits}f}"
