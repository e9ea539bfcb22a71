"""Running a compiled game: sessions and procedures (`session`), the trigger and priority resolver
(`resolver`), finding and compiling games (`games`), logs and replay (`gamelog`). This is what an
embedder imports to run a game; it never imports the layers that draw a game or play it."""
from interpreter.runtime.session import Result, Session, new_state

__all__ = ["Result", "Session", "new_state"]
