"""``rummykit serve`` for real: uvicorn on 127.0.0.1, the printed address, HTTP and a WebSocket
client (the ``websockets`` library) playing through the protocol."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummykit.cli.main import main as cli


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# Generous waits: a hang still fails, a loaded two-core CI machine does not (a 5 s recv once did).
PATIENCE = 30.0


def wait_for_health(base: str, proc: subprocess.Popen[str], log: Path) -> Any:
    """``/api/health``'s answer once the server answers, or a failure naming what it printed."""
    end = time.monotonic() + PATIENCE
    while True:
        try:
            return json.loads(urllib.request.urlopen(f"http://{base}/api/health", timeout=2).read())
        except OSError:
            if proc.poll() is not None or time.monotonic() > end:
                pytest.fail(f"the server at {base} never answered; it printed: {log.read_text()!r}")
            time.sleep(0.05)


def spawn_serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], Path]:
    """``rummykit serve ARGS`` on a fresh SQLite file, and the file its stderr goes to (a file,
    not a pipe nobody reads: a full pipe would block the server mid-test)."""
    log = tmp_path / "serve.stderr"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "rummykit", "serve", *args, "--db", f"sqlite:///{tmp_path / 'serve.db'}"],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    return proc, log


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc, log = spawn_serve(tmp_path, "--port", str(port), "--bot-pace", "0")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == f"rummykit: the table is at http://127.0.0.1:{port}/\n", log.read_text()
        base = f"127.0.0.1:{port}"
        wait_for_health(base, proc, log)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def post(base: str, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        f"http://{base}{path}", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_serve_plays_through_a_real_socket(server: str) -> None:
    health = json.loads(urllib.request.urlopen(f"http://{server}/api/health").read())
    assert health["ok"] and health["database"] == "sqlite"
    page = urllib.request.urlopen(f"http://{server}/").read().decode()
    assert page.lstrip().lower().startswith("<!doctype html>")
    seats = [{"kind": "human", "name": "Asha"}, {"kind": "bot", "bot": "greedy"}]  # greedy never drops
    t = post(server, "/api/tables", {"seats": seats})
    with connect(f"ws://{server}{t['ws']}") as ws:
        ws.send(json.dumps({"type": "hello", "seat_token": t["seats"][0]["token"]}))
        assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "welcome"
        view = None
        while view is None or view["legal"] is None:
            msg = json.loads(ws.recv(timeout=PATIENCE))
            view = msg.get("view", view)
        ws.send(json.dumps({"type": "draw", "from": "stock"}))
        msg = json.loads(ws.recv(timeout=PATIENCE))
        assert msg["type"] == "update" and msg["events"][0]["kind"] == "drew_stock"
        assert len(msg["view"]["hand"]["cards"]) == 14
        # a frame over the protocol's 4 KiB is refused, and the socket stays
        big = json.dumps({"type": "ping", "pad": "x" * 5000})
        ws.send(big)
        error = json.loads(ws.recv(timeout=PATIENCE))
        assert error["type"] == "error" and error["reason"] == f"message too large: {len(big)} bytes"
        # a frame over 64 KiB never reaches the table: the server closes the socket (1009)
        ws.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_serve_refuses_a_database_it_cannot_reach(capsys: pytest.CaptureFixture[str]) -> None:
    db = "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2"
    code = cli(["serve", "--port", "0", "--db", db])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("rummykit serve: cannot reach the database") and err[-1] == "\n"


def test_serve_checks_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["serve", "--port", "70000"]) == 2
    assert "expected 0 to 65535" in capsys.readouterr().err
    assert cli(["serve", "--bot-pace", "-1"]) == 2
    assert "expected 0 to 30 seconds" in capsys.readouterr().err


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                *(sys.executable, "-m", "rummykit", "serve", "--port", str(port)),
                *("--db", f"sqlite:///{tmp_path / 'busy.db'}"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stdout == ""  # no address that nobody serves
    assert done.stderr == f"rummykit serve: port {port} on 127.0.0.1 is in use (try --port {port + 1})\n"


def test_serve_on_an_address_it_cannot_listen_on_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["serve", "--host", "192.0.2.1", "--port", "0"]) == 2  # TEST-NET-1: not this machine
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("rummykit serve: cannot listen on 192.0.2.1 port 0: ")
    assert len(captured.err.splitlines()) == 1


def test_serve_on_port_0_prints_the_port_it_took(tmp_path: Path) -> None:
    proc, log = spawn_serve(tmp_path, "--port", "0")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("rummykit: the table is at http://127.0.0.1:"), log.read_text()
        port = int(line.rsplit(":", 1)[1].strip("/\n"))
        assert port > 0
        assert wait_for_health(f"127.0.0.1:{port}", proc, log)["ok"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
