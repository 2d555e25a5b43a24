"""The generated combination trick code (engine/phases/combo_code.py) does exactly what the generic path does.

Seeded random games of every ruleset whose trick phase it accepts are played on the generated path;
at every trick decision the generic path is asked too, on a clone: the two move lists (and the plays
behind them, and the restrictions recorded as barring a win) must be equal, in order, and the chosen
move applied both ways must leave the same state.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support import play_randomly, ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.phases.combo_code import GeneratedComboTricks
from rulecraft.engine.phases.tricks import TrickData, Tricks
from rulecraft.engine.state import State
from rulecraft.load import load_ruleset


def _trick_phase(rs: object) -> GeneratedComboTricks:
    return next(p for p in rs.phases if isinstance(p, Tricks))  # type: ignore[attr-defined]


def _after(st: State) -> tuple[object, ...]:
    """What a play changes: pieces, the round, whose turn it is, the record."""
    d = st.pdata
    round_ = (d.leader, d.round_no, tuple(d.order), d.seats, [(p.combo, p.pieces, p.face_up) for p in d.plays],
              d.classes, d.strengths, d.best, d.last, d.winner, d.value, d.ended, sorted(d.barred), d.revokes
              ) if isinstance(d, TrickData) else None
    return ([list(z) for z in st.zones], list(st.loc), bytes(st.face_down), bytes(st.seen_public),
            list(st.downed_by), round_, st.pidx, st.to_act, list(st.history), st.tricks, st.vars, st.hand_no,
            st.signal, st.is_over)


def _apply_generic(phase: Tricks, st: State, move: object) -> None:
    generated, phase.play = phase.play, phase.apply
    try:
        st.apply(move)
    finally:
        phase.play = generated


# Every bundled ruleset whose trick phase plays combinations, face-down plays or identical copies, under
# the options that change its trick phase, and the other trick games of that shape.
CASES = [
    ("luk-fu", {}), ("luk-fu", {"players": "4"}), ("luk-fu", {"old_cards": "public-plus-original-run"}),
    ("luk-fu", {"established_by_failure": "on"}), ("luk-fu", {"five_tricks": "unbeatable"}),
    ("luk-fu", {"passed_elder_five": "may-show"}),
    ("tien-gow", {}), ("variants/tien-gow/bunmu-son.yaml", {}), ("variants/luk-fu/four-players.yaml", {}),
    ("auction-pinochle", {}),
    # runs of groups in an order a variable changes each hand, kickers sharing a value, a `where`
    ("tests/engine/rules/pairs-in-a-row.yaml", {}),
]


@pytest.mark.parametrize(("ref", "options"), CASES,
                         ids=lambda c: Path(c).stem if isinstance(c, str) else
                         ",".join(f"{k}={v}" for k, v in c.items()) or "defaults")
def test_generated_and_generic_decisions_agree(ref: str, options: dict[str, str]) -> None:
    rs = ruleset(ref, **options) if "/" not in ref else load_ruleset(str(Path(__file__).parents[2] / ref)
                                                                       if not ref.startswith("/") else ref)
    phase = _trick_phase(rs)
    rng = random.Random(5)
    decisions = 0
    for seed in range(6):
        if decisions >= 500:  # enough of a long game (each decision is also decided the slow, generic way)
            break
        st = Game(rs, seed, max_hands=3).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            move = legal[rng.randrange(len(legal))]
            if st.rs.phases[st.pidx] is not phase:
                st.apply(move)
                continue
            assert phase.combo_generated, f"{ref}'s trick phase has the shape the generated decision covers"
            generated = st.pdata.options
            generic = st.clone()
            generic.pdata.options = None
            want = phase._options(generic)
            assert list(want.moves) == list(legal)
            assert [(m, p) for m, p in want.each_play()] == [(m, p) for m, p in generated.each_play()]
            assert want.barred == generated.barred
            decisions += 1
            generic = st.clone()
            _apply_generic(phase, generic, move)
            st.apply(move)
            assert _after(st) == _after(generic), f"{move} applied differently"
    assert decisions > 150


def test_a_lead_whose_effects_stop_the_hand_stops_it_on_both_paths(tmp_path: Path) -> None:
    # A lead's effects may end the hand (here: a set led voids it): the generated play must leave the
    # state as the generic path leaves it, the hand voided on both.
    text = (Path(__file__).parents[2] / "variants" / "luk-fu" / "base.yaml").read_text(encoding="utf-8")
    anchor = "      on_lead:\n"
    assert anchor in text
    voiding = anchor + "        - {id: set-voids, when: \"combo == 'set'\", void_hand: true}\n"
    path = tmp_path / "set-voids.yaml"
    path.write_text(text.replace(anchor, voiding), encoding="utf-8")
    test_generated_and_generic_decisions_agree(str(path), {})
    rs = load_ruleset(str(path))
    voided = 0
    rng = random.Random(5)
    for seed in range(30):
        st = play_randomly(Game(rs, seed, max_hands=1).new_state(), rng)
        voided += st.hand_results[0]["voided"]
    assert voided > 0
