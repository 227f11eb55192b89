"""App: the run loop and the enroll wizard on real or simulated hardware.

Owns opening the drivers a config names, the idle loop that sleeps until something happens
(``run.TableLoop``), the systemd notifications, standard input as table-script lines, and the
enroll wizard's loop. Opening the screen itself (is there one, which SDL driver, the Display for
the config) is ``table.ui.screen``'s, shared with simulate.

May import every layer below: engine, cards, drivers, table.config, table.storage, table.session,
table.control, table.league, table.ui, table.web and table.sim. Only the command line imports it.
"""
