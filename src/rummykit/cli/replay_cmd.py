"""``rummykit replay FILE``: replay a hand history and check it, line by line.

Deals the cards again from the history's rules, seed and dealer, plays every
recorded action through the engine, and checks each event and the result
against the history (the format: ``docs/hand-history.md``), for the show
family and the table family (Rummy 40, Remi 51) alike.  Prints the header,
the melds on the table (table family), the final state and the result;
``--verbose`` also every event, with the line of the history it came from;
``--json`` one JSON object.  A history that is malformed or does not replay is
refused with its line number, and exit status 2.  ``-`` reads the history from
standard input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import orjson

from rummykit.cli.arrange_cmd import InputError
from rummykit.engine.cards import format_cards
from rummykit.engine.deal import TURN_CAP, Deal
from rummykit.engine.events import Phase, SeatStatus
from rummykit.engine.history import History, HistoryError, changed_settings, load, replay, result_lines


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "replay",
        help="replay a hand history and check that it matches",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="the hand history ('-' for standard input)")
    p.add_argument("--verbose", "-v", action="store_true", help="print every event as it is replayed")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def _read(name: str) -> str:
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as e:
        raise InputError(f"{name}: cannot read the file ({e.strerror or e})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a hand history: the file is not UTF-8 text") from None


def run(args: argparse.Namespace) -> int:
    name: str = args.file
    try:
        history = load(_read(name))
        deal = replay(history)
    except HistoryError as e:
        raise InputError(f"{name}: {e}") from None
    if args.json:
        sys.stdout.write(orjson.dumps(to_json(name, history, deal, events=args.verbose)).decode() + "\n")
    else:
        print(human(name, history, deal, events=args.verbose))
    return 0


def _seat(history: History, s: int) -> str:
    name = history.names[s]
    return f"{s} {name}" if name else str(s)


def _verdict(history: History, deal: Deal) -> str:
    n = history.actions
    actions = f"replayed {n} action{'' if n == 1 else 's'}"
    if deal.result is not None:
        return f"{actions}: the result matches the history"
    return f"{actions}: the unfinished deal matches the history ({_to_play(deal)})"


def _to_play(deal: Deal) -> str:
    if deal.phase is Phase.DRAW:
        return f"seat {deal.to_play} is to draw"
    return f"seat {deal.to_play} is to {'play' if deal.family == 'table' else 'throw'}"


def _melds(history: History, deal: Deal) -> list[str]:
    """The table family's melds on the table, one line each (none for the show family)."""
    if not deal.melds:
        return []
    width = len(str(deal.melds[-1].id))
    out = [f"Table    {len(deal.melds)} meld{'' if len(deal.melds) == 1 else 's'}"]
    for m in deal.melds:
        out.append(f"  meld {m.id:<{width}}  {m.kind:<3}  seat {_seat(history, m.owner)}: {m.text()}")
    return out


def human(name: str, history: History, deal: Deal, *, events: bool = False) -> str:
    """The readable report: header, events (optionally), final state, verdict."""
    rules = history.rules
    changed = changed_settings(rules)
    sets = f" ({', '.join(f'{k}={v}' for k, v in changed.items())})" if changed else ""
    out = [
        f"History  {name} (format {history.version[0]}.{history.version[1]})",
        f"Rules    {rules.preset}{sets}",
        f"Seed     {json.dumps(history.seed)}",  # as the history writes it: "7" is not 7
        f"Dealer   seat {_seat(history, history.dealer)}",
        f"Seats    {rules.players}",
    ]
    if any(history.names):
        out[-1] += ": " + ", ".join(_seat(history, s) for s in range(rules.players))
    if history.turn_cap != TURN_CAP:
        out.append(f"Cap      {history.turn_cap} turns")
    if history.match:
        out.append("Match    " + ", ".join(f"{k}={v}" for k, v in history.match.items()))
    if events:
        out.append("")
        numbers = [e.number for e in history.entries]
        if history.result is not None:
            numbers.append(history.result.number)
        width = len(str(max(numbers)))
        out += [f"  line {n:>{width}}  {e.text()}" for n, e in zip(numbers, deal.events, strict=True)]
    out.append("")
    width = max(len(_seat(history, s)) for s in range(rules.players))
    table = _melds(history, deal)
    if table:
        out += [*table, ""]
    if deal.result is not None:
        head, *seats = result_lines(deal.result)
        out.append(f"Result   {head} after {deal.result.turns} turns")
        for s, line in enumerate(seats):
            out.append(f"  seat {_seat(history, s):<{width}}  {line.split(' ', 2)[2]}")
    else:
        out.append(f"State    not over after {deal.turns} turns: {_to_play(deal)}")
        counts = deal.card_counts
        for s, status in enumerate(deal.statuses):
            what = f"in, {counts[s]} cards" if status is SeatStatus.IN else _STATUS[status]
            out.append(f"  seat {_seat(history, s):<{width}}  {what}")
    out += ["", _verdict(history, deal)]
    return "\n".join(out)


_STATUS = {SeatStatus.IN: "in", SeatStatus.DROPPED: "dropped", SeatStatus.OUT: "out after a wrong show"}


def to_json(name: str, history: History, deal: Deal, *, events: bool = False) -> dict[str, object]:
    """The replay as one JSON object (``events`` adds every event's text; the table family adds
    ``melds``, the melds on the table)."""
    rules = history.rules
    out: dict[str, object] = {
        "file": name,
        "format": f"{history.version[0]}.{history.version[1]}",
        "rules": rules.preset,
        "settings": changed_settings(rules),
        "seed": history.seed,
        "dealer": history.dealer,
        "seats": rules.players,
        "names": list(history.names),
        "match": dict(history.match),
        "actions": history.actions,
        "turns": deal.turns,
        "over": deal.over,
        "to_play": deal.to_play,
        "phase": deal.phase.step,
        "statuses": [str(s) for s in deal.statuses],
        "result": None,
        "matches": True,  # a history that does not match is refused before this point
    }
    if deal.family == "table":
        out["melds"] = [
            {"id": m.id, "owner": m.owner, "kind": m.kind, "cards": format_cards(m.cards).split()}
            for m in deal.melds
        ]
    result = deal.result
    if result is not None:
        out["result"] = {
            "winner": result.winner,
            "ending": str(result.ending),
            "charges": list(result.charges),
            "halved": result.halved,
            "doubled": result.doubled,
            "seats": [
                {
                    "seat": s.seat,
                    "name": history.names[s.seat],
                    "status": str(s.status),
                    "won": s.won,
                    "charge": s.charge,
                    "hand_charge": s.hand_charge,
                    "unhalved": s.unhalved,  # before an early show halved it (None: not halved)
                    "groups": [format_cards(g).split() for g in s.groups],
                    "loose": format_cards(s.loose).split(),
                }
                for s in result.seats
            ],
        }
    if events:
        out["events"] = [e.text() for e in deal.events]
    return out
