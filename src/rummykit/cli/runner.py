"""What ``rummykit simulate`` and ``rummykit tournament`` share: chunks of work over processes,
the progress meter, Ctrl-C, ``--bots`` round the table, whole-number options, table cells.

Results come back in task order whatever order the workers finish in, so a run's figures do
not depend on how many workers played it.

Settled here:

* Progress is counted in deals (or matches) as they finish inside a chunk: each worker adds to
  one shared counter (:func:`tick`), so the meter moves, and estimates the time left, before the
  first chunk is done.  ``--progress auto`` (the default) draws a bar on stderr when stderr is a
  terminal and prints nothing otherwise; ``plain`` prints a line on stderr now and then (at most
  one a second, at every whole percent, and at least every 30 s); ``none`` prints nothing.
  Nothing but the report is ever written to stdout, so ``--json`` stays one object.
* Ctrl-C (SIGINT) stops the run at once: the workers ignore SIGINT themselves and are
  terminated by the main process, chunks still queued or half played are dropped, and the
  chunks already finished come back (:class:`Finished` with ``interrupted``), for the command
  to print as a report marked partial, with exit status 130.
* Where the chunks run is a :class:`Backend`: :data:`LOCAL` (this machine's processes), or with
  ``--ray auto|ADDRESS`` a Ray cluster (:mod:`rummykit.cli.ray_backend`, imported only then: Ray
  is an optional extra, and slow to import).  Both take the same chunks, answer them in task
  order, count progress through :func:`tick` and stop the same way on Ctrl-C.  A file a chunk
  makes (a hand history) goes through :func:`write_text`, so that it is written on the machine
  the command runs on even when the chunk ran on another.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

import orjson

from rummykit.cli.arrange_cmd import InputError
from rummykit.engine.numbers import ascii_whole

__all__ = [
    "INTERRUPTED",
    "LOCAL",
    "PROGRESS_MODES",
    "Backend",
    "Finished",
    "Meter",
    "RayTarget",
    "add_backend_options",
    "add_progress_option",
    "bots_round_the_table",
    "cells",
    "open_backend",
    "ray_target_from_args",
    "run_chunks",
    "signed",
    "tick",
    "whole_number",
    "write_text",
]

T = TypeVar("T")
R = TypeVar("R")

INTERRUPTED: Final = 130  # the exit status of a run stopped by Ctrl-C (128 + SIGINT)
PROGRESS_MODES: Final = ("auto", "plain", "none")
_POLL: Final = 0.1  # seconds between looks at the workers' counter

ProgressMode = Literal["auto", "plain", "none"]


# ---- progress ----------------------------------------------------------------------------------


class _Counter:
    """Deals finished so far: a number shared with the worker processes, or a plain one."""

    def __init__(self, shared: Any = None) -> None:
        self.shared = shared
        self.value = 0
        self.on_tick: Callable[[int], None] | None = None  # in-process: tell the meter at once

    def add(self, n: int) -> None:
        if self.shared is not None:
            with self.shared.get_lock():
                self.shared.value += n
        else:
            self.value += n
            if self.on_tick is not None:
                self.on_tick(self.value)

    def read(self) -> int:
        return int(self.shared.value) if self.shared is not None else self.value


_COUNTER = _Counter()


def tick(n: int = 1) -> None:
    """Count ``n`` deals (or matches) finished, for the progress meter; chunk functions call it
    as they go, in a worker or in this process."""
    _COUNTER.add(n)


# A Ray task collects the files its chunk writes here, to send them back with its result.
_SINK: list[tuple[str, str]] | None = None


def write_text(path: str | Path, text: str) -> None:
    """Write a file the run makes (a hand history), as UTF-8.  In this machine's processes it is
    written at once; in a Ray task it is sent back with the chunk's result and written by the
    command, on its own machine (the task may run on another)."""
    if _SINK is not None:
        _SINK.append((str(path), text))
    else:
        Path(path).write_text(text, encoding="utf-8")


class Meter:
    """The progress of a run on stderr: a bar with the time left (a terminal), plain lines, or
    nothing.  :meth:`start` once the workers exist (the bar's refresh thread must not be forked),
    :meth:`update` with the count so far, :meth:`stop` at the end."""

    def __init__(self, label: str, unit: str, total: int, mode: ProgressMode = "auto") -> None:
        self.label, self.unit, self.total = label, unit, total
        if mode == "auto":
            mode = "auto" if sys.stderr.isatty() else "none"
        self.mode: Final = mode
        self._bar: Any = None
        self._task: Any = None
        self._t0 = 0.0
        self._last_line = 0.0
        self._last_step = -1
        self._done = 0

    def start(self) -> None:
        self._t0 = time.monotonic()
        if self.mode == "auto":
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(self.unit),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                TextColumn("left"),
                console=Console(stderr=True),
                transient=True,
            )
            self._task = self._bar.add_task(self.unit, total=self.total)
            self._bar.start()
        elif self.mode == "plain":
            self._line(0, time.monotonic())

    def update(self, done: int) -> None:
        done = min(done, self.total)
        if done == self._done:
            return
        self._done = done
        if self._bar is not None:
            self._bar.update(self._task, completed=done)
        elif self.mode == "plain":
            now = time.monotonic()
            step = 100 * done // max(1, self.total)
            if (now - self._last_line >= 1 and step > self._last_step) or now - self._last_line >= 30:
                self._line(done, now)

    def _line(self, done: int, now: float) -> None:
        elapsed = now - self._t0
        text = f"{self.label}: {done} of {self.total} {self.unit}, {_clock(elapsed)}"
        if done:
            text += f", about {_clock(elapsed / done * (self.total - done))} left"
        print(text, file=sys.stderr, flush=True)
        self._last_line = now
        self._last_step = 100 * done // max(1, self.total)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s // 60 % 60:02d} min"


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        choices=PROGRESS_MODES,
        default="auto",
        help="auto: a bar with the time left on stderr when it is a terminal (the default); "
        "plain: a line on stderr now and then; none: nothing",
    )


# ---- running chunks -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finished(Generic[R]):
    """The chunks that were played: their results in task order, which tasks they were, and
    whether Ctrl-C stopped the run before every task was done."""

    results: tuple[R, ...]
    done: tuple[int, ...]  # the tasks' indexes, ascending
    interrupted: bool


def _worker_start(shared: Any, init: Callable[..., None], initargs: tuple[object, ...]) -> None:
    """A worker's start: Ctrl-C is the main process's to handle (it ends the workers), the
    shared progress counter, then the command's own start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _COUNTER
    _COUNTER = _Counter(shared)
    init(*initargs)


def _indexed(job: tuple[int, Callable[[Any], Any], Any]) -> tuple[int, Any]:
    i, run, task = job
    return i, run(task)


def run_chunks(
    tasks: Sequence[T],
    run: Callable[[T], R],
    *,
    workers: int,
    init: Callable[..., None],
    initargs: tuple[object, ...],
    meter: Meter | None = None,
    backend: Backend | None = None,
) -> Finished[R]:
    """``run`` on every task, on ``backend`` (this machine's processes by default): at most
    ``workers`` at once, each worker started by ``init(*initargs)``.  ``meter`` shows the deals
    :func:`tick` counts.  Ctrl-C stops the run and answers the tasks finished (see the module's
    notes)."""
    return (backend or LOCAL).run_chunks(
        tasks, run, workers=workers, init=init, initargs=initargs, meter=meter
    )


def _run_local(
    tasks: Sequence[T],
    run: Callable[[T], R],
    *,
    workers: int,
    init: Callable[..., None],
    initargs: tuple[object, ...],
    meter: Meter | None = None,
) -> Finished[R]:
    """``run`` on every task, in this process (one worker or one task) or over ``workers``
    processes each started by ``init(*initargs)``."""
    global _COUNTER
    results: dict[int, R] = {}
    interrupted = False
    if workers == 1 or len(tasks) == 1:
        counter = _COUNTER = _Counter()
        if meter is not None:
            counter.on_tick = meter.update
            meter.start()
        try:
            init(*initargs)
            for i, task in enumerate(tasks):
                results[i] = run(task)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if meter is not None:
                meter.stop()
            _COUNTER = _Counter()
    else:
        context = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        )
        shared = context.Value("q", 0)
        pool = context.Pool(min(workers, len(tasks)), _worker_start, (shared, init, initargs))
        try:
            # The workers exist now: the bar's refresh thread starts after the fork.
            if meter is not None:
                meter.start()
            jobs = ((i, run, task) for i, task in enumerate(tasks))
            answers = pool.imap_unordered(_indexed, jobs)
            while len(results) < len(tasks):
                try:
                    i, result = answers.next(timeout=_POLL)
                    results[i] = result
                except multiprocessing.TimeoutError:
                    pass
                if meter is not None:
                    meter.update(int(shared.value))
            pool.close()
        except KeyboardInterrupt:
            interrupted = True
        finally:
            pool.terminate()  # at once: queued and half-played chunks are dropped
            pool.join()
            if meter is not None:
                meter.stop()
    done = tuple(sorted(results))
    return Finished(tuple(results[i] for i in done), done, interrupted)


