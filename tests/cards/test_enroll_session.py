"""EnrollmentSession: the whole deck copy by copy, skips, undo, refusals and restarts."""

from __future__ import annotations

from pathlib import Path

from cards.enroll import PROGRESS_FILE, EnrollmentSession
from cards.tags import TagRegistry


def uid(n: int) -> str:
    return f"04{n:012X}"


def session(tmp_path: Path, catalog, **kw) -> EnrollmentSession:
    return EnrollmentSession(catalog, TagRegistry(tmp_path / "tags.csv"), tmp_path / PROGRESS_FILE, **kw)


def test_whole_deck_is_174_taps(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog)
    assert s.total == 174
    first = s.current()
    assert first is not None and (first.card, first.number) == ("player-1", 1)
    assert s.prompt() == "tap player token 1 — 1 of 174"
    seen = []
    for n in range(1, 175):
        step = s.current()
        assert step is not None and step.number == n
        seen.append(step.card)
        assert s.tap(uid(n)).kind == "bound"
    assert s.is_finished and s.done == 174 and s.progress == 1.0
    assert s.prompt() == "all 174 enrolled: the deck is ready"
    registry = TagRegistry(tmp_path / "tags.csv")
    assert len(registry) == 174
    assert len(registry.uids_of("thief")) == catalog["thief"].copies == 3
    assert seen[:6] == [f"player-{i}" for i in range(1, 7)]
    assert seen.count("thief") == 3


def test_copies_are_counted_in_the_prompt(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog, tokens=False)
    while s.current().card != "thief":
        s.skip()
    step = s.current()
    assert s.prompt() == f"tap Thief (copy 1 of 3) — {step.number} of 168"
    s.tap(uid(1))
    assert s.current().label == "Thief (copy 2 of 3)"
    result = s.tap(uid(1))                      # the same copy twice
    assert not result.ok and "already enrolled as Thief; tap the next copy" in result.message


def test_tag_of_another_card_is_refused_naming_it(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog)
    s.tap(uid(1))                               # player token 1
    result = s.tap(uid(1))
    assert not result.ok and "already belongs to player token 1" in result.message
    assert "tap player token 2 instead" in result.message
    s.tap(uid(2))
    s.registry.bind(uid(99), "plutonium-dragon")
    result = s.tap(uid(99))
    assert not result.ok and "already belongs to Plutonium Dragon (monster)" in result.message
    assert s.current().card == "player-3"


def test_skip_and_undo(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog)
    s.tap(uid(1))
    s.skip()
    assert s.current().card == "player-3" and s.skipped_count == 1
    s.tap(uid(3))
    assert s.undo().kind == "undone"            # takes back player-3's tag
    assert s.registry.lookup(uid(3)) is None and s.current().card == "player-3"
    assert s.undo().kind == "undone"            # un-skips player-2
    assert s.current().card == "player-2"
    s.undo()
    assert s.current().card == "player-1" and len(s.registry) == 0
    assert not s.undo().ok


def test_skipped_copies_come_back_at_the_end(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog)
    s.skip()
    for n in range(2, 175):
        s.tap(uid(n))
    assert s.is_finished and s.done == 173
    assert "1 skipped: NEXT goes back to them" in s.prompt()
    assert s.skip().kind == "revisit"
    assert s.current().card == "player-1"
    s.tap(uid(1))
    assert s.is_finished and s.done == 174


def test_restart_half_way_resumes_with_skips_and_undo(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog)
    for n in range(1, 80):
        s.tap(uid(n))
    s.skip()
    s.tap(uid(81))
    where = s.current()

    again = session(tmp_path, catalog)         # a new process: registry and progress file from disk
    assert again.current() == where
    assert again.done == 80 and again.skipped_count == 1
    assert again.undo().kind == "undone"
    assert again.registry.lookup(uid(81)) is None
    for n in range(where.number - 1, 175):
        again.tap(uid(n + 1000))
    assert again.is_finished and again.skipped_count == 1


def test_tags_imported_elsewhere_count_as_enrolled(tmp_path: Path, catalog) -> None:
    registry = TagRegistry(tmp_path / "tags.csv")
    registry.bind_many([(uid(i), f"player-{i}") for i in range(1, 7)] + [(uid(7), "3872-orcs")])
    s = EnrollmentSession(catalog, registry, tmp_path / PROGRESS_FILE)
    assert s.done == 7 and s.current().number == 8


def test_damaged_progress_file_keeps_registry(tmp_path: Path, catalog) -> None:
    s = session(tmp_path, catalog)
    s.tap(uid(1))
    (tmp_path / PROGRESS_FILE).write_text("{not json")
    again = session(tmp_path, catalog)
    assert again.done == 1 and again.current().card == "player-2"


def test_one_set_only(tmp_path: Path) -> None:
    from cards.loader import load_catalog, set_files

    catalog = load_catalog(set_files([Path(__file__).with_name("fixtures") / "tiny_expansion.toml"]))
    s = session(tmp_path, catalog, set_id="tiny", tokens=False)
    assert s.total == 3
    assert s.prompt() == "tap Plastic Dragon (copy 1 of 2) — 1 of 3"
