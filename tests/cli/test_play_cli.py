"""``rummykit play``: whole deals and matches driven by scripted input, and the real command.

The game reads one line per prompt from an ``ask`` function.  :class:`Typist` answers from a
script of lines first (each may be computed from the view at that moment), then plays on like a
plain greedy player, typing the same commands a person would (``s``, ``p``, a card or its number,
``show``).  At every prompt it records the screen printed since the last one and the deal's
fingerprint, so tests can check what was shown against the true state, and that a refused
command changed nothing.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

from rummykit.bots import Player, make_player
from rummykit.bots.baseline import GreedyPlayer
from rummykit.cli.main import main
from rummykit.engine.cards import format_card, format_cards, parse_cards, sort_key
from rummykit.engine.deal import Deal, ShowDeal
from rummykit.engine.events import ActionKind, Dealt, DrewStock, Dropped, Event, Showed, Threw
from rummykit.engine.match import DealEntry, Standing, Status
from rummykit.engine.rules import Rules, get_preset
from rummykit.engine.session import MatchSession
from rummykit.engine.views import SeatView
from rummykit.tui.game import Game, MoveLog, Settings, parse_command, scripted_ask
from rummykit.tui.render import line_plain

NEPALI = get_preset("nepali")
# a card printed on the screen; "=6♥" under a joker is what it stands for, not a card
CARD = re.compile(r"(?<![=\d])(?:10|[2-9AJQK])[♠♥♦♣]|(?<!=)\bJK\b")
SYMBOLS = dict(zip("♠♥♦♣", "shdc", strict=True))

Line = str | Callable[[SeatView], str]
TURN_PROMPTS = ("draw", "throw", "play")


def card_kinds(text: str) -> list[int]:
    """Every card printed in ``text`` (``10♥``, ``JK``), as kinds."""
    out = []
    for token in CARD.findall(text):
        if token == "JK":
            out += parse_cards("JK")
        else:
            out += parse_cards(token[:-1] + SYMBOLS[token[-1]])
    return out


@dataclass
class Prompt:
    """One question the game asked: the prompt, the screen printed before it, the answer, and
    the deal's state (fingerprint) and the person's view at that moment."""

    prompt: str
    screen: str
    line: str
    fingerprint: object
    view: SeatView | None
    deal: Deal | None
    hands: tuple[tuple[int, ...], ...]  # every seat's hand then (the truth the screen must hide)
    shows: tuple[int, ...]  # the finishing cards the engine accepts then, card by card
    public: frozenset[int]  # every card the person may have seen face up by then


class Typist:
    """Answers the game's prompts: the script first, then like a greedy player at a keyboard."""

    def __init__(
        self,
        console: Console,
        script: Sequence[Line] = (),
        *,
        answers: dict[str, list[str]] | None = None,
        enter: str = "",
        later: Sequence[tuple[Callable[[SeatView], bool], Sequence[Line]]] = (),
        swaps: bool = False,
    ) -> None:
        self.console = console
        self.script = list(script)
        # scripts that start at the first turn prompt whose view matches
        self.later = [(when, list(lines)) for when, lines in later]
        self.swaps = swaps  # table family: swap a joker whenever the engine lists a swap
        # (y/n) questions by their first words: the answers to give in turn (then n)
        self.answers = {k: list(v) for k, v in (answers or {}).items()}
        self.enter = enter  # the answer to "Press Enter for the next round"
        self.game: Game | None = None
        self.prompts: list[Prompt] = []
        self._seen = 0
        self._greedy: Player = GreedyPlayer(0)
        self._table_greedy: Player | None = None
        self._numbers = False  # alternate throwing by number and by name

    def output(self) -> str:
        buf = self.console.file
        assert isinstance(buf, io.StringIO)
        return buf.getvalue()

    def _view(self) -> tuple[Deal | None, SeatView | None]:
        assert self.game is not None
        session = self.game.session
        if session is None or session.deal is None:
            return None, None
        deal = session.deal
        me = session.deal_seat(0)
        return deal, (None if me is None else deal.view(me))

    def __call__(self, prompt: str) -> str:
        text = self.output()
        screen, self._seen = text[self._seen :], len(text)
        deal, view = self._view()
        fingerprint = deal.fingerprint() if deal is not None else None
        if not self.script and view is not None and prompt.startswith(TURN_PROMPTS):
            for i, (when, lines) in enumerate(self.later):
                if view.my_turn and when(view):
                    self.script = lines
                    del self.later[i]
                    break
        if self.script:
            item = self.script.pop(0)
            if isinstance(item, str):
                line = item
            else:
                assert view is not None
                line = item(view)
        else:
            line = self.auto(prompt, view)
        hands: tuple[tuple[int, ...], ...] = ()
        shows: tuple[int, ...] = ()
        public: set[int] = set()
        if deal is not None and view is not None:
            hands = tuple(deal.hand(s) for s in range(deal.players))
            if isinstance(deal, ShowDeal):
                shows = tuple(sorted(k for k in set(view.hand) if deal.check_declaration(view.seat, k)))
            first = deal.events[0]
            assert isinstance(first, Dealt)
            public = set(view.hand) | set(view.pile) | {first.pile_top}  # the first pile card too
            public |= {view.cut} if view.cut is not None else set()
            for s in range(view.players):
                public |= set(view.took[s]) | set(view.thrown[s])
        self.prompts.append(
            Prompt(prompt, screen, line, fingerprint, view, deal, hands, shows, frozenset(public))
        )
        self.console.print(prompt + line, highlight=False)
        self._seen = len(self.output())
        return line

    def _table_move(self, view: SeatView) -> str:
        """A table-family move as a person types it: the one-key forms when the move is the
        engine's own suggestion (what the strip names), else the cards spelled out."""
        if self._table_greedy is None:
            self._table_greedy = make_player("greedy", 0, view.rules)
        swaps = [a for a in view.legal if a.kind is ActionKind.SWAP]
        action = swaps[0] if self.swaps and swaps else self._table_greedy.choose(view)
        kind = action.kind
        first = next((a for a in view.legal if a.kind is kind), None)
        short = {ActionKind.OPEN: "o", ActionKind.LAY_DOWN: "m", ActionKind.LAY_OFF: "l"}
        if kind in short and action == first:
            return short[kind]
        if kind is ActionKind.OPEN:
            return "o " + " / ".join(format_cards(m) for m in action.groups or ())
        if kind is ActionKind.LAY_DOWN:
            return "m " + format_cards(action.cards or ())
        if kind is ActionKind.LAY_OFF:
            return f"l {action.meld} " + format_cards(action.cards or ())
        if kind is ActionKind.SWAP:
            assert action.card is not None
            return f"x {action.meld} {format_card(action.card)}"
        simple = {ActionKind.DRAW_STOCK: "s", ActionKind.DRAW_PILE: "p", ActionKind.PUT_BACK: "b"}
        if kind in simple:
            return simple[kind]
        assert kind is ActionKind.THROW and action.card is not None
        return format_card(action.card)

    def auto(self, prompt: str, view: SeatView | None) -> str:
        if prompt.startswith("play"):
            assert view is not None and view.my_turn
            return self._table_move(view)
        if prompt.startswith(("draw", "throw")):
            assert view is not None and view.my_turn
            if view.rules.is_table:
                return self._table_move(view)
            action = self._greedy.choose(view)
            if action.kind is ActionKind.DRAW_STOCK:
                return "s"
            if action.kind is ActionKind.DRAW_PILE:
                return "p"
            if action.kind is ActionKind.SHOW:
                return "show"
            assert action.kind is ActionKind.THROW and action.card is not None
            self._numbers = not self._numbers
            if self._numbers:
                assert self.game is not None
                return str(self.game.hand_order.index(action.card) + 1)
            return format_card(action.card)
        if prompt.startswith("show with"):
            return "1"
        if prompt.startswith("Press Enter"):
            return self.enter
        if prompt.rstrip().endswith("(y/n) >"):
            for start, answers in self.answers.items():
                if prompt.startswith(start) and answers:
                    return answers.pop(0)
            return "n"
        raise AssertionError(f"unexpected prompt {prompt!r}")


