"""``rulecraft validate / list / explain / diff / schema``: commands about rule files rather than games.

``diff`` compares two rulesets, or one ruleset under two sets of options. Each side takes its own
options: ``--a-option/-a NAME=CHOICE`` and ``--a-preset`` for A, ``--b-option/-b`` and ``--b-preset``
for B (``rulecraft diff my-game my-game -b scoring=house``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

from rulecraft.cli.options import FiniteFloatRange, parse_option_assignments
from rulecraft.errors import Diagnostic, UsageError, clip

if TYPE_CHECKING:
    from rulecraft.engine.pieces import NameTable
    from rulecraft.engine.ruleset import Ruleset

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Output format.")


def register(group: click.Group) -> None:
    for command in (validate, list_cmd, explain, diff, schema):
        group.add_command(command)


# --------------------------------------------------------------------------- validate
@click.command()
@click.argument("paths", nargs=-1)
@FORMAT
@click.option("--no-build", is_flag=True, help="Only check structure (YAML, schema, composition); skip building.")
@click.option("--simulate", "games", type=click.IntRange(min=0), default=0, metavar="N",
              help="Also play N seeded random games per configuration, reporting any that cannot be played.")
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="--simulate: a game still going after this many moves is reported as one that does not end.")
@click.option("--time-limit", type=FiniteFloatRange(min=0, min_open=True), default=30.0, show_default=True,
              metavar="SECONDS", help="--simulate: a game still going after this many seconds is cut and reported "
                                      "as too slow to check (a warning); the next configuration is played.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="--simulate: play the configurations' games in this many local processes.")
@click.pass_context
def validate(ctx: click.Context, paths: tuple[str, ...], fmt: str, no_build: bool, games: int, max_moves: int,
             time_limit: float, workers: int) -> None:
    """Check rule files, overlays and scenarios (files, or directories searched for *.yaml and *.rules).

    Every ruleset is also checked under each option choice and each preset. With --simulate N, each
    of those configurations also plays N random games, and any game that does not end (within
    --max-moves moves), reaches a state with no legal move, or breaks an engine invariant is reported
    with its seed (a game still going after --time-limit seconds is cut, with a warning that it was
    too slow to check); the status line (on a terminal) says about how long
    the file's games have left, and --workers W plays them in W processes (the report is the same).
    With no PATHS, the bundled rule files; a path that does not exist here but names bundled files
    (variants/..., a ruleset's name) means those.
    Problems and the summary go to standard output, one file:line:col: error: line per problem;
    exit 0 when all are valid, 1 when any problem is found, 2 for a usage error.
    """
    if games and no_build:
        raise click.UsageError("--simulate needs the rulesets built: drop --no-build")
    with _collector_paused(not games) as collect_now:
        from rulecraft.cli.inputs import input_paths
        from rulecraft.cli.progress import status_line
        from rulecraft.rules.registry import bundled_variants_dir
        from rulecraft.runs.validate import PlayCheck, collect_files, validate_file

        files = collect_files(input_paths(paths, bundled_variants_dir()))
        if not files:
            raise UsageError(f"no rule files (*.yaml, *.yml, *.rules) in {', '.join(paths)}")
        with status_line() as tell:
            check = PlayCheck(games, max_moves, time_limit, tell, workers)
            reports = []
            for f in files:
                reports.append(validate_file(f, build=not no_build, simulate=check))
                collect_now(reports[-1].variants_checked)
    diags: list[Diagnostic] = [d for r in reports for d in r.diagnostics]
    bad = [r for r in reports if not r.ok]
    if fmt == "json":
        click.echo(json.dumps([d.as_json() for d in diags], indent=2, ensure_ascii=False))
    else:
        for d in diags:
            click.echo(d.format())
        if bad:
            n = sum(d.severity == "error" for d in diags)
            click.echo(f"{n} problem{'s' if n != 1 else ''} in {len(bad)} of {len(files)} "
                       f"file{'s' if len(files) != 1 else ''}")
        else:
            checked = sum(max(r.variants_checked, 1) for r in reports)
            warned = len(diags)  # (only warnings: none of them fails a file)
            click.echo(f"ok: {len(files)} file{'s' if len(files) != 1 else ''} valid "
                       f"({checked} configuration{'s' if checked != 1 else ''} checked"
                       f"{f'; {warned} warning' + ('s' if warned != 1 else '') if warned else ''})")
    if bad:
        ctx.exit(1)


@contextlib.contextmanager
def _collector_paused(paused: bool) -> Iterator[Callable[[int], None]]:
    """Python's cycle collector off while rule files are checked, collecting only between files.

    Checking makes many small objects that live a while (located data, scopes, compiled expressions,
    the caches of what was compiled), and automatic collections scan them again and again: 0.12-0.24 s
    of CPU of ``validate variants/``, about half of which pausing saves (one scan remains, when the
    collector is back on). The cycles left meanwhile are small (about 0.15 MB a configuration), so
    they are collected once every ``_COLLECT_EVERY`` configurations, after a file. Not while games are
    played (``--simulate``): their garbage is the engine's, collected as usual."""
    if not paused or not gc.isenabled():
        yield lambda _configurations: None
        return
    since = [0]

    def collect_now(configurations: int) -> None:
        since[0] += max(configurations, 1)
        if since[0] >= _COLLECT_EVERY:
            since[0] = 0
            gc.collect()

    if _FROZE[0]:  # what an earlier validate in this process froze is collected as usual again
        gc.unfreeze()
        _FROZE[0] = False
    gc.disable()
    try:
        yield collect_now
    finally:
        # The command ends here, and so does the process (but in tests): what the checks made is
        # frozen, so it is scanned neither by the collection the next allocation would start
        # (everything made since the pause is young) nor by the full one Python makes at exit
        # (0.07-0.09 s of CPU each on `validate variants/`, a tenth of a run). The cycles among it
        # (~0.15 MB a configuration since the last collect_now) are freed at exit, or by the next
        # validate of a process that runs several.
        gc.freeze()
        _FROZE[0] = True
        gc.enable()


_FROZE = [False]


_COLLECT_EVERY = 256


# --------------------------------------------------------------------------- list
@click.command("list")
@FORMAT
def list_cmd(fmt: str) -> None:
    """List the bundled rulesets by family, with their options (default marked *) and presets."""
    from rulecraft.rules.library import bundled_entries, by_family

    groups = by_family(bundled_entries())
    entries: list[dict[str, Any]] = []
    for family, members in groups:
        for entry in members:
            c = entry.composed
            if c is None:
                entries.append({"name": entry.name, "family": family.id, "error": entry.error})
                continue
            display = c.data.get("display") or {}
            languages = {str(k): str(v) for k, v in (display.get("languages") or {}).items()}
            default = str(display.get("default_language") or next(iter(languages), "en"))
            entries.append({
                "name": entry.name,
                "title": c.title,
                "family": family.id,
                "file": c.files[-1],
                "languages": languages or {default: default},
                "default_language": default,
                "options": [{"id": o.id, "description": o.description, "default": o.default,
                             "choices": [{"id": ch.id, "description": ch.description,
                                          **({"other_names": list(ch.other_names)} if ch.other_names else {})}
                                         for ch in o.choices]}
                            for o in c.options],
                "presets": [{"id": p.id, "description": p.description, "options": p.options} for p in c.presets],
            })
    if fmt == "json":
        click.echo(json.dumps(entries, indent=2, ensure_ascii=False))
        return
    for family, members in groups:
        games = sum("/" not in m.name for m in members)
        click.echo(f"{family.title} ({games} game{'s' if games != 1 else ''})")
        for e in (e for e in entries if e["family"] == family.id):
            if "error" in e:
                click.echo(f"{e['name']}  (broken: {e['error']})")
                continue
            click.echo(f"{e['name']}  {e['title']}")
            click.echo("    languages: " + ", ".join(f"{code} ({label})" if label != code else code
                                                  for code, label in e["languages"].items()) + "  (--lang CODE)")
            for o in e["options"]:
                choices = ", ".join(ch["id"] + ("*" if ch["id"] == o["default"] else "")
                                    + "".join(f" ({name})" for name in ch.get("other_names", ()))
                                    for ch in o["choices"])
                click.echo(f"    -o {o['id']}={{{choices}}}" + (f"  {o['description']}" if o["description"] else ""))
            for p in e["presets"]:
                click.echo(f"    --preset {p['id']}" + (f"  {p['description']}" if p["description"] else ""))
        click.echo()
    games = sum("/" not in e["name"] for e in entries)
    click.echo(f"{games} game{'s' if games != 1 else ''} in {len(groups)} famil{'ies' if len(groups) != 1 else 'y'}")


# --------------------------------------------------------------------------- explain
option_flag = click.option("-o", "--option", "options", multiple=True, metavar="NAME=CHOICE",
                           help="Choose an option of the ruleset (repeatable).")
preset_flag = click.option("--preset", default=None, help="Select a named preset of options.")


@click.command()
@click.argument("ruleset")
@option_flag
@preset_flag
@click.option("--rule", "prefix", default="", metavar="PATH",
              help="Only rules at or under this rule path (e.g. hand.phases[play]).")
@click.option("--changed", is_flag=True, help="Only rules set by options (and what they deleted).")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="List the names in this language of the ruleset, and show them beside the rules they name.")
@FORMAT
def explain(ruleset: str, options: tuple[str, ...], preset: str | None, prefix: str, changed: bool,
            lang: str | None, fmt: str) -> None:
    """Show the effective rules of RULESET and where each came from (options marked *)."""
    from rulecraft.cli.table import language, named, names_of
    from rulecraft.rules.compose import overridden_options

    composed, rs = _load_built(ruleset, parse_option_assignments(options), preset)
    lang = language(rs, lang)
    names = names_of(rs)
    prov = composed.provenance
    overridden = overridden_options(composed)
    entries = [e for e in prov.under(prefix) if not _is_declaration(e.path)]
    deleted = [e for e in prov.deleted if not prefix or e.path.startswith(prefix)]
    if prefix and not entries and not deleted:
        raise UsageError(f"--rule {clip(prefix)}: {composed.name} has no rule at or under that path"
                         f"{_closest_path(prefix, [e.path for e in prov.under('')])}; rule paths look like "
                         "constants, hand.phases[play].first")
    if changed:
        entries = [e for e in entries if e.origin.layer.startswith("option ")]
    if fmt == "json":
        click.echo(json.dumps({
            "name": composed.name, "title": composed.title, "hash": composed.content_hash,
            "files": composed.files, "options": composed.chosen, "chosen_by": composed.chosen_by,
            "preset": composed.preset, "layers": composed.layers,
            "overridden": {oid: [_entry_json(e) for e in hits] for oid, hits in overridden.items()},
            "languages": names.languages, "default_language": names.default,
            **({"language": lang, "names": _names_json(names, lang)} if lang else {}),
            "rules": [{**_entry_json(e), **({"name": n} if (n := _path_name(names, e.path, lang)) else {})}
                      for e in entries],
            "deleted": [_entry_json(e) for e in deleted],
        }, indent=2, ensure_ascii=False))
        return
    click.echo(f"{composed.title}  ({composed.name}, hash {composed.content_hash[:12]})")
    click.echo("files: " + " <- ".join(composed.files))
    if composed.chosen:
        click.echo("options: " + ", ".join(f"{named(rs, 'options', k, lang)}={v}" +
                                           ("" if composed.chosen_by[k] == "default" else
                                            f" [{composed.chosen_by[k]}]")
                                           + (" (overridden)" if k in overridden else "")
                                           for k, v in composed.chosen.items()))
    for oid, hits in overridden.items():
        where = ", ".join(f"{e.path} ({e.origin.pos})" for e in hits)
        click.echo(f"  option {oid}: an overlay sets what it chooses: {where}")
    click.echo("languages: " + ", ".join(names.described(c) + (" default" if c == names.default else "")
                                         for c in names.languages))
    if lang:
        click.echo("")
        for line in _names_lines(rs, names, lang):
            click.echo(line)
    click.echo("")
    for e in entries:
        mark = "*" if e.origin.layer.startswith("option ") else " "
        local = _path_name(names, e.path, lang)
        click.echo(f"{mark} {e.path} = {_show(e.value)}" + (f"   ({lang}: {local})" if local else ""))
        click.echo(f"      {e.origin.pos}  {e.origin.layer}")
    for e in deleted:
        click.echo(f"- {e.path} (deleted)")
        click.echo(f"      {e.origin.pos}  {e.origin.layer}")


