"""Files named on the command line, which may be the bundled ones wherever rulecraft runs.

``rulecraft validate variants/`` and ``rulecraft test tests/scenarios/my-game`` work in a checkout
and, after ``pip install``, from any directory: a path that does not exist here but names bundled
files (``variants/...``, ``tests/scenarios/...``, a ruleset's name) means those. With no path at
all, the commands take every bundled file of their kind.
"""

from __future__ import annotations

from pathlib import Path

from rulecraft.errors import UsageError, clip
from rulecraft.rules.registry import bundled_input


def input_paths(paths: tuple[str, ...], default: Path, scenarios: bool = False) -> list[Path]:
    """The paths to read: each as given when it exists, else the bundled files it names. With
    ``scenarios`` (``rulecraft test``), a bundled ruleset's name (``my-game``, ``my-game/house``) means
    that game's scenarios, not its rule file: a rule file is not something ``test`` can run."""
    if not paths:
        return [default]
    out: list[Path] = []
    for text in paths:
        path = Path(text)
        if _exists(path):
            out.append(path)
            continue
        bundled = bundled_input(text)
        if scenarios and bundled is not None and bundled.is_file() and not Path(text).suffix:
            game = (default / Path(text).parts[0])
            bundled = game if game.is_dir() else None
        if bundled is None:
            raise UsageError(f"no such file or directory: {text} (nor bundled files of that name: try "
                             "'variants/', a bundled ruleset's name, or 'tests/scenarios/GAME')")
        out.append(bundled)
    return out


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError as exc:  # a name the system cannot look up at all (too long, say)
        raise UsageError(f"{clip(path)}: {exc.strerror or exc}") from None