def new_game(
    rules: Rules = NEPALI,
    seed: int | str = 1,
    script: Sequence[Line] = (),
    *,
    players: int = 2,
    bots: str = "greedy",
    answers: dict[str, list[str]] | None = None,
    enter: str = "",
    later: Sequence[tuple[Callable[[SeatView], bool], Sequence[Line]]] = (),
    swaps: bool = False,
) -> tuple[Game, Typist]:
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    typist = Typist(console, script, answers=answers, enter=enter, later=later, swaps=swaps)
    rules = rules.replace(players=players)
    game = Game(Settings(rules, seed, "You", (bots,) * (players - 1), 0.0), console, typist)
    typist.game = game
    return game, typist


def turn_prompts(typist: Typist) -> list[Prompt]:
    return [p for p in typist.prompts if p.prompt.startswith(TURN_PROMPTS)]


# ---- commands ---------------------------------------------------------------------------------


def test_commands_are_read_the_way_the_legend_says() -> None:
    order = parse_cards("Ah 2h 3h 9s 9h 9d Kc 4d Qs 2c 10h JK 7s")
    assert parse_command("s", order).verb == "stock"
    assert parse_command(" P ", order).verb == "pile"
    assert parse_command("d", order).verb == "drop"
    assert parse_command("Kc", order) == parse_command("throw kc", order) == parse_command("7", order)
    assert parse_command("kc", order).card == parse_cards("Kc")[0]
    assert parse_command("10h", order).card == parse_command("Th", order).card == parse_cards("10h")[0]
    assert parse_command("jk", order).card == parse_cards("JK")[0]
    assert parse_command("show", order).verb == "show" and parse_command("show", order).card is None
    assert parse_command("show 2", order).card == parse_cards("2h")[0]
    assert parse_command("", order).verb == "empty"
    for word in ("g", "h", "?", "q"):
        assert parse_command(word, order).verb in ("group", "help", "quit")
    assert parse_command("99", order).error == "no card 99: your cards are numbered 1 to 13"
    assert parse_command("0", order).verb == "bad"
    assert "type h for help" in parse_command("xyz", order).error
    assert parse_command("s p", order).verb == "bad"


