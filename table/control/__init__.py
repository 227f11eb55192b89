"""Control: input in context turned into commands.

Owns the controller (who acts, which prompt is open), the typed prompts and one module per prompt
family, the state JSON, and assembling a table from its config (catalog, registry, journal,
controller). It asks the engine what is legal; it keeps no copy of a rule.

May import: engine, cards, drivers, table.config, table.storage and table.session.
"""
