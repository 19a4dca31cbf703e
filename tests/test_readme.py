"""The README's Python examples and the engine's docstrings run as doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
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
