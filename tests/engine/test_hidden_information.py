"""What a seat may see is derived from the declarations alone: an information-set property.

For every bundled ruleset and every option choice and preset, and every rule file of tests/dogfood
(with its presets): two games whose first deals differ only in pieces seat s cannot see, followed by
the same moves (as long as each is legal in both), must give s identical observations until s is shown
one of the pieces that differ, or the hand is scored: its view, its copy of the log, what the research
adapters observe for it (the PettingZoo/OpenSpiel observation tensors, with and without recall, and the
OpenSpiel information-state string) and what ``rulecraft replay --seat`` shows it. A variable computed
from a hidden hand and declared public, a legal-move list that depends on another seat's pieces, or a
log event that names a hidden piece makes the two differ.

The same holds for dice (``runs.hidden_chance``): a game played again with every die s may not see
turned to another face gives s the same observations until a rule shows those dice to the table.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from support import DICE_TABLE, rules_from_text

from rulecraft.engine.determinize import accounted_for
from rulecraft.engine.game import Game
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import visible
from rulecraft.load import load_ruleset
from rulecraft.rules.compose import compose
from rulecraft.rules.registry import list_bundled
from rulecraft.runs.log import log_lines

SEEDS = 4  # games A per configuration
SWAPS = 4  # games B per game A, each dealt with another two hidden pieces swapped
HORIZON = 30  # moves compared after the deal (what a hand reveals of a deal, it mostly reveals early)
LOOK_AHEAD = 4  # other moves tried one step ahead at each step of the walk
WALK = 40  # moves walked at most to reach the first deal
ADAPTERS_EVERY = 4  # the adapters' observations are compared after every 4th move (and after the deal)


def _configurations() -> Iterator[tuple[str, dict[str, str], str | None]]:
    """Every bundled ruleset with its defaults, each non-default option choice, and each preset."""
    for ref in list_bundled():
        base = compose(ref)
        yield ref, {}, None
        for opt in base.options:
            for choice in opt.choices:
                if choice.id != opt.default:
                    yield ref, {opt.id: choice.id}, None
        for preset in base.presets:
            yield ref, {}, preset.id


CONFIGURATIONS = list(_configurations())


@cache
def _ruleset(ref: str, options: tuple[tuple[str, str], ...], preset: str | None) -> Ruleset:
    return load_ruleset(ref, dict(options), preset)


def _label(config: tuple[str, dict[str, str], str | None]) -> str:
    ref, options, preset = config
    ref = f"{Path(ref).parent.name}/{Path(ref).stem}" if ref.endswith((".yaml", ".rules")) else ref
    return ref + "".join(f" {k}={v}" for k, v in options.items()) + (f" preset={preset}" if preset else "")


def _first_hand_chance(st: State) -> list[dict[str, Any]]:
    """The chance outcomes of the game so far (the first hand's shuffle and dice), as a feed."""
    return [dict(e) for e in st.history if e.get("type") == "chance"]


def _hidden_pairs(st: State, seat: int) -> list[tuple[int, int]]:
    """Pairs of pieces of different types, both hidden from ``seat``, lying in different places. A piece
    the whole table saw face up before it was put where nobody sees it (a starter card turned up and
    buried in the stock) is not hidden: the seat knows where it went."""
    rs = st.rs
    hidden = [p for p in range(rs.pieces.count) if not accounted_for(st, p, seat)]
    return [(p, q) for p in hidden for q in hidden
            if p < q and st.loc[p] != st.loc[q] and rs.pieces.type_id(p) != rs.pieces.type_id(q)]


def _replay(rs: Ruleset, seed: int, chance: list[dict[str, Any]], moves: list[str]) -> State | None:
    st = Game(rs, seed).new_state(chance=[dict(e) for e in chance])
    for text in moves:
        try:
            st.apply(text)
        except Exception:  # B's pieces do not allow a move A made before the twins part
            return None
    return st


def _twins(rs: Ruleset, seed: int, seat: int, rng: random.Random) -> tuple[State, list[tuple[State, set[str]]]] | None:
    """Game A, and games B dealt the same except two pieces of different types hidden from ``seat``, each
    with its two types (identical copies are told apart by nobody, so a deal swaps types, not copies).

    A is walked with random moves until its first hand has dealt pieces the seat cannot see to two
    places (some games ask a decision before dealing: which way to take the wall)."""
    walk = Game(rs, seed).new_state()
    moves: list[str] = []
    while not _hidden_pairs(walk, seat):
        if walk.is_over or walk.hand_no != 1 or len(moves) >= WALK:
            return None
        legal = walk.legal_moves()
        move = legal[rng.randrange(len(legal))]
        walk.apply(move)
        moves.append(str(move))
    chance = _first_hand_chance(walk)
    # A replays the walk's chance outcomes too, so that in A, as in B, the k-th copy of a type named
    # in the shuffle is the type's k-th piece (a drawn shuffle places copies in any order).
    a = _replay(rs, seed, chance, moves)
    shuffle = next((e for e in chance if e["kind"] == "shuffle"), None)
    if a is None or shuffle is None:
        return None
    pairs = _hidden_pairs(a, seat)
    original = list(shuffle["order"])
    twins: list[tuple[State, set[str]]] = []
    for p, q in rng.sample(pairs, min(len(pairs), 4 * SWAPS)):
        order = list(original)
        i, j = _position(rs, order, p), _position(rs, order, q)
        order[i], order[j] = order[j], order[i]
        shuffle["order"] = order
        b = _replay(rs, seed, chance, moves)
        # Two pieces dealt to one hand and parted by moves since then would give B the same game.
        if b is not None and _deal(a) != _deal(b):
            twins.append((b, {rs.pieces.type_id(p), rs.pieces.type_id(q)}))
            if len(twins) == SWAPS:
                break
    return (a, twins) if twins else None


def _position(rs: Ruleset, order: list[str], piece: int) -> int:
    """Where ``piece`` is in a logged shuffle: the k-th copy of a type is the k-th time it is named."""
    type_id = rs.pieces.type_id(piece)
    k = rs.pieces.instances[rs.pieces.by_type_id[type_id]].index(piece)
    return [i for i, x in enumerate(order) if x == type_id][k]


def _deal(st: State) -> list[list[str]]:
    return [sorted(st.rs.pieces.type_id(p) for p in zone) for zone in st.zones]


def _sees_any(st: State, seat: int, types: set[str]) -> bool:
    return any(visible(st, p, seat) for p in range(st.rs.pieces.count) if st.rs.pieces.type_id(p) in types)


def _seen(st: State, seat: int) -> dict[str, Any]:
    """The seat's view, each zone's pieces as a multiset: which copy of identical pieces a move took
    changes the order of a hand, and the order says nothing about hidden pieces."""
    view = st.view(seat)
    for entry in view["zones"].values():
        if "pieces" in entry:
            entry["pieces"] = sorted(entry["pieces"])
    return view


def _same_for(seat: int, a: State, b: State, where: str, adapters: bool = True) -> None:
    assert _seen(a, seat) == _seen(b, seat), f"{where}: seat {seat}'s view depends on pieces it cannot see"
    assert log_lines(a, viewer=seat) == log_lines(b, viewer=seat), \
        f"{where}: seat {seat}'s log depends on pieces it cannot see"
    if adapters:
        assert _adapters(a, seat) == _adapters(b, seat), \
            f"{where}: what the research adapters observe for seat {seat} depends on pieces it cannot see"


_ENCODINGS: dict[int, tuple[Ruleset, Any]] = {}


def _encoding(rs: Ruleset) -> Any:
    from rulecraft.rl.encoding import Encoding

    kept = _ENCODINGS.get(id(rs))
    if kept is None or kept[0] is not rs:
        kept = _ENCODINGS[id(rs)] = (rs, Encoding(rs))
    return kept[1]


def _adapters(st: State, seat: int) -> tuple[Any, ...]:
    """What the research adapters observe for the seat: the observation tensor (PettingZoo's and OpenSpiel's),
    with recall, and OpenSpiel's information-state string (its view and its record, as JSON). A view's
    zones list a hand's pieces in the order of play, which says nothing hidden: sorted here, as ``_seen``."""
    from rulecraft.rl.openspiel import record_lines, seat_view
    from rulecraft.rl.seatview import observe

    enc = _encoding(st.rs)
    view = seat_view(st, seat)
    for entry in view["zones"].values():
        if "pieces" in entry:
            entry["pieces"] = sorted(entry["pieces"])
    return (observe(enc, st, seat).tobytes(), observe(enc, st, seat, recall=True).tobytes(), view,
            record_lines(st, seat))


def _replayed_as(st: State, seat: int) -> list[str]:
    """What ``rulecraft replay --seat`` shows the seat at the end of the game's log: its table, the
    recent events and every move line, from the log replayed (the table's zones drawn from the view)."""
    from rulecraft.cli.replay_cmds import Replay
    from rulecraft.runs.log import parse_log, replay_events
    from rulecraft.wording import Seats

    header, events = parse_log(log_lines(st))
    final, before = replay_events(header, events, st.rs, keep_states=True)
    moves = [e for _, e in events if e["type"] == "move"]
    replay = Replay(st.rs, before, final, moves, seat, Seats(tuple("x" * st.rs.seats.count)))
    return replay.table(replay.last) + [replay.move_line(i) for i in range(len(moves))]


def _look_ahead(a: State, b: State, seat: int, swapped: set[str], rng: random.Random, where: str) -> None:
    """The same check one move further, for a few other moves than the walk takes: a leak that needs
    one choice (a seat passing rather than bidding) is found without walking every path."""
    if a.is_over or b.to_act != a.to_act:
        return
    legal = list(itertools.islice(a.legal_moves(), 200))
    for move in rng.sample(legal, min(len(legal), LOOK_AHEAD)):
        a2, b2 = a.clone(), b.clone()
        try:
            b2.apply(str(move))
        except Exception:
            continue
        a2.apply(move)
        if a2.is_over or a2.hand_no != 1 or _sees_any(a2, seat, swapped) or _sees_any(b2, seat, swapped):
            continue
        _same_for(seat, a2, b2, f"{where}, then {move}")


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=[_label(c) for c in CONFIGURATIONS])
def test_a_seat_learns_nothing_from_what_it_cannot_see(config: tuple[str, dict[str, str], str | None]) -> None:
    ref, options, preset = config
    rs = _ruleset(ref, tuple(sorted(options.items())), preset)
    compared = made = 0
    for seed in range(SEEDS):
        rng = random.Random(seed)
        seat = rng.randrange(rs.seats.count)
        found = _twins(rs, seed, seat, rng)
        if found is None:
            continue
        made += 1
        a, live = found
        last = None
        for b, _ in live:
            _same_for(seat, a, b, f"seed {seed}, after the deal")
        for step in range(HORIZON):
            legal = a.legal_moves()
            move = legal[rng.randrange(len(legal))]
            still = []
            for b, swapped in live:
                try:
                    b.apply(str(move))
                except Exception:  # the move uses a swapped piece, or is legal only with A's pieces
                    continue
                still.append((b, swapped))
            a.apply(move)
            if a.is_over or a.hand_no != 1:
                break  # the hand was scored: what it hid may be shown now
            # A seat that has now seen where the games differ (it took the nest, a claim was revealed)
            # may tell them apart from here on.
            live = [(b, swapped) for b, swapped in still
                    if not _sees_any(a, seat, swapped) and not _sees_any(b, seat, swapped)]
            if not live:
                break
            for b, swapped in live:
                where = f"seed {seed}, after move {step + 1} ({move})"
                _same_for(seat, a, b, where, adapters=step % ADAPTERS_EVERY == 0)
                compared += 1
                _look_ahead(a, b, seat, swapped, rng, where)
                if seed == 0:
                    last = (a.clone(), b.clone(), where)
        if last is not None:  # a replay of both logs, shown as the seat saw it
            a_last, b_last, where = last
            assert _replayed_as(a_last, seat) == _replayed_as(b_last, seat), \
                f"{where}: what replay --seat {seat} shows depends on pieces it cannot see"
    if not made:  # e.g. two seats holding every piece: the other hand is the only place a seat cannot see
        pytest.skip("no two places hidden from a seat hold different pieces after the deal")
    assert compared, f"{_label(config)}: no twin games could be compared"


