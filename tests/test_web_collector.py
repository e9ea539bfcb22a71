"""The server's garbage collection (interpreter.web.collector): what lives is moved out of the collector's way
at each step, what was made since is collected, and the whole heap now and then, cycles frozen while alive
included."""
from __future__ import annotations

import gc
import weakref

from interpreter.web.collector import Collector


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it


def test_a_step_collects_what_was_made_since_and_freezes_what_lives_and_the_whole_heap_is_collected_in_time():
    gc.collect()
    try:
        c = Collector(every=1.0, whole=3600.0)
        kept, dropped = Node(), Node()
        gone = weakref.ref(dropped)
        del dropped
        c.step()
        assert gone() is None  # made since the last step and unreachable: collected
        assert gc.get_freeze_count() > 0 and gc.is_tracked(kept)
        frozen_at = gc.get_freeze_count()
        late = weakref.ref(kept)
        del kept  # a cycle frozen while alive: no step frees it until the whole heap is collected
        c.step()
        assert late() is not None and gc.get_freeze_count() >= frozen_at
        c.last_whole -= 3600.0
        c.step()
        assert late() is None
    finally:
        gc.unfreeze()
