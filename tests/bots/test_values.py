"""The learned play-on values (bots/values.py, data/values.json) and the match standing in the view."""

from __future__ import annotations

from rummykit.bots.hard import HardPlayer
from rummykit.bots.values import LOSSES, Features, cell_keys, play_on_values
from rummykit.engine.events import Action
from rummykit.engine.rules import get_preset
from rummykit.engine.session import MatchSession


def test_the_shipped_table_knows_the_show_presets_it_was_trained_on() -> None:
    values = play_on_values()
    for preset in ("nepali", "indian", "kerala", "pool101"):
        for seats in (2, 4):
            assert values.knows(get_preset(preset, players=seats), seats), (preset, seats)


def test_a_hand_far_from_a_show_is_worth_less_than_one_near_it() -> None:
    values = play_on_values()
    for table in ("pure/2", "pure/4", "lives_except_pure/2", "lives_flat/4"):
        near = values.value(Features(table, 1, True, 2, 2))
        far = values.value(Features(table, 6, False, 0, 7))
        assert near is not None and far is not None
        assert far < near - 15, table
        # and the far hand's chance of a big loss is higher
        assert values.loss_chance(Features(table, 6, False, 0, 7), 60) > values.loss_chance(
            Features(table, 1, True, 2, 2), 60
        )


def test_cells_go_from_coarse_to_fine_and_every_cell_keeps_its_loss_shares() -> None:
    f = Features("pure/2", 3, True, 1, 4)
    assert cell_keys(f) == ("pure/2", "pure/2/g1/p1", "pure/2/a3/p1", "pure/2/a3/p1/t1", "pure/2/a3/p1/t1/c4")
    for cell in play_on_values().cells.values():
        assert len(cell) == 2 + len(LOSSES)
        shares = cell[2:]
        assert all(0 <= x <= 1 for x in shares) and list(shares) == sorted(shares, reverse=True)


def test_a_pool_deal_shows_every_seat_the_match_totals() -> None:
    session = MatchSession(get_preset("pool101", players=3), "totals")
    deal = session.start_deal()
    assert deal.view(0).match_totals == (0, 0, 0)
    while deal.to_play is not None:  # everyone drops but the last seat: it wins
        seat = deal.to_play
        deal.apply(
            seat, Action.drop() if Action.drop() in deal.view(seat).legal else deal.view(seat).legal[0]
        )
    session.finish_deal()
    deal = session.start_deal()
    totals = tuple(session.totals[m] for m in session.deal_seats)
    assert any(totals) and deal.view(1).match_totals == totals == deal.view(None).match_totals


def test_hard_reads_compel_from_the_view_and_plays_on() -> None:
    """A seat 95 points into Pool 101 (compel: 95 + 20 reaches 101) never drops, without being told
    the context by hand: the view's match totals say it."""
    rules = get_preset("pool101", players=2)
    session = MatchSession(rules, "compel")
    deal = session.start_deal()  # the seat to play took 95 in earlier deals
    deal.match_totals = (0, 95) if deal.to_play == 1 else (95, 0)
    seat = deal.to_play
    assert seat is not None
    bot = HardPlayer("compel")
    assert bot.choose(deal.view(seat)) != Action.drop()
    assert "out of the pool" in bot.last_reason
    unaware = HardPlayer("compel")
    unaware.pool_aware = False
    assert unaware.match_context(deal.view(seat)) is None
    assert bot.match_context(deal.view(seat)) is not None
