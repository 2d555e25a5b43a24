"""Phase kinds by the name a rule file uses in ``kind:``."""

from __future__ import annotations

from rulecraft.engine.phases.base import Phase
from rulecraft.engine.phases.calls import Auction, Choose, Exchange
from rulecraft.engine.phases.claims import Claims
from rulecraft.engine.phases.climb import Climb
from rulecraft.engine.phases.combo_code import GeneratedComboTricks
from rulecraft.engine.phases.dice import Dice
from rulecraft.engine.phases.setup import Deal, Effects, Shuffle
from rulecraft.engine.phases.shed import Shed
from rulecraft.engine.phases.turns import EachSeat
from rulecraft.engine.phases.wall import Pickup, Wall

PHASE_KINDS: dict[str, type[Phase]] = {
    cls.kind: cls
    for cls in (Shuffle, Deal, Effects, Auction, Exchange, Choose, GeneratedComboTricks, Claims, Dice, Wall, Pickup,
                EachSeat, Climb, Shed)
}
