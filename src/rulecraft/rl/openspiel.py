"""Any ruleset as an OpenSpiel game: ``load_game("my-game", some_option="x")`` returns a ``pyspiel.Game``.

The game is registered with pyspiel as ``rulecraft`` (``pyspiel.load_game("rulecraft(ruleset=my-game,
options=some_option:x)")`` works too; ``options`` is ``name:value`` pairs joined by ``;``). Player
actions are the token ids of ``rl.encoding``, a multi-piece play taken one piece per action. Shuffles
and dice are chance nodes (``rl.chance``): one node per piece drawn off a shuffle, its outcome the
piece *type* (identical copies are one outcome, weighted by the copies left), and one per die, its
outcome the face minus one; chance outcome ids are their own space (``max_chance_outcomes`` = piece
types, or the most sides of any die if more). Observation and information-state strings and tensors
are derived from the seat's view (``rl.encoding``; strings: the seat's view as JSON, and for the
information state the game's record as ``redact_event`` shows it to the seat, before it). Returns are
the zero-sum ``win`` rewards of ``rl.episode``; ``max_moves`` bounds the game's length (a game
reaching it ends, truncated, with every return 0).

States resample from a seat's information state (``resample_from_infostate``) with the engine's
determinization, so OpenSpiel's ISMCTS can search any ruleset. Needs the ``rl`` extra.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from rulecraft.engine.board import MAX_HELD_NUMBER
from rulecraft.engine.determinize import determinize
from rulecraft.engine.moves import Move
from rulecraft.engine.ruleset import Ruleset
from rulecraft.engine.state import State
from rulecraft.engine.views import board_view, redact_event
from rulecraft.rl.chance import ChanceState, Pending
from rulecraft.rl.encoding import PUBLIC, Encoding
from rulecraft.rl.episode import AT_THE_END, DEFAULT_MAX_MOVES, Episode, check_reward, ruleset_of

SHORT_NAME = "rulecraft"
_PARAMS: dict[str, Any] = {"ruleset": "", "options": "", "preset": "", "max_hands": 0, "max_moves": DEFAULT_MAX_MOVES,
                           "reward": "win"}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="rulecraft: a card or tile game from its rule file",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=64,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def _typed(reward: str) -> pyspiel.GameType:
    """The game type of a game rewarded by scores: general-sum, with rewards along the way for ``"hand"``
    and ``"step"`` (the registered type, for ``"win"``, is zero-sum with rewards at the end)."""
    t = _GAME_TYPE
    model = pyspiel.GameType.RewardModel
    return pyspiel.GameType(
        short_name=t.short_name, long_name=t.long_name, dynamics=t.dynamics, chance_mode=t.chance_mode,
        information=t.information, utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=model.TERMINAL if reward == "score" else model.REWARDS,
        max_num_players=t.max_num_players, min_num_players=t.min_num_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_PARAMS,
    )


def load_game(ruleset: str, *, preset: str | None = None, max_hands: int | None = None,
              max_moves: int = DEFAULT_MAX_MOVES, reward: str = "win", **options: Any) -> pyspiel.Game:
    """An OpenSpiel game for ``ruleset`` (a bundled name or a path); other keywords choose its options.
    ``reward``: ``"win"`` (zero-sum, at the end), ``"score"`` (at the end), ``"hand"`` or ``"step"``
    (score changes as they come), as in ``rl.episode``."""
    for name, value in options.items():
        if any(c in f"{name}{value}" for c in ";:=,()"):
            raise ValueError(f"option {name}={value!r}: names and values may not contain ; : = , ( )")
    params = {
        "ruleset": str(ruleset),
        "options": ";".join(f"{k}:{v}" for k, v in sorted(options.items())),
        "preset": preset or "",
        "max_hands": int(max_hands or 0),
        "max_moves": int(max_moves),
        "reward": str(reward),
    }
    return pyspiel.load_game(SHORT_NAME, params)


def parse_options(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"options: '{part}' is not name:value")
        out[name.strip()] = value.strip()
    return out


class RulecraftGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleset with its options, as a pyspiel game (one registered game type, many rulesets)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        if not p["ruleset"]:
            raise ValueError("the rulecraft game needs a ruleset: load_game('my-game') or rulecraft(ruleset=...)")
        self.rs: Ruleset = ruleset_of(p["ruleset"], parse_options(str(p["options"])), p["preset"] or None)
        self.enc = Encoding(self.rs)
        self.max_hands = int(p["max_hands"]) or None
        self.max_moves = int(p["max_moves"])
        self.reward = str(p["reward"])
        check_reward(self.reward)
        self.params = {k: p[k] for k in _PARAMS}
        n = self.rs.seats.count
        if self.reward == "win":
            game_type, low, high, total = _GAME_TYPE, -1.0, float(max(1, n - 1)), 0.0
        else:  # scores: neither zero-sum nor bounded by anything but the engine's numbers
            game_type = _typed(self.reward)
            low, high, total = -float(MAX_HELD_NUMBER), float(MAX_HELD_NUMBER), None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.enc.num_actions,
            max_chance_outcomes=max(self.enc.types, self.enc.max_sides),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.max_moves,
        )
        super().__init__(game_type, info, self.params)

    def new_initial_state(self) -> RulecraftState:
        return RulecraftState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class Track(Episode):
    """An Episode whose chance is chosen from outside (``rl.chance``), with the actions taken so far."""

    def __init__(self, game: RulecraftGame) -> None:
        super().__init__(game.enc, None, game.max_moves, game.reward)
        self.game_params = dict(game.params)
        self.max_hands = game.max_hands
        self.pending: Pending | None = Pending(None, None)  # the start: run when first asked (clones never are)
        self.actions: list[int] = []
        self.records: dict[int | None, tuple[int, list[str]]] = {}  # see ``record``

    def __deepcopy__(self, memo: dict[int, Any]) -> Track:
        c = Track.__new__(Track)
        self._copy_into(c)
        c.game_params, c.max_hands = self.game_params, self.max_hands
        c.pending = self.pending.copy() if self.pending is not None else None
        c.actions = list(self.actions)
        c.records = {v: (n, list(lines)) for v, (n, lines) in self.records.items()}
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel serializes a Python state by pickling its attributes: a game is its parameters and actions.
        return (_replayed, (self.game_params, list(self.actions)))

    def record(self, viewer: int | None) -> list[str]:
        """The game's record as ``viewer`` may read it, one JSON line per event (kept as the game grows)."""
        assert self.st is not None
        history = self.st.history
        seen, lines = self.records.get(viewer, (0, []))
        if seen > len(history):  # pragma: no cover - a record only grows
            seen, lines = 0, []
        lines.extend(record_lines(self.st, viewer, seen))
        self.records[viewer] = (len(history), lines)
        return lines

    def _ready(self) -> None:
        if self.st is None and self.pending is not None and self.pending.need is None:
            self._resolve()  # the start, run when first asked about (a clone's copy never is)

    @property
    def chance(self) -> bool:
        self._ready()
        return not self.truncated and self.pending is not None

    @property
    def to_act(self) -> int | None:
        self._ready()
        return None if self.pending is not None else super().to_act

    @property
    def over(self) -> bool:
        self._ready()
        return self.truncated or (self.pending is None and self.st is not None and self.st.is_over)

    def make(self, move: Move) -> None:
        assert isinstance(self.st, ChanceState)
        self.pending = Pending(self.st, move)
        self._resolve()

    @property
    def waiting(self) -> bool:
        return self.pending is not None

    def _resolve(self, drawn: bool = False) -> None:
        """Run the pending step with the chance drawn so far; ``drawn``: the last draw came from outside
        (a move that waited for it is made now, and rewarded here: ``take`` rewards one made at once)."""
        assert self.pending is not None
        move = self.pending.move
        st = self.pending.run(self.enc.rs, self.max_hands)
        if st is not None:
            self.st, self.pending = st, None
            if move is None:  # the game's start
                if self.reward not in AT_THE_END:
                    self.start_scores()
            elif drawn:
                self.settle(True)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        self._ready()
        assert self.pending is not None and self.pending.need is not None
        return self.pending.outcomes(self.enc.rs)

    def draw(self, outcome: int) -> None:
        self._ready()
        assert self.pending is not None
        self.last_rewards = None
        if outcome not in {o for o, _ in self.pending.outcomes(self.enc.rs)}:
            raise ValueError(f"chance outcome {outcome} is not possible here")
        if self.pending.add(self.enc.rs, outcome):
            self._resolve(drawn=True)


