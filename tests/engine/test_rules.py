"""The rules model against RULES.md: presets, validation, text settings and rules files."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from rummykit.engine.rules import (
    LEGACY_VALUES,
    PRESET_NAMES,
    PRESETS,
    SETTING_NAMES,
    Rules,
    RulesError,
    apply_settings,
    format_setting,
    get_preset,
    load_rules_file,
    normalize_preset_name,
    parse_set_option,
    parse_setting,
    resolve_rules,
    stored_rules,
)

# -- RULES.md "Settings" table: one row each, columns nepali, indian, kerala, rummy40, remi51 --------
# INERT marks a "–" cell; those get the inert values the module documents (checked below).
INERT = object()
COLUMNS = ("nepali", "indian", "kerala", "rummy40", "remi51")
SETTINGS_TABLE: dict[str, tuple[object, ...]] = {
    "family": ("show", "show", "show", "table", "table"),
    "players": (4, 4, 4, 4, 4),
    "packs": (2, 2, 2, 2, 2),
    "printed_jokers": (2, 2, 2, 4, 4),
    "cut_joker": (True, True, True, False, False),
    "printed_joker_cut": ("aces", "aces", "aces", INERT, INERT),
    "hand_size": (13, 13, 13, 13, 14),
    "first_hand_size": (13, 13, 13, 13, 15),
    "pile_at_deal": (True, True, True, True, False),  # not in RULES.md's table: seeds 001, 003
    "ace_high": (True, True, True, True, True),
    "wrap": (False, False, False, False, False),
    "max_jokers_per_group": (None, None, None, None, None),
    "max_jokers_in_set": (None, None, None, None, 1),
    "min_naturals": (0, 1, 1, 2, 1),
    "adjacent_jokers": (True, True, True, False, False),
    "joker_only_groups": (True, False, False, False, False),
    "thennaali": (False, False, True, False, False),
    "runs_needed": (2, 2, 2, INERT, INERT),
    "long_run_required": (False, False, False, INERT, INERT),
    "wrong_show": (None, 80, 100, INERT, INERT),
    "credit": ("pure", "lives_except_pure", "lives_flat", "always", "always"),
    "full_count": (80, 80, 100, None, None),
    "ace_value": (10, 10, 10, 11, 10),
    "joker_value": (0, 0, 0, 20, 20),
    "complete_hand_charge": (None, None, 2, INERT, INERT),
    "early_show_halves": (False, True, False, INERT, INERT),
    "drop_first": (20, 20, 25, None, None),
    "drop_middle": (40, 40, 50, None, None),
    "pick_joker_from_pile": (True, False, False, True, True),
    "stock_rebuilds": (None, None, None, 2, None),
    "turn_limit": (250, None, None, None, None),
    "format": ("settlement", "points", "pool", "target", "penalty"),
    "rounds": (3, 1, INERT, INERT, 1),  # remi51: "a match is rounds deals (default 1)"
    "pool_out": (INERT, INERT, 251, INERT, INERT),
    "max_rejoins": (INERT, INERT, 2, INERT, INERT),
    "target": (INERT, INERT, INERT, None, INERT),
    "opening": (INERT, INERT, INERT, 40, 51),
    "opening_first_round": (INERT, INERT, INERT, True, False),
    "pile_before_opening": (INERT, INERT, INERT, True, False),
    "last_card_discard": (INERT, INERT, INERT, False, True),
    "freed_joker_must_go_down": (INERT, INERT, INERT, True, False),  # not in the table: seeds 001, 003
    "clock": (None, None, None, 45, None),
}
INERT_VALUES: dict[str, object] = {
    "printed_joker_cut": "aces",
    "runs_needed": 2,
    "long_run_required": False,
    "wrong_show": None,
    "complete_hand_charge": None,
    "early_show_halves": False,
    "rounds": 1,
    "pool_out": None,
    "max_rejoins": None,
    "target": None,
    "opening": None,
    "opening_first_round": True,
    "pile_before_opening": True,
    "last_card_discard": False,
    "freed_joker_must_go_down": True,
}


def test_settings_table_covers_every_setting_in_order() -> None:
    # point_value comes from RULES.md's prose on the points format, not from the table;
    # pile_at_deal and freed_joker_must_go_down from the prose of seeds 001 and 003 (issue 12).
    assert tuple(name for name in SETTING_NAMES if name != "point_value") == tuple(SETTINGS_TABLE)


def test_rules_fields_are_preset_then_settings_in_table_order() -> None:
    assert tuple(field.name for field in dataclasses.fields(Rules)) == ("preset", *SETTING_NAMES)


@pytest.mark.parametrize("row", list(SETTINGS_TABLE))
def test_settings_table_row(row: str) -> None:
    for preset, expected in zip(COLUMNS, SETTINGS_TABLE[row], strict=True):
        wanted = INERT_VALUES[row] if expected is INERT else expected
        assert getattr(get_preset(preset), row) == wanted, f"{row} for {preset}"


def test_point_value_defaults_to_one_everywhere() -> None:
    assert {get_preset(name).point_value for name in PRESET_NAMES} == {1}


# -- RULES.md "Presets (show family)" table -------------------------------------------------------


@pytest.mark.parametrize(
    "preset", ["nepali", "indian", "kerala", "pool101", "pool201", "deals", "maharashtra", "north-indian"]
)
def test_presets_table_packs_printed_jokers_and_runs_needed(preset: str) -> None:
    rules = get_preset(preset)
    assert (rules.family, rules.packs, rules.printed_jokers, rules.runs_needed) == ("show", 2, 2, 2)


@pytest.mark.parametrize(
    ("preset", "credit", "full_count"),
    [
        ("nepali", "pure", 80),
        ("indian", "lives_except_pure", 80),
        ("kerala", "lives_flat", 100),
        ("pool101", "lives_except_pure", 80),
        ("pool201", "lives_except_pure", 80),
        ("deals", "lives_except_pure", 80),
        ("maharashtra", "lives_except_pure", None),
        ("north-indian", "lives_flat", 80),
    ],
)
def test_presets_table_credit_and_full_count(preset: str, credit: str, full_count: int | None) -> None:
    rules = get_preset(preset)
    assert (rules.credit, rules.full_count) == (credit, full_count)


@pytest.mark.parametrize(
    ("preset", "drops", "wrong_show"),
    [
        ("nepali", (20, 40), None),
        ("indian", (20, 40), 80),
        ("kerala", (25, 50), 100),
        ("pool101", (20, 40), 80),
        ("pool201", (25, 50), 80),
        ("deals", (None, None), 80),
        ("maharashtra", (10, 40), 80),
        ("north-indian", (20, 40), 80),
    ],
)
def test_presets_table_drops_and_wrong_show(
    preset: str, drops: tuple[int | None, int | None], wrong_show: int | None
) -> None:
    rules = get_preset(preset)
    assert (rules.drop_first, rules.drop_middle) == drops
    assert rules.dropping_allowed == (drops[0] is not None)
    assert rules.wrong_show == wrong_show


def test_presets_table_other_nepali() -> None:
    rules = get_preset("nepali")
    assert (rules.turn_limit, rules.format, rules.rounds, rules.joker_only_groups) == (
        250,
        "settlement",
        3,
        True,
    )


def test_presets_table_other_indian() -> None:
    rules = get_preset("indian")
    assert (rules.format, rules.early_show_halves, rules.pick_joker_from_pile) == ("points", True, False)


def test_presets_table_other_kerala() -> None:
    rules = get_preset("kerala")
    assert (rules.format, rules.pool_out, rules.max_rejoins) == ("pool", 251, 2)
    assert (rules.complete_hand_charge, rules.thennaali, rules.printed_joker_cut) == (2, True, "aces")


def test_presets_table_other_pool_with_rejoins() -> None:
    indian = get_preset("indian")
    pool = {"format": "pool", "max_rejoins": None}
    assert get_preset("pool101").settings() == indian.settings() | pool | {"pool_out": 101}
    assert get_preset("pool201").settings() == indian.settings() | pool | {
        "pool_out": 201,
        "drop_first": 25,
        "drop_middle": 50,
    }


def test_presets_table_other_deals() -> None:
    rules = get_preset("deals")
    assert (rules.format, rules.rounds, rules.dropping_allowed) == ("deals", 2, False)


def test_presets_table_other_maharashtra() -> None:
    rules = get_preset("maharashtra")
    assert (rules.printed_joker_cut, rules.pick_joker_from_pile, rules.format) == (
        "printed_only",
        True,
        "points",
    )


def test_presets_table_other_north_indian() -> None:
    rules = get_preset("north-indian")
    assert (rules.max_jokers_per_group, rules.long_run_required, rules.format) == (1, True, "points")


@pytest.mark.parametrize(
    ("preset", "seats"),
    [(name, (2, 6)) for name in PRESET_NAMES if name not in ("kerala", "remi51")]
    + [("kerala", (2, 8)), ("remi51", (2, 4))],
)
def test_seat_ranges(preset: str, seats: tuple[int, int]) -> None:
    rules = get_preset(preset)
    assert rules.seat_range == seats
    for players in seats:
        assert rules.replace(players=players).players == players


def test_preset_names_and_mapping_agree() -> None:
    assert tuple(PRESETS) == PRESET_NAMES
    for name, rules in PRESETS.items():
        assert rules.preset == name
        assert rules.is_show != rules.is_table


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("NEPALI", "nepali"),
        ("north_indian", "north-indian"),
        ("NorthIndian", "north-indian"),
        ("pool-101", "pool101"),
        ("Pool_101", "pool101"),
        ("rummy-40", "rummy40"),
        ("remi-51", "remi51"),
        ("remi", "remi51"),
        (" kerala ", "kerala"),
    ],
)
def test_preset_aliases(alias: str, name: str) -> None:
    assert normalize_preset_name(alias) == name
    assert get_preset(alias) == get_preset(name)


def test_unknown_preset_lists_presets() -> None:
    with pytest.raises(RulesError, match=r"^unknown preset 'xyz' \(presets: nepali, indian, "):
        get_preset("xyz")


# -- Kerala: three packs at seven and eight seats ---------------------------------------------------


def test_kerala_three_packs_at_eight_seats() -> None:
    assert get_preset("kerala", players=8).packs == 3
    assert get_preset("kerala", players=7).packs == 3
    assert get_preset("kerala", players=6).packs == 2


def test_kerala_pack_rule_follows_players_but_keeps_explicit_packs() -> None:
    eight = get_preset("kerala", players=8)
    assert eight.replace(players=4).packs == 2
    three_at_four = get_preset("kerala", packs=3)  # thennaali needs three packs
    assert three_at_four.replace(players=5).packs == 3
    with pytest.raises(RulesError, match="make 106"):
        get_preset("kerala", players=8, packs=2)


def test_kerala_pack_rule_through_text_settings() -> None:
    assert apply_settings(get_preset("kerala"), {"players": "8"}).packs == 3
    assert resolve_rules("kerala", None, ["players=7"]).packs == 3


def test_two_pack_presets_refuse_seven_seats() -> None:
    with pytest.raises(RulesError, match=r"^players=7 is out of range for indian: 2 to 6 seats$"):
        get_preset("indian", players=7)


# -- validation -------------------------------------------------------------------------------------


def test_players_nine_for_nepali_names_the_range() -> None:
    with pytest.raises(RulesError, match=r"^players=9 is out of range for nepali: 2 to 6 seats$"):
        get_preset("nepali", players=9)


def test_remi51_seats_two_to_four() -> None:
    with pytest.raises(RulesError, match="2 to 4 seats"):
        get_preset("remi51", players=5)


def test_seed001_remi_puts_the_rest_aside_and_keeps_the_freed_joker_rummy40_does_neither() -> None:
    """Seed 001: "The rest of the cards are put aside on the table", and a swapped-out joker is
    the player's "to create (and maybe discard) a new Tercet"; seed 003: "One more card is turned
    face up to start the discard pile", and "The freed joker has to go back down"."""
    remi, rummy40 = get_preset("remi51"), get_preset("rummy40")
    assert not remi.pile_at_deal and not remi.freed_joker_must_go_down
    assert rummy40.pile_at_deal and rummy40.freed_joker_must_go_down
    assert all(get_preset(name).pile_at_deal for name in PRESET_NAMES if name != "remi51")
    # house rules may change either, by name
    assert resolve_rules("remi51", None, ["pile_at_deal=yes", "freed_joker_must_go_down=on"]) == remi.replace(
        pile_at_deal=True, freed_joker_must_go_down=True
    )
    assert get_preset("rummy40", freed_joker_must_go_down=False).freed_joker_must_go_down is False


