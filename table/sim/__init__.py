"""Sim: table scripts and the simulated table that plays them headless.

Owns parsing a table script (with the header ``export`` writes), the simulated-table harness that
``simulate`` and ``export`` share, and ``export`` itself.

May import: engine, cards, drivers, table.config, table.storage, table.session, table.control,
table.league, table.ui and table.web.
"""
