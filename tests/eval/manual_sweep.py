"""What the sweeps over TeX Live's manuals share: the manuals, a copy made by mutool, one PDF read
within a time limit and kept, many read on a few processes.

folio_sweep.py (printed pages against page labels) and entity_sweep.py (numbered things against
link targets) each delete from a PDF what the builder would otherwise lean on, read the copy with
the builder's own functions, and compare with what they deleted.  A PDF's result is kept as JSON
under the sweep's folder, so a second run reports at once and an interrupted run goes on.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

MANUALS = Path("/usr/share/doc/texlive-doc")


def manual_name(path: str) -> str:
    """A manual's path under MANUALS, as the reports print it."""
    return path[len(str(MANUALS)) + 1:]


def mutool_copy(script: str, path: Path, out: Path) -> None:
    """A copy of `path` at `out` as a mutool JavaScript `script` writes it (it is given both paths)."""
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as file:
        file.write(script)
    try:
        subprocess.run(["mutool", "run", file.name, str(path), str(out)], check=True, capture_output=True, timeout=300)
    finally:
        os.unlink(file.name)


class TooLong(Exception):
    """A PDF the reader took longer on than the sweep allows."""


def read_within(path: Path, out_dir: Path, seconds: int, read: Callable[[Path], dict]) -> dict:
    """`read(path)` with the PDF's path added, or the error it raised, or TooLong after `seconds`; kept
    in `out_dir` under a name made from the path, and taken from there when it is already kept."""
    kept = Path(out_dir) / (hashlib.sha1(str(path).encode()).hexdigest()[:16] + ".json")
    if kept.exists():
        return json.loads(kept.read_text())

    def too_long(signum, frame):
        raise TooLong(f"read for more than {seconds} s")

    signal.signal(signal.SIGALRM, too_long)
    signal.alarm(seconds)
    try:
        result = read(path)
        result["path"] = str(path)
    except Exception as exc:   # a PDF the reader refuses is reported, not fatal
        result = {"path": str(path), "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    finally:
        signal.alarm(0)
    kept.write_text(json.dumps(result))
    return result


def sweep(read_one: Callable[[tuple[str, str]], dict], paths: list[str], out_dir: str, jobs: int) -> list[dict]:
    """`read_one((path, out_dir))` for every path, on `jobs` processes, sorted by path."""
    work = [(p, out_dir) for p in paths]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = list(pool.imap_unordered(read_one, work))
    else:
        results = [read_one(w) for w in work]
    return sorted(results, key=lambda r: r["path"])
