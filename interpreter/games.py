"""Finding a game by name or path, loading and compiling it once per process."""
from __future__ import annotations

from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from dsl.loader import MANIFEST, ensure_loaded
from interpreter.codegen import CompiledGame, compile_game

PROJECT_ROOT = Path(__file__).resolve().parent.parent
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
        doc, _ = load_yaml(str(root / MANIFEST), (root / MANIFEST).read_text(encoding="utf-8"))
        if isinstance(doc.data, dict) and doc.data.get("play_by_default"):
            return name
    if not names:
        raise DiagnosticError([Diagnostic("USAGE", "no games under content/")])
    return names[0]


def locate(game: str) -> Path:
    """GAME is a folder name under content/ or a path to a game folder."""
    path = Path(game)
    if (path / MANIFEST).is_file():
        return path.resolve()
    if path.name == MANIFEST and path.is_file():
        return path.parent.resolve()
    for base in CONTENT_DIRS:
        if (base / game / MANIFEST).is_file():
            return (base / game).resolve()
    raise DiagnosticError([Diagnostic("USAGE", f"no game '{game}' here", None,
                                      did_you_mean(game, known_games()) or f"games: {', '.join(known_games())}")])


def load_compiled(game: str) -> CompiledGame:
    root = locate(game)
    if root not in _compiled:
        _compiled[root] = compile_game(ensure_loaded(root))
    return _compiled[root]
