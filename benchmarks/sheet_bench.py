"""The score sheet's web API under a long game: adding deals one by one, and the PDF of the result.

``rummykit serve`` runs as its own process on 127.0.0.1 with a fresh SQLite file (as
``server_bench.py`` starts it).  One sheet of six players in the settlement format is filled deal
by deal through ``POST /api/sheets/{id}/deals``, as a scorekeeper's phone does; every request
loads the sheet from the database, replays its deals, checks the entry, stores it and answers
the whole sheet, so the time grows with the sheet.  Then ``GET /sheets/{id}.pdf`` renders it.

Run: ``.venv/bin/python benchmarks/sheet_bench.py [--deals 200]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from machine import machine_line, write_section
from server_bench import Server


def _call(server: Server, method: str, path: str, body: Any = None, token: str = "") -> tuple[float, bytes]:
    headers = {"content-type": "application/json"}
    if token:
        headers["X-Edit-Token"] = token
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"{server.base}{path}", data=data, headers=headers, method=method)
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=60) as r:
        out = r.read()
    return (time.perf_counter() - start) * 1000, out


def _p(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = p.parse_args()
    players = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz"]
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            body = {"preset": "nepali", "players": players, "settings": {"rounds": args.deals}}
            _ms, out = _call(server, "POST", "/api/sheets", body)
            made = json.loads(out)
            sheet, token = made["id"], made["edit_token"]
            times: dict[str, list[float]] = {"first": [], "last": []}
            for i in range(args.deals):
                entries: list[Any] = ["W", 10 + i % 50, "D", 25, "M", 80]
                entries = entries[i % 6 :] + entries[: i % 6]
                ms, _ = _call(server, "POST", f"/api/sheets/{sheet}/deals", {"entries": entries}, token)
                if i < args.deals // 4:
                    times["first"].append(ms)
                elif i >= args.deals - args.deals // 4:
                    times["last"].append(ms)
            pdf = []
            for _ in range(10):
                ms, out = _call(server, "GET", f"/sheets/{sheet}.pdf")
                assert out.startswith(b"%PDF"), out[:40]
                pdf.append(ms)
        finally:
            server.stop()
    rows = []
    quarter = args.deals // 4
    for key, label in (("first", f"adding deals 1-{quarter}"), ("last", f"the last {quarter}")):
        t = sorted(times[key])
        rows.append(f"| {label} | {statistics.median(t):.1f} | {_p(t, 0.99):.1f} |")
    pdf.sort()
    size = f"{len(out) // 1024} KiB"
    median = statistics.median(pdf)
    rows.append(f"| the PDF of all {args.deals} deals ({size}) | {median:.0f} | {pdf[-1]:.0f} |")
    body_md = "\n".join(
        [
            f"One six-player settlement sheet filled with {args.deals} deals through the web API",
            "(each request loads, replays, checks, stores and answers the whole sheet), then its PDF;",
            "client and server on this machine, SQLite.  Times in ms, client side.",
            "",
            f"Machine: {machine_line()}",
            f"Command: `python benchmarks/sheet_bench.py --deals {args.deals}`",
            "",
            "| requests | median ms | p99 ms (PDF: max) |",
            "|---|---|---|",
            *rows,
        ]
    )
    print(body_md)
    if not args.no_write:
        write_section("sheet", "The score sheet's web API", body_md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
