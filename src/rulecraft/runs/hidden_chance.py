"""Whether what a seat observes depends on chance it may not see: another seat's dice.

The check is an information-set property, stated without the code that hides things: a game is played
again with the same moves and every die ``seat`` may not see (a roll recorded with ``seen_by`` that
leaves the seat out) turned to another face; until a rule shows those dice to the table (a ``show``
event naming their variable), the seat's view and its copy of the log must be the same in both games.
A public variable computed from hidden dice, a redaction that prints them, or a legal-move list that
depends on them makes the two differ, and the first difference is reported with where it is.

``rulecraft validate --simulate`` runs it on each game of a ruleset that rolls dice into a hidden
variable (``runs.invariants``), and the information-set tests run it on every ruleset with dice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.engine.phases.dice import dice_targets
from rulecraft.engine.views import redact_event
from rulecraft.errors import RulecraftError, SourcePos

if TYPE_CHECKING:
    from rulecraft.engine.ruleset import Ruleset
    from rulecraft.engine.state import State

MAX_COMPARED = 2_000  # moves of a game compared at most (the twin game is played again move by move)


def hidden_dice(rs: Ruleset) -> dict[str, int]:
    """The variables dice are rolled into that some seat may not see, with their dice's sides."""
    return {rs.variables[vi].name: sides for vi, sides in dice_targets(rs) if rs.variables[vi].visibility != "all"}


def twin_chance(rs: Ruleset, chance: list[dict[str, Any]], seat: int) -> tuple[list[dict[str, Any]], set[str]]:
    """The chance outcomes with every die ``seat`` may not see turned to the next face, and the variables
    those dice went into (empty when the seat may see every die).

    Which dice the seat may not see is read from the declarations (the variable a roll went into, its
    visibility and which entry), not from the ``seen_by`` the engine recorded: a roll the engine wrongly
    took to be public is still turned, and the difference shows in the seat's log."""
    sides_of = hidden_dice(rs)
    out: list[dict[str, Any]] = []
    changed: set[str] = set()
    for e in chance:
        e = dict(e)
        name, _, rest = str(e.get("set", "")).partition("[")
        if e.get("kind") == "dice" and name in sides_of and _hidden_from(rs, e, name, rest.rstrip("]"), seat):
            e["dice"] = [int(f) % sides_of[name] + 1 for f in e.get("dice") or ()]
            changed.add(name)
        out.append(e)
    return out, changed


def _hidden_from(rs: Ruleset, event: dict[str, Any], name: str, entry: str, seat: int) -> bool:
    """Whether the dice of ``event`` (rolled into variable ``name``, entry ``entry``) are hidden from ``seat``
    by the variable's declaration (a single value with an owner: by who the engine recorded it for)."""
    var = rs.variables[rs.var_index[name]]
    if var.visibility == "nobody":
        return True
    if var.per == "seat":
        return entry != str(seat)
    if var.per == "team":
        return entry != str(rs.seats.team_of[seat])
    seen_by = event.get("seen_by")
    return isinstance(seen_by, list) and seat not in seen_by


def chance_leak(rs: Ruleset, seed: int, history: list[dict[str, Any]], seat: int, max_hands: int | None = None,
                observe: Callable[[State, int], Any] | None = None) -> tuple[str, SourcePos | None] | None:
    """The first place where ``seat``'s observations of the game ``history`` records (played under ``rs``
    from ``seed``) depend on dice it may not see, as (message, where the rule at fault is written); None
    when they never do. ``observe(state, seat)``, when given, is one more observation compared after
    every move (what a research adapter or a replay shows the seat)."""
    from rulecraft.engine.game import Game

    chance = [e for e in history if e.get("type") == "chance"]
    twin, changed = twin_chance(rs, chance, seat)
    if not changed:
        return None
    moves = [str(e.get("move")) for e in history if e.get("type") == "move"][:MAX_COMPARED]
    try:
        a = Game(rs, seed, max_hands).new_state(chance=[dict(e) for e in chance])
        b = Game(rs, seed, max_hands).new_state(chance=twin)
    except RulecraftError:  # the twin's dice lead the rules elsewhere at once: nothing to compare
        return None
    where = "before the first move"
    logged = [0]  # events of both games' logs already compared (the same, or a difference was reported)
    for i in range(len(moves) + 1):
        if _shows(a, changed, logged[0]):
            return None  # the rules showed the dice to the table: from here on the seat may tell them apart
        found = _difference(a, b, seat, logged)
        if found is None and observe is not None and observe(a, seat) != observe(b, seat):
            found = ("observation", None)
        if found is not None:
            path, pos = found
            names = ", ".join(sorted(changed))
            return (f"what seat {seat} is shown depends on dice it may not see (rolled into {names}): its {path}, "
                    f"{where}; declare what the rules compute from hidden dice hidden too, or show the dice first",
                    pos)
        if i == len(moves) or a.is_over or b.is_over:
            return None
        try:
            a.apply(moves[i])
            b.apply(moves[i])
        except RulecraftError:  # the twin's dice do not allow a move of the game's: they part here
            return None
        where = f"after move {i + 1} ({moves[i]})"
    return None


def _shows(st: State, names: set[str], since: int) -> bool:
    """Whether a ``show`` since event ``since`` has made any of the variables ``names`` (or an entry of one)
    public."""
    return any(e.get("type") == "show" and any(label.partition("[")[0] in names for label in e.get("variables") or ())
               for e in st.history[since:])


def _difference(a: State, b: State, seat: int, logged: list[int]) -> tuple[str, SourcePos | None] | None:
    """Where ``seat``'s view or copy of the log differs between the two games (None: nowhere). The logs
    are compared from event ``logged[0]`` on, which then moves to their end."""
    found = _first_difference(a.view(seat), b.view(seat), "")
    if found is not None:
        pos = None
        parts = found.split(".")
        if len(parts) > 1 and parts[0] == "variables" and parts[1].partition("[")[0] in a.rs.var_index:
            pos = a.rs.variables[a.rs.var_index[parts[1].partition("[")[0]]].pos
        return f"view at {found}", pos
    start = logged[0]
    log_a = [redact_event(e, seat) for e in a.history[start:]]
    log_b = [redact_event(e, seat) for e in b.history[start:]]
    logged[0] = len(a.history)
    for n, (x, y) in enumerate(zip(log_a, log_b, strict=False)):
        if x != y:
            return f"copy of the log (event {start + n + 1}: {x} against {y})", None
    if len(log_a) != len(log_b):
        return "copy of the log (how many events it holds)", None
    return None


def _first_difference(x: Any, y: Any, path: str) -> str | None:
    if isinstance(x, dict) and isinstance(y, dict):
        for key in sorted(set(x) | set(y), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in x or key not in y:
                return where
            found = _first_difference(x[key], y[key], where)
            if found is not None:
                return found
        return None
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y, strict=True)):
            found = _first_difference(p, q, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if x == y else path
