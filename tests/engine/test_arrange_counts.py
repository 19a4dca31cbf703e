"""The count file: 480 fixed hands under twelve tables, answered by the brute
force when the file was made (tests/data/make_counts.py), replayed like perft."""

from __future__ import annotations

import json
from pathlib import Path

from rummykit.engine.arrange import Arranger
from rummykit.engine.cards import RANK_TEXT, parse_cards
from rummykit.engine.rules import get_preset

RANK = {t: i for i, t in enumerate(RANK_TEXT) if t}
COUNTS = Path(__file__).parent.parent / "data" / "arrange_counts.jsonl"


def test_count_file_charges_and_shows() -> None:
    arrangers: dict[str, Arranger] = {}
    wrong = []
    lines = COUNTS.read_text().splitlines()
    assert len(lines) >= 400
    for line in lines:
        rec = json.loads(line)
        key = json.dumps([rec["rules"], rec["set"]], sort_keys=True)
        if key not in arrangers:
            arrangers[key] = Arranger(get_preset(rec["rules"], **rec["set"]))
        wild = RANK[rec["wild"]] if rec["wild"] else None
        a = arrangers[key].arrange(parse_cards(rec["hand"]), wild)
        if (a.charge, a.can_show) != (rec["charge"], rec["can_show"]):
            wrong.append(f"{key} {rec['hand']} wild {rec['wild']}: {(a.charge, a.can_show)} != {rec}")
    assert not wrong, "\n".join(wrong[:10])
    assert len(arrangers) == 12