class Backend(Protocol):
    """Where a run's chunks are played: :data:`LOCAL`, or a Ray cluster."""

    @property
    def name(self) -> str:
        """The report's ``backend``: ``local`` or ``ray``."""
        ...

    def default_workers(self) -> int:
        """The chunks played at once when ``--workers`` is not given."""
        ...

    def run_chunks(
        self,
        tasks: Sequence[T],
        run: Callable[[T], R],
        *,
        workers: int,
        init: Callable[..., None],
        initargs: tuple[object, ...],
        meter: Meter | None = None,
    ) -> Finished[R]: ...


class _Local:
    """This machine's processes (or this process alone)."""

    name: Final = "local"

    def default_workers(self) -> int:
        return os.cpu_count() or 1

    def run_chunks(
        self,
        tasks: Sequence[T],
        run: Callable[[T], R],
        *,
        workers: int,
        init: Callable[..., None],
        initargs: tuple[object, ...],
        meter: Meter | None = None,
    ) -> Finished[R]:
        return _run_local(tasks, run, workers=workers, init=init, initargs=initargs, meter=meter)


LOCAL: Final[Backend] = _Local()


# ---- --ray ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RayTarget:
    """What ``--ray`` asks for: ``auto`` or a cluster's address, and the job's ``runtime_env``."""

    address: str  # "auto", "HOST:PORT" (the head's GCS) or "ray://HOST:PORT" (its Ray Client server)
    runtime_env: dict[str, Any] | None = None


