"""The score sheet's web API (seed 004's free score sheet), on SQLite and on PostgreSQL: a sheet made,
entered, refused, edited, undone, rejoined, shared read-only and printed as a PDF."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_helpers import make_app, running
from starlette.testclient import TestClient

from rummykit.server.sheets import EDIT_HEADER, EDIT_TOKENS_HEADER

Db = tuple[str, dict[str, str] | None]
Json = dict[str, Any]


class Sheet:
    """One sheet made through the API, with its edit token."""

    def __init__(self, client: TestClient, made: Json) -> None:
        self.client = client
        self.id: str = made["id"]
        self.token: str = made["edit_token"]
        self.data: Json = made["sheet"]

    @property
    def auth(self) -> dict[str, str]:
        return {EDIT_HEADER: self.token}

    def get(self) -> Json:
        r = self.client.get(f"/api/sheets/{self.id}", headers=self.auth)
        assert r.status_code == 200, r.text
        self.data = r.json()
        return self.data

    def add(self, *entries: str) -> Json:
        r = self.client.post(
            f"/api/sheets/{self.id}/deals", json={"entries": list(entries)}, headers=self.auth
        )
        assert r.status_code == 200, r.text
        self.data = r.json()["sheet"]
        return dict(r.json())

    def rejoin(self, player: str | int) -> Json:
        r = self.client.post(f"/api/sheets/{self.id}/rejoin", json={"player": player}, headers=self.auth)
        assert r.status_code == 200, r.text
        self.data = r.json()["sheet"]
        return dict(r.json())

    def refused(
        self, method: str, path: str, body: Any = None, *, status: int = 400, headers: Any = None
    ) -> str:
        """The refusal's message, checking the sheet did not change."""
        before = self.client.get(f"/api/sheets/{self.id}").json()
        r = self.client.request(
            method,
            f"/api/sheets/{self.id}{path}",
            json=body,
            headers=self.auth if headers is None else headers,
        )
        assert r.status_code == status, r.text
        got = r.json()
        assert set(got) - {"problems"} == {"error", "expected", "got"}
        assert got.get("problems", [got["error"]]) == got["error"].split("; ")
        after = self.client.get(f"/api/sheets/{self.id}").json()
        assert after["view"] == before["view"] and after["version"] == before["version"]
        return str(got["error"])

    def totals(self) -> list[int]:
        return [p["total"] for p in self.data["players"]]

    def standings(self) -> list[str]:
        return [p["standing"] for p in self.data["players"]]


def new_sheet(client: TestClient, preset: str = "pool101", players: Any = None, **body: Any) -> Sheet:
    r = client.post(
        "/api/sheets",
        json={"preset": preset, "players": players or ["Asha", "Bikash", "Chandra"], **body},
    )
    assert r.status_code == 201, r.text
    return Sheet(client, r.json())


def create_refused(client: TestClient, body: Json) -> str:
    store = client.app.state.store  # type: ignore[attr-defined]
    before = len(store.sheets(500))
    r = client.post("/api/sheets", json=body)
    assert r.status_code == 400, r.text
    assert len(store.sheets(500)) == before  # nothing was made
    return str(r.json()["error"])


@pytest.fixture
def client(any_db: Db) -> Any:
    with running(make_app(*any_db)) as c:
        yield c


# -- the story ------------------------------------------------------------------------------------