# --------------------------------------------------------------------------- diff
@click.command()
@click.argument("a")
@click.argument("b")
@click.option("-a", "--a-option", "a_options", multiple=True, metavar="NAME=CHOICE", help="An option for A.")
@click.option("-b", "--b-option", "b_options", multiple=True, metavar="NAME=CHOICE", help="An option for B.")
@click.option("--a-preset", default=None, help="A preset for A.")
@click.option("--b-preset", default=None, help="A preset for B.")
@FORMAT
def diff(a: str, b: str, a_options: tuple[str, ...], b_options: tuple[str, ...], a_preset: str | None,
         b_preset: str | None, fmt: str) -> None:
    """Show the rules that differ between A and B, each with where it came from.

    A and B are rulesets (names or paths), each with its own options: -a/--a-option and --a-preset
    for A, -b/--b-option and --b-preset for B. Compare one ruleset under two options with
    'rulecraft diff my-game my-game -b scoring=house'.
    """
    ca = _load(a, parse_option_assignments(a_options), a_preset)
    cb = _load(b, parse_option_assignments(b_options), b_preset)
    from rulecraft.rules.compose import plain

    pa = {e.path: e for e in ca.provenance.under("") if not _is_declaration(e.path)}
    pb = {e.path: e for e in cb.provenance.under("") if not _is_declaration(e.path)}
    paths = list(pa) + [p for p in pb if p not in pa]
    rows = []
    for p in paths:
        ea, eb = pa.get(p), pb.get(p)
        if ea is not None and eb is not None and plain(ea.value) == plain(eb.value):
            continue
        rows.append((p, ea, eb))
    if fmt == "json":
        click.echo(json.dumps({
            "a": {"name": ca.name, "hash": ca.content_hash, "options": ca.chosen},
            "b": {"name": cb.name, "hash": cb.content_hash, "options": cb.chosen},
            "differences": [{"path": p, "a": _entry_json(ea) if ea else None, "b": _entry_json(eb) if eb else None}
                            for p, ea, eb in rows],
        }, indent=2, ensure_ascii=False))
        return
    click.echo(f"a: {ca.name} {_opts(ca.chosen)} (hash {ca.content_hash[:12]})")
    click.echo(f"b: {cb.name} {_opts(cb.chosen)} (hash {cb.content_hash[:12]})")
    if not rows:
        click.echo("no differences in the rules")
        return
    for p, ea, eb in rows:
        click.echo("")
        click.echo(p)
        for side, e in (("a", ea), ("b", eb)):
            if e is None:
                click.echo(f"  {side}: (absent)")
            else:
                click.echo(f"  {side}: {_show(e.value)}    {e.origin.pos} ({e.origin.layer})")


