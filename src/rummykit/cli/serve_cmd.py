"""``rummykit serve``: the web table, where people and bots play (``docs/protocol.md``).

Takes the port first (a port in use, or an address this machine cannot listen on, is one line
and exit status 2, before anything else is printed), opens the database (a SQLite file in the
working directory unless ``--db`` or ``RUMMYKIT_DATABASE_URL`` names another, PostgreSQL
included), brings back every match that was being played, prints the address to open and
serves until interrupted.  ``--port 0`` takes a free port and prints it.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from typing import Any


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "serve",
        help="run the web table (lobby, tables, spectators, history) on this machine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: $RUMMYKIT_DATABASE_URL or sqlite:///rummykit.db), "
        "e.g. postgresql+psycopg://user@host/dbname",
    )
    p.add_argument(
        "--bot-pace",
        metavar="SECONDS",
        type=float,
        default=0.8,
        help="how long a bot takes over a move, before its jitter (default 0.8; 0: at once)",
    )
    p.add_argument(
        "--limit",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="change one of the server's limits (docs/protocol.md, Limits), e.g. max_tables=2000, "
        "table_rate=off, client_header=x-forwarded-for behind a proxy you trust",
    )
    p.set_defaults(run=run)


class ListenError(Exception):
    """The address cannot be listened on: the one line to print."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, as uvicorn would bind it; a port in use
    or an address this machine does not have is a :class:`ListenError` in one line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise ListenError(f"cannot listen on {host}: {e.strerror or e}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: restarts reuse it
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else port - 1
            raise ListenError(f"port {port} on {host} is in use (try --port {other})") from None
        raise ListenError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    # The server's packages load only here, so the other commands start as fast as before.
    import uvicorn

    from rummykit.server import create_app
    from rummykit.server.limits import ServerLimits
    from rummykit.server.protocol import MAX_SOCKET_BYTES
    from rummykit.storage import StoreError

    if not 0 <= args.port <= 65535:
        print(f"rummykit serve: --port {args.port}: expected 0 to 65535", file=sys.stderr)
        return 2
    if not 0 <= args.bot_pace <= 30:
        print(f"rummykit serve: --bot-pace {args.bot_pace:g}: expected 0 to 30 seconds", file=sys.stderr)
        return 2
    try:
        limits = ServerLimits().with_settings(args.limit)
    except ValueError as e:
        print(f"rummykit serve: --limit: {e}", file=sys.stderr)
        return 2
    try:
        sock = listen(args.host, args.port)
    except ListenError as e:
        print(f"rummykit serve: {e}", file=sys.stderr)
        return 2
    with sock:
        try:
            app = create_app(args.db, bot_pace=args.bot_pace, freeze_gc=True, limits=limits)
        except StoreError as e:
            print(f"rummykit serve: {e}", file=sys.stderr)
            return 2
        port = sock.getsockname()[1]
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(f"rummykit: the table is at http://{host}:{port}/", flush=True)
        config = uvicorn.Config(
            app,
            host=args.host,
            port=port,
            ws_max_size=MAX_SOCKET_BYTES,
            # A view is a few kilobytes once a second: compressing each costs more CPU than it saves.
            ws_per_message_deflate=False,
            log_level="warning",
        )
        # uvicorn serves the socket taken above: nothing between the check and the bind
        uvicorn.Server(config).run(sockets=[sock])
    return 0
