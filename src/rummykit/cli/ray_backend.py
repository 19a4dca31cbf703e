"""The Ray backend of :mod:`rummykit.cli.runner`: ``--ray auto|ADDRESS`` plays the same chunks
as tasks on a Ray cluster.  Imported only when ``--ray`` is given (Ray is an optional extra,
``pip install 'rummykit[ray]'``, and slow to import).

Settled here:

* Connecting.  ``auto``: the Ray this process has already set up, if any (a program calling the
  runner, the tests); else the cluster named by ``RAY_ADDRESS``; else a cluster running on this
  machine (``ray start``); else a local Ray started for this run and shut down after it.  An
  address, ``HOST:PORT`` (the head node's GCS, 6379 by default) or ``ray://HOST:PORT`` (its Ray
  Client server, 10001 by default), is first tried with a plain connection and, for the GCS, one
  gRPC call with a few seconds' timeout: a wrong address is one line at once, where Ray alone
  retries for minutes.
* The chunks are the command's own, so the figures are those of the local runner.  At most
  ``workers`` tasks run at once (the next is sent as one finishes), each a chunk; the command's
  ``init`` and its arguments go to the cluster once (the object store), and a worker process
  runs ``init`` once a run, not once a chunk.  Results are kept by task index: task order.
* Progress: a chunk's :func:`~rummykit.cli.runner.tick` adds to one counter actor (sent at most
  five times a second a task, and at its end); the command reads it for the meter ten times a
  second, so the bar moves deal by deal as with local processes.
* Files a chunk writes (:func:`~rummykit.cli.runner.write_text`) come back with its result and
  are written by the command, on its own machine.
* Ctrl-C: no task is sent after it, the finished chunks come back, marked interrupted, as with
  local processes (a terminal's Ctrl-C, which also reaches a local Ray's own processes,
  included), and the tasks still running stop at once: a connection made for the run is closed
  as the command ends, and Ray stops the tasks of a driver that has left (a local Ray started
  for the run is shut down).  ``ray.cancel(force=True)`` stops them only where the connection
  stays (a program that set Ray up itself): in Ray 2.60 a task finishing just as it is cancelled
  can abort the driver ("Tried to complete task that was not pending"), about one Ctrl-C in ten
  here, which would lose the report.
* Ray's own chatter (its log lines, its core's errors as a stopped run's tasks fail, worker
  output) is kept off stderr, which carries only the progress; an error a chunk raises (a bad
  bot option) is raised here as itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import ray

import rummykit
from rummykit.cli import runner
from rummykit.cli.arrange_cmd import InputError
from rummykit.cli.runner import Finished, Meter, RayTarget

__all__ = ["RayCluster", "connect"]

T = TypeVar("T")
R = TypeVar("R")

_POLL: Final = 0.1  # seconds between looks at the tasks and the progress counter
_SEND: Final = 0.2  # seconds between a task's progress messages
_PROBE_TIMEOUT: Final = 5.0  # seconds to wait for an address to answer
_GCS_METHOD: Final = "/ray.rpc.NodeInfoGcsService/GetClusterId"  # asked of a GCS to see it is one
_LOG_LEVEL: Final = "RAY_BACKEND_LOG_LEVEL"
_INIT: Final[dict[str, Any]] = {"logging_level": logging.ERROR, "log_to_driver": False}


# ---- connecting ---------------------------------------------------------------------------------


def connect(target: RayTarget) -> RayCluster:
    """Connect as ``target`` asks (see the module's notes); an :class:`InputError` says why not."""
    if ray.is_initialized():
        current = ray.get_runtime_context().gcs_address
        if target.address not in ("auto", current):
            raise InputError(
                f"this process is already connected to the Ray cluster at {current}; "
                f"--ray {target.address} cannot connect to another"
            )
        return RayCluster(owned=False, runtime_env=target.runtime_env)
    address = target.address
    where = address
    if address == "auto" and os.environ.get("RAY_ADDRESS"):
        address = os.environ["RAY_ADDRESS"]
        where = f"RAY_ADDRESS={address}"
    if address != "auto":
        _probe(address, where)
        _init(where, address=address, runtime_env=target.runtime_env)
        return RayCluster()
    try:
        _init(where, address="auto", runtime_env=target.runtime_env, found=True)
        return RayCluster()
    except _NoCluster:
        pass
    # No cluster to join: one on this machine for this run, shut down with it.
    _init("a local Ray", runtime_env=target.runtime_env, include_dashboard=False)
    return RayCluster()


class _NoCluster(Exception):
    """``auto`` found no running cluster."""


def _init(where: str, *, found: bool = False, **options: Any) -> None:
    # Ray's core logs its own errors on stderr too (a Ctrl-C'd run's tasks failing as it shuts
    # down): only its fatal ones here, unless RAY_BACKEND_LOG_LEVEL says otherwise.  A local Ray
    # started now inherits the level; the run's errors reach the command as exceptions anyway.
    quieted = _LOG_LEVEL not in os.environ
    if quieted:
        os.environ[_LOG_LEVEL] = "fatal"
    with warnings.catch_warnings(), _quiet_stderr(quieted):
        warnings.simplefilter("ignore")  # Ray's warnings on stderr: its errors say enough
        try:
            ray.init(**options, **_INIT)
        except ConnectionError as e:
            if found:
                raise _NoCluster from None
            raise InputError(f"cannot connect to the Ray cluster at {where}: {_first_line(e)}") from None
        except (RuntimeError, ValueError, TypeError, ray.exceptions.RayError) as e:
            raise InputError(f"cannot use the Ray cluster at {where}: {_first_line(e)}") from None
        finally:
            if quieted:
                os.environ.pop(_LOG_LEVEL, None)  # this process's later children are not Ray's


@contextlib.contextmanager
def _quiet_stderr(quiet: bool) -> Iterator[None]:
    """Ray's core says on stderr, as it starts, which log level it was given: not here."""
    if not quiet:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _probe(address: str, where: str) -> None:
    """Answer only if something that looks like a Ray cluster answers at ``address``; else an
    :class:`InputError` saying what did (nothing, or not Ray)."""
    client = address.startswith("ray://")
    hostport = address.removeprefix("ray://")
    host, _, port_text = hostport.rpartition(":")
    host = host.strip("[]")
    try:
        port = int(port_text)
    except ValueError:
        raise InputError(f"{where} is not HOST:PORT or ray://HOST:PORT") from None
    try:
        with socket.create_connection((host, port), timeout=_PROBE_TIMEOUT):
            pass
    except socket.gaierror:
        raise InputError(f"no Ray cluster at {where}: unknown host {host!r}") from None
    except ConnectionRefusedError:
        raise InputError(f"no Ray cluster at {where}: nothing listens on port {port} of {host}") from None
    except OSError as e:  # a timeout, no route
        reason = e.strerror or str(e) or "no answer"
        raise InputError(f"no Ray cluster at {where}: {reason}") from None
    if client or os.environ.get("RAY_USE_TLS", "").lower() in ("1", "true"):
        return  # the Ray Client server and TLS are left to ray.init
    try:
        import grpc  # type: ignore[import-untyped]
    except ImportError:  # ray[client] brings it; plain Ray leaves the check to ray.init
        return
    not_ray = (
        f"{where} answers but is not a Ray cluster's head (`ray start --head` prints its address; "
        "the port is 6379 by default)"
    )
    channel = grpc.insecure_channel(hostport)
    try:
        # one call, failing fast: a server that is not gRPC closes the connection (Redis on
        # 6379) or says nothing until the timeout
        channel.unary_unary(_GCS_METHOD)(b"", timeout=_PROBE_TIMEOUT)
    except grpc.RpcError as e:
        if e.code() is not grpc.StatusCode.UNAUTHENTICATED:
            raise InputError(not_ray) from None
        if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
            raise InputError(
                f"the Ray cluster at {where} asks for its token: run with RAY_AUTH_MODE=token "
                "and the head node's token (RAY_AUTH_TOKEN, or its ~/.ray/auth_token)"
            ) from None
    finally:
        channel.close()


# ---- the cluster ------------------------------------------------------------------------------


class RayCluster:
    """A connection to a Ray cluster, as a :class:`~rummykit.cli.runner.Backend`.  ``owned``:
    made for this run (a local Ray started for it is shut down with it), closed by
    :meth:`close`; not owned when this process had set Ray up itself, and then ``runtime_env``
    goes with every task."""

    name: Final = "ray"

    def __init__(self, owned: bool = True, runtime_env: dict[str, Any] | None = None) -> None:
        self.owned = owned
        self._options: dict[str, Any] = {"runtime_env": runtime_env} if runtime_env is not None else {}
        self._progress: Any = None  # the counter actor, made by the first run

    def default_workers(self) -> int:
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        return max(1, int(cpus))

    def close(self) -> None:
        if self._progress is not None:
            with contextlib.suppress(Exception):  # the cluster may be gone already
                ray.kill(self._progress)
            self._progress = None
        if self.owned:
            ray.shutdown()

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
        results: dict[int, R] = {}
        running: dict[Any, int] = {}  # ObjectRef -> task index
        interrupted = False
        key = uuid.uuid4().hex  # this run, for the counter and the workers' init
        try:
            if self._progress is None:
                self._progress = _PROGRESS.options(**self._options).remote()
            progress = self._progress
            setup = ray.put((init, initargs))
            chunk = _chunk.options(**self._options)
            if meter is not None:
                meter.start()
            queued = iter(enumerate(tasks))
            more = True
            reading: Any = None  # a read of the counter on its way: the loop never waits for one
            read_at = 0.0
            while len(results) < len(tasks):
                while more and len(running) < workers:
                    item = next(queued, None)
                    if item is None:
                        more = False
                        break
                    i, task = item
                    ref = chunk.remote(setup, key, run, task, progress, rummykit.__version__)
                    running[ref] = i
                ready, rest = ray.wait(list(running), num_returns=1, timeout=_POLL)
                if ready and rest:
                    ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
                for ref in ready:
                    i = running.pop(ref)
                    results[i] = self._collect(ref)
                if meter is not None:
                    if reading is not None and ray.wait([reading], timeout=0)[0]:
                        meter.update(ray.get(reading))
                        reading = None
                    now = time.monotonic()
                    if reading is None and now - read_at >= _POLL:
                        reading, read_at = progress.read.remote(key), now
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if running and not self.owned:
                # A connection made for the run is closed right after it, and the cluster stops
                # a departed driver's tasks itself; ray.cancel is only for a connection that
                # stays (it can crash the driver when a task finishes as it is cancelled).
                for ref in running:
                    with contextlib.suppress(Exception):  # finished, or the cluster is gone
                        ray.cancel(ref, force=True)
            if self._progress is not None:
                with contextlib.suppress(Exception):
                    self._progress.forget.remote(key)
            if meter is not None:
                meter.stop()
        done = tuple(sorted(results))
        return Finished(tuple(results[i] for i in done), done, interrupted)

    @staticmethod
    def _collect(ref: Any) -> Any:
        """A finished task's result, its files written here; the error it raised, as itself."""
        try:
            result, files = ray.get(ref)
        except ray.exceptions.RayTaskError as e:
            cause = e.cause
            if isinstance(cause, ImportError):
                raise InputError(
                    f"a Ray worker cannot import rummykit ({_first_line(cause)}): install the same "
                    "rummykit in the same Python on every node of the cluster"
                ) from None
            if isinstance(cause, Exception):
                raise cause from None
            raise
        for path, text in files:
            Path(path).write_text(text, encoding="utf-8")
        return result


# ---- on the workers ------------------------------------------------------------------------------


class _Progress:
    """The deals finished so far in each run, added to by its tasks."""

    def __init__(self) -> None:
        self.done: dict[str, int] = {}

    def add(self, key: str, n: int) -> None:
        self.done[key] = self.done.get(key, 0) + n

    def read(self, key: str) -> int:
        return self.done.get(key, 0)

    def forget(self, key: str) -> None:
        self.done.pop(key, None)


_PROGRESS: Any = ray.remote(num_cpus=0)(_Progress)  # an actor that takes no CPU from the chunks


class _Sender(runner._Counter):
    """A task's :func:`~rummykit.cli.runner.tick`: adds to the progress actor, a few times a
    second rather than at every deal."""

    def __init__(self, actor: Any, key: str) -> None:
        super().__init__()
        self.actor, self.key = actor, key
        self.sent_at = time.monotonic()

    def add(self, n: int) -> None:
        self.value += n
        now = time.monotonic()
        if now - self.sent_at >= _SEND:
            self.flush()

    def flush(self) -> None:
        if self.value:
            self.actor.add.remote(self.key, self.value)
            self.value = 0
        self.sent_at = time.monotonic()


_READY: str | None = None  # the run whose init this worker process has done


@ray.remote
def _chunk(
    setup: tuple[Callable[..., None], tuple[object, ...]],
    key: str,
    run: Callable[[Any], Any],
    task: Any,
    progress: Any,
    version: str,
) -> tuple[Any, list[tuple[str, str]]]:
    """One chunk on a Ray worker: the run's ``init`` once per worker process, then ``run(task)``;
    answers its result and the files it wrote."""
    global _READY
    if version != rummykit.__version__:
        raise InputError(
            f"a Ray worker has rummykit {rummykit.__version__}, this command {version}: install the "
            "same rummykit on every node"
        )
    if key != _READY:
        init, initargs = setup
        init(*initargs)
        _READY = key
    sender = _Sender(progress, key)
    files: list[tuple[str, str]] = []
    runner._COUNTER, runner._SINK = sender, files
    try:
        result = run(task)
    finally:
        sender.flush()
        runner._COUNTER, runner._SINK = runner._Counter(), None
    return result, files
