"""Loading a ruleset: the one public entry that runs the whole pipeline.

``load_ruleset("my-game", {"variant": "house"})`` reads the rule file (a path or a bundled name),
composes it with what it extends, its options and a preset (``rules``), checks it against the
schema, and builds the runnable ``Ruleset`` (``engine.build``): every problem is a
``RuleFileError`` naming its ``file:line:col``.
"""

from __future__ import annotations

from typing import Any

from rulecraft.dsl import Scope
from rulecraft.engine.build import build_from_data
from rulecraft.engine.builder import Builder
from rulecraft.engine.reuse import BuildReuse
from rulecraft.engine.ruleset import Ruleset
from rulecraft.rules.compose import Composed, compose_documents, load_chain
from rulecraft.rules.schema_check import check_composed


def build_ruleset(composed: Composed, reuse: BuildReuse | None = None, builder: Builder | None = None) -> Ruleset:
    """Build the frozen Ruleset; raises RuleFileError listing every semantic problem found.

    ``reuse``: parts earlier builds of the same files worked out (``engine/reuse.py``; validate);
    ``builder``: the one to build with (a tool's, keeping what it compiled; see ``Builder.compiled``)."""
    return build_from_data(
        composed.data,
        name=composed.name,
        chosen=dict(composed.chosen),
        content_hash=composed.content_hash,
        composed=composed,
        source_text=dict(getattr(composed, "source_text", {}) or {}),
        reuse=reuse,
        builder=builder if builder is None else _with_sources(builder, composed),
    )


def _with_sources(builder: Builder, composed: Composed) -> Builder:
    """A tool's builder given the files' texts, as the builder made for a plain build is."""
    builder.source_text = dict(getattr(composed, "source_text", {}) or {})
    return builder


_BUILT: dict[tuple[Any, ...], Ruleset] = {}
_BUILT_KEPT = 32


def load_ruleset(ref: str, options: dict[str, str] | None = None, preset: str | None = None) -> Ruleset:
    """Load, compose, validate and build a ruleset from a path or bundled name.

    A ruleset is built once per process for the same files (by content), options and preset: a
    Ruleset is immutable and shared (games, agents and scenarios all read the same one).
    """
    chain = load_chain(ref)
    chosen = dict(options or {})
    key = (str(ref), tuple((d.file, d.text) for d in chain), tuple(sorted(chosen.items())), preset)
    built = _BUILT.get(key)
    if built is None:
        composed = compose_documents(chain, chosen, preset, ref=str(ref))
        check_composed(composed)
        built = build_ruleset(composed)
        if len(_BUILT) >= _BUILT_KEPT:
            del _BUILT[next(iter(_BUILT))]  # the oldest
        _BUILT[key] = built
    return built


def ruleset_scope(ref: str) -> Scope:
    """The constants, functions and piece attributes of a ruleset, for ``rulecraft eval --ruleset``."""
    rs = load_ruleset(ref)
    assert rs.scope is not None
    return rs.scope
