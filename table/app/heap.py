"""The heap once the table has started.

What the table builds to run (the catalog, the fonts and their caches, the screens' panels, the web
view and the league's modules when they are on) lives as long as the process. Left to the cyclic
collector, every full pass scans all of it again, and that pass lands on whichever tap happens to
allocate past the threshold. ``settle`` collects once and freezes what survived (``gc.freeze``), so a
full pass scans only what the game made since.
"""

from __future__ import annotations

import gc


def settle() -> int:
    """Collect, then take every object alive now out of the collector's passes; how many."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
