"""Rule scenarios: a ruleset, a fixed arrangement, moves, and what must then be true.

A scenario file (see ``schemas/scenario.schema.json``)::

    name: bird-may-be-played-any-time
    rule: "The joker may be played even when able to follow suit"
    source: "seed 002_616114f318d39c88.txt"
    ruleset: my-game
    options: {bird_rank: lowest}
    deal: {"hand[0]": [red-14, ...], nest: [...]}   # zone contents after the first deal
    dice: [[3, 4]]                                   # dice outcomes, in order
    given: {vars: {score: [290, 280]}}               # variables set before the first move
    steps:
      - bid 70                                       # a move by whoever is to act
      - [play red-14, play green-5, play black-5]    # several moves in a row (one trick)
      - {move: "play red-5", seat: 1, refused: "follow the led suit"}
      - {expect: {to_act: 2, tricks: [1, 0, 0, 0]}}
    expect: {winners: [0, 2], scores: [...]}

The arrangement is realised by dealing once with the deck in a known order, seeing where each
position of the deck lands, and ordering the deck so the named pieces land where they are asked
for; so it works for any dealing procedure, wall or pickup, without knowing how it deals.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.engine.game import Game
from rulecraft.engine.moves import Move, split_move_text
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.errors import (
    Diagnostic,
    GivenChanceError,
    IllegalMoveError,
    RulecraftError,
    RuleFileError,
    SourcePos,
    UsageError,
)
from rulecraft.load import load_ruleset
from rulecraft.rules.located import pos_of

_ZONE = re.compile(r"^([A-Za-z_][\w-]*)(?:\[(\d+)\])?$")


@dataclass
class ScenarioResult:
    path: str
    name: str
    rule: str
    failures: list[str] = field(default_factory=list)
    # How often each rule with an id fired over the whole scenario (``State.fired``), for coverage.
    fired: dict[str, int] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not self.failures


class ScenarioFailure(Exception):
    pass


# Keys only a rule file (a ruleset or an overlay) has, never a scenario: a game that is not bundled
# keeps its rule file beside its scenarios, and that file is not a scenario.
_RULE_FILE_KEYS = ("extends", "hand", "seats", "pieces", "zones")


def is_rule_file(data: Any) -> bool:
    """Whether loaded YAML is a rule file rather than a scenario (it names no ``ruleset:``)."""
    return isinstance(data, dict) and "ruleset" not in data and any(k in data for k in _RULE_FILE_KEYS)


def load_scenario(path: str | Path) -> dict[str, Any]:
    from rulecraft.rules.yamlload import load_yaml_file

    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise RuleFileError.single(SourcePos(str(path), 1, 1), "a scenario file is a mapping")
    if is_rule_file(data):
        raise RuleFileError.single(SourcePos(str(path), 1, 1),
                                   "this is a rule file, not a scenario (a scenario names its 'ruleset:'); "
                                   "check it with 'rulecraft validate'")
    from rulecraft.rules.schema_check import check_scenario

    check_scenario(data, str(path))
    return data


def run_scenario_file(path: str | Path) -> ScenarioResult:
    data = load_scenario(path)
    return run_scenario(data, str(path))


def _resolve_ref(ref: str, base: str) -> str:
    """A scenario's ruleset: a bundled name, or a path relative to the scenario file."""
    if ref.endswith((".yaml", ".yml", ".rules")):
        candidate = Path(base).parent / ref
        try:
            if candidate.exists():
                return str(candidate)
        except OSError:  # a name the system cannot look up (too long, say): no file, said where it is named
            pass
    return ref


def scenario_ruleset(data: dict[str, Any], path: str) -> tuple[str, dict[str, str], str | None]:
    """The ruleset a scenario plays, as ``load_ruleset`` takes it: (ruleset, options, preset)."""
    options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    preset = data.get("preset")
    return _resolve_ref(str(data["ruleset"]), path), options, str(preset) if preset is not None else None