# ---- one deal, turn by turn ---------------------------------------------------------------------


def test_refused_input_says_the_engines_reason_and_changes_nothing() -> None:
    script: list[Line] = [
        "Kc",  # before drawing: the engine says draw first
        "show",  # not a show, and before drawing anyway
        "99",
        "xyz",
        "",  # an empty line repeats the keys
        "h",
        "p",  # take the pile card...
        lambda v: format_card(v.hand[0]) if v.pile_take is None else format_card(v.pile_take),
        "s",  # ...already drawn
        "d",  # too late to drop
        "q",
        "n",  # do not quit
    ]
    game, typist = new_game(NEPALI, 1, script)
    game.run()
    out = typist.output()
    prompts = typist.prompts
    draw = prompts[:7]
    assert all(p.prompt == "draw > " for p in draw)
    assert len({repr(p.fingerprint) for p in draw}) == 1  # nothing changed while refusing
    assert "✗ draw first" in out
    assert "✗ no card 99: your cards are numbered 1 to 13" in out
    assert "✗ 'xyz' is not a command or a card: type h for help" in out
    assert "Type a command and press Enter:" in out  # the help
    throws = prompts[7:12]
    assert all(p.prompt.startswith(("throw", "Quit")) for p in throws)
    assert len({repr(p.fingerprint) for p in throws}) == 1
    assert "✗ cannot throw back the card just taken from the pile" in out
    assert "✗ you have already drawn" in out
    assert "✗ too late to drop: you have already drawn" in out
    assert "Quit the game? (y/n) > n" in out
    assert "is over" in out  # the typist played the deal out after the script


def test_a_drop_asks_first_says_the_cost_and_goes_on_the_sheet() -> None:
    game, typist = new_game(NEPALI, 2, ["d", "n", "d", "y"], players=3)
    game.run()
    out = typist.output()
    asked = [p for p in typist.prompts if p.prompt.startswith("Drop out")]
    assert [p.prompt for p in asked] == [
        "Drop out of this deal for 20? Your hand is not counted or shown. (y/n) > "
    ] * 2
    assert "You stay in." in out
    assert typist.prompts[2].fingerprint == typist.prompts[0].fingerprint  # "n" changed nothing
    session = game.session
    assert session is not None
    first = session.rows[0]
    assert first.entry.statuses[0] is Status.DROPPED and first.charges[0] == 20
    assert "You drop out for 20; the others play the deal out." in out
    assert re.search(r"Charge +20D", out)
    # the dropped hand is never turned up
    end = out[out.index("deal 1 of 3 is over") :]
    assert re.search(r"You +dropped +not shown +20", end)