# --------------------------------------------------------------------------- schema
@click.command()
@click.option("--kind", type=click.Choice(["ruleset", "overlay", "scenario", "mutants"]), default="ruleset",
              show_default=True, help="Which schema.")
def schema(kind: str) -> None:
    """Print a JSON Schema (for editors: yaml-language-server, VS Code)."""
    from rulecraft.rules.schema_check import schema_text

    click.echo(schema_text(kind), nl=False)


# --------------------------------------------------------------------------- helpers
def _load(ref: str, options: dict[str, str], preset: str | None) -> Any:
    """Compose and check; the ruleset is also built when the expression language is available."""
    return _load_built(ref, options, preset)[0]


def _load_built(ref: str, options: dict[str, str], preset: str | None) -> tuple[Any, Ruleset]:
    """The composed rules and the ruleset built from them (its names, for ``explain --lang``)."""
    from rulecraft.errors import RuleFileError
    from rulecraft.load import build_ruleset
    from rulecraft.rules.compose import compose
    from rulecraft.rules.relocate import relocate
    from rulecraft.rules.schema_check import check_composed

    composed = compose(ref, options, preset)
    check_composed(composed)
    try:
        rs = build_ruleset(composed)
    except RuleFileError as exc:
        raise RuleFileError(relocate(exc.diagnostics, composed.data, composed.source_text)) from None
    return composed, rs


