"""``rummykit sheet``: a score sheet for a table playing with real cards, kept in a JSON file.

  rummykit sheet new --rules pool101 --players "Asha,Bikash,Chandra,Dipa" --file game.json
  rummykit sheet add --file game.json W 25 D 80
  rummykit sheet show --file game.json [--html sheet.html] [--pdf sheet.pdf]
  rummykit sheet undo --file game.json
  rummykit sheet edit --file game.json 12 W D 80
  rummykit sheet rejoin --file game.json Chandra
  rummykit sheet play --rules kerala --players "Anu,Biju,Chinnu" [--file game.json]

A deal is one entry per player, in seat order: a number (what the player counts), or
W winner, D drop, M middle drop, F full count, X wrong show, - out of the pool.  Letters take
their numbers from the rules (change them with --set drop_first=25 and so on when the sheet is
made); a number and a letter together, such as 80F, give the number.  Where the rules halve
after an early show, mark its winner E instead of W and enter what the cards say: the sheet
halves the others.  In a pool the players still in may be entered alone: the sheet fills in the
ones who are out.  A bad entry is refused with every problem it has, one line each, and the file
is left as it was; every write replaces the file atomically.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, Literal, cast

import orjson

from rummykit.cli.arrange_cmd import InputError, add_rules_options, rules_from_args
from rummykit.engine.match import DealEntry, DealRow, Match
from rummykit.engine.numbers import ascii_whole
from rummykit.engine.rules import SETTING_NAMES, get_preset, parse_set_option
from rummykit.sheet import entry, sheet_html, sheet_pdf, sheet_text, sheet_view
from rummykit.sheet.entry import HOW_TO_ENTER, LETTERS, SHEET_KIND, EntryError, split_entries, status_text
from rummykit.sheet.render import default_title

__all__ = [
    "HOW_TO_ENTER",
    "LETTERS",
    "SHEET_KIND",
    "add_deal",
    "edit_deal",
    "find_player",
    "load_sheet",
    "parse_entry",
    "rejoin",
    "save_sheet",
    "sheet_document",
    "split_entries",
    "status_text",
    "undo",
    "write_atomic",
]


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    """The sheet's refusals (:class:`EntryError`, shared with the web page) as the command's
    :class:`InputError`, which ``rummykit`` prints in one line with exit status 2."""
    try:
        yield
    except EntryError as e:
        raise InputError("\n".join(e.problems)) from None  # one line a problem


# ---- the sheet file --------------------------------------------------------------------------


def sheet_document(match: Match, title: str | None) -> dict[str, Any]:
    """What a sheet file holds: :func:`rummykit.sheet.entry.sheet_document`."""
    return entry.sheet_document(match, title)


def load_sheet(path: Path) -> tuple[Match, str]:
    """The match and title stored at ``path``; an :class:`InputError` names what is wrong."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(
            f"{path} does not exist: start a sheet with rummykit sheet new --players ... --file {path}"
        ) from None
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise InputError(f"{path} is not a score sheet (not JSON: {e})") from None
    if not isinstance(data, dict) or data.get("kind") != SHEET_KIND:
        raise InputError(f"{path} is not a score sheet made by rummykit sheet new")
    try:
        return entry.read_document(data)
    except EntryError as e:
        raise InputError(f"{path}: {e}") from None