def test_the_screen_shows_the_persons_cards_and_nothing_private() -> None:
    """Every card on a turn's screen is the person's own or public (the pile, the cut card, the
    cards taken and thrown); the hand shown is exactly the person's hand."""
    game, typist = new_game(NEPALI, 5, players=4)
    game.run()
    checked = 0
    for p in turn_prompts(typist):
        if "Your hand" not in p.screen or p.view is None or p.deal is None:
            continue  # a re-prompt after a refusal: no new screen
        view, public = p.view, p.public
        screen = p.screen[p.screen.rfind("\n", 0, p.screen.rindex(" · turn ")) + 1 :]
        shown = card_kinds(screen)
        assert set(shown) <= public
        hidden = set()
        for s in range(view.players):
            if s != view.seat:
                hidden |= set(p.hands[s])
        hidden -= public
        assert not hidden & set(shown)  # no card that only a bot holds
        hand_part = screen[screen.index("Your hand") :]
        ends = [hand_part.find(w) for w in ("To show", "SHOW!", "Your thirteen")]
        hand_part = hand_part[: min(e for e in ends if e >= 0)]
        rows = [line for line in hand_part.splitlines() if CARD.search(line)]
        assert Counter(card_kinds("\n".join(rows))) == Counter(view.hand)
        assert f"Stock: {view.stock_count} cards" in screen
        checked += 1
    assert checked > 20


def test_show_is_offered_exactly_when_the_hand_shows() -> None:
    game, typist = new_game(NEPALI, 11, players=2)
    game.run()
    shows = 0
    for p in turn_prompts(typist):
        if p.view is None or p.deal is None or p.prompt != "throw > " or "Keys:" not in p.screen:
            continue
        view = p.view
        valid = list(p.shows)
        offered = sorted(a.card for a in view.legal if a.kind is ActionKind.SHOW and a.card is not None)
        assert offered == valid
        keys = p.screen[p.screen.index("Keys:") :]
        assert ("show " in keys) == bool(valid)
        assert ("SHOW!" in p.screen) == bool(valid)
        shows += bool(valid)
    assert shows >= 1
    session = game.session
    assert session is not None
    assert any(r.winner == 0 for r in session.rows)
    out = typist.output()
    assert "You show, finishing with" in out


def test_a_show_that_is_no_show_is_refused_with_the_reason() -> None:
    def throw_any(view: SeatView) -> str:
        return format_card(view.hand[-1])

    game, typist = new_game(NEPALI, 1, ["s", "show", lambda v: "show " + format_card(v.hand[0]), throw_any])
    game.run()
    out = typist.output()
    assert "✗ not a show yet: whatever you throw, it still needs" in out
    assert "✗ that is not a show: " in out
    refused = typist.prompts[1:4]
    assert len({repr(p.fingerprint) for p in refused}) == 1


def test_g_sorts_the_hand_by_suit_and_numbers_follow_the_screen() -> None:
    game, typist = new_game(NEPALI, 3, ["s", "g", "1"])
    game.run()
    out = typist.output()
    assert "sorted by suit" in out
    thrown = typist.prompts[2]
    assert thrown.view is not None and thrown.deal is not None
    first = min(thrown.view.hand, key=sort_key)
    deal = thrown.deal
    me = thrown.view.seat
    assert deal.thrown[me][0] == first