def scenario_rules(data: dict[str, Any], path: str) -> Ruleset:
    """The ruleset a scenario plays, loaded; an unknown ruleset, option, choice or preset is a problem
    of the scenario file, reported where the scenario names it (not a usage error of the command)."""
    try:
        return load_ruleset(*scenario_ruleset(data, path))
    except UsageError as exc:
        raise RuleFileError.single(pos_of(_named_in(data, str(exc)), SourcePos(path, 1, 1)), str(exc)) from None


def _named_in(data: dict[str, Any], message: str) -> Any:
    """The place in a scenario that a loading refusal is about: the option, its choice, the preset."""
    options = data.get("options") or {}
    for key, value in options.items():
        if message.startswith(f"unknown option '{key}'"):
            return key
        if message.startswith(f"option '{key}' has no choice"):
            return value
    if "preset" in data and message.startswith("unknown preset"):
        return data["preset"]
    return data.get("ruleset", data)


def scenario_problems(data: dict[str, Any], path: str) -> list[Diagnostic]:
    """What ``rulecraft validate`` finds in a scenario without playing it: the ruleset, options and
    preset it names, the zones and pieces of its deal, the variables it sets and expects, and the
    verbs and pieces of its moves, each at the place the scenario writes it."""
    try:
        rs = scenario_rules(data, path)
        start_arranged(rs, data)  # zones and pieces of the deal, and whether they fit
    except RuleFileError as exc:
        return list(exc.diagnostics)
    out: list[Diagnostic] = []

    def problem(where: Any, message: str) -> None:
        out.append(Diagnostic(pos_of(where, SourcePos(path, 1, 1)), message))

    for name in ((data.get("given") or {}).get("vars") or {}):
        if name not in rs.var_index:
            problem(name, f"unknown variable '{name}'")
    for step in _flat_steps(data.get("steps") or []):
        if isinstance(step, str):
            step = {"move": step}
        if "move" in step:
            try:
                _, _, words = split_move_text(str(step["move"]), rs.verbs)
            except IllegalMoveError as exc:
                problem(step["move"], str(exc))
                continue
            for word in words:
                if word not in rs.pieces.by_type_id:
                    problem(step["move"], f"move '{step['move']}': there is no piece called '{word}'")
        if "expect" in step:
            _expectation_problems(rs, step["expect"], problem)
    if data.get("expect"):
        _expectation_problems(rs, data["expect"], problem)
    return out


def _flat_steps(steps: list[Any]) -> list[Any]:
    return [s for step in steps for s in (_flat_steps(step) if isinstance(step, list) else [step])]


def _expectation_problems(rs: Ruleset, expect: dict[str, Any], problem: Any) -> None:
    for name in expect.get("vars") or {}:
        if name not in rs.var_index:
            problem(name, f"unknown variable '{name}'")
    for zname in expect.get("zones") or {}:
        m = _ZONE.match(str(zname))
        if not m or m.group(1) not in rs.zone_by_name:
            problem(zname, f"unknown zone '{zname}'")
            continue
        try:
            _instance(rs, m, str(zname))
        except ValueError as exc:
            problem(zname, str(exc))
    view = expect.get("view") or {}
    for name in [*(view.get("variables") or {}), *view.get("hidden_variables", ())]:
        if name not in rs.var_index:
            problem(name, f"unknown variable '{name}'")


def run_scenario(data: dict[str, Any], path: str, ruleset: Ruleset | None = None) -> ScenarioResult:
    """Play a scenario. ``ruleset`` replaces the one it names (tools that change the rules, such as
    mutation testing, pass theirs; it must be that ruleset with the scenario's options)."""
    result = ScenarioResult(path, str(data.get("name", Path(path).stem)), str(data.get("rule", "")))
    rs = ruleset if ruleset is not None else scenario_rules(data, path)
    st: State | None = None
    try:
        st = start_arranged(rs, data)
        given = (data.get("given") or {}).get("vars", {}) or {}
        for name, value in given.items():
            if name not in rs.var_index:
                raise ScenarioFailure(f"{pos_of(name)}: unknown variable '{name}' in given.vars")
            st.vars[rs.var_index[name]] = list(value) if isinstance(value, list) else value
        for i, step in enumerate(data.get("steps") or [], 1):
            _run_step(st, step, i)
        if data.get("expect"):
            _check(st, data["expect"], "at the end", pos_of(data["expect"]))
    except ScenarioFailure as exc:
        result.failures.append(str(exc))
    if st is not None:
        result.fired = dict(st.fired)
    return result