_ADDRESS = re.compile(r"(ray://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})", re.ASCII)


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        metavar="auto|ADDRESS",
        help="play the chunks as tasks on a Ray cluster (pip install 'rummykit[ray]'): auto (RAY_ADDRESS, "
        "else a cluster running on this machine, else a local Ray for this run), HOST:PORT (the head "
        "node's port, 6379 by default) or ray://HOST:10001; --workers is then the tasks run at once "
        "(default: the cluster's CPUs)",
    )
    parser.add_argument(
        "--ray-runtime-env",
        metavar="JSON",
        help='the Ray job\'s runtime_env, a JSON object (e.g. \'{"env_vars": {"OMP_NUM_THREADS": "1"}}\'); '
        "rummykit itself must be installed on every node",
    )


def ray_target_from_args(args: argparse.Namespace) -> RayTarget | None:
    """``--ray`` and ``--ray-runtime-env`` read and checked (no Ray imported), or None without
    ``--ray``; an :class:`InputError` names a malformed address or runtime_env."""
    address = getattr(args, "ray", None)
    env_text = getattr(args, "ray_runtime_env", None)
    if address is None:
        if env_text is not None:
            raise InputError("--ray-runtime-env needs --ray")
        return None
    address = address.strip()
    if address != "auto":
        m = _ADDRESS.fullmatch(address)
        if m is None or not 0 < int(m.group(3)) < 65536:
            raise InputError(
                f"--ray takes auto, HOST:PORT (the head node's port, 6379 by default) or "
                f"ray://HOST:PORT (its Ray Client server, 10001), not {address!r}"
            )
    runtime_env: dict[str, Any] | None = None
    if env_text is not None:
        try:
            runtime_env = orjson.loads(env_text)
        except orjson.JSONDecodeError as e:
            raise InputError(f"--ray-runtime-env is not JSON: {e}") from None
        if not isinstance(runtime_env, dict):
            raise InputError('--ray-runtime-env takes a JSON object, such as \'{"env_vars": {"K": "V"}}\'')
    return RayTarget(address, runtime_env)


