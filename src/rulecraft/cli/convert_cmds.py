"""``rulecraft convert`` and ``rulecraft fmt``: rule files between YAML and the text form (.rules)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from rulecraft.errors import UsageError


def register(group: click.Group) -> None:
    group.add_command(convert)
    group.add_command(fmt)


@click.command()
@click.argument("source", metavar="IN")
@click.argument("target", metavar="OUT")
@click.option("--force", is_flag=True, help="Replace OUT if it exists.")
def convert(source: str, target: str, force: bool) -> None:
    """Convert rule file IN to OUT, in the form OUT's extension names (.rules for the text form, .yaml).

    IN is a rule file or overlay in either form, or a bundled ruleset's name. Every value, source
    citation and comment is kept, and the result is checked to read back as the same data before it
    is written. An existing OUT is replaced only with --force.
    """
    from rulecraft.rules.convert import read_annotated, render, target_is_text
    from rulecraft.rules.registry import resolve_ruleset
    from rulecraft.runs.files import write_file

    to_text = target_is_text(target)
    if to_text is None:
        raise UsageError(f"OUT must end in .rules (the text form) or .yaml: {target}")
    out_path = Path(target)
    if out_path.exists() and not force:
        raise UsageError(f"{target} exists; rulecraft does not overwrite it unless you add --force")
    src = resolve_ruleset(source)
    if out_path.exists() and out_path.resolve() == src.resolve():
        raise UsageError(f"IN and OUT are the same file ({target}); use 'rulecraft fmt' to format a .rules file")
    text = render(read_annotated(src), to_text)
    write_file(out_path, _writer(text))
    click.echo(f"wrote {target} ({len(text):,} characters, from {src.stat().st_size:,} bytes)")


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="PATH...")
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if a file is not formatted.")
@click.pass_context
def fmt(ctx: click.Context, files: tuple[str, ...], check: bool) -> None:
    """Format .rules files in place, in the canonical layout convert writes (comments are kept).

    PATH is a .rules file or a directory searched for them. A file is replaced atomically, and only
    when its data reads back unchanged. With --check nothing is written and the exit status says
    whether every file was already formatted. A path that does not exist here but names bundled
    files (variants/..., a ruleset's name) means those, for --check only: they are not yours to rewrite.
    """
    from rulecraft.cli.inputs import input_paths
    from rulecraft.rules.convert import read_annotated, render
    from rulecraft.rules.rulefiles import is_text_form
    from rulecraft.runs.files import write_file

    paths: list[Path] = []
    for name in files:
        where = input_paths((name,), Path(name))[0]  # as given when it exists here, else the bundled files
        if where != Path(name) and not check:
            raise UsageError(f"{name} names rulecraft's bundled files, which fmt does not rewrite: check them with "
                             "--check, or copy one with 'rulecraft convert' and format the copy")
        if where.is_dir():
            found = sorted(p for p in where.rglob("*.rules") if p.is_file())
            if not found:
                raise UsageError(f"no .rules files in {name}")
            paths.extend(found)
        elif not is_text_form(str(where)):
            raise UsageError(f"fmt formats .rules files: {name} (convert a YAML file with 'rulecraft convert')")
        else:
            paths.append(where)
    unformatted = []
    for path in paths:
        name = str(path)
        text = render(read_annotated(path), to_text=True)
        try:
            old = path.read_text(encoding="utf-8")
        except OSError as exc:  # pragma: no cover - read just above
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
        if old == text:
            continue
        unformatted.append(name)
        if check:
            click.echo(f"would reformat {name}")
        else:
            write_file(path, _writer(text))
            click.echo(f"formatted {name}")
    if check and unformatted:
        ctx.exit(1)


def _writer(text: str) -> Callable[[str], None]:
    def produce(tmp: str) -> None:
        Path(tmp).write_text(text, encoding="utf-8")
    return produce
