"""The generated trick code (engine/phases/trick_code.py) does exactly what the generic path does.

Seeded random games of every Rook option choice are played on the generated path; at every trick
decision the generic path is asked too, on a clone: the two move lists must be equal, in order,
and the chosen move applied both ways must leave the same state.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support import play_randomly, ruleset

from rulecraft.engine.game import Game
from rulecraft.engine.phases import trick_code
from rulecraft.engine.phases.tricks import TrickData, Tricks
from rulecraft.engine.state import State
from rulecraft.errors import ExpressionRuntimeError, IllegalMoveError
from rulecraft.load import load_ruleset

ROOK_CHOICES = [{}, {"bird_rank": "lowest"}, {"bird_rank": "between-10-11"}, {"first_lead": "left-of-bidder"},
                {"nest_to": "bidder"}, {"ones": "kept"}, {"redeal": "not-allowed"}, {"bird_forced": "only-trump"}]


def _trick_phase(rs: object) -> Tricks:
    return next(p for p in rs.phases if isinstance(p, Tricks))  # type: ignore[attr-defined]


def _after(st: State) -> tuple[object, ...]:
    """What a play changes: pieces, the round, whose turn it is, the record."""
    d = st.pdata
    round_ = (d.leader, d.round_no, tuple(d.order), d.seats, [p.pieces for p in d.plays], d.classes, d.strengths,
              d.best, d.last, d.winner, d.value, d.ended) if isinstance(d, TrickData) else None
    return ([list(z) for z in st.zones], list(st.loc), bytes(st.face_down), bytes(st.seen_public),
            list(st.downed_by), round_, st.pidx, st.to_act, st.history, st.tricks, st.vars, st.hand_no)


def _apply_generic(phase: Tricks, st: State, move: object) -> None:
    generated, phase.play = phase.play, phase.apply
    try:
        st.apply(move)  # type: ignore[arg-type]
    finally:
        phase.play = generated


# Every Rook option choice, and the other bundled games whose trick phase has the generated shape
# (their rounds end with other effects: Hearts' and Spades' on_round rules), and the other trick games
# of that shape (one of them, Auction Pitch, judged over plays, not pieces).
CASES = [("rook", o) for o in ROOK_CHOICES] + [("hearts", {}), ("spades", {})] + [
    (game, {}) for game in ("auction-pitch", "black-maria", "euchre", "german-whist", "ninety-nine", "oh-hell",
                            "sheepshead", "texas-42")]


@pytest.mark.parametrize(("ref", "options"), CASES,
                         ids=lambda c: Path(c).stem if isinstance(c, str) else
                         ",".join(f"{k}={v}" for k, v in c.items()) or "defaults")
def test_generated_and_generic_decisions_agree(ref: str, options: dict[str, str]) -> None:
    rs = ruleset(ref, **options)
    phase = _trick_phase(rs)
    rng = random.Random(5)
    decisions = 0
    for seed in range(5):
        st = Game(rs, seed, max_hands=4).new_state()
        while not st.is_over:
            legal = st.legal_moves()
            move = legal[rng.randrange(len(legal))]
            if st.rs.phases[st.pidx] is not phase:
                st.apply(move)
                continue
            assert phase._generated, f"{ref}'s trick phase has the shape the generated decision covers"
            generic = st.clone()
            generic.pdata.options = None
            theirs = phase._options(generic)
            assert theirs.moves == legal
            # the play behind each move too (agents ask for it), and what the restrictions barred
            assert list(st.pdata.options.each_play()) == list(theirs.each_play())
            assert st.pdata.options.barred == theirs.barred
            decisions += 1
            generic = st.clone()
            _apply_generic(phase, generic, move)
            st.apply(move)
            assert _after(st) == _after(generic), f"{move} applied differently"
    assert decisions > 300


def test_a_refusal_is_still_explained_in_the_rule_s_words() -> None:
    rs = ruleset("rook")
    rng = random.Random(1)
    st = Game(rs, 3, max_hands=2).new_state()
    while True:  # find a follow where the seat holds a card it may not play
        legal = st.legal_moves()
        phase = st.rs.phases[st.pidx]
        if isinstance(phase, Tricks) and st.pdata.plays:
            hand = st.hand(st.to_act)  # type: ignore[arg-type]
            refused = [p for p in hand if all(m.pieces != (p,) for m in legal)]
            if refused:
                break
        st.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(IllegalMoveError, match=r"follow the led suit|must play it"):
        st.apply(f"play {rs.pieces.type_id(refused[0])}")


@pytest.mark.parametrize("ref", ["luk-fu", "tien-gow"])
def test_phases_of_other_shapes_keep_the_generic_path(ref: str) -> None:
    rs = load_ruleset(ref)
    st = Game(rs, 1, max_hands=1).new_state()
    rng = random.Random(1)
    while not st.is_over and not isinstance(st.rs.phases[st.pidx], Tricks):
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    st.legal_moves()
    assert _trick_phase(rs)._generated is False


def test_a_trick_phase_with_no_restriction_at_all_is_generated_and_plays(tmp_path: Path) -> None:
    # Any card may follow: the generated decision has an empty follow branch, which must still compile.
    text = (Path(__file__).parents[1] / "runs" / "tiny" / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("      follow:")
    end = text.index("      capture:")
    free = tmp_path / "free.yaml"
    free.write_text(text[:start] + text[end:], encoding="utf-8")
    rs = load_ruleset(str(free))
    st = Game(rs, 3).new_state()
    moves = 0
    while not st.is_over:
        legal = st.legal_moves()
        if st.pdata is not None and getattr(st.pdata, "plays", None):
            # nothing narrows a follow: every piece in hand may be played
            assert len(legal) == len(st.hand(st.to_act))  # type: ignore[arg-type]
        st.apply(legal[0])
        moves += 1
    assert moves and _trick_phase(rs)._generated  # type: ignore[attr-defined]


def _follow_rule(tmp_path: Path, when: str, allow: str) -> object:
    """Rook with one more follow restriction (after the two of the rule file)."""
    path = tmp_path / "extra.yaml"
    path.write_text(
        "extends: rook\n"
        "hand:\n"
        "  phases:\n"
        "    - id: play\n"
        "      follow:\n"
        "        restrictions:\n"
        f"          - {{id: extra, when: \"{when}\", allow: \"{allow}\"}}\n", encoding="utf-8")
    return load_ruleset(str(path))


def _to_a_follow(rs: object) -> State:
    st = Game(rs, 2, max_hands=1).new_state()  # type: ignore[arg-type]
    rng = random.Random(2)
    while not (isinstance(st.pdata, TrickData) and st.pdata.plays):
        legal = st.legal_moves()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def test_a_restriction_that_fails_fails_as_the_generic_path_says(tmp_path: Path) -> None:
    # Every candidate makes the allow fail: the comprehension gives up and the loop reports the rule.
    rs = _follow_rule(tmp_path, "piece != bird()", "order(piece) / (rank(led) - rank(led)) > 0")
    st = _to_a_follow(rs)
    generic = st.clone()
    with pytest.raises(ExpressionRuntimeError) as theirs:
        _trick_phase(rs)._options(generic)
    with pytest.raises(ExpressionRuntimeError) as ours:
        st.legal_moves()
    assert _trick_phase(rs)._generated
    assert str(ours.value) == str(theirs.value) and "division by zero" in str(ours.value)


def test_an_allow_part_no_candidate_needs_is_not_an_error(tmp_path: Path) -> None:
    # The allow's part about the position fails, but the restriction applies to no candidate: the
    # generic path never asks it, so neither may the generated one (its comprehension tried it early).
    rs = _follow_rule(tmp_path, "rank(piece) > 100", "1 / (rank(led) - rank(led)) > 0")
    st = _to_a_follow(rs)
    generic = st.clone()
    assert st.legal_moves() == _trick_phase(rs)._options(generic).moves
    assert _trick_phase(rs)._generated


def test_an_allow_part_that_calls_is_made_only_when_a_candidate_applies(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # The allow's part about the position calls a function (a rule function walking a hand would):
    # the comprehension judges each candidate's 'when' first and makes that call only if one applies.
    # Here none does and the call would fail: the comprehension must not give up (GIVE_UP raises).
    monkeypatch.setattr(trick_code, "GIVE_UP", "raise")
    rs = _follow_rule(tmp_path, "rank(piece) > 100", "max([1 / (rank(led) - rank(led))]) > 0")
    st = _to_a_follow(rs)
    generic = st.clone()
    assert "if _any(applies):" in _trick_phase(rs).decide.python  # type: ignore[attr-defined]
    assert st.legal_moves() == _trick_phase(rs)._options(generic).moves
    # When a candidate applies, the call is made and fails as the generic path says.
    rs = _follow_rule(tmp_path, "piece != bird()", "max([1 / (rank(led) - rank(led))]) > 0")
    monkeypatch.setattr(trick_code, "GIVE_UP", "kept = None")
    st = _to_a_follow(rs)
    with pytest.raises(ExpressionRuntimeError) as theirs:
        _trick_phase(rs)._options(st.clone())
    with pytest.raises(ExpressionRuntimeError) as ours:
        st.legal_moves()
    assert str(ours.value) == str(theirs.value) and "division by zero" in str(ours.value)


@pytest.mark.parametrize(("ref", "options"), CASES,
                         ids=lambda c: Path(c).stem if isinstance(c, str) else
                         ",".join(f"{k}={v}" for k, v in c.items()) or "defaults")
def test_the_bundled_restrictions_are_judged_by_their_comprehensions(ref: str, options: dict[str, str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A comprehension that fails hands its pass to the loop: right, but slow. None may fail in play.
    monkeypatch.setattr(trick_code, "GIVE_UP", "raise")
    rs = load_ruleset(ref, options)
    phase = _trick_phase(rs)  # generated again, with GIVE_UP as set here (put back as it was afterwards)
    monkeypatch.setattr(phase, "_generated", None)
    monkeypatch.setattr(phase, "decide", phase.legal)
    monkeypatch.setattr(phase, "play", phase.apply)
    rng = random.Random(8)
    for seed in range(3):
        play_randomly(Game(rs, seed, max_hands=3).new_state(), rng)
    assert _trick_phase(rs)._generated


def test_a_decision_over_pieces_makes_the_play_behind_each_move_when_asked() -> None:
    rs = ruleset("rook")
    spec = _trick_phase(rs).combos[0]
    stop = rs.moves.get("stop")
    opts = trick_code.PieceOptions([stop, spec.singles[7].move, spec.singles[3].move], spec.singles)
    assert list(opts.plays) == [None, spec.singles[7], spec.singles[3]]
    assert opts.play_of(spec.singles[3].move) is spec.singles[3] and opts.play_of(stop) is None
    assert not opts.barred