def test_the_property_catches_a_public_variable_computed_from_a_hidden_hand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A leak planted on purpose: every seat's view shows how many pieces each other seat holds of
    # the first suit... as a public variable would. The property must fail.
    import rulecraft.engine.state as state_module

    honest = state_module.board_view

    def leaky(st: Any, seat: int | None) -> dict[str, Any]:
        out = honest(st, seat)
        out["variables"]["leak"] = [sorted(st.hand(s)) for s in range(st.rs.seats.count)]
        return out

    monkeypatch.setattr(state_module, "board_view", leaky)
    with pytest.raises(AssertionError, match="depends on pieces it cannot see"):
        test_a_seat_learns_nothing_from_what_it_cannot_see(("rook", {}, None))


def test_the_property_catches_adapters_that_show_every_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    # A leak planted on purpose in the research adapters' encoding alone: views and logs stay honest.
    import rulecraft.rl.encoding as encoding

    monkeypatch.setattr(encoding.Encoding, "zone_sees", lambda self, viewer: [True] * self.rs.zone_instance_count)
    monkeypatch.setattr(sys.modules[__name__], "_ENCODINGS", {})  # (an encoding kept from an earlier test
    # has worked out what each viewer sees already, honestly)
    with pytest.raises(AssertionError, match="research adapters observe for seat"):
        test_a_seat_learns_nothing_from_what_it_cannot_see(("hearts", {}, None))


