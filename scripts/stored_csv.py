"""What the documents' generators share (doc-tables, headline_table.py, inline_figures.py): their
error, a stored result's folder and CSV rows, a table cell, and a figure written the report's way."""

import csv


class Problem(Exception):
    """Bad input: the message says where."""


def stored_folder(results, ident, where):
    """docs/studies/results/ID (under `results`), which must hold a stored result."""
    folder = results / ident
    about_path = folder / "about.json"
    if not about_path.is_file():
        raise Problem(f"{where}: no stored result \"{ident}\" ({about_path} is missing)")
    return folder


def cell_text(text):
    """A table cell: pipes escaped, line breaks flattened."""
    return " ".join(str(text).split()).replace("|", "\\|")


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
