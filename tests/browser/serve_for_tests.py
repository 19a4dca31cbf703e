"""The table server as the browser tests run it: a subprocess on 127.0.0.1, bots at once (pace 0),
fixed seeds allowed, no message rate limit, on the SQLite file it is given.

    python tests/browser/serve_for_tests.py PORT sqlite:///path/to/file.db [STACKS.json]

``STACKS.json`` (tests only): table-family deals dealt from stacked shoes, keyed by the match
seed (see ``tests/server/stacking.py``); never reachable through the server's API.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import uvicorn

from rummykit.server import create_app
from rummykit.server.limits import ServerLimits
from rummykit.server.protocol import MAX_SOCKET_BYTES
from rummykit.server.table import TableOptions


def main() -> None:
    port, url = int(sys.argv[1]), sys.argv[2]
    if len(sys.argv) > 3:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
        import stacking

        stacking.install(json.loads(Path(sys.argv[3]).read_text()))
    app = create_app(
        url,
        defaults=TableOptions(bot_pace=0.0, away_time=30.0),
        allow_seed=True,
        limits=ServerLimits.lifted(),  # one client (the browser tests) making many tables fast
    )
    uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=MAX_SOCKET_BYTES, log_level="warning")


if __name__ == "__main__":
    main()