def _hand_given(data: dict[str, Any]) -> int | None:
    """The scenario's given hand_number: the first hand is that hand of the match from its start, so
    the hand's own rules (how many cards are dealt) read it."""
    hand_number = (data.get("given") or {}).get("hand_number")
    return None if hand_number is None else int(hand_number)


def _match_given(rs: Ruleset, data: dict[str, Any]) -> dict[str, Any]:
    """The scenario's given match variables: set before the first hand too, so that hand's own rules
    (which way cards are passed, a rotation) read them."""
    given = (data.get("given") or {}).get("vars", {}) or {}
    return {str(n): v for n, v in given.items()
            if n in rs.var_index and rs.variables[rs.var_index[n]].scope == "match"}


def start_arranged(rs: Ruleset, data: dict[str, Any]) -> State:
    """A new state whose first deal puts the named pieces where the scenario says."""
    seed = int(data.get("seed", 0))
    match_vars = _match_given(rs, data)
    hand_number = _hand_given(data)
    dice = [{"type": "chance", "kind": "dice", "dice": list(d)} for d in data.get("dice") or []]
    deck = data.get("deck")
    deal = data.get("deal")
    # A deck is the order of the first shuffle, or a list of orders: the first shuffle's, the second's ...
    # (a hand that shuffles twice: a draw for the dealer, then the deal).
    decks: list[list[Any]] = (deck if isinstance(deck, list) and deck and all(isinstance(d, list) for d in deck)
                              else [deck] if deck is not None else [])
    try:
        if deck is None and deal is None:
            return Game(rs, seed).new_state(chance=_interleave(rs, [], dice), match_vars=match_vars,
                                            hand_number=hand_number)
        orders = [[str(x) for x in d] for d in decks] if decks else \
            [_order_for_deal(rs, seed, deal or {}, dice, match_vars, hand_number)]
        shuffles = _interleave(rs, orders, dice)
        st = Game(rs, seed).new_state(chance=list(shuffles), match_vars=match_vars, hand_number=hand_number)
        if deck is None and deal:
            _check_dealt(rs, st, deal)
        return st
    except GivenChanceError as exc:  # dice the game cannot roll, a deck of pieces it does not have
        where = deck if deck is not None else deal
        if any(exc.event is d for d in dice):  # point at the roll itself
            where = (data.get("dice") or [])[next(i for i, d in enumerate(dice) if exc.event is d)]
        elif deck is not None and len(decks) > 1:  # point at the shuffle's own order
            where = next((d for d, e in zip(decks, shuffles, strict=False) if e is exc.event), deck)
        raise RuleFileError.single(pos_of(where, pos_of(data)), str(exc)) from None


def _check_dealt(rs: Ruleset, st: State, deal: dict[str, Any]) -> None:
    """Refuse a deal that did not land where it says. The deck order is worked out from where each deck
    position is when play begins; rules that move pieces by what they are before the first decision (an
    exchange between hands by rank) send other pieces elsewhere, and the scenario would silently start
    from another deal."""
    pieces = rs.pieces
    for zname, wanted in deal.items():
        m = _ZONE.match(str(zname))
        assert m is not None  # _order_for_deal checked every zone's name
        zi = _instance(rs, m, str(zname))
        held = Counter(pieces.type_id(p) for p in range(pieces.count) if st.loc[p] == zi)
        missing = Counter(str(x) for x in wanted) - held
        if missing:
            raise RuleFileError.single(pos_of(wanted, pos_of(deal)),
                                       f"the deal cannot be arranged: {zname} does not hold "
                                       f"{', '.join(sorted(missing))} when play begins (the rules moved pieces "
                                       "before the first decision, e.g. an exchange between hands); give the "
                                       "whole deck order with 'deck:' instead")


