"""Session: the game as the journal has it, with no input and no words.

Owns resuming, starting and submitting a game (apply, append, push, facts), the undo history, the
pure fold of a game's facts and the descriptions of events as messages (data, not text).

May import: engine, cards, drivers, table.config and table.storage.
"""
