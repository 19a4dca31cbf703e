"""What every benchmark records beside its figures: the machine, and its section of BENCHMARKS.md."""

from __future__ import annotations

import os
import platform
import re
from datetime import date
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"
HEADER = """# Benchmarks

Every figure here was written by a script in `benchmarks/` (the command is
given with it) on the machine named beside it.  Tests never assert timings;
these scripts measure.  Run them all with `make bench`.
"""


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        text = Path("/proc/cpuinfo").read_text()
        found = re.search(r"model name\s*:\s*(.+)", text)
        if found:
            cpu = found.group(1).strip()
    except OSError:
        pass
    mem = ""
    try:
        kb = int(re.findall(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text())[0])
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, IndexError):
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()} ({date.today().isoformat()})"
    )


def write_section(key: str, title: str, body: str) -> None:
    """Replace (or add) this benchmark's section, leaving the others as they are."""
    start, end = f"<!-- {key}:start -->", f"<!-- {key}:end -->"
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else HEADER
    section = f"{start}\n## {title}\n\n{body}\n{end}"
    if start in text and end in text:
        text = text[: text.index(start)] + section + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    BENCHMARKS.write_text(text)
    print(f"wrote the {key!r} section of {BENCHMARKS.name}")
