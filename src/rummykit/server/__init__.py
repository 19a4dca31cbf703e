"""The table server: an ASGI app (Starlette on uvicorn) where people and bots play every preset.

Both families (the show games, Rummy 40 and Remi 51) play through one table, one protocol
and one set of pages, beside the score sheets of :mod:`~rummykit.server.sheets`.
:func:`create_app` builds it; ``rummykit serve`` runs it.  The wire protocol is
``docs/protocol.md``; :mod:`~rummykit.server.table` holds one match's authoritative state,
:mod:`~rummykit.server.hub` the sockets, bots, clocks and storage around it.
"""

from rummykit.server.app import create_app

__all__ = ["create_app"]
