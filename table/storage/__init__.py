"""Storage: everything the table keeps on disk, and the only package that imports ``sqlite3``.

Owns the state directory's files and its lock, the journal (schema, checksums, reading, writing,
snapshots, repair and salvage), the per-game facts kept beside it, and the doctor's journal check.
It knows nothing of input, screens or words.

It may import: engine, cards, drivers and table.config. Nothing else of table/.

The modules, each named by what it owns:

* ``paths`` — the state directory's file names, the table's locks (``hold_table_lock``: ``table.lock``
  and the directory; ``hold_file_lock``: the journal file itself) and their probe (``table_running``).
* ``marker`` — what the box knows of its game outside the journal (``journal.known.json``, and a
  second name of the journal's file): a journal found empty or missing is said, never silent.
* ``schema`` — both schemas of the journal file (the journal's tables, ``game_record`` and ``game_fact``) and
  every checksum: ``row_ok`` is the one check of a command row.
* ``faults`` — a fault (the disk refuses) told apart from damage; ``JournalError``,
  ``JournalFault``, ``fault()``, ``describe_fault()``.
* ``evidence`` — a verdict only on evidence: re-reads through fresh connections before a failing
  read is called damage, and the file looked at afresh after a failed write.
* ``reading`` — the two ways in (the live connection; read-only beside the files or from a private
  copy of a left ``-wal``), the quick start and the full read of every good row.
* ``writing`` — one transaction per change: a game, a command, a snapshot, an undo.
* ``snapshots`` — snapshot rows stored and checked.
* ``repair`` — a damaged file kept aside byte for byte, a clean journal built in its place (every
  row whose checksum holds, those after a hole numbered on), a private copy whose damaged schema is
  written again.
* ``journal`` — ``Journal``, the object the session holds, over all of the above; ``JournalFile``, its
  file as held for writing (lock, identity, marker, written anew when deleted under the table).
* ``facts`` — the ``game_record`` and ``game_fact`` tables: ``FactsStore`` and the reads of history and
  stats.
* ``outbox`` — the league's outbox (``league_outbox``): rows put in the transaction of their action,
  read and cleared by the publisher's own connection.
* ``doctor`` — ``check_journal``, the doctor's look at the saved games.
* ``seats`` — ``SeatFile``: who holds which seat's pad, a small JSON file beside the journal.

A new table in the journal file: its ``CREATE TABLE IF NOT EXISTS`` goes in ``schema`` (a table the
journal cannot do without also in ``JOURNAL_TABLES``; one the journal can rebuild, like
``game_record``, in a schema of its own created on first write), its checksum beside the others
there, and its reads and writes in a module of this package named by what it holds. A repair
copies only the journal's own tables; a summary table must be one the session can rebuild.
"""
