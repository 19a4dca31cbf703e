"""``rummykit arrange``: how a hand lays out, what it is charged, whether it shows.

One hand on the command line prints a readable answer (``--json``: one JSON
object).  ``--jsonl`` reads JSON lines from standard input and answers each
on its own line, in order, as soon as it is read: the batch mode that bots,
benchmarks and other tools build on.  A bad line answers ``{"error": ...}``
and the batch goes on.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

import orjson

from rummykit.engine.arrange import Arrangement, Arranger, Group
from rummykit.engine.cards import (
    JOKER,
    RANK_TEXT,
    CardError,
    check_copies,
    format_card,
    parse_cards,
)
from rummykit.engine.rules import Rules, RulesError, resolve_rules


class InputError(ValueError):
    """Input the command cannot use; the message names the problem."""


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules``, ``--rules-file`` and ``--set``: shared by every command that plays."""
    parser.add_argument(
        "--rules", metavar="PRESET", help="preset: nepali, indian, kerala, ... (default nepali)"
    )
    parser.add_argument(
        "--rules-file", metavar="FILE", help="house rules: a TOML file, a preset plus overrides"
    )
    parser.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="change one setting by name (repeatable): RULES.md's settings, plus pile_at_deal and "
        "freed_joker_must_go_down (see README), e.g. --set runs_needed=1",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    try:
        return resolve_rules(args.rules, args.rules_file, args.set)
    except RulesError as e:
        raise InputError(str(e)) from None


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "arrange",
        help="lay out a hand: groups, loose cards, charge, show",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_options(p)
    p.add_argument("--wild", metavar="RANK", help="the cut joker's rank (A 2 … 10 J Q K), JK, or none")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print one JSON object")
    mode.add_argument("--jsonl", action="store_true", help="read JSON lines on stdin, answer one line each")
    mode.add_argument("--interactive", action="store_true", help="type hands at a prompt")
    p.add_argument(
        "--away",
        action="store_true",
        help="with --jsonl: also count the cards away from a show (slower; always on for one hand)",
    )
    p.add_argument("cards", nargs="*", help="the hand: 13 cards (or 14 to find finishing cards)")
    p.set_defaults(run=run)


# ---- input -----------------------------------------------------------------------

_RANK_IN = {t: i for i, t in enumerate(RANK_TEXT) if t} | {"T": 10, "1": 1}


def parse_wild(text: object, rules: Rules) -> int | None:
    """The wild rank from text (``7``, ``Q``, ``10``), ``JK`` for a printed joker cut, or none."""
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise InputError(f"wild must be a rank like 7 or Q, or null, not {text!r}")
    word = text.strip().upper()
    if word in ("", "NONE", "NULL", "-"):
        return None
    if not rules.cut_joker:
        raise InputError(f"wild {text!r}: {rules.preset} has no cut joker; only printed jokers are wild")
    if word in ("JK", "JOKER"):
        # RULES.md: a printed joker cut makes aces wild, or only the printed jokers
        return 1 if rules.printed_joker_cut == "aces" else None
    rank = _RANK_IN.get(word)
    if rank is None:
        raise InputError(f"wild {text!r} is not a rank: use A 2 3 4 5 6 7 8 9 10 J Q K, JK or none")
    return rank


def parse_hand(text: str, rules: Rules) -> list[int]:
    """Cards from text, checked against the table: the size and the shoe's copies."""
    try:
        kinds = parse_cards(text)
        check_copies(kinds, rules.packs, rules.printed_jokers)
    except CardError as e:
        raise InputError(str(e)) from None
    n = rules.hand_size
    if len(kinds) not in (n, n + 1):
        raise InputError(
            f"a hand of {len(kinds)} cards: {rules.preset} takes {n} cards, "
            f"or {n + 1} to find finishing cards"
        )
    return kinds


# ---- output ------------------------------------------------------------------------