# ---------------------------------------------------------------------- dice
HIDDEN_DICE = """
name: cups
title: dice in cups, a total shown, a claim settled
seats: {count: 3, direction: clockwise}
""" + DICE_TABLE + """variables:
  cup: {scope: hand, per: seat, type: list, initial: [], visibility: owner}
  spare: {scope: hand, type: list, initial: [], visibility: nobody}
  bet: {scope: hand, initial: 0}
  total: {scope: hand, initial: 0}
  score: {scope: match, per: seat, initial: 0}
hand:
  phases:
    - {id: roll, kind: dice, for: "s in seats()", dice: 2, sides: 6, set: "cup[s]"}
    - {id: spare, kind: dice, dice: 1, sides: 6, set: spare}
    - {id: bet, kind: choose, seat: "0", from: "[3, 7, 11]", set: bet}
    - {id: raise, kind: choose, seat: "1", from: "[0, 1]", set: total}
    - id: settle
      kind: effects
      effects:
        - {show: {variables: [cup]}}
        - {set: {total: "sum(sum(cup[s]) for s in seats())"}}
        - {when: "total >= bet", add: {"score[0]": 1}}
match:
  end_when: "hand_number >= 2"
  max_hands: 2
  score: "score[seat]"
"""


def _dice_configurations() -> list[tuple[str, dict[str, str], str | None]]:
    """The configurations above whose rules roll dice into a variable some seat may not see."""
    from rulecraft.runs.hidden_chance import hidden_dice

    return [c for c in CONFIGURATIONS if hidden_dice(_ruleset(c[0], tuple(sorted(c[1].items())), c[2]))]


