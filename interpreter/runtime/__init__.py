"""Running a compiled game: sessions and procedures (`session`), the trigger and priority resolver
(`resolver`), finding and compiling games (`games`), logs and replay (`gamelog`). This is what an
embedder imports to run a game; it never imports the layers that draw a game or play it."""
__all__ = ["Result", "Session", "new_state"]


def __getattr__(name: str):
    # The session (and the compiler under it) is imported on first use, not with the package: a cold
    # `rules validate` needs only interpreter.runtime.games' finding of games.
    if name in __all__:
        from interpreter.runtime import session

        return getattr(session, name)
    raise AttributeError(f"module 'interpreter.runtime' has no attribute {name!r}")
