"""The rules a climbing round reads beside its plays: what a play does (``on_play``), where a round's
pieces go (``capture``), the plays made out of turn (``interrupt``) and the calls made on a turn
(``calls``), built from the rule file; and the names its expressions read (``climb_scope``).

``climb.py`` plays them; this module only says what they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.dsl import CompiledExpr, Scope, T
from rulecraft.engine.effects import Effect, compile_effects
from rulecraft.engine.phases.values import ChoiceSpec, build_choice

if TYPE_CHECKING:
    from rulecraft.engine.builder import Builder
    from rulecraft.engine.combos import ComboSpec
    from rulecraft.engine.equipment import Equipment

VERBS = ("name", "bid")  # the verbs a seat names a value with (as in each_seat and shed)


@dataclass(frozen=True, slots=True)
class GiveSpec:
    """A play's item that makes its player pass pieces on: ``count`` of them, one ``give`` at a time,
    to the hand of the seat ``to`` names, or (``zone``) onto a shared zone, face up; with ``up_to`` the
    player may stop sooner (``pass``)."""

    count: CompiledExpr
    to: CompiledExpr | None
    zone: str | None
    up_to: bool


@dataclass(frozen=True, slots=True)
class PlayEffect:
    """One item of ``on_play``: when ``when`` holds for the play just made, ``clear`` the round,
    ``skip`` seats, run ``effects``, make the player ``choose`` a value or ``give`` pieces, and say who
    leads the next round (``lead``)."""

    id: str
    when: CompiledExpr | None
    clear: bool
    skip: CompiledExpr | None
    effects: tuple[Effect, ...]
    counted: bool = False  # whether the rule file gave it an id (then `fired` counts it)
    choose: ChoiceSpec | None = None
    give: GiveSpec | None = None
    lead: CompiledExpr | None = None


@dataclass(frozen=True, slots=True)
class CaptureSpec:
    """Where a round's pieces go when it ends: the per-seat zone ``to`` of the seat ``seat`` names
    (default: the round's winner), after the winner names a value (``choose``) when its ``when`` holds."""

    to: str
    seat: CompiledExpr | None
    choose: ChoiceSpec | None
    choose_when: CompiledExpr | None


@dataclass(frozen=True, slots=True)
class TurnCall:
    """A call a seat may make on its turn (``call ID``), when ``when`` holds; the turn stays its own."""

    id: str
    when: CompiledExpr
    effects: tuple[Effect, ...]


def _play_at(c: Any, back: int) -> list[int]:
    plays = c.st.pdata.plays
    return list(plays[-back].pieces) if len(plays) >= back else []


def _equalled(c: Any) -> bool:
    d = c.st.pdata
    return len(d.plays) >= 2 and d.classes[-1] == d.classes[-2] and d.strengths[-1] == d.strengths[-2]


def climb_scope(parent: Scope) -> Scope:
    s = Scope(parent=parent, name="climbing round")
    s.add_name("finished", T.LIST, getter=lambda c: list(c.st.pdata.finished), elem=T.SEAT,
               doc="the seats that have gone out, in order")
    s.add_name("passed", T.LIST, getter=lambda c: list(c.st.pdata.passed), elem=T.SEAT,
               doc="the seats that passed since the last play (with pass_final: this round)")
    s.add_name("last_player", T.SEAT,
               getter=lambda c: c.st.pdata.seats[-1] if c.st.pdata.seats else None,
               doc="the seat that made the last play of the round")
    s.add_name("last_play", T.LIST, getter=lambda c: _play_at(c, 1), elem=T.PIECE,
               doc="the pieces of the round's latest play (empty before the lead)")
    s.add_name("play_before", T.LIST, getter=lambda c: _play_at(c, 2), elem=T.PIECE,
               doc="the pieces of the play before the round's latest one (empty if there is none)")
    s.add_name("equalled", T.BOOL, getter=_equalled,
               doc="whether the round's latest play only equalled the one before it (of its class and strength)")
    s.add_name("out_of_turn", T.BOOL, getter=lambda c: bool(c.st.pdata.interrupted),
               doc="whether the round's latest play was made out of turn (an interrupt)")
    return s


def build_play_effect(b: Builder, rs: Equipment, raw: dict[str, Any], i: int, scope: Scope, what: str) -> PlayEffect:
    pid = str(raw.get("id", f"on-play-{i + 1}"))
    w = f"{what} on_play '{pid}'"
    if not any(raw.get(k) for k in ("clear", "skip", "effects", "choose", "give", "lead")):
        b.error(raw, f"{w} does nothing: give it 'clear: true', 'skip', 'effects', 'choose', 'give' or 'lead'")
    give = None
    if raw.get("give") is not None:
        spec = raw["give"]
        zone = str(spec["zone"]) if spec.get("zone") is not None else None
        if zone is not None:
            b.shared_zone(zone, rs.zone_by_name, "the zone a play's pieces are given to")
        if zone is not None and "to" in spec:
            b.error(spec, f"{w} gives to a seat ('to') or onto a zone ('zone'), not both")
        give = GiveSpec(b.expr(spec.get("count", 1), scope, T.NUMBER, f"{w} give count"),
                        b.expr(spec["to"], scope, T.SEAT, f"{w} give to") if "to" in spec else None,
                        zone, bool(spec.get("up_to", False)))
    return PlayEffect(
        pid,
        b.expr(raw["when"], scope, T.BOOL, w) if "when" in raw else None,
        bool(raw.get("clear", False)),
        b.expr(raw["skip"], scope, T.NUMBER, w) if "skip" in raw else None,
        compile_effects(b, rs, raw.get("effects", ()), scope, w),
        "id" in raw,
        build_choice(b, rs, raw["choose"], scope, w, VERBS) if raw.get("choose") is not None else None,
        give,
        b.expr(raw["lead"], scope, T.SEAT, f"{w} lead") if "lead" in raw else None,
    )


def build_capture(b: Builder, rs: Equipment, raw: dict[str, Any], scope: Scope, what: str) -> CaptureSpec:
    to = str(raw.get("to", "won"))
    if b.ref(raw.get("to", "won"), rs.zone_by_name, "zone") and rs.zone_by_name[to].per != "seat":
        b.error(raw.get("to", raw), f"'{to}' must be a per-seat zone: a round's pieces go to one seat's '{to}'")
    choose = raw.get("choose")
    return CaptureSpec(
        to,
        b.expr(raw["seat"], scope, T.SEAT, f"{what} capture seat") if "seat" in raw else None,
        build_choice(b, rs, choose, scope, f"{what} capture", VERBS) if choose is not None else None,
        b.expr(choose.get("when", "true"), scope, T.BOOL, f"{what} capture choose when")
        if choose is not None else None,
    )


def build_calls(b: Builder, rs: Equipment, raw: Any, scope: Scope, what: str) -> tuple[TurnCall, ...]:
    out = []
    for item in raw or ():
        cid = str(item.get("id", ""))
        w = f"{what} call '{cid}'"
        out.append(TurnCall(cid, b.expr(item.get("when", "true"), scope, T.BOOL, w),
                            compile_effects(b, rs, item.get("effects", ()), scope, w)))
    return tuple(out)


def build_interrupt(b: Builder, rs: Equipment, raw: dict[str, Any], combos: dict[str, ComboSpec],
                    what: str) -> tuple[ComboSpec, ...]:
    """The combinations a seat may play out of turn, each a combination the phase plays."""
    out = []
    for name in raw.get("combinations", ()):
        if b.ref(name, combos, f"combination of {what}"):
            out.append(combos[str(name)])
    if not out:
        b.error(raw, f"{what} interrupt needs 'combinations': the plays that may be made out of turn (a bomb)")
    return tuple(out)


__all__ = ["CaptureSpec", "GiveSpec", "PlayEffect", "TurnCall", "build_calls", "build_capture", "build_interrupt",
           "build_play_effect", "climb_scope"]
