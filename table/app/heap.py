"""The heap once the table has started, and the collector off the taps' path.

What the table builds to run (the catalog, the fonts and their caches, the screens' panels, the web
view and the league's modules when they are on) lives as long as the process. Left to the cyclic
collector, every full pass scans all of it again, and that pass lands on whichever tap happens to
allocate past the threshold. ``settle`` collects once and freezes what survived (``gc.freeze``), so a
full pass scans only what the game made since.

The collector still runs on its own when a generation's count passes its threshold, and that is
inside whatever allocates: a tap's handling or its frame (a young pass cost ~0.45 ms at 1080p in
the latency game, an old one ~1.3 ms, a full one ~11 ms). ``collect_while_idle``, which the run
loop calls when it is about to sleep, runs the generation that is half way to its threshold
there instead, so a tap rarely crosses one. The collector stays on: a table that never idles
(a script piped in) is collected as before.
"""

from __future__ import annotations

import gc


def settle() -> int:
    """Collect, then take every object alive now out of the collector's passes; how many."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def collect_while_idle() -> int | None:
    """Collect the oldest generation whose count is half its threshold or more (a generation's
    count: allocations less frees for the youngest, the younger one's passes since for the
    others), before a tap takes it past; which one, or None when none is near."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if thresholds[generation] > 0 and counts[generation] * 2 >= thresholds[generation]:
            gc.collect(generation)
            return generation
    return None