def _file_mode(path: Path) -> int:
    with contextlib.suppress(OSError):
        return stat.S_IMODE(path.stat().st_mode)  # keep the permissions of the file replaced
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so a
    crash leaves either the old file or the new one, never half of one."""
    directory = path.parent if str(path.parent) else Path(".")
    try:
        mode = _file_mode(path)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    # The rename is durable only once the folder is on disk too; a folder that cannot be opened
    # (some systems) still has the new file, so this is best effort.
    with contextlib.suppress(OSError):
        folder = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def save_sheet(path: Path, match: Match, title: str | None) -> None:
    """Store the sheet at ``path`` atomically."""
    data = orjson.dumps(sheet_document(match, title), option=orjson.OPT_INDENT_2) + b"\n"
    write_atomic(path, data)


# ---- entries and actions: rummykit.sheet.entry's, refused as InputError -------------------------


def parse_entry(match: Match, tokens: Sequence[str], seats_in: Sequence[int]) -> DealEntry:
    """:func:`rummykit.sheet.entry.parse_entry`."""
    with _refusals():
        return entry.parse_entry(match, tokens, seats_in)


def find_player(match: Match, text: str) -> int:
    """:func:`rummykit.sheet.entry.find_player`."""
    with _refusals():
        return entry.find_player(match, text)


def _deal_prompt(match: Match) -> str:
    if match.is_over:
        return "over> "
    seats = match.seats_in
    who = " ".join(match.names[seat] for seat in seats)
    return f"deal {len(match.rows) + 1} [{who}]> "


def add_deal(match: Match, tokens: Sequence[str]) -> DealRow:
    """:func:`rummykit.sheet.entry.add_deal`."""
    with _refusals():
        return entry.add_deal(match, tokens)


def edit_deal(match: Match, tokens: Sequence[str]) -> DealRow:
    """:func:`rummykit.sheet.entry.edit_deal`."""
    with _refusals():
        return entry.edit_deal(match, tokens)


def undo(match: Match) -> str:
    """:func:`rummykit.sheet.entry.undo`."""
    with _refusals():
        return entry.undo(match)


def rejoin(match: Match, who: str) -> str:
    """:func:`rummykit.sheet.entry.rejoin`."""
    with _refusals():
        return entry.rejoin(match, who)


def _write_html(path: Path, match: Match, title: str) -> str:
    write_atomic(path, sheet_html(match, title=title).encode())
    return f"Wrote {path}"


def _write_pdf(path: Path, match: Match, title: str, paper: Literal["a4", "letter"]) -> str:
    write_atomic(path, sheet_pdf(match, title=title, paper=paper))
    return f"Wrote {path}"


# ---- the commands ----------------------------------------------------------------------------


def _file_option(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    parser.add_argument(
        "--file", "-f", metavar="FILE", type=Path, required=required, help="the sheet's JSON file"
    )


def _new_options(parser: argparse.ArgumentParser) -> None:
    add_rules_options(parser)
    parser.add_argument(
        "--players",
        metavar="NAMES",
        help='the players in seat order, e.g. "Asha,Bikash,Chandra,Dipa" (2 to 8), or a number',
    )
    parser.add_argument("--title", help="the sheet's title (default: the format, e.g. Pool 101 score sheet)")
    parser.add_argument(
        "--dealer", metavar="NAME", help="who deals the first deal (default: the first player)"
    )


def add_parser(commands: Any) -> None:
    """Register ``rummykit sheet`` and its actions."""
    p = commands.add_parser(
        "sheet",
        help="a score sheet for real cards: enter deals, see totals, outs and rejoins, print it",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(run=lambda _args: _usage(p))
    actions = p.add_subparsers(dest="sheet_action", metavar="ACTION")

    new = actions.add_parser("new", help="start a sheet file", description="Start a sheet file.")
    _new_options(new)
    _file_option(new)
    new.add_argument("--force", action="store_true", help="replace an existing file")
    new.set_defaults(run=run_new)

    add = actions.add_parser("add", help="enter the next deal", description=HOW_TO_ENTER)
    _file_option(add)
    add.add_argument("entries", nargs="+", metavar="ENTRY", help="one per player: 25, W, E, D, M, F, X or -")
    add.set_defaults(run=run_add)

    show = actions.add_parser("show", help="print the sheet; write it as HTML or PDF")
    _file_option(show)
    show.add_argument("--html", metavar="OUT", type=Path, help="write the sheet as an HTML page")
    show.add_argument("--pdf", metavar="OUT", type=Path, help="write the sheet as a PDF")
    show.add_argument("--paper", choices=("a4", "letter"), default="a4", help="PDF paper size (default a4)")
    show.set_defaults(run=run_show)

    undo_p = actions.add_parser("undo", help="undo the latest deal or rejoin")
    _file_option(undo_p)
    undo_p.set_defaults(run=run_undo)

    edit = actions.add_parser("edit", help="replace the latest deal", description=HOW_TO_ENTER)
    _file_option(edit)
    edit.add_argument("entries", nargs="+", metavar="ENTRY", help="one per player: 25, W, E, D, M, F, X or -")
    edit.set_defaults(run=run_edit)

    rejoin_p = actions.add_parser("rejoin", help="bring a player who is out back into the pool")
    _file_option(rejoin_p)
    rejoin_p.add_argument("player", metavar="NAME", help="the player's name (or seat number from 1)")
    rejoin_p.set_defaults(run=run_rejoin)

    play = actions.add_parser(
        "play",
        help="enter deals at a prompt",
        description="Enter deals at a prompt; with --file the sheet is saved after every change "
        "(and an existing file is continued).",
    )
    _new_options(play)
    _file_option(play, required=False)
    play.set_defaults(run=run_play)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _new_match(args: argparse.Namespace) -> Match:
    if not args.players:
        raise InputError('name the players, e.g. --players "Asha,Bikash,Chandra,Dipa"')
    rules = rules_from_args(args)
    # the settings the maker chose (--set, or a rules file) stay; the sheet's defaults fill the rest
    preset = get_preset(rules.preset)
    changed = {name for name in SETTING_NAMES if getattr(rules, name) != getattr(preset, name)}
    changed |= {parse_set_option(option)[0].replace("-", "_") for option in args.set}
    rules = entry.sheet_defaults(rules, changed)
    text = args.players.strip()
    players: list[str] | int
    count = ascii_whole(text)
    if count is not None:
        players = count
    else:
        players = [name.strip() for name in text.split(",")]
        if any(not name for name in players):
            raise InputError(f"an empty name in --players {args.players!r}: separate names with commas")
    with _refusals():
        return entry.new_match(rules, players, dealer=args.dealer or None)


def _introduce(match: Match, title: str) -> str:
    view = sheet_view(match, title=title)
    return "\n".join(
        [
            f"{view.title}: {', '.join(match.names)}.",
            view.format_line,
            view.settings_line,
        ]
    )


def run_new(args: argparse.Namespace) -> int:
    path: Path = args.file
    if path.exists() and not args.force:
        raise InputError(f"{path} already exists: choose another file, or add --force to replace it")
    match = _new_match(args)
    title = args.title or default_title(match)
    save_sheet(path, match, title)
    print(_introduce(match, title))
    print(f"Saved {path}. Enter each deal with: rummykit sheet add --file {path} ENTRY ...")
    print(f"  ({HOW_TO_ENTER})")
    return 0


def _change(args: argparse.Namespace, action: Callable[[Match], str]) -> int:
    """Load the sheet, apply ``action`` (which raises InputError and changes nothing on a refusal),
    save it, and say where it stands."""
    path: Path = args.file
    match, title = load_sheet(path)
    said = action(match)
    save_sheet(path, match, title)
    if said:
        print(said)
    print(status_text(match))
    return 0


def run_add(args: argparse.Namespace) -> int:
    def action(match: Match) -> str:
        row = add_deal(match, split_entries(args.entries))
        return f"Deal {row.index + 1} added."

    return _change(args, action)


def run_edit(args: argparse.Namespace) -> int:
    def action(match: Match) -> str:
        row = edit_deal(match, split_entries(args.entries))
        return f"Deal {row.index + 1} replaced."

    return _change(args, action)


def run_undo(args: argparse.Namespace) -> int:
    return _change(args, undo)


def run_rejoin(args: argparse.Namespace) -> int:
    return _change(args, lambda match: rejoin(match, args.player))


def run_show(args: argparse.Namespace) -> int:
    match, title = load_sheet(args.file)
    print(title)
    print(sheet_text(match))
    if args.html:
        print(_write_html(args.html, match, title))
    if args.pdf:
        print(_write_pdf(args.pdf, match, title, cast(Literal["a4", "letter"], args.paper)))
    return 0


# ---- the prompt ------------------------------------------------------------------------------

PROMPT_HELP: Final = """\
Type the deal: one entry per player, in seat order (the prompt lists them):
  a number   what the player counts, e.g. 25
  W          the winner (0); E instead: the winner of an early show (the others halved)
  D / M      drop / middle drop (the rules' costs)
  F / X      full count / wrong show
  -          out of the pool (or leave the players who are out away)
e.g.  W 25 D 80
Commands: undo | edit ENTRIES (replace the last deal) | rejoin NAME | sheet (print it)
          html FILE | pdf FILE | help | quit"""


def run_play(args: argparse.Namespace) -> int:
    path: Path | None = args.file
    if path is not None and path.exists():
        if args.players or args.rules or args.rules_file or args.set or args.dealer:
            raise InputError(
                f"{path} already holds a sheet: continue it with rummykit sheet play --file {path} "
                "(no --rules or --players), or choose another file"
            )
        match, title = load_sheet(path)
        print(f"Continuing {path}.")
    else:
        match = _new_match(args)
        title = args.title or default_title(match)
        if path is not None:
            save_sheet(path, match, title)
    return prompt(match, title, path)


def prompt(match: Match, title: str, path: Path | None) -> int:
    """The interactive sheet: reads lines from standard input until ``quit`` or the end of input."""
    print(_introduce(match, title))
    print(PROMPT_HELP)
    if path is None:
        print("(Not saved to a file: start with --file FILE to keep the sheet.)")
    else:
        print(f"(Saved to {path} after every change.)")
    if match.rows or match.rejoins:
        print(status_text(match))
    while True:
        try:
            line = input(_deal_prompt(match)).strip()
        except EOFError:
            print()
            break
        if not sys.stdin.isatty():
            print(line)  # scripted input: echo it, so the transcript reads like a session
        if not line:
            continue
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("q", "quit", "exit"):
            break
        if command in ("help", "?", "h"):
            print(PROMPT_HELP)
            continue
        try:
            said = _prompt_action(match, title, command, rest.strip(), line)
        except InputError as e:
            for problem in str(e).splitlines():
                print(f"  {problem}")
            continue
        if said is None:
            continue
        if path is not None:
            try:
                save_sheet(path, match, title)
            except InputError as e:
                print(f"  {e}")
        if said:
            print(said)
        print(status_text(match))
        if match.is_over:
            print("The match is over: type sheet, html FILE or pdf FILE to print it, undo, or quit.")
    if path is None and match.rows:
        print(sheet_text(match))
    return 0


def _prompt_action(match: Match, title: str, command: str, rest: str, line: str) -> str | None:
    """Carry out one typed line; the sentence to print after a change, or None when nothing changed."""
    if command in ("sheet", "show"):
        print(sheet_text(match))
        return None
    if command in ("html", "pdf"):
        if not rest:
            raise InputError(f"{command} needs a file name, e.g. {command} sheet.{command}")
        out = Path(rest)
        print(_write_html(out, match, title) if command == "html" else _write_pdf(out, match, title, "a4"))
        return None
    if command == "undo":
        return undo(match)
    if command == "edit":
        row = edit_deal(match, split_entries([rest]))
        return f"Deal {row.index + 1} replaced."
    if command == "rejoin":
        if not rest:
            raise InputError("rejoin needs a name, e.g. rejoin Asha")
        return rejoin(match, rest)
    row = add_deal(match, split_entries([line]))
    return f"Deal {row.index + 1} added."