def _replayed(params: dict[str, Any], actions: list[int]) -> Track:
    game = pyspiel.load_game(SHORT_NAME, params)
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    track: Track = state._t
    return track


class RulecraftState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RulecraftGame) -> None:
        super().__init__(game)
        self._t = Track(game)

    # -- the pyspiel State API
    def current_player(self) -> int:
        t = self._t
        if t.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if t.chance:
            return int(pyspiel.PlayerId.CHANCE)
        seat = t.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        t = self._t
        if player < 0 or player != t.to_act:
            return []
        return t.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._t.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.chance:
            t.draw(int(action))
        else:
            t.take(action)
        t.actions.append(int(action))  # (once taken: an action refused leaves the state as it was)

    def _action_to_string(self, player: int, action: int) -> str:
        t = self._t
        if player == pyspiel.PlayerId.CHANCE:
            need = t.pending.need if t.pending is not None else None
            if need is not None and need.kind == "dice":
                return f"die {action + 1}"
            return f"draw {t.enc.type_ids[action]}" if 0 <= action < t.enc.types else f"outcome {action}"
        return t.enc.action_string(action)

    def is_terminal(self) -> bool:
        return bool(self._t.over)

    def returns(self) -> list[float]:
        self._t._ready()
        return list(self._t.returns)

    def rewards(self) -> list[float]:
        """What the last action (a player's or chance's) gave each player."""
        given = self._t.last_rewards
        return list(given) if given is not None else [0.0] * self._t.enc.seats

    def __str__(self) -> str:
        t = self._t
        if t.st is None:
            return "(before the first deal)"
        # The whole board (not the phase's public record, which can grow long): pyspiel compares these often.
        out = {"table": board_view(t.st, None), "events": len(t.st.history),
               "choosing": [t.enc.action_string(a) for a in t.prefix], "truncated": t.truncated}
        if t.pending is not None:
            out["chance"] = {"after": t.pending.move.text if t.pending.move else None,
                             "drawn": list(t.pending.drawn), "given": len(t.pending.given)}
        return json.dumps(out, ensure_ascii=False, sort_keys=True)

    # -- search support
    def resample_from_infostate(self, player: int, sampler: Any = None) -> RulecraftState:
        """A state ``player`` cannot tell from this one: the pieces hidden from it dealt again at random.

        Used by OpenSpiel's ISMCTS. Only the seat to act can be resampled for (the engine's determinization).
        """
        t = self._t
        if t.st is None or t.pending is not None or player != t.to_act:
            raise ValueError("a state can be resampled only for the seat to act, at its decision")
        try:
            seed = int(float(sampler()) * 2**53) if sampler is not None else random.getrandbits(53)
        except TypeError:
            seed = random.getrandbits(53)
        c: RulecraftState = self.clone()
        c._t.st = determinize(t.st, player, random.Random(seed), light=False)
        c._t.records = {}  # the same record, but a fresh copy for the new world
        return c