def test_without_a_pile_card_the_shoe_needs_one_card_fewer() -> None:
    # 104 cards without printed jokers: 5 seats of 16 and 16 more, the pile card, the cut, 6 to draw
    tight = get_preset("nepali", players=6, printed_jokers=0, hand_size=16, first_hand_size=16)
    with pytest.raises(RulesError, match=r"need 105 cards \(97 dealt, 2 turned up, 6 left to draw\)"):
        tight.replace(first_hand_size=17)
    assert tight.replace(first_hand_size=17, pile_at_deal=False).first_hand_size == 17
    with pytest.raises(RulesError, match=r"need 105 cards \(98 dealt, 1 turned up, 6 left to draw\)"):
        tight.replace(first_hand_size=18, pile_at_deal=False)


def test_a_table_stored_before_a_setting_existed_plays_as_it_did() -> None:
    """Stored settings (``Rules.settings()`` of an older rummykit) lack the newer settings: such a
    Remi 51 table turned a card up and laid a freed joker down again, as every table did then."""
    remi = get_preset("remi51", players=3)
    old = {k: v for k, v in remi.settings().items() if k not in LEGACY_VALUES}
    assert stored_rules("remi51", old) == remi.replace(pile_at_deal=True, freed_joker_must_go_down=True)
    assert stored_rules("remi51", remi.settings()) == remi  # data that names them is read as it is
    rummy40 = get_preset("rummy40")
    assert stored_rules("rummy40", {"players": 4}) == rummy40


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"credit": "bogus"}, "credit='bogus': expected one of pure, lives_except_pure, lives_flat, always"),
        ({"packs": 4}, "packs=4 is out of range: expected 1 to 3"),
        ({"printed_jokers": 9}, "printed_jokers=9 is out of range: expected 0 to 8"),
        ({"hand_size": 22, "first_hand_size": 22}, "hand_size=22 is out of range: expected 1 to 21"),
        ({"runs_needed": 0}, "runs_needed=0 is out of range: expected 1 to 4"),
        ({"min_naturals": 4}, "min_naturals=4 is out of range: expected 0 to 3"),
        ({"full_count": 0}, "full_count=0 is out of range: expected none or 1 to 10000"),
        ({"wrong_show": -1}, "wrong_show=-1 is out of range: expected refuse or 0 to 10000"),
        ({"packs": "2"}, "packs='2': expected a whole number"),
        ({"packs": True}, "packs=True: expected a whole number"),
        ({"cut_joker": 1}, "cut_joker=1: expected true or false"),
        ({"hand_size": None}, "hand_size=none is not allowed"),
        ({"first_hand_size": 12}, "first_hand_size=12 is smaller than hand_size=13"),
        ({"drop_first": None}, "drop_first=none and drop_middle=40 disagree"),
        ({"format": "target"}, "format=target does not fit family=show"),
        ({"format": "pool"}, "format=pool needs pool_out"),
        ({"family": "table", "format": "target"}, "family=table needs opening"),
        ({"credit": "lives_flat", "full_count": None}, "credit=lives_flat needs full_count"),
        (
            {"runs_needed": 3, "hand_size": 8, "first_hand_size": 8},
            "runs_needed=3 cannot be met with hand_size=8",
        ),
        ({"packs": 1}, "4 seats dealt 13 cards need 58 cards"),
        ({"foo": 1}, "unknown setting 'foo' (known settings: family, players,"),
    ],
)
def test_validation_messages(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        get_preset("nepali").replace(**changes)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_direct_construction_validates_the_preset_name() -> None:
    with pytest.raises(RulesError, match="unknown preset 'bogus'"):
        Rules(**(PRESETS["nepali"].settings() | {"preset": "bogus"}))  # type: ignore[arg-type]


def test_thennaali_allowed_with_two_packs() -> None:
    assert get_preset("nepali", thennaali=True).thennaali


def test_rules_are_frozen() -> None:
    rules = get_preset("nepali")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 5  # type: ignore[misc]
    assert rules.players == 4


def test_rules_are_hashable_and_compare_by_value() -> None:
    assert get_preset("nepali", players=3) == get_preset("nepali").replace(players=3)
    assert len({get_preset("nepali"), get_preset("nepali"), get_preset("indian")}) == 2


def test_shoe_size() -> None:
    assert get_preset("nepali").shoe_size == 106
    assert get_preset("rummy40").shoe_size == 108
    assert get_preset("kerala", players=8).shoe_size == 158


# -- settings(), describe(), replace() --------------------------------------------------------------


def test_settings_in_table_order() -> None:
    assert tuple(get_preset("indian").settings()) == SETTING_NAMES


def test_describe_lists_every_setting() -> None:
    lines = get_preset("nepali").describe().splitlines()
    assert lines[0] == "preset = nepali"
    assert len(lines) == 1 + len(SETTING_NAMES)
    assert "wrong_show = refuse" in lines
    assert "cut_joker = true" in lines
    assert "wrap = false" in lines
    assert "max_jokers_per_group = none" in lines
    assert "full_count = 80" in lines


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_settings_round_trip_through_apply_settings(preset: str) -> None:
    rules = get_preset(preset)
    assert apply_settings(get_preset(preset), rules.settings()) == rules
    as_text = {name: format_setting(name, value) for name, value in rules.settings().items()}
    assert apply_settings(get_preset(preset), as_text) == rules


def test_settings_round_trip_from_another_preset_keeps_explicit_packs() -> None:
    eight = get_preset("kerala", players=8)
    assert apply_settings(get_preset("kerala"), eight.settings()) == eight


# -- text settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("cut_joker", "true", True),
        ("cut_joker", "FALSE", False),
        ("ace_high", "yes", True),
        ("ace_high", "no", False),
        ("wrap", "on", True),
        ("wrap", "off", False),
        ("runs_needed", "1", 1),
        ("runs-needed", " 3 ", 3),
        ("full_count", "none", None),
        ("full_count", "None", None),
        ("full_count", "60", 60),
        ("wrong_show", "refuse", None),
        ("wrong_show", "80", 80),
        ("credit", "lives_flat", "lives_flat"),
        ("credit", "Lives-Except-Pure", "lives_except_pure"),
        ("printed_joker_cut", "printed-only", "printed_only"),
        ("format", "pool", "pool"),
        ("family", "table", "table"),
    ],
)
def test_parse_setting(name: str, text: str, value: object) -> None:
    assert parse_setting(name, text) == value


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("players", "abc", "players=abc: expected a whole number"),
        ("players", "none", "players=none: expected a whole number"),
        ("players", "4.5", "players=4.5: expected a whole number"),
        ("full_count", "lots", "full_count=lots: expected a whole number or none"),
        ("wrong_show", "none", "wrong_show=none: expected refuse or a whole number"),
        ("cut_joker", "maybe", "cut_joker=maybe: expected true or false"),
        ("credit", "bogus", "credit=bogus: expected one of pure, lives_except_pure, lives_flat, always"),
        ("foo", "1", "unknown setting 'foo' (known settings: "),
        ("runs_neded", "1", "unknown setting 'runs_neded' (did you mean runs_needed? known settings: "),
    ],
)
def test_parse_setting_errors(name: str, text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_setting(name, text)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("option", "pair"),
    [("runs_needed=1", ("runs_needed", "1")), (" players = 5 ", ("players", "5")), ("a=b=c", ("a", "b=c"))],
)
def test_parse_set_option(option: str, pair: tuple[str, str]) -> None:
    assert parse_set_option(option) == pair


