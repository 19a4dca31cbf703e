"""Persistence: matches, seats, the append-only action log, hand histories and score sheets.

SQLite file by default (no set-up), PostgreSQL by URL, both through
SQLAlchemy 2.  The engine never imports this package.
"""

from rummykit.storage.store import (
    ActionRow,
    FenceRow,
    HistoryRow,
    LeaseLost,
    MatchRow,
    NewSeat,
    SeatRow,
    SheetRow,
    Store,
    StoreError,
    default_url,
    hash_token,
    new_token,
)

__all__ = [
    "ActionRow",
    "FenceRow",
    "HistoryRow",
    "LeaseLost",
    "MatchRow",
    "NewSeat",
    "SeatRow",
    "SheetRow",
    "Store",
    "StoreError",
    "default_url",
    "hash_token",
    "new_token",
]
