#!/usr/bin/env python3
"""The programs given (pglab) search for their shared libraries only in absolute directories or
beside themselves ($ORIGIN): an empty or relative entry of RPATH or RUNPATH makes the dynamic
loader look in the directory the program is run from, where any file named like one of its
libraries would be loaded. Each program is also run with the loader's trace on, to check the
loader's own reading of the path, not only ours."""

import os
import subprocess
import sys
import tempfile


def search_paths(binary):
    """The RPATH and RUNPATH entries of `binary`'s dynamic section, as readelf prints them."""
    out = subprocess.run(["readelf", "-d", binary], check=True, capture_output=True,
                         text=True).stdout
    entries = []
    for line in out.splitlines():
        if "(RPATH)" in line or "(RUNPATH)" in line:
            value = line[line.index("[") + 1:line.rindex("]")]
            entries += [(line.split("(")[1].split(")")[0], e) for e in value.split(":")]
    return entries


def unsafe(entry):
    return not (entry.startswith("/") or entry.startswith("$ORIGIN"))


def loaded_from_cwd(binary):
    """The relative file names the loader tried while starting `binary --version` (its trace,
    LD_DEBUG=libs), run from an empty directory."""
    with tempfile.TemporaryDirectory() as cwd:
        env = dict(os.environ, LD_DEBUG="libs")
        run = subprocess.run([os.path.abspath(binary), "--version"], cwd=cwd, env=env, capture_output=True,
                             text=True)
        tried = [line.partition("trying file=")[2] for line in run.stderr.splitlines()]
        return [name for name in tried if name and not name.startswith("/")]


def main():
    failures = []
    for binary in sys.argv[1:]:
        for kind, entry in search_paths(binary):
            if unsafe(entry):
                failures.append(f"{binary}: {kind} entry {entry!r} is relative to the current "
                                "directory")
        tried = loaded_from_cwd(binary)
        if tried:
            failures.append(f"{binary}: the loader tried relative paths: {tried[:3]}")
    for f in failures:
        print(f, file=sys.stderr)
    if not failures:
        print("ok: no program given searches a directory relative to where it runs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