def test_parse_set_option_without_equals() -> None:
    with pytest.raises(RulesError, match=r"^--set runs_needed: expected KEY=VALUE"):
        parse_set_option("runs_needed")
    with pytest.raises(RulesError, match="no setting name"):
        parse_set_option("=1")


def test_apply_settings_native_values() -> None:
    rules = apply_settings(get_preset("nepali"), {"runs-needed": 1, "cut_joker": False, "credit": "always"})
    assert (rules.runs_needed, rules.cut_joker, rules.credit) == (1, False, "always")


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ({"players": True}, "players=true: expected a whole number"),
        ({"cut_joker": 1}, "cut_joker=1: expected true or false"),
        ({"players": 4.0}, "players=4.0: expected a whole number"),
        ({"hand_size": None}, "hand_size=none: expected a whole number"),
        ({"runs-needed": 1, "runs_needed": 2}, "runs-needed and runs_needed both set runs_needed"),
        ({"preset": "indian"}, "preset is not a setting"),
    ],
)
def test_apply_settings_errors(pairs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        apply_settings(get_preset("nepali"), pairs)
    assert str(caught.value).startswith(message)


def test_apply_settings_with_nothing_returns_the_rules() -> None:
    rules = get_preset("nepali")
    assert apply_settings(rules, {}) is rules


# -- resolve_rules: --rules, --rules-file, --set ----------------------------------------------------


def test_resolve_defaults_to_nepali() -> None:
    assert resolve_rules(None, None, []) == get_preset("nepali")


def test_resolve_set_options() -> None:
    rules = resolve_rules("indian", None, ["runs_needed=1", "wrong-show=refuse", "full_count=none"])
    assert (rules.runs_needed, rules.wrong_show, rules.full_count) == (1, None, None)


def test_resolve_later_set_wins() -> None:
    assert resolve_rules("nepali", None, ["players=3", "players=5"]).players == 5


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("players=abc", "--set players=abc: expected a whole number"),
        ("foo=1", "--set foo=1: unknown setting 'foo'"),
        ("players", "--set players: expected KEY=VALUE"),
        ("players=9", "players=9 is out of range for nepali: 2 to 6 seats"),
    ],
)
def test_resolve_set_errors(option: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        resolve_rules(None, None, [option])
    assert str(caught.value).startswith(message)


def _write(tmp_path: Path, text: str, name: str = "table.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_rules_file_top_level_keys(tmp_path: Path) -> None:
    path = _write(
        tmp_path, 'preset = "indian"\nruns_needed = 1\nfull_count = "none"\nwrong_show = "refuse"\n'
    )
    rules = load_rules_file(path)
    assert (rules.preset, rules.runs_needed, rules.full_count, rules.wrong_show) == ("indian", 1, None, None)


def test_rules_file_settings_table(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        'preset = "kerala"\n\n[settings]\nplayers = 8\nearly-show-halves = true\ncredit = "lives_flat"\n',
    )
    rules = load_rules_file(str(path))
    assert (rules.players, rules.packs, rules.early_show_halves) == (8, 3, True)


def test_rules_file_preset_inside_settings_table(tmp_path: Path) -> None:
    path = _write(tmp_path, '[settings]\npreset = "remi"\nplayers = 3\n')
    assert load_rules_file(path) == get_preset("remi51", players=3)


def test_rules_file_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "nepali"\nplayers = 4\nruns_needed = \n')
    with pytest.raises(RulesError, match=r"^.*table\.toml: line 3: invalid value"):
        load_rules_file(path)


def test_rules_file_unknown_key(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "nepali"\n[settings]\nfoo = 1\n')
    with pytest.raises(RulesError, match=r"table\.toml: unknown setting 'foo' \(known settings: family"):
        load_rules_file(path)


def test_rules_file_bad_value_names_file_and_setting(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "nepali"\nplayers = "many"\n')
    with pytest.raises(RulesError, match=r"table\.toml: players=many: expected a whole number$"):
        load_rules_file(path)


def test_rules_file_invalid_combination_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "nepali"\nplayers = 9\n')
    with pytest.raises(RulesError, match=r"table\.toml: players=9 is out of range for nepali: 2 to 6 seats$"):
        load_rules_file(path)


def test_rules_file_without_preset(tmp_path: Path) -> None:
    path = _write(tmp_path, "players = 3\n")
    with pytest.raises(RulesError, match=r"table\.toml: no preset given"):
        load_rules_file(path)


def test_rules_file_unknown_preset(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "gin"\n')
    with pytest.raises(RulesError, match=r"table\.toml: unknown preset 'gin'"):
        load_rules_file(path)


def test_rules_file_unknown_table(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "nepali"\n[bots]\nlevel = 2\n')
    with pytest.raises(RulesError, match=r"table\.toml: unknown table \[bots\]"):
        load_rules_file(path)


def test_rules_file_key_twice(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "nepali"\nplayers = 3\n[settings]\nplayers = 5\n')
    with pytest.raises(RulesError, match="players is set both at the top level and in"):
        load_rules_file(path)


def test_rules_file_unreadable(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(RulesError, match=r"missing\.toml: cannot read the rules file \(No such file"):
        load_rules_file(missing)
    with pytest.raises(RulesError, match="cannot read the rules file"):
        load_rules_file(tmp_path)  # a directory


def test_rules_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(b'preset = "nepali"\n# \xff\n')
    with pytest.raises(RulesError, match="not UTF-8"):
        load_rules_file(path)


def test_resolve_file_then_set(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "indian"\nruns_needed = 1\nplayers = 3\n')
    rules = resolve_rules(None, str(path), ["players=5"])
    assert (rules.preset, rules.runs_needed, rules.players) == ("indian", 1, 5)


def test_resolve_explicit_preset_beats_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "indian"\nruns_needed = 1\n')
    rules = resolve_rules("kerala", str(path), [])
    assert (rules.preset, rules.runs_needed, rules.credit) == ("kerala", 1, "lives_flat")


def test_resolve_file_without_preset_needs_rules(tmp_path: Path) -> None:
    path = _write(tmp_path, "runs_needed = 1\n")
    assert resolve_rules("nepali", str(path), []).runs_needed == 1
    with pytest.raises(RulesError, match="no preset given"):
        resolve_rules(None, str(path), [])


def test_resolve_file_packs_count_as_explicit(tmp_path: Path) -> None:
    path = _write(tmp_path, 'preset = "kerala"\npacks = 3\n')
    assert resolve_rules(None, str(path), ["players=4"]).packs == 3
    auto = _write(tmp_path, 'preset = "kerala"\nplayers = 8\n', "auto.toml")
    assert resolve_rules(None, str(auto), ["players=4"]).packs == 2


# -- property: any valid override round-trips through text ------------------------------------------


def _values_for(name: str) -> st.SearchStrategy[object]:
    sample = get_preset("nepali").settings()[name]
    if isinstance(sample, bool):
        return st.booleans()
    enums = {
        "family": ("show", "table"),
        "printed_joker_cut": ("aces", "printed_only"),
        "credit": ("pure", "lives_except_pure", "lives_flat", "always"),
        "format": ("settlement", "points", "pool", "deals", "target", "penalty"),
    }
    if name in enums:
        return st.sampled_from(enums[name])
    return st.none() | st.integers(min_value=-2, max_value=300)


@st.composite
def _overrides(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    preset = draw(st.sampled_from(PRESET_NAMES))
    names = draw(st.lists(st.sampled_from(SETTING_NAMES), min_size=1, max_size=4, unique=True))
    return preset, {name: draw(_values_for(name)) for name in names}


@given(_overrides())
def test_valid_overrides_round_trip_through_text(case: tuple[str, dict[str, object]]) -> None:
    preset, changes = case
    try:
        expected = get_preset(preset).replace(**changes)
    except RulesError:
        reject()
    as_text = {name: format_setting(name, value) for name, value in changes.items()}
    assert apply_settings(get_preset(preset), as_text) == expected
    sets = [f"{name}={text}" for name, text in as_text.items()]
    assert resolve_rules(preset, None, sets) == expected
    # and the whole table survives describe()'s text form
    described = dict(line.split(" = ", 1) for line in expected.describe().splitlines())
    assert described.pop("preset") == expected.preset
    assert apply_settings(get_preset(expected.preset), described) == expected


@given(_overrides())
def test_invalid_overrides_raise_rules_error_only(case: tuple[str, dict[str, object]]) -> None:
    preset, changes = case
    try:
        get_preset(preset).replace(**changes)
    except RulesError as error:
        assert str(error) and "\n" not in str(error)