def _texts(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [format_card(c) for c in cards]


def to_json(a: Arrangement) -> dict[str, object]:
    out: dict[str, object] = {
        "charge": a.charge,
        "can_show": a.can_show,
        "groups": [_texts(g.cards) for g in a.groups],
        "loose": _texts(a.loose),
        "credited": a.credited,
        "needs": list(a.needs),
    }
    if a.throw is not None:
        out["finish"] = _texts(a.finish)
        out["throw"] = format_card(a.throw)
    if a.away is not None:
        out["away"] = a.away
    return out


def _group_note(g: Group) -> str:
    if g.kind == "jokers":
        return "jokers (a set of nothing)"
    if g.kind == "thennaali":
        return "thennaali (a pure run)"
    stand_ins = [
        f"{format_card(c)} as {format_card(s)}"
        for c, s in zip(g.cards, g.stands_for, strict=True)
        if s is not None and c != s and (c == JOKER or c % 13 != s % 13 or c // 13 != s // 13)
    ]
    what = "pure run" if g.pure and g.is_run else g.kind
    return what + (f" ({', '.join(stand_ins)})" if stand_ins else "")


def human(a: Arrangement, hand: list[int], wild: int | None, rules: Rules) -> str:
    lines = []
    wild_text = f"{RANK_TEXT[wild]}s and printed jokers" if wild else "printed jokers only"
    lines.append(f"Rules    {rules.preset}, wild: {wild_text}")
    lines.append(f"Hand     {' '.join(_texts(hand))}")
    if a.throw is not None:
        lines.append(f"Throw    {format_card(a.throw)} (leaves the lowest charge)")
    width = max((len(str(g)) for g in a.groups), default=0)
    for i, g in enumerate(a.groups):
        label = "Groups" if i == 0 else ""
        lines.append(f"{label:<8} {g!s:<{width}}  {_group_note(g)}")
    if not a.groups:
        lines.append("Groups   none")
    lines.append(f"Loose    {' '.join(_texts(a.loose)) or 'none'}")
    note = "" if a.credited else "  (groups do not count: " + _why_not_credited(rules) + ")"
    lines.append(f"Charge   {a.charge}{note}")
    if a.throw is not None:
        if a.finish:
            lines.append(f"Show     yes: throw {' or '.join(_texts(list(a.finish)))} and show")
        else:
            lines.append(f"Show     not yet; needs {_join(a.needs)}")
    elif a.can_show:
        lines.append("Show     yes: these cards are a show")
    else:
        lines.append(f"Show     not yet; needs {_join(a.needs)}")
    if a.away:
        lines.append(f"Away     {a.away} card{'s' if a.away > 1 else ''} from a show (best draws)")
    return "\n".join(lines)


def _why_not_credited(rules: Rules) -> str:
    if rules.credit == "lives_flat":
        return "without both lives the hand pays the full count"
    if rules.credit == "lives_except_pure":
        return "without both lives only the pure run counts"
    return "no pure run, so every card counts"


def _join(words: tuple[str, ...]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# ---- the command ---------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if rules.family != "show":
        raise InputError(
            f"{rules.preset} is a table game; the show-family arranger needs a show preset "
            "(nepali, indian, kerala, pool101, pool201, deals, maharashtra, north-indian)"
        )
    arranger = Arranger(rules)
    if args.jsonl:
        if args.cards or args.wild:
            raise InputError("--jsonl reads hands from standard input; give no cards or --wild")
        batch(arranger, rules, sys.stdin.buffer, sys.stdout.buffer, away=args.away)
        return 0
    if args.interactive:
        return interactive(arranger, rules, args.wild)
    if not args.cards:
        raise InputError(
            "no cards given: e.g. rummykit arrange --wild 7 4h 5h 6h 9s 10s 7c Kc Qd As 8d 3c 2h 5s"
        )
    wild = parse_wild(args.wild, rules)
    hand = parse_hand(" ".join(args.cards), rules)
    a = arranger.arrange(hand, wild, away=True)
    if args.json:
        sys.stdout.write(orjson.dumps(to_json(a)).decode() + "\n")
    else:
        print(human(a, hand, wild, rules))
    return 0


def answer_line(arranger: Arranger, rules: Rules, line: bytes, number: int, away: bool = False) -> bytes:
    """One JSON line in, one JSON line out; a bad line gets ``{"error": ...}``."""
    try:
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            raise InputError(f"not JSON: {e}") from None
        if not isinstance(item, dict):
            raise InputError('expected an object like {"hand": "4h 5h ...", "wild": "7"}')
        hand_text = item.get("hand")
        if not isinstance(hand_text, str):
            raise InputError('"hand" is missing or not a string of cards')
        wild = parse_wild(item.get("wild"), rules)
        hand = parse_hand(hand_text, rules)
        result = to_json(arranger.arrange(hand, wild, away=away))
    except InputError as e:
        result = {"error": f"line {number}: {e}"}
    return orjson.dumps(result) + b"\n"


def _lines(stream: IO[bytes]) -> Iterator[list[bytes]]:
    """Complete lines in the order they arrive, a chunk at a time.

    ``read1`` returns whatever is waiting (at most one system call), so a
    caller feeding one line and waiting for its answer gets it at once, while
    a big batch is handled in large chunks."""
    read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
    pending = b""
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        pending += chunk
        if b"\n" not in chunk:
            continue
        *complete, pending = pending.split(b"\n")
        yield complete
    if pending:
        yield [pending]


def batch(arranger: Arranger, rules: Rules, stdin: IO[bytes], stdout: IO[bytes], away: bool = False) -> None:
    number = 0
    for lines in _lines(stdin):
        out = []
        for line in lines:
            number += 1
            if not line.strip():
                continue  # blank lines carry no hand and get no answer
            out.append(answer_line(arranger, rules, line, number, away))
        stdout.write(b"".join(out))
        stdout.flush()


def interactive(arranger: Arranger, rules: Rules, wild_text: str | None) -> int:
    """A prompt for trying hands: the main job until the table exists."""
    wild = parse_wild(wild_text, rules) if wild_text else None
    print(f"rummykit arrange: {rules.preset} rules. Type a hand of {rules.hand_size} cards")
    print("(or one more to find finishing cards), 'wild 7' to set the wild rank, 'quit' to leave.")
    while True:
        try:
            line = input(f"[wild {RANK_TEXT[wild] if wild else 'none'}] hand> ").strip()
        except EOFError:
            print()
            return 0
        if not line:
            continue
        if line.lower() in ("q", "quit", "exit"):
            return 0
        try:
            if line.lower().startswith("wild"):
                wild = parse_wild(line[4:].strip() or None, rules)
                continue
            hand = parse_hand(line, rules)
            print(human(arranger.arrange(hand, wild, away=True), hand, wild, rules))
        except InputError as e:
            print(f"  {e}")
