"""Playing leaves no reference cycles behind: what a game, a clone or a decision drops is freed at once.

A state, a playout's clone and the helpers a decision builds are dropped by the thousand. Anything of
theirs caught in a reference cycle (a state and its evaluation context pointing at each other, a
recursive closure naming itself) waits for the cyclic garbage collector, and the collections that
garbage sets off cost 2% of a Rook playout on a quiet machine and a sixth on a loaded one. This
checks the property itself, in every bundled game and every game of ``tests/dogfood``: no speed is
measured here.
"""

from __future__ import annotations

import gc
import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulecraft.agents.base import make_agent
from rulecraft.engine.game import Game
from rulecraft.load import load_ruleset
from rulecraft.rules.registry import base_file, bundled_variants_dir
from rulecraft.rules.yamlload import load_yaml_file
from rulecraft.runs.scenario import is_rule_file

DOGFOOD = Path(__file__).parents[1] / "dogfood"


def _rule_files() -> list[str]:
    bundled = sorted(str(base_file(d)) for d in bundled_variants_dir().iterdir() if base_file(d) is not None)
    dogfood = sorted(str(p) for p in DOGFOOD.glob("*/*.rules"))
    dogfood += sorted(str(p) for p in DOGFOOD.glob("*/*.yaml") if is_rule_file(load_yaml_file(p)))
    return bundled + dogfood


# A browser test's server may run in a thread of the same test worker and answer a page's poll meanwhile:
# the cycles its sockets leave are collected with the game's. The engine opens no socket, so a collection
# that holds one is measured again (a cycle the game makes is made at every run: it is never missed).
FOREIGN = frozenset({"socket", "TransportSocket", "_SelectorSocketTransport"})


def _cyclic_garbage(play: Callable[[], None]) -> Counter[str]:
    """The types of the objects ``play`` left in reference cycles (another thread's sockets aside)."""
    for _ in range(3):
        found = _collected(play)
        if not FOREIGN & found.keys():
            break
    return found


def _collected(play: Callable[[], None]) -> Counter[str]:
    gc.collect()
    gc.disable()
    try:
        play()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        return Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _moves(ref: str, agent: str, seed: int) -> Iterator[None]:
    """Each move of a one-hand game of ``agent`` seats (the game is dropped when the generator is)."""
    rs = load_ruleset(ref)
    st = Game(rs, seed, 1).new_state()
    agents = [make_agent(agent, seed, s) for s in range(rs.seats.count)]
    while not st.is_over:
        seat = st.to_act
        assert seat is not None
        st.apply(agents[seat].choose(st, seat))
        yield


@pytest.mark.parametrize("ref", _rule_files(), ids=lambda p: Path(p).parent.name)
def test_random_games_leave_no_cycles(ref: str) -> None:
    for _ in _moves(ref, "random", 0):  # code generated at first use (and its garbage) is not the game's
        pass

    def play() -> None:
        for seed in range(1, 3):
            for _ in _moves(ref, "random", seed):
                pass

    assert _cyclic_garbage(play) == Counter()


@pytest.mark.parametrize("agent", ["default", "mc:4", "ismcts:8"])
@pytest.mark.parametrize("ref", sorted(str(p) for p in bundled_variants_dir().glob("*/base.yaml")),
                         ids=lambda p: Path(p).parent.name)
def test_the_first_decisions_of_searching_agents_leave_no_cycles(ref: str, agent: str) -> None:
    # Their clones, sampled worlds and playouts are dropped at every decision.
    for _ in itertools.islice(_moves(ref, agent, 1), 3):  # code generated at first use is not the game's
        pass

    def play() -> None:
        for _ in itertools.islice(_moves(ref, agent, 2), 8):
            pass

    assert _cyclic_garbage(play) == Counter()