def test_a_pool101_sheet_is_made_entered_rejoined_and_won(any_db: Db) -> None:
    with running(make_app(*any_db)) as client:
        sheet = new_sheet(client, title="Friday pool")
        assert sheet.data["title"] == "Friday pool"
        assert sheet.data["buttons"] == {"W": 0, "E": 0, "D": 20, "M": 40, "F": 80, "X": 80}
        assert sheet.data["next"] == {"deal": 1, "dealer": "Asha"}

        said = sheet.add("W", "F", "30")
        assert said["message"] == "Deal 1 added."
        assert sheet.totals() == [0, 80, 30]
        said = sheet.add("W", "F", "D")
        assert sheet.totals() == [0, 160, 50]
        assert sheet.standings() == ["in", "out", "in"]
        bikash = sheet.data["players"][1]
        assert bikash["rejoin"] == {"total": 51, "rejoins_left": None}  # top still in 50, + 1
        assert sheet.data["view"]["offers"] == "May rejoin: Bikash at 51"

        said = sheet.rejoin("bikash")  # any case
        assert said["message"] == "Bikash rejoins at 51 (rejoin 1)."
        assert sheet.totals() == [0, 51, 50] and sheet.data["players"][1]["rejoins"] == 1

        sheet.add("M", "W", "35")  # Asha 40, Chandra 85: compel from 81 (drop 20)
        assert sheet.standings() == ["in", "in", "compel"]
        sheet.add("F", "W", "F")  # Asha 120 and Chandra 165: out
        assert sheet.data["over"] and sheet.data["winners"] == [1]
        assert sheet.data["view"]["result"] == "Winner: Bikash (51)"
        assert sheet.data["next"] is None
        assert sheet.data["players"][1]["winner"]

        # the match is over: one more deal is refused in words
        assert (
            sheet.refused("POST", "/deals", {"entries": ["W", "-", "-"]})
            == "the match is over: no more deals"
        )

    # the sheet is stored: a new server on the same database lists it and reads it back
    with running(make_app(*any_db)) as client:
        assert client.get("/api/sheets").json()["sheets"] == []  # nobody lists a stranger's sheets
        listed = client.get("/api/sheets", headers={EDIT_TOKENS_HEADER: sheet.token}).json()["sheets"]
        assert [s["id"] for s in listed] == [sheet.id] and listed[0]["can_edit"]
        assert listed[0]["title"] == "Friday pool" and listed[0]["deals"] == 4 and listed[0]["over"]
        assert listed[0]["totals_text"] == ["120", "51", "165"]
        assert listed[0]["share"] == sheet.data["links"]["share"]
        again = client.get(f"/api/sheets/{sheet.id}").json()
        assert again["view"] == sheet.data["view"]
        assert again["can_edit"] is False  # no token sent
        assert client.get(f"/api/sheets/{sheet.id}", headers=sheet.auth).json()["can_edit"] is True


def test_the_formats_pre_fill_each_presets_values(client: TestClient) -> None:
    formats = {f["preset"]: f for f in client.get("/api/sheet-formats").json()["formats"]}
    assert [name for name, f in formats.items() if f["main"]] == [
        "pool101",
        "pool201",
        "kerala",
        "indian",
        "deals",
        "nepali",
    ]
    # each format once in the list: "Points" was there three times (indian, maharashtra, north-indian)
    titles = [f["title"] for f in formats.values()]
    assert len(titles) == len(set(titles)), titles
    assert titles.count("Points") == 1
    kerala = formats["kerala"]["settings"]
    assert (kerala["drop_first"], kerala["drop_middle"], kerala["full_count"], kerala["wrong_show"]) == (
        25,
        50,
        100,
        100,
    )
    assert kerala["max_rejoins"] == 2
    assert formats["pool201"]["settings"]["drop_first"] == 25
    assert formats["deals"]["settings"]["drop_first"] is None  # no dropping in deals


def test_the_pre_filled_values_are_editable(client: TestClient) -> None:
    sheet = new_sheet(
        client,
        "points",
        ["Asha", "Bikash"],
        settings={"drop_first": 15, "full_count": "60", "point_value": 2, "rounds": 3},
    )
    assert sheet.data["preset"] == "indian" and sheet.data["format"] == "points"
    assert sheet.data["buttons"]["D"] == 15 and sheet.data["buttons"]["F"] == 60
    sheet.add("W", "D")
    assert sheet.totals() == [0, 15]
    assert "count 61 is above the full count 60" in sheet.refused("POST", "/deals", {"entries": ["W", "61"]})
    money = next(line for line in sheet.data["view"]["summary"] if line["kind"] == "money")
    assert [cell["text"] for cell in money["cells"]] == ["0", "30"]  # 15 points at 2


def test_pool250_kerala_and_a_line_of_text(client: TestClient) -> None:
    sheet = new_sheet(client, "pool250", ["Anu", "Biju", "Chinnu"], dealer="Biju")
    assert sheet.data["preset"] == "kerala" and sheet.data["format_title"] == "Pool 250"
    assert sheet.data["next"]["dealer"] == "Biju"
    r = client.post(f"/api/sheets/{sheet.id}/deals", json={"entries": "100 W 25"}, headers=sheet.auth)
    assert r.status_code == 200, r.text
    assert r.json()["sheet"]["players"][0]["total"] == 100


# -- refusals ---------------------------------------------------------------------------------------


