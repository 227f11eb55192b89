"""Storage: everything the table keeps on disk, and the only package that imports ``sqlite3``.

Owns the state directory's files and its lock, the journal (schema, checksums, reading, writing,
snapshots, repair and salvage), the per-game facts kept beside it, and the doctor's journal check.
It knows nothing of input, screens or words.

May import: engine, cards, drivers and table.config. Nothing else of table/.
"""