def test_a_whole_nepali_match_of_three_deals() -> None:
    game, typist = new_game(NEPALI, 7, players=3)
    assert game.run() == 0
    out = typist.output()
    session = game.session
    assert session is not None and session.is_over
    assert len(session.rows) == 3
    assert sum(session.totals) == 0  # settlement: the table sums to nothing
    for n in (1, 2, 3):
        assert f"Nepali rummy · deal {n} of 3 is over" in out
    waits = [p for p in typist.prompts if p.prompt.startswith("Press Enter for the next round")]
    assert len(waits) == 2  # between deals, never after the last
    winner = session.match.winner
    assert winner is not None
    assert f"Winner: {session.names[winner]}" in out
    assert typist.prompts[-1].prompt == "Play again? (y/n) > "
    # the sheet shows signed totals that match the session's
    shown = out[out.rindex("Score sheet") :]
    total_line = [line for line in shown.splitlines() if line.strip().startswith("Total")][-1]
    assert total_line.split()[1:] == [session.match.format.show_total(t) for t in session.totals]


def test_play_again_deals_a_new_match_with_the_next_seed() -> None:
    game, typist = new_game(NEPALI.replace(rounds=1), 4, answers={"Play again": ["y"]})
    game.run()
    out = typist.output()
    assert out.count("Play again? (y/n) > y") == 1 and out.count("Play again? (y/n) > n") == 1
    assert out.count("deal 1 is over") == 2
    session = game.session
    assert session is not None and session.seed == 5


def test_quitting_and_running_out_of_input_leave_quietly() -> None:
    game, typist = new_game(NEPALI, 1, ["q", "y"])
    assert game.run() == 0
    assert "You leave the table. Thanks for playing." in typist.output()
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    rules = NEPALI.replace(players=2)
    game = Game(Settings(rules, 1, "You", ("greedy",)), console, scripted_ask(console, ["s"]))
    assert game.run() == 0  # the input ended mid-turn
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "draw > s" in out and "You leave the table." in out


def test_a_pool_asks_the_person_to_rejoin_and_bots_rejoin() -> None:
    rules = get_preset("pool101").replace(players=3)
    game, typist = new_game(rules, 1, ["y"], players=3)
    session = MatchSession(rules, 1, ["You", "Bikash", "Chandra"])
    session.match.add_deal(DealEntry((80, 0, 20), (Status.FULL_COUNT, Status.WINNER, Status.DROPPED), 1))
    session.match.add_deal(DealEntry((80, 20, 0), (Status.FULL_COUNT, Status.DROPPED, Status.WINNER), 2))
    assert session.standing(0) is Standing.OUT
    game._rejoins(session)
    assert typist.prompts[0].prompt.startswith("You are out of the pool. Rejoin at 21")
    assert session.standing(0) is Standing.IN
    assert "You rejoin at 21." in typist.output()


def test_bots_see_only_their_own_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Event] = []

    class Watcher(GreedyPlayer):
        name = "watcher"

        def observe(self, event: Event) -> None:
            seen.append(event)

    monkeypatch.setattr("rummykit.tui.game.make_player", lambda name, seed, rules=None: Watcher(seed))
    game, _typist = new_game(NEPALI.replace(rounds=1), 6)
    game.run()
    dealt = [e for e in seen if isinstance(e, Dealt)]
    assert dealt and all(h is None for e in dealt for s, h in enumerate(e.hands) if s != 1)
    assert dealt[0].hands[1] is not None
    drew = [e for e in seen if isinstance(e, DrewStock)]
    assert any(e.seat == 0 for e in drew)
    assert all(e.card is None for e in drew if e.seat != 1)


# ---- the command ------------------------------------------------------------------------------


def test_through_real_stdin_to_the_score_sheet(tmp_path: Path) -> None:
    """The installed command, commands piped in: draw from the stock, show or throw."""
    commands = "s\nshow\n14\n" * 400  # show when it is one, else throw the last card shown
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "rummykit",
            "play",
            "--rules",
            "nepali",
            "--players",
            "2",
            "--seed",
            "1",
            "--pace",
            "0",
            # greedy: the default (hard) searches against a deadline, so under load it plays
            # other moves and the scripted lines fall out of step with the game
            "--bots",
            "greedy",
        ],
        input=commands,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert "Nepali rummy, 2 seats: you and Bikash (greedy)" in out
    assert "draw > s" in out and "throw > 14" in out  # piped lines are echoed: a readable transcript
    assert "Score sheet" in out and "Deal 1 · dealer You" in out
    assert "\x1b[" not in out  # no colour codes into a pipe


