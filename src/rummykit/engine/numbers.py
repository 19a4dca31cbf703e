"""Whole numbers as people type them and programs send them: ASCII digits only.

``str.isdigit`` takes any script's digits ("²", "٣") and ``int()`` takes signs, spaces, ``_``
and other scripts' digits, so ``isdigit()`` then ``int()`` either crashes ("²") or reads
another number than the one shown.  Every reader of a typed or sent number (the CLI, the
terminal game, hand histories, the server's paths and bodies) goes through this one spelling.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ascii_whole", "whole_number"]

_WHOLE: Final = re.compile(r"[0-9]{1,18}", re.ASCII)


def ascii_whole(raw: str | None) -> int | None:
    """``raw`` as a whole number written in 1 to 18 ASCII digits, else ``None``.

    >>> ascii_whole("42"), ascii_whole("²"), ascii_whole("-1"), ascii_whole(" 7")
    (42, None, None, None)
    """
    if raw is None or _WHOLE.fullmatch(raw) is None:
        return None
    return int(raw)


def whole_number(raw: str | None, lo: int, hi: int) -> int | None:
    """``raw`` as a whole number from ``lo`` to ``hi`` in ASCII digits, else ``None``."""
    value = ascii_whole(raw)
    return value if value is not None and lo <= value <= hi else None