# A rule path's list items, by the list they are in: pieces and phases have tables of their own; every
# other item with an id (a combination, an entry, a restriction, an effect, a multiplier ...) is a rule.
_ITEM = re.compile(r"(\w+)\[([^\]]+)\]")
_LIST_CATEGORY = {"pieces": "pieces", "phases": "phases", "options": "options"}


def _path_name(names: NameTable, path: str, lang: str | None) -> str | None:
    """The name in ``lang`` of the innermost thing a rule path names (``...multipliers[qin].factor`` → 擒)."""
    if lang is None or path.startswith("display."):
        return None
    found = None
    for key, item in _ITEM.findall(path):
        found = names.term(_LIST_CATEGORY.get(key, "rules"), item, lang) or found
    variable = re.match(r"variables\.(\w+)", path)
    if variable:
        found = names.term("variables", variable.group(1), lang) or found
    return found


def _names_json(names: NameTable, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for category, table in names.terms.items():
        named = {key: list(per_lang[lang]) for key, per_lang in table.items() if lang in per_lang}
        if named:
            out[category] = named
    values = {attr: {v: list(per_lang[lang]) for v, per_lang in by_value.items() if lang in per_lang}
              for attr, by_value in names.values.items()}
    if any(values.values()):
        out["values"] = {a: v for a, v in values.items() if v}
    return out


def _names_lines(rs: Ruleset, names: NameTable, lang: str) -> list[str]:
    """What has a name in ``lang``, by kind: ``6-6 天``, with other names after 'also'."""
    def entry(key: str, found: list[str]) -> str:
        return f"{key} {found[0]}" + (f" (also {', '.join(found[1:])})" if len(found) > 1 else "")

    table = _names_json(names, lang)
    lines = [f"names in {names.described(lang)}:"]
    order = {key: i for i, key in enumerate(rs.pieces.by_type_id)}
    for category, items in table.items():
        if category == "values":
            for attr, by_value in items.items():
                lines.append(f"  {attr}: " + ", ".join(entry(v, n) for v, n in by_value.items()))
            continue
        keys = sorted(items, key=lambda k: order.get(k, 0)) if category == "pieces" else list(items)
        lines.append(f"  {category}: " + ", ".join(entry(k, items[k]) for k in keys))
    if len(lines) == 1:
        lines.append("  (none)")
    return lines


def _closest_path(prefix: str, paths: list[str]) -> str:
    """A did-you-mean among the rule paths and every path above them (``hand``, ``hand.phases[play]``)."""
    import difflib
    import re

    known = {p[:m.start()] for p in paths for m in re.finditer(r"(?=[.\[])|$", p) if m.start()}
    close = difflib.get_close_matches(prefix, sorted(known), n=1) if len(prefix) <= 200 else []
    return f" (did you mean '{close[0]}'?)" if close else ""


def _is_declaration(path: str) -> bool:
    return path in ("options", "presets") or path.startswith(("options[", "presets["))


def _show(value: Any) -> str:
    from rulecraft.rules.compose import plain

    return json.dumps(plain(value), ensure_ascii=False)


def _opts(chosen: dict[str, str]) -> str:
    return "[" + ", ".join(f"{k}={v}" for k, v in chosen.items()) + "]" if chosen else "[]"


def _entry_json(e: Any) -> dict[str, Any]:
    from rulecraft.rules.compose import plain

    return {"path": e.path, "value": plain(e.value), "file": e.origin.pos.file, "line": e.origin.pos.line,
            "column": e.origin.pos.col, "layer": e.origin.layer}