@pytest.fixture(scope="module")
def cups(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("cups")
    rules_from_text(folder, HIDDEN_DICE)
    return str(folder / "rules.yaml")


def _dice_property(rs: Ruleset, games: int = SEEDS, moves: int = 60) -> int:
    """Random games of ``rs``; for every seat, its observations must not depend on dice it may not see.
    How many (game, seat) pairs had dice to change."""
    from rulecraft.runs.hidden_chance import chance_leak, twin_chance

    checked = 0
    for seed in range(games):
        rng = random.Random(seed)
        st = Game(rs, seed).new_state()
        while not st.is_over and len(st.history) < 20 * moves:
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        history = list(st.history)
        chance = [e for e in history if e.get("type") == "chance"]
        for seat in range(rs.seats.count):
            if not twin_chance(rs, chance, seat)[1]:
                continue
            checked += 1
            leak = chance_leak(rs, seed, history, seat, observe=_adapters)
            assert leak is None, f"seed {seed}: {leak[0]}"
    return checked


@pytest.mark.parametrize("config", [*_dice_configurations(), None],
                         ids=[*(_label(c) for c in _dice_configurations()), "cups"])
def test_a_seat_learns_nothing_from_dice_it_cannot_see(config: tuple[str, dict[str, str], str | None] | None,
                                                       cups: str) -> None:
    rs = load_ruleset(cups) if config is None else _ruleset(config[0], tuple(sorted(config[1].items())), config[2])
    assert _dice_property(rs) > 0, "no game rolled a die some seat may not see"


def test_the_dice_property_catches_a_log_that_prints_another_seat_s_dice(
        monkeypatch: pytest.MonkeyPatch, cups: str) -> None:
    import rulecraft.engine.views as views
    import rulecraft.runs.hidden_chance as hidden_chance
    import rulecraft.runs.log as log

    honest = views.redact_event

    def leaky(event: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        return event if event.get("kind") == "dice" else honest(event, viewer)

    for module in (views, hidden_chance, log):
        monkeypatch.setattr(module, "redact_event", leaky)
    with pytest.raises(AssertionError, match=r"depends on dice it may not see .*copy of the log"):
        _dice_property(load_ruleset(cups))


def test_the_dice_property_catches_a_view_that_shows_another_seat_s_dice(
        monkeypatch: pytest.MonkeyPatch, cups: str) -> None:
    import rulecraft.engine.views as views

    monkeypatch.setattr(views, "sees_variable", lambda st, vi, entry, viewer: True)
    with pytest.raises(AssertionError, match=r"depends on dice it may not see .*view at variables\.cup"):
        _dice_property(load_ruleset(cups))


def test_the_dice_property_catches_a_public_total_of_hidden_dice(tmp_path: Path) -> None:
    leak = '    - {id: leak, kind: effects, effects: [{set: {total: "sum(cup[2])"}}]}\n'
    bet = "    - {id: bet, kind: choose"
    rs = rules_from_text(tmp_path, HIDDEN_DICE.replace(bet, leak + bet))
    with pytest.raises(AssertionError, match=r"view at variables\.total"):
        _dice_property(rs)
