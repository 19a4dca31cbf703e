"""``rummykit serve``: the web table, where people and bots play (``docs/protocol.md``).

Takes the port first (a port in use, or an address this machine cannot listen on, is one line
and exit status 2, before anything else is printed), opens the database (a SQLite file in the
working directory unless ``--db`` or ``RUMMYKIT_DATABASE_URL`` names another, PostgreSQL
included), brings back every match that was being played, prints the address to open and
serves until interrupted.  ``--port 0`` takes a free port and prints it.

With ``--redis URL`` this server is one of a cluster on a shared PostgreSQL (README,
"Several servers"): each table lives on one server at a time, and a socket may reach any of
them.  ``--workers N`` runs N such servers here on the one port (N processes accepting on the
socket taken above; one killed is started again).
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import subprocess
import sys
import time
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
    p.add_argument(
        "--redis",
        metavar="URL",
        help="join the cluster of servers sharing this Redis and the database (PostgreSQL), "
        "e.g. redis://127.0.0.1:6379/0",
    )
    p.add_argument(
        "--cluster-name",
        metavar="NAME",
        default="rummykit",
        help="the cluster's name in Redis: its keys' prefix, so clusters may share one Redis "
        "(default rummykit)",
    )
    p.add_argument(
        "--workers",
        metavar="N",
        type=int,
        default=1,
        help="server processes on this port (default 1; more need --redis and PostgreSQL)",
    )
    p.add_argument("--listen-fd", type=int, help=argparse.SUPPRESS)  # a worker of --workers
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
    from rummykit.storage import Store, StoreError

    if not 0 <= args.port <= 65535:
        print(f"rummykit serve: --port {args.port}: expected 0 to 65535", file=sys.stderr)
        return 2
    problem = cluster_problem(args)
    if problem:
        print(f"rummykit serve: {problem}", file=sys.stderr)
        return 2
    if not 0 <= args.bot_pace <= 30:
        print(f"rummykit serve: --bot-pace {args.bot_pace:g}: expected 0 to 30 seconds", file=sys.stderr)
        return 2
    try:
        limits = ServerLimits().with_settings(args.limit)
    except ValueError as e:
        print(f"rummykit serve: --limit: {e}", file=sys.stderr)
        return 2
    # the server's own log (stderr): RUMMYKIT_LOG_LEVEL=INFO tells each table's moves between servers
    level = os.environ.get("RUMMYKIT_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(level=level if level in logging.getLevelNamesMapping() else "WARNING")
    if args.listen_fd is not None:
        sock = socket.socket(fileno=args.listen_fd)
    else:
        try:
            sock = listen(args.host, args.port)
        except ListenError as e:
            print(f"rummykit serve: {e}", file=sys.stderr)
            return 2
    with sock:
        port = sock.getsockname()[1]
        host = f"[{args.host}]" if ":" in args.host else args.host
        try:
            if args.workers > 1:
                Store(args.db).close()  # a bad URL is one line here, not one a worker
                print(f"rummykit: the table is at http://{host}:{port}/ ({args.workers} workers)", flush=True)
                return supervise(args, sock)
            app = create_app(
                args.db,
                bot_pace=args.bot_pace,
                freeze_gc=True,
                limits=limits,
                redis_url=args.redis,
                cluster_options={"prefix": args.cluster_name},
            )
        except StoreError as e:
            print(f"rummykit serve: {e}", file=sys.stderr)
            return 2
        if args.listen_fd is None:
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


def cluster_problem(args: argparse.Namespace) -> str | None:
    """Why ``--workers`` / ``--redis`` cannot run as given, in one line (None: they can).  The
    servers of a cluster share one database, which a SQLite file cannot be across processes
    and machines: a cluster is PostgreSQL's."""
    from rummykit.storage import default_url

    if args.workers < 1 or args.workers > 64:
        return f"--workers {args.workers}: expected 1 to 64"
    if not args.cluster_name or not all(c.isalnum() or c in "-_." for c in args.cluster_name):
        return f"--cluster-name {args.cluster_name!r}: letters, digits, - _ and . only"
    sqlite = (args.db or default_url()).startswith("sqlite")
    if args.workers > 1 and args.redis is None:
        return f"--workers {args.workers} needs --redis URL and a PostgreSQL --db that the workers share"
    if args.redis is not None and sqlite:
        return "--redis needs a database every server shares: --db postgresql+psycopg://..., not SQLite"
    if args.redis is not None:
        try:
            import redis
        except ImportError as e:  # pragma: no cover - redis is a dependency
            return f"--redis needs the redis package: {e}"
        try:
            redis.Redis.from_url(args.redis, socket_connect_timeout=3).ping()
        except (redis.RedisError, ValueError) as e:
            return f"cannot reach Redis at {args.redis}: {e}"
    return None


def supervise(args: argparse.Namespace, sock: socket.socket) -> int:
    """Run ``args.workers`` servers accepting on ``sock`` (the kernel gives each new connection
    to one of them), start again one that dies, and stop them all on SIGINT or SIGTERM."""
    fd = sock.fileno()
    command = [
        *(sys.executable, "-m", "rummykit", "serve", "--host", args.host),
        *("--port", str(sock.getsockname()[1]), "--bot-pace", str(args.bot_pace)),
        *("--redis", args.redis, "--cluster-name", args.cluster_name, "--listen-fd", str(fd)),
        *(["--db", args.db] if args.db else []),
        *(arg for limit in args.limit for arg in ("--limit", limit)),
    ]
    stopping = False

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    workers: list[subprocess.Popen[bytes]] = []
    try:
        workers = [subprocess.Popen(command, pass_fds=[fd]) for _ in range(args.workers)]
        while not stopping:
            time.sleep(0.2)
            for i, proc in enumerate(workers):
                if proc.poll() is not None and not stopping:
                    print(
                        f"rummykit serve: worker {proc.pid} ended ({proc.returncode}): starting another",
                        file=sys.stderr,
                        flush=True,
                    )
                    workers[i] = subprocess.Popen(command, pass_fds=[fd])
    finally:
        for proc in workers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in workers:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
        for s, handler in old.items():
            signal.signal(s, handler)
    return 0
