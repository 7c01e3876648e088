"""The garbage collector of a long-running bot process: set once start-up is done.

CPython's full collection walks every object the process has, and it runs every few seconds
under load: with the 60,000-odd objects of a started bot (discord.py, the engines, the
rule books, the command tree) each one stopped the event loop for 30–50 ms, and every click
waiting at that moment waited that long too. Freezing what start-up made moves it out of the
collector's reach for good (it lives as long as the process anyway), so a full collection
only walks what was made since: a few milliseconds. Nothing is kept that would otherwise be
freed: start-up's garbage is collected first.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)


def settle() -> int:
    """Collect start-up's garbage, then freeze what is left; the number of objects frozen."""
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.debug("Froze %d objects made at start-up out of the garbage collector's way", frozen)
    return frozen
