"""The README's Python examples and the engine's docstrings run as doctests, and every
``rummykit`` command of the README runs."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import rummykit

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples() -> None:
    text = README.read_text()
    # doctest reads the ```python blocks: everything between the fences
    blocks = [b.split("```", 1)[0] for b in text.split("```python")[1:]]
    assert blocks, "the README has no Python examples"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", str(README), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0


def test_module_docstrings() -> None:
    failures = 0
    tried = 0
    for info in pkgutil.walk_packages(rummykit.__path__, "rummykit."):
        if info.name.endswith("__main__"):
            continue  # running it would start the command
        module = importlib.import_module(info.name)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        failures += result.failed
        tried += result.attempted
    assert tried > 0
    assert failures == 0


# ---- every rummykit command of the README's console and sh blocks runs ------------------------------

# The commands as the README prints them, and what the test runs instead where the README's counts
# are too large for a test run or its arguments are an ellipsis.  A README command missing here
# fails the test, so a new one must be entered (and so is run).
RUN_INSTEAD: dict[str, str] = {
    "rummykit arrange --rules-file table.toml --set ace_high=false --wild 9 ...": (
        "rummykit arrange --rules-file table.toml --set ace_high=false --wild 9 "
        "4h 5h 6h 9s 10s 7c Kc Qd As 8d 3c 2h 5s"
    ),
    "rummykit serve --port 8000 --db sqlite:///rummykit.db": (
        "rummykit serve --port 0 --db sqlite:///rummykit.db"  # any free port: 8000 may be taken
    ),
    "rummykit tournament --rules nepali --seats 2 --bots hard,greedy --deals 2000 --duplicate": (
        "rummykit tournament --rules nepali --seats 2 --bots hard,greedy --deals 2 --duplicate"
    ),
    "rummykit simulate --rules nepali --players 4 --deals 10000 --bots greedy,random --seed 1 --json": (
        "rummykit simulate --rules nepali --players 4 --deals 20 --bots greedy,random --seed 1 --json"
    ),
    "rummykit simulate --rules nepali --players 4 --deals 10000 --seed 1 --ray auto": (
        "rummykit simulate --rules nepali --players 4 --deals 20 --seed 1 --ray auto"  # a local Ray
    ),
    "rummykit simulate --rules rummy40 --players 3 --matches 100 --bots greedy --histories hist/": (
        "rummykit simulate --rules rummy40 --players 3 --matches 2 --bots greedy --histories hist/"
    ),
}
# Interactive commands get their keys on stdin: quit, and yes to "Quit the game?".
STDIN: dict[str, str] = {
    "rummykit play --rules nepali --players 4 --bots hard": "q\ny\n",
    "rummykit play --rules rummy40 --players 3 --histories hist/": "q\ny\n",
}


def readme_commands() -> list[tuple[str, list[str] | None]]:
    """Every ``rummykit`` command line of the README's console and sh blocks, in order, with the
    output the README shows under it (console blocks), or None where it shows none."""
    text = README.read_text()
    found: list[tuple[str, list[str] | None]] = []
    for fence in ("```console\n", "```sh\n"):
        for block in text.split(fence)[1:]:
            lines = block.split("```", 1)[0].splitlines()
            i = 0
            while i < len(lines):
                line = lines[i]
                command = line[2:] if line.startswith("$ ") else line
                i += 1
                if "rummykit" not in command:
                    continue
                output: list[str] = []
                while fence == "```console\n" and i < len(lines) and not lines[i].startswith("$ "):
                    output.append(lines[i])
                    i += 1
                command = command.split("  #", 1)[0].split(" # ", 1)[0].strip()
                found.append((command, output or None))
    return sorted(found, key=lambda item: text.index(item[0]))  # in the README's order


def _shell(command: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{exe}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100"}
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, input=stdin, capture_output=True, text=True, env=env, timeout=600
    )


def _serve(command: str, cwd: Path) -> None:
    exe = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{exe}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("rummykit: the table is at http://127.0.0.1:"), proc.stderr
        port = int(line.rsplit(":", 1)[1].strip("/\n"))
        for _ in range(200):
            try:
                health = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)
        assert b'"ok":true' in health.replace(b" ", b"")
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the server stops, with Ctrl-C's status
        assert proc.wait(timeout=20) == 130


def test_every_readme_command_runs(tmp_path: Path) -> None:
    commands = readme_commands()
    listed = {command for command, _ in commands}
    assert listed >= set(RUN_INSTEAD) | set(STDIN), "the table names a command the README no longer has"
    text = README.read_text()
    # the house-rules file the README shows, for --rules-file table.toml
    toml = text.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "table.toml").write_text(toml)
    ran = compared = 0
    for command, output in commands:
        run = RUN_INSTEAD.get(command, command)
        assert "..." not in run, f"{command!r} needs an entry in RUN_INSTEAD"
        if run.startswith("rummykit serve"):
            _serve(run, tmp_path)
            ran += 1
            continue
        done = _shell(run, tmp_path, STDIN.get(command, ""))
        assert done.returncode == 0, f"{run}: exit {done.returncode}\n{done.stderr}"
        if output is not None and run == command:
            assert done.stdout.splitlines() == output, run  # the output the README shows
            compared += 1
        ran += 1
    assert ran == len(commands) >= 12 and compared == 2
