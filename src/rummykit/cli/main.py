"""The ``rummykit`` command: one entry point, a sub-command per job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rummykit import __version__
from rummykit.cli import arrange_cmd, play_cmd, replay_cmd, serve_cmd, sheet_cmd, simulate_cmd, tournament_cmd


class UsageError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummykit",
        description="Rummy as people play it: Nepali, Indian, Kerala, Rummy 40 and Remi 51.",
    )
    parser.add_argument("--version", action="version", version=f"rummykit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    arrange_cmd.add_parser(commands)
    replay_cmd.add_parser(commands)
    play_cmd.add_parser(commands)
    simulate_cmd.add_parser(commands)
    sheet_cmd.add_parser(commands)
    serve_cmd.add_parser(commands)
    tournament_cmd.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
    except arrange_cmd.InputError as e:
        for line in str(e).splitlines() or [""]:  # several problems: one line each
            print(f"rummykit {args.command}: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): nothing more to say
        sys.stderr.close()
        return 0
    return result


if __name__ == "__main__":
    raise SystemExit(main())
