"""An action is stored with one read of its game's last sequence number, inside its transaction (the
read before the transaction it used to make as well was the same number, a statement per tap)."""

from __future__ import annotations

from pathlib import Path

from tests.storage.test_fault_syncs import a_legal_command
from tests.table.storage_helpers import close_table, play_game


def test_an_action_reads_its_games_last_number_once(tmp_path: Path) -> None:
    table = play_game(tmp_path / "state", 5)
    try:
        session = table.controller.session
        db = session.journal.db
        statements: list[str] = []
        db.set_trace_callback(statements.append)
        assert session.submit(a_legal_command(table)).__class__.__name__ == "Saved"
        db.set_trace_callback(None)
        reads = [s for s in statements if "MAX(seq)" in s]
        assert len(reads) == 1, statements
        begin = next(i for i, s in enumerate(statements) if s.startswith("BEGIN"))
        assert statements.index(reads[0]) > begin                 # inside the transaction
        assert len(session.history) == 6
    finally:
        close_table(table)