@contextmanager
def open_backend(target: RayTarget | None) -> Iterator[Backend]:
    """The backend ``--ray`` asks for: :data:`LOCAL` without it, else a connection to the Ray
    cluster (closed afterwards; a local Ray started for the run is shut down).  An
    :class:`InputError` says why Ray cannot be used (not installed, a cluster that does not
    answer)."""
    if target is None:
        yield LOCAL
        return
    try:
        from rummykit.cli import ray_backend
    except ModuleNotFoundError as e:
        if e.name is None or not e.name.startswith("ray"):
            raise
        raise InputError(
            "--ray needs Ray, which is not installed in this Python: pip install 'rummykit[ray]'"
        ) from None
    cluster = ray_backend.connect(target)
    try:
        yield cluster
    finally:
        cluster.close()


# ---- options and cells -------------------------------------------------------------------------


def bots_round_the_table(text: str, seats: int, known: Sequence[str]) -> tuple[str, ...]:
    """The bots of ``--bots LIST`` for ``seats`` seats: the names in order, repeated round the
    table (``greedy,random`` at four seats is greedy, random, greedy, random); one name fills
    every seat.  ``rummykit simulate``, ``tournament`` and ``play`` (its bot seats) all read
    ``--bots`` here; an :class:`InputError` names an unknown bot or a list longer than the table.

    >>> bots_round_the_table("greedy, Random", 4, ("random", "greedy"))
    ('greedy', 'random', 'greedy', 'random')
    """
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError(f"--bots names no bot (known: {', '.join(known)})")
    for name in names:
        if name.split(":", 1)[0] not in known:  # a bot's options follow its name (hard:worlds=24)
            raise InputError(f"unknown bot {name.split(':', 1)[0]!r} (known: {', '.join(known)})")
    if len(names) > seats:
        raise InputError(
            f"--bots names {len(names)} bots for {seats} seat{'s' if seats != 1 else ''}: "
            "give at most one a seat (they repeat round the table)"
        )
    return tuple(names[s % len(names)] for s in range(seats))


def whole_number(text: str, option: str, least: int = 1) -> int:
    """An option's whole number, at least ``least``, or an :class:`InputError` naming it."""
    value = ascii_whole(text.strip())
    if value is None:
        raise InputError(f"{option} takes a whole number, not {text!r}")
    if value < least:
        raise InputError(f"{option} must be at least {least}, not {value}")
    return value


def signed(x: float) -> str:
    return f"{x:+.2f}"


def cells(row: Sequence[str], widths: Sequence[int], left: int = 1) -> str:
    """A row of a table: the first ``left`` cells to the left, the figures to the right."""
    return "  ".join(
        c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
    ).rstrip()
