"""What ``rummykit simulate`` and ``rummykit tournament`` share: chunks of work over processes
with a progress bar, whole-number options, and their tables' cells.

Results come back in task order whatever order the workers finish in, so a run's figures do
not depend on how many workers played it.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import TypeVar

from rummykit.cli.arrange_cmd import InputError

__all__ = ["cells", "run_chunks", "signed", "whole_number", "with_progress"]

T = TypeVar("T")
R = TypeVar("R")


def run_chunks(
    tasks: Sequence[T],
    run: Callable[[T], R],
    *,
    size: Callable[[T], int],
    workers: int,
    init: Callable[..., None],
    initargs: tuple[object, ...],
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """``run`` on every task, in this process (one worker or one task) or over ``workers``
    processes each started by ``init(*initargs)``; the results in task order.  ``progress`` is
    told ``size(task)`` as each task finishes."""
    results: list[R | None] = [None] * len(tasks)
    if workers == 1 or len(tasks) == 1:
        init(*initargs)
        for i, task in enumerate(tasks):
            results[i] = run(task)
            if progress is not None:
                progress(size(task))
    else:
        context = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        )
        pool: Executor = ProcessPoolExecutor(
            max_workers=min(workers, len(tasks)), mp_context=context, initializer=init, initargs=initargs
        )
        with pool:
            # every task is submitted before the caller's progress display starts a thread
            futures: dict[Future[R], int] = {pool.submit(run, t): i for i, t in enumerate(tasks)}
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                if progress is not None:
                    progress(size(tasks[i]))
    out: list[R] = []
    for r in results:
        assert r is not None
        out.append(r)
    return out


def with_progress(label: str, unit: str, total: int, body: Callable[[Callable[[int], None] | None], R]) -> R:
    """``body(progress)`` under a progress bar on a terminal's stderr (``body(None)`` elsewhere)."""
    if not sys.stderr.isatty():
        return body(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(unit, total=total)
    started = False

    def advance(n: int) -> None:
        nonlocal started
        if not started:
            bar.start()  # after the workers are forked: rich's refresh thread starts here
            started = True
        bar.advance(task, n)

    try:
        return body(advance)
    finally:
        bar.stop()


def whole_number(text: str, option: str, least: int = 1) -> int:
    """An option's whole number, at least ``least``, or an :class:`InputError` naming it."""
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{option} takes a whole number, not {text!r}") from None
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
