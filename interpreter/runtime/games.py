"""Finding a game by name or path, loading and compiling it once per process."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from dsl.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from dsl.inputs import read_text
from dsl.limits import deep_recursion
from dsl.loader import MANIFEST, ensure_loaded

if TYPE_CHECKING:
    from interpreter.codegen import CompiledGame

PROJECT_ROOT = Path(__file__).resolve().parents[2]  # interpreter/runtime/games.py -> the project
CONTENT_DIRS = (Path.cwd() / "content", PROJECT_ROOT / "content")

_compiled: dict = {}


def known_games() -> list[str]:
    names = set()
    for base in CONTENT_DIRS:
        if base.is_dir():
            names.update(p.parent.name for p in base.glob(f"*/{MANIFEST}"))
    return sorted(names)


def default_game() -> str:
    """The game a manifest marks `play_by_default`, else the first game found."""
    from dsl.yaml_records import load_yaml
    names = known_games()
    for name in names:
        root = locate(name)
        try:
            doc, _ = load_yaml(str(root / MANIFEST), read_text(root / MANIFEST, str(root / MANIFEST)))
        except DiagnosticError:
            continue  # validate reports it; it is just not the default
        if isinstance(doc.data, dict) and doc.data.get("play_by_default"):
            return name
    if not names:
        raise DiagnosticError([Diagnostic("USAGE", "no games under content/")])
    return names[0]


def locate(game: str) -> Path:
    """GAME is a folder name under content/ or a path to a game folder."""
    path = Path(game)
    try:
        if (path / MANIFEST).is_file():
            return path.resolve()
        if path.name == MANIFEST and path.is_file():
            return path.parent.resolve()
        for base in CONTENT_DIRS:
            if (base / game / MANIFEST).is_file():
                return (base / game).resolve()
    except (OSError, ValueError) as err:  # a name too long for the system, a NUL byte
        raise DiagnosticError([Diagnostic("USAGE", f"no game '{_clip(game)}' here: {err.strerror if isinstance(err, OSError) else err}")]) from None
    raise DiagnosticError([Diagnostic("USAGE", f"no game '{_clip(game)}' here", None,
                                      did_you_mean(game, known_games()) or f"games: {', '.join(known_games())}")])


def load_compiled(game: str, for_coverage: bool = False) -> CompiledGame:
    """The game compiled once per process; `for_coverage`: compiled apart for rule coverage (CompiledGame.for_coverage)."""
    root = locate(game)
    key = (root, True) if for_coverage else root
    if key not in _compiled:
        from interpreter.codegen import compile_game  # here: finding a game (validate) needs no compiler

        content = ensure_loaded(root)
        with deep_recursion():  # the parser bounds every AST's depth; compiling walks it recursively
            _compiled[key] = compile_game(content, for_coverage)
    return _compiled[key]


def _clip(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."
