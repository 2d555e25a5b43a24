"""Where every seat stands in the match now: the ruleset's ``match.score`` expression, per seat.

Searches score playouts by it and simulations follow who leads hand by hand, without either
knowing what a game's score means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulecraft.engine.state import State


def match_scores(st: State) -> list[float]:
    """Every seat's match score: the result's once the match is over, else the expression evaluated now."""
    if st.is_over and st.result is not None:
        return [float(v) for v in st.result["scores"]]
    assert st.rs.match is not None
    ctx = st.ctx
    out = []
    for s in range(st.rs.seats.count):
        ctx.bind["seat"] = s
        out.append(float(st.rs.match.score(ctx)))
    ctx.bind.pop("seat", None)
    return out


def leader(scores: list[float], team_of: tuple[int, ...]) -> int | None:
    """The team strictly ahead of every other team (None when the top is shared across teams)."""
    best = max(scores)
    teams = {team_of[s] for s, v in enumerate(scores) if v == best}
    return next(iter(teams)) if len(teams) == 1 else None