def test_a_bad_entry_is_refused_in_one_sentence_and_changes_nothing(client: TestClient) -> None:
    sheet = new_sheet(client)
    sheet.add("W", "20", "30")
    deals = "/deals"
    assert sheet.refused("POST", deals, {"entries": ["W", "W", "30"]}) == (
        "exactly one winner per deal: Asha and Bikash are both marked winner"
    )
    assert sheet.refused("POST", deals, {"entries": ["W", "81", "30"]}) == (
        "Bikash's count 81 is above the full count 80"
    )
    assert (
        sheet.refused("POST", deals, {"entries": ["WD", "10", "30"]})
        == "Asha dropped, so cannot be the winner"
    )
    assert sheet.refused("POST", deals, {"entries": ["10", "20", "30"]}) == (
        "no winner: mark the player who won the deal with W (E for an early show)"
    )
    assert sheet.refused("POST", deals, {"entries": ["W", "20"]}).startswith(
        "a deal needs 3 entries (one per player: Asha, Bikash, Chandra), got 2"
    )
    assert sheet.refused("POST", deals, {"entries": ["W", "abc", "3"]}) == (
        "Bikash: 'abc' is not a number or one of W E D M F X -"
    )
    assert sheet.refused("POST", deals, {"entries": ["W", "", "3"]}) == (
        "Bikash: nothing entered: type what Bikash counts, or W D M F X"
    )
    assert sheet.refused("POST", deals, {"entries": ["W", "25D", "3"]}) == (
        "Bikash dropped first and is charged 20, not 25"
    )
    assert sheet.refused("POST", deals, {"entries": ["W", "-", "3"]}) == (
        "Bikash is still in the pool, so cannot be marked out"
    )
    assert sheet.refused("POST", deals, {}) == "the deal has no entries"
    assert sheet.refused("POST", deals, {"entries": [True, 1, 2]}) == "the deal has no entries"
    assert sheet.refused("POST", "/rejoin", {"player": "Asha"}) == "Asha cannot rejoin: Asha is still in"
    assert sheet.refused("POST", "/rejoin", {"player": "Zed"}) == (
        "no player 'Zed' (players: Asha, Bikash, Chandra)"
    )
    assert sheet.refused("POST", "/rejoin", {}) == "name the player who rejoins"
    assert sheet.refused("POST", "/rejoin", {"player": 3}) == "no seat 3"


