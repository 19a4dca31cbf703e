"""``rummykit simulate|tournament --ray auto|ADDRESS`` (issue 13, Ray): the same chunks as Ray
tasks, the same figures as local processes for the same seed, the same progress and Ctrl-C, a
wrong address in one line, and no Ray imported without ``--ray``.

One local Ray (two CPUs) serves the module, started by the first test that needs it and shut
down after the last; the tests that need no cluster, or start their own, come first.  With
``CI=true`` a missing Ray fails the run rather than skipping it.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest

from rummykit.cli import runner
from rummykit.cli.arrange_cmd import InputError
from rummykit.cli.main import main
from rummykit.engine.history import replay

EXE = Path(sys.executable).parent / "rummykit"
COMMAND = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "rummykit"]
# How a run ran (its clock, where, on how many workers); every figure else must match.
RUN_METADATA = ("seconds", "deals_per_second", "backend", "workers")
TIMES = ("mean_ms", "median_ms", "p99_ms", "max_ms")
# One pytest-xdist worker runs this whole module (make test uses --dist loadgroup): a second
# worker would start a second local Ray, which `--ray auto` could find and join, and lose when
# that worker shuts its Ray down.
pytestmark = pytest.mark.xdist_group("ray")


def ray_module() -> ModuleType:
    try:
        import ray
    except ImportError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the Ray tests and Ray is not installed: {e}")
        pytest.skip(f"Ray is not installed here (pip install -e '.[test]' brings it): {e}")
    return ray


def figures_only(text: str) -> bytes:
    """A JSON report less its run metadata and decision times, re-encoded in its own order."""
    data = json.loads(text)
    for key in RUN_METADATA:
        del data[key]
    for bot in data["bots"].values():
        for key in TIMES:
            del bot[key]
    return orjson.dumps(data)


def local_report(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The report of the local runner, in this process (no fork of a process connected to
    Ray): its figures are those of any number of workers."""
    assert main([*argv, "--workers", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["backend"] == "local"
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = list(Path(f"/proc/{p}/task").iterdir())
        except FileNotFoundError:
            continue
        for task in tasks:
            try:
                kids = {int(x) for x in (task / "children").read_text().split()}
            except FileNotFoundError:
                continue
            todo += list(kids - found)
            found |= kids
    return found


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except FileNotFoundError:
        return ""


def _gcs_servers() -> set[int]:
    return {
        int(p.name)
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and _comm(int(p.name)) == "gcs_server"
    }


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def interrupt(
    argv: list[str], at_least: int, env: dict[str, str], *, group: bool
) -> tuple[int, str, str, dict[int, str]]:
    """Start the command with plain progress, wait until it says ``at_least`` deals are done,
    send SIGINT (``group``: to its whole process group, as a terminal's Ctrl-C does), and answer
    its exit status, stdout, stderr and the processes it had started (their names)."""
    proc = subprocess.Popen(
        [*COMMAND, *argv, "--progress", "plain"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=group,
    )
    assert proc.stderr is not None
    seen: list[str] = []
    started: dict[int, str] = {}

    def look() -> None:
        for pid in _descendants(proc.pid) - set(started):
            started[pid] = _comm(pid)

    try:
        for line in proc.stderr:
            seen.append(line)
            look()
            assert line.startswith(f"{argv[0]}: ") and " of " in line, line
            if int(line.split(": ", 1)[1].split(" of ", 1)[0]) >= at_least:
                break
        else:
            pytest.fail(f"the run ended before reporting {at_least} deals: {''.join(seen)}")
        look()
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # generous: against hanging, not a timing
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, "".join(seen) + err, started


def _all_gone(pids: set[int]) -> bool:
    deadline = time.monotonic() + 60  # generous: Ray's processes end as the raylet goes
    while any(_alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


# ---- no cluster needed (or one of the run's own) --------------------------------------------------


def test_ctrl_c_at_a_terminal_stops_a_run_on_a_local_ray_it_started_and_prints_the_finished_part() -> None:
    ray_module()
    others = _gcs_servers()  # a Ray already running here would be joined by auto instead
    argv = ["simulate", "--deals", "20000", "--ray", "auto", "--json"]
    status, out, err, started = interrupt(argv, 100, _env(), group=True)
    assert status == runner.INTERRUPTED, err
    data = json.loads(out)
    assert data["partial"] is True and data["backend"] == "ray"
    assert data["asked"] == {"count": 20000, "unit": "deals", "done": data["deals"]}
    assert 0 < data["deals"] < 20000
    assert sum(s["deals_won"] for s in data["seats"]) == data["deals"]
    assert "Traceback" not in err
    assert err.splitlines()[0] == "simulate: 0 of 20000 deals, 0 s"  # progress from the start
    if not others:
        assert "gcs_server" in started.values()  # auto started a local Ray
    assert _all_gone(set(started))  # the local Ray was shut down with the run: nothing left behind


def test_without_ray_nothing_imports_ray() -> None:
    code = (
        "import sys\n"
        "from rummykit.cli.main import main\n"
        "for argv in (['simulate', '--deals', '3'], ['tournament', '--seats', '2', '--bots', 'greedy', "
        "'--deals', '2']):\n"
        "    assert main([*argv, '--workers', '1', '--json']) == 0\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.') or 'ray_backend' in m))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_missing_ray_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if it were not installed
    monkeypatch.delitem(sys.modules, "rummykit.cli.ray_backend", raising=False)
    assert main(["simulate", "--deals", "2", "--ray", "auto"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "rummykit simulate: --ray needs Ray, which is not installed in this Python: "
        "pip install 'rummykit[ray]'"
    ]


@pytest.fixture
def not_ray() -> Iterator[str]:
    """An address that takes connections and answers as a Redis does (6379 is also Redis's
    port) to what it cannot read."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn = server.accept()[0]
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                try:
                    conn.recv(1024)
                    conn.sendall(b"-ERR unknown command\r\n")
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:1", "no Ray cluster at 127.0.0.1:1: nothing listens on port 1 of 127.0.0.1"),
        ("ray://127.0.0.1:1", "no Ray cluster at ray://127.0.0.1:1: nothing listens on port 1 of 127.0.0.1"),
        ("nohost.invalid:6379", "no Ray cluster at nohost.invalid:6379: unknown host 'nohost.invalid'"),
        (
            "headnode",
            "--ray takes auto, HOST:PORT (the head node's port, 6379 by default) or ray://HOST:PORT",
        ),
        ("NOT_RAY", "answers but is not a Ray cluster's head (`ray start --head` prints its address"),
    ],
)
def test_a_wrong_address_is_one_line_and_exit_2(address: str, message: str, not_ray: str) -> None:
    ray_module()
    address = not_ray if address == "NOT_RAY" else address
    for command in (["simulate", "--deals", "3"], ["tournament", "--seats", "2", "--deals", "2"]):
        done = subprocess.run(
            [*COMMAND, *command, "--ray", address, "--json"],
            capture_output=True,
            text=True,
            check=False,
            env=_env(),
            timeout=300,  # generous: Ray alone would retry for minutes
        )
        assert done.returncode == 2 and done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith(f"rummykit {command[0]}: ") and message in lines[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ray-runtime-env", "{}"], "--ray-runtime-env needs --ray"),
        (["--ray", "auto", "--ray-runtime-env", "{working_dir"], "--ray-runtime-env is not JSON: "),
        (["--ray", "auto", "--ray-runtime-env", "[1]"], "--ray-runtime-env takes a JSON object"),
        (["--ray", "h:99999"], "--ray takes auto, HOST:PORT"),
        (["--ray", "head:\uff16\uff13\uff17\uff19"], "--ray takes auto, HOST:PORT"),  # a port in ASCII digits
    ],
)
def test_ray_options_are_checked_before_anything_runs(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--deals", "2", *argv]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1 and message in lines[0]


# ---- on one local Ray for the module -----------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray for this module (two CPUs), connected in this process; its address."""
    ray = ray_module()
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def ray_report(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main([*argv, "--ray", "auto", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress when stderr is not a terminal, and no Ray chatter
    data = json.loads(captured.out)
    assert data["backend"] == "ray" and data["workers"] == 2  # the cluster's CPUs by default
    return captured.out


@pytest.mark.parametrize(
    "command",
    [
        "simulate --rules nepali --players 4 --bots greedy,random --deals 60",
        "simulate --rules rummy40 --players 3 --bots greedy,random --deals 12",
        "simulate --rules indian --players 3 --matches 3 --bots greedy,random",
        "tournament --rules nepali --seats 2 --bots easy,greedy --deals 10 --duplicate",
        "tournament --rules remi51 --seats 3 --bots greedy,easy,random --deals 5 --duplicate",
    ],
    ids=["simulate-nepali", "simulate-rummy40", "simulate-matches", "tournament-nepali", "tournament-remi51"],
)
def test_ray_gives_the_local_runners_report_for_the_same_seed(
    command: str, cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*command.split(), "--seed", "13"]
    on_ray = ray_report(capsys, argv)
    here = local_report(capsys, argv)
    assert figures_only(on_ray) == figures_only(here)


def test_ray_auto_joins_the_cluster_of_ray_address_and_its_text_says_ray(cluster: str) -> None:
    argv = ["tournament", "--seats", "3", "--bots", "greedy,random", "--deals", "4", "--workers", "1"]
    done = subprocess.run(
        [*COMMAND, *argv, "--ray", "auto"],
        capture_output=True,
        text=True,
        check=False,
        env=_env(RAY_ADDRESS=cluster),
        timeout=300,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    head = done.stdout.splitlines()[0]
    assert head.startswith("4 decks (4 deals) of nepali") and head.endswith(" s on 1 Ray task at once")


def test_ctrl_c_stops_the_ray_tasks_and_prints_the_finished_part(cluster: str) -> None:
    argv = ["tournament", "--seats", "2", "--bots", "greedy,random", "--deals", "20000", "--ray", "auto"]
    status, out, err, _ = interrupt(argv, 60, _env(RAY_ADDRESS=cluster), group=False)
    assert status == runner.INTERRUPTED
    assert "Partial: stopped by Ctrl-C after " in out and " of 20000 decks" in out
    assert "points/deal" in out and "Traceback" not in err
    # the cluster's tasks were cancelled: it has its CPUs back for the next run
    ray = ray_module()
    deadline = time.monotonic() + 60  # generous: against hanging, not a timing
    while ray.available_resources().get("CPU", 0) < 2:
        assert time.monotonic() < deadline, ray.available_resources()
        time.sleep(0.2)


class RecordingMeter(runner.Meter):
    def __init__(self, total: int) -> None:
        super().__init__("test", "deals", total, "none")
        self.events: list[str | int] = []

    def start(self) -> None:
        self.events.append("start")

    def update(self, done: int) -> None:
        self.events.append(done)

    def stop(self) -> None:
        self.events.append("stop")


class _Gate:
    """The highest count the command's meter has shown: a task waits for it before its next deal,
    so the test sees every count however slow the machine is (no race with the meter's reads)."""

    def __init__(self) -> None:
        self.shown = 0

    def show(self, done: int) -> None:
        self.shown = max(self.shown, done)

    def read(self) -> int:
        return self.shown


def _gated_task(job: tuple[int, Any]) -> int:
    n, gate = job
    ray = ray_module()
    for k in range(1, n + 1):
        time.sleep(0.25)  # past the task's send interval, so this deal's tick is sent at once
        runner.tick()
        deadline = time.monotonic() + 60
        while ray.get(gate.read.remote()) < k and time.monotonic() < deadline:
            time.sleep(0.05)
    return n


class GatedMeter(RecordingMeter):
    def __init__(self, total: int, gate: Any) -> None:
        super().__init__(total)
        self.gate = gate

    def update(self, done: int) -> None:
        super().update(done)
        self.gate.show.remote(done)


def _failing_task(kind: str) -> int:
    if kind == "import":
        raise ModuleNotFoundError("No module named 'rummykit'")
    raise ValueError(f"chunk {kind} went wrong")


def _nothing() -> None:
    return None


@pytest.fixture(scope="module")
def backend(cluster: str) -> Iterator[Any]:
    """The Ray backend on the module's cluster, with this module's own chunk functions sent by
    value (the workers cannot import a test module)."""
    ray = ray_module()
    from rummykit.cli import ray_backend

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        yield ray_backend.connect(runner.RayTarget("auto"))
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def test_the_meter_moves_deal_by_deal_from_the_ray_tasks(backend: Any) -> None:
    gate = ray_module().remote(num_cpus=0)(_Gate).remote()
    meter = GatedMeter(3, gate)
    finished = runner.run_chunks(
        [(3, gate)], _gated_task, workers=1, init=_nothing, initargs=(), meter=meter, backend=backend
    )
    assert finished.results == (3,) and finished.done == (0,) and not finished.interrupted
    assert meter.events[0] == "start" and meter.events[-1] == "stop"
    counts = [e for e in meter.events if isinstance(e, int)]
    # counted as the deals are played (1, 2, 3), not once per chunk of three
    assert set(counts) - {0} == {1, 2, 3} and counts == sorted(counts)


def _span(seconds: float) -> tuple[float, float]:
    start = time.time()
    time.sleep(seconds)
    return start, time.time()


def test_results_come_back_in_task_order_whatever_order_they_finish_in(backend: Any) -> None:
    sleeps = [0.6, 0.0, 0.3, 0.0]  # on two workers the second and third finish before the first
    finished = runner.run_chunks(sleeps, _span, workers=2, init=_nothing, initargs=(), backend=backend)
    assert finished.done == (0, 1, 2, 3)
    # each answer is its own task's: the one that slept 0.6 s first, whatever came back first
    assert all(end - start >= s for (start, end), s in zip(finished.results, sleeps, strict=True))


def test_workers_is_the_number_of_ray_tasks_at_once(backend: Any) -> None:
    finished = runner.run_chunks([0.2] * 3, _span, workers=1, init=_nothing, initargs=(), backend=backend)
    spans = sorted(finished.results)
    assert all(end <= start for (_, end), (start, _) in itertools.pairwise(spans))  # one after another


def test_an_error_in_a_ray_task_is_raised_as_itself(backend: Any) -> None:
    with pytest.raises(ValueError, match="chunk b went wrong"):
        runner.run_chunks(["b"], _failing_task, workers=1, init=_nothing, initargs=(), backend=backend)
    with pytest.raises(InputError, match=r"a Ray worker cannot import rummykit .* on every node"):
        runner.run_chunks(["import"], _failing_task, workers=1, init=_nothing, initargs=(), backend=backend)


def test_hand_histories_of_ray_tasks_are_written_where_the_command_runs(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative folder: the command's, not a Ray worker's
    argv = ["simulate", "--deals", "3", "--histories", "hist", "--ray", "auto", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 3
    files = sorted(p.name for p in (tmp_path / "hist").iterdir())
    assert files == ["deal-000001.txt", "deal-000002.txt", "deal-000003.txt"]
    deal = replay((tmp_path / "hist" / "deal-000002.txt").read_text())
    assert deal.over and deal.seed == "0/1"
    argv = ["tournament", "--seats", "2", "--bots", "greedy,easy", "--deals", "2", "--duplicate"]
    assert main([*argv, "--histories", "decks", "--ray", "auto", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 4
    files = sorted(p.name for p in (tmp_path / "decks").iterdir())
    assert files == [f"deck-00000{d}-rotation-{r}.txt" for d in (1, 2) for r in (1, 2)]
    assert replay((tmp_path / "decks" / files[-1]).read_text()).over


def test_a_process_connected_to_a_cluster_uses_it_for_its_address_and_refuses_another(
    cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--deals", "2", "--ray", cluster, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["backend"] == "ray"
    assert main(["simulate", "--deals", "2", "--ray", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"rummykit simulate: this process is already connected to the Ray cluster at {cluster}; "
        "--ray 127.0.0.1:1 cannot connect to another"
    ]
