"""League: many tables, one league, through an MQTT broker (issue 25).

Owns the topics (``topics``), the paho-mqtt client as the config asks for it and the words for what
goes wrong connecting (``connection``), the box's publisher on its own threads (``publisher``: the
outbox sent and cleared on PUBACK, the state rate-limited, online with a last will), the reading of
every table's retained messages (``watch``, into the plain data of ``model``), the standings across
the league (``standings``, the ``stats`` fold of every table's tallies), the box's look at what the
broker still holds of its games on every connect (``heal``), ``league backfill``'s games played before
``[league]`` was set (``backfill``) and the doctor's check of the broker (``doctor``). ``model``,
``standings`` and ``extra`` (the one line when paho-mqtt is not installed) import no paho: the pages
and the board read them.

paho-mqtt is imported here only, and only when ``[league]`` names a broker. Off, nothing here runs.

May import: engine, cards, drivers, table.config, table.storage, table.session and table.control.
"""