def test_editing_needs_the_edit_token_and_a_share_link_only_reads(client: TestClient) -> None:
    sheet = new_sheet(client)
    body = {"entries": ["W", "20", "30"]}
    missing = sheet.refused("POST", "/deals", body, status=401, headers={})
    assert missing == "editing a sheet needs its edit token"
    wrong = sheet.refused("POST", "/deals", body, status=403, headers={EDIT_HEADER: "guess"})
    assert wrong == "this token does not edit this sheet (a share link only reads it)"
    share = sheet.data["links"]["share"].removeprefix("/s/")
    sheet.refused("POST", "/deals", body, status=403, headers={EDIT_HEADER: share})
    sheet.refused("DELETE", "/deals/last", status=401, headers={})
    sheet.refused("PUT", "/deals/last", body, status=401, headers={})
    sheet.refused("POST", "/rejoin", {"player": "Asha"}, status=403, headers={EDIT_HEADER: "x"})

    # the share link reads the sheet, and nothing under it writes
    sheet.add("W", "20", "30")
    page = client.get(f"/s/{share}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/static/js/scoresheet.js" in page.text
    read = client.get(f"/api/s/{share}", headers=sheet.auth).json()
    assert read["can_edit"] is False and read["id"] == sheet.id and read["players"][2]["total"] == 30
    assert client.post(f"/api/s/{share}", json=body).status_code == 405
    assert client.post(f"/api/s/{share}/deals", json=body).status_code == 404
    assert client.get("/api/s/not-a-share-link").status_code == 404
    assert client.get("/s/not-a-share-link").json()["error"] == "no sheet is shared by this link"


def test_an_unknown_sheet_is_named(client: TestClient) -> None:
    for method, path in [
        ("GET", "/api/sheets/0123456789abcdef"),
        ("POST", "/api/sheets/0123456789abcdef/deals"),
        ("DELETE", "/api/sheets/0123456789abcdef/deals/last"),
        ("GET", "/sheets/0123456789abcdef"),
        ("GET", "/sheets/0123456789abcdef.pdf"),
    ]:
        r = client.request(method, path, json={"entries": ["W", "1"]}, headers={EDIT_HEADER: "t"})
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"] == "no sheet '0123456789abcdef'"
    assert client.get("/api/sheets/no%20such").json()["error"] == "no sheet 'no such'"


def test_a_new_sheet_is_refused_with_the_reason(client: TestClient) -> None:
    assert create_refused(client, {"preset": "pool101", "players": ["Asha"]}) == (
        "a match has 2 to 8 players, not 1"
    )
    nine = [f"P{i}" for i in range(9)]
    assert (
        create_refused(client, {"preset": "pool101", "players": nine}) == "a match has 2 to 8 players, not 9"
    )
    assert create_refused(client, {"preset": "pool101", "players": ["Asha", "Asha"]}) == (
        "two players share a name: Asha, Asha"
    )
    assert (
        create_refused(client, {"preset": "pool101", "players": ["Asha", " "]}) == "every player needs a name"
    )
    assert create_refused(client, {"preset": "pool101"}) == "name the players"
    assert create_refused(client, {"players": ["A", "B"]}) == "choose the sheet's format"
    assert "unknown preset" in create_refused(client, {"preset": "pool99", "players": ["A", "B"]})
    assert create_refused(client, {"preset": "pool101", "players": ["A", "B"], "settings": {"packs": 3}}) == (
        "a sheet cannot change packs: it may change drop_first, drop_middle, full_count, wrong_show, "
        "point_value, rounds, max_rejoins"
    )
    bad = create_refused(
        client, {"preset": "pool101", "players": ["A", "B"], "settings": {"drop_first": "x"}}
    )
    assert bad.startswith("drop_first=x: expected")
    assert create_refused(client, {"preset": "pool101", "players": ["A", "B"], "dealer": "C"}) == (
        "no player 'C' (players: A, B)"
    )
    r = client.post("/api/sheets", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("not JSON")
    r = client.post("/api/sheets", content=b"x" * 20_000)
    assert r.status_code == 413


# -- edit, undo, rejoin ---------------------------------------------------------------------------


def test_the_last_deal_is_edited_and_undone(client: TestClient) -> None:
    sheet = new_sheet(client)
    sheet.add("W", "20", "30")
    sheet.add("W", "F", "F")
    assert sheet.data["last"] == {"deal": 2, "entries": ["W", "F", "F"], "seats": [0, 1, 2]}

    r = client.put(
        f"/api/sheets/{sheet.id}/deals/last", json={"entries": ["25", "W", "M"]}, headers=sheet.auth
    )
    assert r.status_code == 200, r.text
    assert r.json()["message"] == "Deal 2 replaced."
    sheet.data = r.json()["sheet"]
    assert sheet.totals() == [25, 20, 70] and sheet.data["deals"] == 2
    assert sheet.refused("PUT", "/deals/last", {"entries": ["W", "W", "3"]}).startswith("exactly one winner")

    r = client.delete(f"/api/sheets/{sheet.id}/deals/last", headers=sheet.auth)
    assert r.status_code == 200 and r.json()["message"] == "Undid deal 2."
    r = client.delete(f"/api/sheets/{sheet.id}/deals/last", headers=sheet.auth)
    assert r.status_code == 200 and r.json()["message"] == "Undid deal 1."
    assert r.json()["sheet"]["version"] == 0 and r.json()["sheet"]["last"] is None
    assert sheet.refused("DELETE", "/deals/last") == "nothing to undo: no deals yet"
    assert (
        sheet.refused("PUT", "/deals/last", {"entries": ["W", "1", "2"]}) == "nothing to edit: no deals yet"
    )


def test_undo_takes_back_a_rejoin_first(client: TestClient) -> None:
    sheet = new_sheet(client)
    sheet.add("W", "F", "30")
    sheet.add("W", "F", "20")
    sheet.rejoin(1)  # a seat index, as the page sends it
    assert sheet.totals() == [0, 51, 50]
    assert sheet.data["last"]["entries"] == ["W", "F", "20"]
    r = client.delete(f"/api/sheets/{sheet.id}/deals/last", headers=sheet.auth)
    assert r.json()["message"] == "Undid Bikash's rejoin at 51."
    assert r.json()["sheet"]["players"][1]["standing"] == "out"


def test_a_player_out_is_entered_with_a_dash_or_left_away(client: TestClient) -> None:
    sheet = new_sheet(client)
    sheet.add("W", "F", "30")
    sheet.add("W", "F", "20")  # Bikash out at 160
    assert sheet.data["seats_in"] == [0, 2]
    assert sheet.refused("POST", "/deals", {"entries": ["W", "5", "20"]}) == (
        "Bikash is out of the pool and cannot play (mark the seat out, or rejoin first)"
    )
    sheet.add("W", "-", "10")
    sheet.add("5", "W")  # the two still in, in seat order
    assert sheet.totals() == [5, 160, 60]
    assert sheet.data["last"]["entries"] == ["5", "-", "W"] and sheet.data["last"]["seats"] == [0, 2]


def test_seed004_pool101_rejoin_through_the_sheet_allowed_at_79_refused_at_80(client: TestClient) -> None:
    allowed = new_sheet(client, players=["A", "B", "C"])
    allowed.add("W", "40", "F")
    allowed.add("79", "W", "30")  # C out at 110; the top still in is A's 79
    assert allowed.rejoin("C")["message"] == "C rejoins at 80 (rejoin 1)."
    refused = new_sheet(client, players=["A", "B", "C"])
    refused.add("W", "40", "F")
    refused.add("F", "W", "30")  # the top still in is A's 80
    assert refused.data["players"][2]["rejoin"] is None
    assert refused.refused("POST", "/rejoin", {"player": "C"}) == (
        "C cannot rejoin: the highest total still in is 80, above 79"
    )


def test_a_stale_page_cannot_enter_a_deal_twice(client: TestClient) -> None:
    sheet = new_sheet(client)
    body = {"entries": ["W", "20", "30"], "version": 0}
    r = client.post(f"/api/sheets/{sheet.id}/deals", json=body, headers=sheet.auth)
    assert r.status_code == 200 and r.json()["sheet"]["version"] == 1
    message = sheet.refused("POST", "/deals", body, status=409)
    assert message == "the sheet changed since you loaded it: reload it and enter the deal again"
    assert sheet.refused("POST", "/deals", {**body, "version": "1"}) == "version is a whole number"


# -- pages, print and PDF ---------------------------------------------------------------------------


def test_the_pages_are_served(client: TestClient) -> None:
    sheet = new_sheet(client)
    for path in ("/sheets", f"/sheets/{sheet.id}"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"], path
        assert "/static/scoresheet.css" in r.text and "/static/js/scoresheet.js" in r.text
    for path in ("/static/js/scoresheet.js", "/static/scoresheet.css"):
        assert client.get(path).status_code == 200
    assert 'href="/sheets"' in client.get("/").text


def test_the_printable_sheet_has_a_print_stylesheet_and_the_totals(client: TestClient) -> None:
    sheet = new_sheet(client, title="Print me")
    sheet.add("W", "F", "30")
    share = sheet.data["links"]["share"]
    for path in (f"/sheets/{sheet.id}/print", f"{share}/print"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert "@media print" in r.text and "<h1>Print me</h1>" in r.text
        assert "Deal 1" in r.text and "Bikash" in r.text and ">80 <abbr" in r.text


def poppler(tool: str) -> str:
    """The path of a poppler-utils tool; CI must have it, elsewhere the test says what is missing."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is missing: apt-get install poppler-utils (make system-deps)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def totals_rows(text: str) -> list[list[str]]:
    """The cells after ``Total`` on every line of pdftotext's layout where it labels the row."""
    return [
        line.split()[line.split().index("Total") + 1 :]
        for line in text.splitlines()
        if "Total" in line.split()
    ]


def test_the_pdf_download_renders_with_the_right_totals(any_db: Db, tmp_path: Path) -> None:
    with running(make_app(*any_db)) as client:
        sheet = new_sheet(client, players=["Asha", "Bikash", "Chandra", "Dipa"], title="Sheet for the PDF")
        sheet.add("W", "F", "30", "D")
        sheet.add("W", "F", "M", "12")  # Bikash out at 160
        sheet.rejoin("Bikash")  # at 71, Chandra's total + 1
        r = client.get(sheet.data["links"]["pdf"])
        by_id = client.get(f"/sheets/{sheet.id}.pdf?paper=letter")
        assert client.get(f"/sheets/{sheet.id}.pdf?paper=a3").json()["error"] == "unknown paper 'a3'"
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF-") and by_id.content.startswith(b"%PDF-")

    source = tmp_path / "sheet.pdf"
    source.write_bytes(r.content)
    subprocess.run(
        [poppler("pdftoppm"), "-png", "-r", "50", str(source), str(tmp_path / "page")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == 1
    png = pages[0].read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (abs(width - 210 / 25.4 * 50) <= 1, abs(height - 297 / 25.4 * 50) <= 1) == (True, True)  # A4

    text = subprocess.run(
        [poppler("pdftotext"), "-layout", "-enc", "UTF-8", str(source), "-"],
        check=True,
        capture_output=True,
        timeout=60,
    ).stdout.decode()
    assert "Sheet for the PDF" in text
    totals = totals_rows(text)
    assert totals[0] == ["0", "80", "30", "20"]
    assert totals[1] == ["0", "160", "out", "70", "32"]
    assert totals[-1] == ["0", "71", "70", "32"]  # now, after the rejoin
    assert "Bikash rejoins at 71 (rejoin 1)" in text


def test_the_server_shares_the_terminals_entry_logic_without_importing_the_cli() -> None:
    code = (
        "import sys, rummykit.server.sheets as s, rummykit.sheet.entry as e;"
        "assert s.add_deal is e.add_deal and s.edit_deal is e.edit_deal and s.rejoin is e.rejoin;"
        "bad = sorted(m for m in sys.modules if m.startswith('rummykit.cli'));"
        "assert not bad, bad"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    from rummykit.cli import sheet_cmd
    from rummykit.sheet import entry

    assert sheet_cmd.split_entries is entry.split_entries and sheet_cmd.status_text is entry.status_text


# -- issue 12: every problem named, early shows, Nepali wrong shows, open-ended points, settle-up --


def test_an_entry_with_several_problems_answers_every_one(client: TestClient) -> None:
    sheet = new_sheet(client, players=["Asha", "Bikash", "Chandra", "Dipa"])
    r = client.post(
        f"/api/sheets/{sheet.id}/deals", json={"entries": ["abc", "85", "25D", "W"]}, headers=sheet.auth
    )
    assert r.status_code == 400
    assert r.json()["problems"] == [
        "Asha: 'abc' is not a number or one of W E D M F X -",
        "Bikash's count 85 is above the full count 80",
        "Chandra dropped first and is charged 20, not 25",
    ]
    assert r.json()["error"] == "; ".join(r.json()["problems"])
    assert sheet.get()["version"] == 0


def test_an_early_show_is_entered_with_e_on_the_web_as_in_the_terminal(client: TestClient) -> None:
    sheet = new_sheet(client, "indian")
    assert sheet.data["buttons"]["E"] == 0 and sheet.data["settings"]["early_show_halves"] is True
    sheet.add("45", "E", "D")
    assert sheet.totals() == [22, 0, 10]
    assert sheet.data["last"]["entries"] == ["44", "E", "D"]  # an edit halves back to the same
    charge = sheet.data["view"]["deals"][0]["lines"][0]["cells"]
    assert [c["mark"] for c in charge] == ["", "E", "D"]
    assert "E early show" in sheet.data["view"]["legend"]
    assert new_sheet(client, "kerala").data["buttons"]["E"] is None  # no halving at Kerala tables


def test_a_nepali_web_sheet_takes_a_wrong_show_at_the_full_count(client: TestClient) -> None:
    formats = {f["preset"]: f for f in client.get("/api/sheet-formats").json()["formats"]}
    assert formats["nepali"]["settings"]["wrong_show"] == 80  # the form pre-fills it
    sheet = new_sheet(client, "nepali")
    assert sheet.data["buttons"]["X"] == 80
    sheet.add("W", "X", "30")
    assert sheet.totals() == [110, -80, -30]


def test_a_points_web_sheet_is_open_ended_and_says_who_pays_whom(client: TestClient) -> None:
    formats = {f["preset"]: f for f in client.get("/api/sheet-formats").json()["formats"]}
    assert formats["indian"]["settings"]["rounds"] is None
    sheet = new_sheet(client, "points", settings={"point_value": 2})
    sheet.add("W", "20", "30")
    sheet.add("10", "W", "5")
    assert sheet.data["over"] is False and sheet.data["next"]["deal"] == 3
    assert sheet.data["settle_up"] == [
        {"payer": 1, "payee": 0, "amount": 10},
        {"payer": 2, "payee": 0, "amount": 70},
    ]
    assert sheet.data["view"]["settle_up"] == ["Bikash pays Asha ₹10", "Chandra pays Asha ₹70"]
    page = client.get(sheet.data["links"]["print"]).text
    assert "<li>Bikash pays Asha ₹10</li>" in page
    fixed = new_sheet(client, "points", settings={"rounds": 1})
    fixed.add("W", "20", "30")
    assert fixed.data["over"] is True