def test_setup_asks_for_the_table_and_the_seats(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n3\n\n"))
    assert main(["play", "--seed", "3", "--pace", "0"]) == 0
    out = capsys.readouterr().out
    assert "Which table?" in out and "Players, you included (2-6) [4] > 3" in out
    assert "Nepali rummy, 3 seats: you and Bikash" in out
    assert "Seed 3" in out


def test_setup_offers_the_table_family_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("9\n2\n\n"))
    assert main(["play", "--seed", "3", "--pace", "0"]) == 0
    out = capsys.readouterr().out
    assert "Rummy 40             melds on the table, open at 40" in out
    assert "Rummy 40, 2 seats: you and Bikash (hard)" in out  # the strongest bot by default
    assert "Opening: " in out and "of 40 points" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "nepali", "--bots", "clever"], "unknown bot 'clever'"),
        (["--rules", "nepali", "--players", "3", "--bots", "greedy,random,greedy"], "3 bots for 2 seats"),
        (["--rules", "nepali", "--players", "9"], "players"),
        (["--rules", "nepali", "--players", "x"], "--players takes a whole number"),
        (["--rules", "nepali", "--pace", "slow"], "--pace takes seconds"),
        (["--rules", "cribbage"], "unknown preset"),
        (["--rules", "remi51", "--players", "5"], "players"),
        (
            ["--rules", "rummy40", "--bots", "clever"],
            "unknown bot 'clever' (known: random, greedy, easy, medium, hard, expert)",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummykit play: ") and message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("preset", ["indian", "kerala", "pool201", "deals", "maharashtra", "north-indian"])
def test_every_show_preset_plays_to_its_score_sheet(preset: str) -> None:
    """One deal of each show preset, then q at the sheet (a pool would go on for many deals)."""
    game, typist = new_game(get_preset(preset), 9, players=3, enter="q", answers={"Quit": ["y"]})
    assert game.run() == 0
    out = typist.output()
    assert "deal 1" in out and " is over" in out and "Score sheet" in out
    assert "You leave the table." in out or "Play again? (y/n) > n" in out  # points: one deal
    session = game.session
    assert session is not None and len(session.rows) == 1


def test_moves_read_as_one_line_a_turn() -> None:
    log = MoveLog(("You", "Bikash"), 0)
    k, q = parse_cards("Kc Qh")
    assert log.add(DrewStock(seq=1, seat=1, card=None)) is None  # the turn goes on
    assert log.add(Threw(seq=2, seat=1, card=k)) is not None
    assert line_plain(log.lines[-1]) == "Bikash draws from the stock and throws K♣"
    log.add(DrewStock(seq=3, seat=0, card=q))
    log.add(Showed(seq=4, seat=0, card=k, groups=(), declared=None))
    assert line_plain(log.lines[-1]) == "You draw Q♥ from the stock and show, finishing with K♣"
    log.add(Dropped(seq=5, seat=1, cost=40, first=False))
    assert line_plain(log.lines[-1]) == "Bikash drops out (pays 40)"


# ---- the table family: Rummy 40 and Remi 51 ---------------------------------------------------

RUMMY40 = get_preset("rummy40")
REMI51 = get_preset("remi51")


def typed(typist: Typist, prefix: str) -> list[Prompt]:
    return [p for p in typist.prompts if p.prompt == "play > " and p.line.startswith(prefix)]


def test_rummy40_opening_laying_off_and_swapping_a_joker_by_keyboard() -> None:
    """Whole Rummy 40 matches typed at the keyboard: the one-key Open when the meter reaches
    40, lay-offs, new melds, and a joker swap whenever one is there to make."""
    kinds: set[str] = set()
    for seed in (6, 17, 22, 27):
        game, typist = new_game(RUMMY40, seed, swaps=True)
        assert game.run() == 0
        out = typist.output()
        assert "✗" not in out  # every typed move was accepted
        assert "Rummy 40 · deal 1 is over" in out and "Score sheet" in out
        assert "Opening: " in out and " of 40 points" in out
        for prefix, kind in (("o", "open"), ("m", "meld"), ("l", "layoff"), ("x", "swap")):
            if typed(typist, prefix):
                kinds.add(kind)
        for p in typed(typist, "o"):
            assert p.view is not None
            assert "o opens with" in p.screen  # the strip names the opening the key makes
        for p in typed(typist, "x"):
            assert p.deal is not None
            assert any(type(e).__name__ == "Swapped" and e.seat == 0 for e in p.deal.events)
        session = game.session
        assert session is not None and session.is_over and len(session.rows) == 1
    assert kinds == {"open", "meld", "layoff", "swap"}


def test_the_screen_at_rummy40_shows_the_melds_and_nothing_private() -> None:
    game, typist = new_game(RUMMY40, 6, players=3)
    game.run()
    checked = 0
    for p in turn_prompts(typist):
        if "Your hand" not in p.screen or p.view is None:
            continue
        screen = p.screen[p.screen.rfind("\n", 0, p.screen.rindex(" · turn ")) + 1 :]
        public = set(p.public)
        for m in p.view.melds:
            public |= set(m.cards)
            owner = game.settings.names[m.owner]
            assert re.search(rf"^ +{m.id} +{owner} +{m.kind} ", screen, re.MULTILINE)
        assert set(card_kinds(screen)) <= public
        checked += 1
    assert checked > 10


def test_put_back_and_the_pile_card_that_must_go_down() -> None:
    def pile_open(view: SeatView) -> bool:
        return any(a.kind is ActionKind.DRAW_PILE for a in view.legal)

    def another_card(view: SeatView) -> str:
        return format_card(next(k for k in view.hand if k != view.pile_take))

    script: list[Line] = ["p", another_card, "b", "p", "s"]
    game, typist = new_game(RUMMY40, 3, later=[(pile_open, script)])
    game.run()
    out = typist.output()
    assert "✗ use the card you took from the pile before throwing" in out
    assert "✗ you put that card back: draw from the stock" in out
    took = next(i for i, p in enumerate(typist.prompts) if p.line == "p")
    steps = typist.prompts[took : took + 5]
    assert steps[0].line == "p" and steps[2].line == "b"
    assert steps[1].fingerprint == steps[2].fingerprint  # the refused throw changed nothing
    assert steps[3].fingerprint == steps[4].fingerprint  # nor the refused second take
    assert "(b puts it back)" in steps[1].screen
    assert "You take " in out and " back" in out


def test_remi51_first_player_skips_the_draw_and_opens_at_51_never_in_the_first_round() -> None:
    def first_of_deal(view: SeatView) -> bool:
        return view.turn == 1 and len(view.hand) == 15

    rules = REMI51.replace(rounds=2)
    game, typist = new_game(rules, 4, later=[(first_of_deal, ["s", "o", "p"])])
    assert game.run() == 0
    out = typist.output()
    assert "✗ the first player skips the draw on the first turn: play and throw" in out
    assert "No card is turned up: the first throw starts the pile" in out  # seed 001
    assert "✗ no opening in the first round" in out or "✗ no opening yet: " in out
    assert "Remi 51 (house rules) · deal 2 of 2 is over" in out  # two deals: not the preset's one
    session = game.session
    assert session is not None and session.is_over
    assert {row.charges[row.winner] for row in session.rows} <= {-20, -40}
    assert "Opening: " in out and " of 51 points" in out


def test_table_family_commands_are_read() -> None:
    order = parse_cards("5h 6h 7h Kc Kd Kh 2s")
    assert parse_command("o", order).verb == "open" and not parse_command("o", order).melds
    opening = parse_command("o 1 2 3 / Kc Kd Kh", order)
    assert opening.melds == (tuple(order[:3]), tuple(order[3:6]))
    assert parse_command("m 5h 6h 7h", order).cards == tuple(order[:3])
    lay = parse_command("l 2 7", order)
    assert (lay.verb, lay.meld, lay.cards) == ("layoff", 2, (order[6],))
    swap = parse_command("x 3 6h", order)
    assert (swap.verb, swap.meld, swap.card) == ("swap", 3, order[1])
    assert parse_command("b", order).verb == "back"
    assert "meld on the table by its number" in parse_command("x 6h", order).error
    assert "one card" in parse_command("x 3 6h 7h", order).error
