"""A piece shown to the table stays shown wherever it lies, until a seat puts one face down in secret
(a discard, a bury): then which of its shown pieces went where, only that seat knows."""

from __future__ import annotations

import random
from typing import Any

from rulecraft.engine.game import Game
from rulecraft.engine.views import visible


def test_a_secret_discard_hides_which_shown_pieces_went(tmp_path: Any) -> None:
    from rulecraft.load import load_ruleset

    overlay = tmp_path / "shown-nest.yaml"  # Rook whose nest is turned up for all before the bidder takes it
    overlay.write_text("extends: rook\nname: shown-nest\nhand:\n  phases:\n"
                       "    - {id: show-nest, $before: nest, kind: effects,\n"
                       "       effects: [{show: {pieces: \"zone('nest')\"}}]}\n",
                       encoding="utf-8")
    rs = load_ruleset(str(overlay))
    st = Game(rs, 3).new_state()
    rng = random.Random(3)
    while st.rs.phases[st.pidx].id != "nest":
        moves = st.legal_moves()
        st.apply(moves[rng.randrange(len(moves))])
    declarer = st.to_act
    assert declarer is not None
    nest = list(st.hand(declarer))  # the exchange took the nest into the hand: shown, so seen by all
    others = [s for s in range(4) if s != declarer]
    shown = [p for p in nest if all(visible(st, p, s) for s in others)]
    assert len(shown) == 5
    kept = [p for p in st.hand(declarer) if p not in shown]
    st.apply(f"give {rs.pieces.type_id(kept[0])}")  # a card of the dealt hand goes down, not a shown one
    for p in shown:
        assert st.holds(declarer, p) and visible(st, p, declarer)
        assert not any(visible(st, p, s) for s in others), "the others would know it was not the card put down"
    assert not any(visible(st, kept[0], s) for s in others) and visible(st, kept[0], declarer)
