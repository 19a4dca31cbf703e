"""The table server: an ASGI app (Starlette on uvicorn) where people and bots play the show family.

:func:`create_app` builds it; ``rummykit serve`` runs it.  The wire protocol is
``docs/protocol.md``; :mod:`~rummykit.server.table` holds one match's authoritative state,
:mod:`~rummykit.server.hub` the sockets, bots, clocks and storage around it.
"""

from rummykit.server.app import create_app

__all__ = ["create_app"]