def _interleave(rs: Ruleset, orders: list[list[str]], dice: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chance outcomes given: the deck orders of the first shuffles (if fixed), then the dice, in order
    (shuffles and rolls are each taken in their own order: see ``Board._next_chance``)."""
    return [*({"type": "chance", "kind": "shuffle", "order": order} for order in orders), *dice]


def _order_for_deal(rs: Ruleset, seed: int, deal: dict[str, Any], dice: list[dict[str, Any]],
                    match_vars: dict[str, Any] | None = None, hand_number: int | None = None) -> list[str]:
    pieces = rs.pieces
    natural = [pieces.type_id(p) for p in range(pieces.count)]
    probe = Game(rs, seed).new_state(chance=_interleave(rs, [natural], dice), match_vars=match_vars,
                                     hand_number=hand_number)
    # With the natural order, deck position i holds piece i: where did each position land?
    positions_by_zone: dict[int, list[int]] = {}
    for p in range(pieces.count):
        positions_by_zone.setdefault(probe.loc[p], []).append(p)
    order: list[str | None] = [None] * pieces.count
    remaining = list(range(pieces.count))
    for zname, wanted in deal.items():
        m = _ZONE.match(str(zname))
        if not m or m.group(1) not in rs.zone_by_name:
            raise RuleFileError.single(pos_of(zname, pos_of(deal)), f"unknown zone '{zname}' in deal")
        try:
            zi = _instance(rs, m, str(zname))
        except ValueError as exc:
            raise RuleFileError.single(pos_of(zname, pos_of(deal)), str(exc)) from None
        slots = positions_by_zone.get(zi, [])
        if len(wanted) > len(slots):
            raise RuleFileError.single(pos_of(wanted, pos_of(deal)),
                                       f"the deal puts {len(slots)} pieces in {zname}, not {len(wanted)}")
        for slot, pid in zip(slots, wanted, strict=False):
            t = pieces.by_type_id.get(str(pid))
            if t is None:
                raise RuleFileError.single(pos_of(pid, pos_of(wanted)), f"unknown piece '{pid}'")
            piece = next((q for q in pieces.instances[t] if q in remaining), None)
            if piece is None:
                raise RuleFileError.single(pos_of(pid, pos_of(wanted)), f"piece '{pid}' is named too often")
            remaining.remove(piece)
            order[slot] = pieces.type_id(piece)
    rest = iter(remaining)
    return [o if o is not None else pieces.type_id(next(rest)) for o in order]


def _instance(rs: Ruleset, m: re.Match[str], written: str) -> int:
    """The zone instance ``hand[2]`` or ``nest`` names; ValueError saying why when it names none."""
    zone = rs.zone_by_name[m.group(1)]
    if zone.per == "none":
        if m.group(2) is not None:
            raise ValueError(f"zone '{zone.name}' is shared: write {zone.name}, not {written}")
        return zone.base
    if m.group(2) is None:
        raise ValueError(f"zone '{zone.name}' has one instance per {zone.per}: write {zone.name}[0] to "
                         f"{zone.name}[{zone.instances - 1}]")
    owner = int(m.group(2))
    if owner >= zone.instances:
        raise ValueError(f"{written}: zone '{zone.name}' has {zone.instances} instances (one per {zone.per}), "
                         f"numbered 0 to {zone.instances - 1}")
    return zone.base + owner


def _run_step(st: State, step: Any, index: int) -> None:
    where = pos_of(step)
    if isinstance(step, list):  # a row of moves, e.g. one whole trick
        for move in step:
            _run_step(st, move, index)
        return
    if isinstance(step, str):
        step = {"move": step}
    label = f"{where}: step {index}"
    if "seat" in step and "move" in step and st.to_act != int(step["seat"]):
        raise ScenarioFailure(f"{label}: expected seat {step['seat']} to act, but it is seat {st.to_act}'s turn")
    if "move" in step:
        text = str(step["move"])
        refused = step.get("refused")
        try:
            st.apply(text)
        except IllegalMoveError as exc:
            if refused is None:
                raise ScenarioFailure(f"{label}: move '{text}' was refused: {exc}") from exc
            if str(refused).lower() not in str(exc).lower():
                raise ScenarioFailure(
                    f"{label}: move '{text}' was refused, but with '{exc}', not a reason containing '{refused}'"
                ) from exc
        except RulecraftError as exc:
            raise ScenarioFailure(f"{label}: move '{text}' failed: {exc}") from exc
        else:
            if refused is not None:
                raise ScenarioFailure(f"{label}: move '{text}' was accepted, but should be refused ({refused})")
    if "expect" in step:
        _check(st, step["expect"], label, where)


def _check(st: State, expect: dict[str, Any], label: str, where: SourcePos) -> None:
    rs = st.rs
    problems: list[str] = []

    def cmp(what: str, got: Any, want: Any) -> None:
        if _norm(got) != _norm(want):
            problems.append(f"{what}: expected {_norm(want)!r}, got {_norm(got)!r}")

    for key, want in expect.items():
        if key == "to_act":
            cmp("to_act", st.to_act, want)
        elif key == "over":
            cmp("over", st.is_over, want)
        elif key == "phase":
            cmp("phase", rs.phases[st.pidx].id if not st.is_over else None, want)
        elif key in ("winners", "scores") and st.result is None:
            # "got None" left the author guessing: these are the match's final result
            problems.append(f"{key}: expected {_norm(want)!r}, but the match is not over ({key} are the match's "
                            "final result; check a score variable during the match with vars)")
        elif key == "winners":
            cmp("winners", (st.result or {}).get("winners"), want)
        elif key == "scores":
            cmp("scores", (st.result or {}).get("scores"), want)
        elif key == "tricks":
            cmp("tricks", st.tricks, want)
        elif key == "vars":
            for name, value in want.items():
                if name not in rs.var_index:
                    problems.append(f"unknown variable '{name}'")
                else:
                    cmp(f"variable {name}", st.var(name), value)
        elif key == "last_hand":
            if not st.hand_results:
                problems.append("no hand has ended yet")
                continue
            last = st.hand_results[-1]
            for k, v in want.items():
                if k == "vars":
                    for name, value in v.items():
                        if name not in last["vars"]:
                            kind = "a match variable" if name in rs.var_index else "not a variable"
                            problems.append(f"'{name}' is {kind}: last_hand.vars holds the hand's own variables")
                        else:
                            cmp(f"variable {name} at the end of the last hand", last["vars"][name], value)
                elif k == "payments":
                    paid = [{"from": p["from"], "to": p["to"], "amount": p["amount"]} for p in last["payments"]]
                    cmp("last hand payments", sorted(paid, key=str), sorted(v, key=str))
                elif k == "fired":
                    for rid, count in v.items():
                        cmp(f"times '{rid}' fired", last["fired"].get(rid, 0), count)
                else:
                    cmp(f"last hand {k}", last.get(k), v)
        elif key == "fired":
            for rid, count in want.items():
                cmp(f"times '{rid}' fired this hand", st.hand_fired.get(rid, 0), count)
        elif key == "zones":
            for zname, pids in want.items():
                m = _ZONE.match(str(zname))
                if not m or m.group(1) not in rs.zone_by_name:
                    problems.append(f"unknown zone '{zname}'")
                    continue
                try:
                    zi = _instance(rs, m, str(zname))
                except ValueError as exc:
                    problems.append(str(exc))
                    continue
                got = sorted(rs.pieces.type_id(p) for p in st.zones[zi])
                if isinstance(pids, int | float):  # only how many pieces the zone holds (12.0 is a whole number too)
                    cmp(f"number of pieces in {zname}", len(got), pids)
                elif isinstance(pids, dict):  # some pieces in, some out, perhaps how many
                    for pid in pids.get("contains", ()):
                        if str(pid) not in got:
                            problems.append(f"zone {zname} should hold {pid}; it holds {got}")
                    for pid in pids.get("excludes", ()):
                        if str(pid) in got:
                            problems.append(f"zone {zname} should not hold {pid}")
                    if "count" in pids:
                        cmp(f"number of pieces in {zname}", len(got), pids["count"])
                else:
                    cmp(f"zone {zname}", got, sorted(str(p) for p in pids))
        elif key in ("legal_includes", "legal_excludes"):
            # Each move looked up in the legal moves (a claims turn offers millions: never all listed).
            legal = st.legal_moves()
            missing = False
            for text in want:
                move = _parsed(st, str(text))
                present = move is not None and move in legal
                if present != (key == "legal_includes"):
                    problems.append(f"move '{text}' should{'' if key == 'legal_includes' else ' not'} be legal")
                    missing = missing or key == "legal_includes"
            if missing:  # what is legal instead: the author sees a misspelling, a reading, another seat's turn
                problems.append(_legal_listed(st))
        elif key == "view":
            _check_view(st, want, problems)
        else:
            problems.append(f"unknown expectation '{key}'")
    if problems:
        raise ScenarioFailure(f"{label} ({where}): " + "; ".join(problems))


LEGAL_SHOWN = 30  # legal moves listed when a move that should be legal is not


def _legal_listed(st: State) -> str:
    legal = st.legal_moves()
    shown = [m.text for m in itertools.islice(legal, LEGAL_SHOWN)]
    more = f" and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
    who = f"seat {st.to_act}" if st.to_act is not None else "nobody"
    return f"legal for {who}: {', '.join(shown) or 'nothing'}{more}"


def _parsed(st: State, text: str) -> Move | None:
    """The move ``text`` names, or None when it names none that is legal (a table's play against the
    rules, ``revoke``, is parsed but is never among the legal moves)."""
    try:
        return st.parse_move(text)
    except IllegalMoveError:
        return None


def _check_view(st: State, want: dict[str, Any], problems: list[str]) -> None:

    seat = int(want["seat"])
    if not 0 <= seat < st.rs.seats.count:
        problems.append(f"view of seat {seat}: the game has seats 0 to {st.rs.seats.count - 1}")
        return
    shown = st.view(seat)
    seen = {pid for z in shown["zones"].values() for pid in z.get("pieces", ())}
    for pid in want.get("hidden", ()):
        if str(pid) in seen:
            problems.append(f"seat {seat} can see {pid}, which should be hidden from it"
                            + _copies_note(st, shown, str(pid)))
    for pid in want.get("visible", ()):
        if str(pid) not in seen:
            problems.append(f"seat {seat} cannot see {pid}, which it should see")
    variables = shown["variables"]
    for name, value in (want.get("variables") or {}).items():
        if name not in variables:
            problems.append(f"seat {seat} cannot see variable {name}")
        elif _norm(variables[name]) != _norm(value):
            problems.append(f"seat {seat} sees {name} as {_norm(variables[name])!r}, not {_norm(value)!r}")
    for name in want.get("hidden_variables", ()):
        if name not in st.rs.var_index:
            problems.append(f"unknown variable '{name}'")
        elif name in variables:
            problems.append(f"seat {seat} can see variable {name}, which should be hidden from it")
    if "log_hidden" in want or "log_visible" in want:
        from rulecraft.runs.log import log_lines

        named = set(" ".join(log_lines(st, viewer=seat)).replace('"', " ").replace(",", " ").split())
        for pid in want.get("log_hidden", ()):
            if str(pid) in named:
                problems.append(f"seat {seat}'s log names {pid}, which should be hidden from it")
        for pid in want.get("log_visible", ()):
            if str(pid) not in named:
                problems.append(f"seat {seat}'s log does not name {pid}")


def _copies_note(st: State, shown: dict[str, Any], pid: str) -> str:
    """A piece id names a type: with copies (two decks), the copy the seat sees may not be the one meant."""
    copies = sum(1 for p in range(st.rs.pieces.count) if st.rs.pieces.type_id(p) == pid)
    if copies < 2:
        return ""
    where = sorted(name for name, z in shown["zones"].items() if pid in z.get("pieces", ()))
    return (f" ({pid} has {copies} copies and an id names them all: the seat sees one in {', '.join(where)}; "
            f"put the other copies where it cannot see them, or check a piece with one copy)")


def _norm(v: Any) -> Any:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, (int, float, str)):
        return type(v)(v) if not isinstance(v, str) else str(v)
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _norm(x) for k, x in v.items()}
    return v
