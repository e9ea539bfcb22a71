"""How a diagnostic names a file: by its path in its repository, the same whatever folder a command runs from.

A file inside a version-controlled folder (the nearest one up that holds `.git`, a folder or a worktree's file)
is named relative to that folder: `content/agot/rules/march.rules`, as the project's own files are listed. A
file of a game outside any repository is named from the game's folder: `my_game/rules/turn.rules`. Only a file
in neither reads as its absolute path. `real_path` finds the file a name stands for again (the language server
turns diagnostics into file addresses with it).
"""
from __future__ import annotations

from pathlib import Path

_MARK = ".git"
_GAME = "game.yaml"


def repository_of(path: Path) -> Path | None:
    """The nearest folder holding `path` that is a repository's top (it holds `.git`), or None."""
    for folder in path.parents:
        try:
            if (folder / _MARK).exists():
                return folder
        except OSError:
            return None
    return None


def shown_path(path: Path) -> str:
    """`path` as diagnostics name it (see the module)."""
    try:
        full = path.resolve()
    except (OSError, RuntimeError):
        return str(path)
    top = repository_of(full)
    if top is not None:
        return full.relative_to(top).as_posix()
    for folder in [full, *full.parents]:  # a game folder outside any repository: named from the folder holding it
        try:
            if (folder / _GAME).is_file():
                return full.relative_to(folder.parent).as_posix()
        except OSError:
            break
    return str(full)


def real_path(shown: str, near: Path | None = None) -> Path:
    """The file a shown path names: as it is (absolute), else under the repository or the folders around `near`
    (default: the working folder), the first where it exists."""
    path = Path(shown)
    if path.is_absolute():
        return path
    here = (near or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        candidate = folder / path
        try:
            if candidate.exists():
                return candidate.resolve()
        except OSError:
            break
    return (Path.cwd() / path).resolve()