def resampler(seed: int) -> Callable[[RulecraftState, int], RulecraftState]:
    """A seeded resampler for OpenSpiel's ISMCTS (``bot.set_resampler``): its searches repeat exactly.

    (Without it, ISMCTS draws each world with a new ``pyspiel.UniformProbabilitySampler``, seeded anew.)
    """
    rng = random.Random(seed)

    def resample(state: RulecraftState, player: int) -> RulecraftState:
        return state.resample_from_infostate(player, rng.random)

    return resample


class Observer:
    """Observation tensors and strings of a seat (the py-observer interface of ``open_spiel.python.observation``)."""

    def __init__(self, game: RulecraftGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.enc = game.enc
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.private = private
        sections = self.enc.recall_sections if self.recall else self.enc.sections
        self.tensor = np.zeros(self.enc.recall_size if self.recall else self.enc.size, np.float32)
        self.dict = {s.name: self.tensor[s.start:s.start + s.size] for s in sections}

    def _viewer(self, player: int) -> int | None:
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return None
        if self.private == pyspiel.PrivateInfoType.NONE:
            return PUBLIC
        return player

    def set_from(self, state: RulecraftState, player: int) -> None:
        t = state._t
        if t.st is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = t.observation(self._viewer(player), self.recall)

    def string_from(self, state: RulecraftState, player: int) -> str:
        t = state._t
        if t.st is None:
            return "(before the first deal)"
        viewer = self._viewer(player)
        selection = t.prefix if viewer is not None and viewer == t.to_act else ()
        return seat_string(t.enc, t.st, viewer, selection, t.record(viewer) if self.recall else None)


def seat_string(enc: Encoding, st: State, viewer: int | None, selection: tuple[int, ...] = (),
                record: list[str] | None = None) -> str:
    """The observation string (``record`` None) or information-state string (``record``: the seat's record)."""
    view = seat_view(st, viewer)
    if selection:
        view["choosing"] = [enc.action_string(a) for a in selection]
    text = json.dumps(view, ensure_ascii=False, sort_keys=True)
    return text if record is None else "\n".join([*record, text])


def record_lines(st: State, viewer: int | None, start: int = 0) -> list[str]:
    """The game's record from event ``start`` on, as ``viewer`` may read it (``redact_event``), as JSON lines."""
    history = st.history
    out = []
    for i in range(start, len(history)):
        event = redact_event(history[i], viewer)
        if event is not None:
            out.append(json.dumps(event, ensure_ascii=False, sort_keys=True))
    return out


def seat_view(st: State, viewer: int | None) -> dict[str, Any]:
    """``State.view`` without its list of legal moves (the action mask says that, and listing a claim's costs)."""
    view = board_view(st, viewer)
    phases = st.rs.phases
    if st.is_over:
        view["result"] = st.result
    elif st.pidx < len(phases):
        view["phase"] = phases[st.pidx].id
        public = phases[st.pidx].public_view(st)
        if public is not None:
            view["public"] = public
    return view


pyspiel.register_game(_GAME_TYPE, RulecraftGame)
