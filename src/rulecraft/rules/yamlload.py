"""Strict, safe YAML loading into located values (every value knows its file, line and column).

Why not ``yaml.safe_load``: rule files are written by people who are not programmers, so the
loader must refuse what would silently surprise them and say where, in editor coordinates.

What it accepts is the YAML 1.2 *core schema*, the one editors (yaml-language-server) assume:

- booleans are only ``true`` / ``false`` (also ``True``/``TRUE``/``False``/``FALSE``); ``yes``,
  ``no``, ``on``, ``off``, ``y``, ``n`` stay strings;
- ``null``, ``Null``, ``NULL``, ``~`` and an empty value are null;
- integers are decimal (``010`` is ten: a leading zero does *not* mean octal), or ``0o17`` /
  ``0x1f``; ``1_000`` is a string;
- floats are ``1.5``, ``.5``, ``1e3``; ``.inf`` / ``.nan`` stay strings (no rule needs them and
  they cannot be hashed as JSON);
- dates and timestamps (``2024-01-01``) stay strings; sexagesimal ``1:30`` stays a string;
- explicit tags other than the standard ``!!str`` / ``!!int`` / ``!!float`` / ``!!bool`` /
  ``!!null`` / ``!!seq`` / ``!!map`` are refused, so no object can ever be constructed.

It refuses, each with ``file:line:col`` and a message a newcomer can act on: syntax errors,
duplicate keys (naming where the first one was), keys that are not strings, merge keys (``<<``),
more than one document, files over :data:`MAX_BYTES`, self-referencing aliases, and alias
expansion past :data:`MAX_NODES` values (a "billion laughs" file is measured on the composed node
graph, where every anchor is counted once, and refused before anything is built).

Strings are :class:`LStr` whose ``pos`` is the first character of the *content* (after an opening
quote; the first content line of a block scalar). Scalars whose value does not sit 1:1 on one line
(escapes, folding, block scalars) also get ``segments`` so ``pos_at(i)`` maps character ``i`` of
the value to its place in the file; the expression compiler puts its carets there.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from rulecraft.disk_cache import Shelf, package_files, version_of
from rulecraft.errors import Diagnostic, Limit, RuleFileError, SourcePos
from rulecraft.rules.excerpt import excerpt
from rulecraft.rules.located import LDict, LFloat, LInt, LList, LStr

MAX_BYTES = 2 * 1024 * 1024
"""Largest rule file accepted. The biggest real rule file is a few tens of kilobytes."""

MAX_NODES = 100_000
"""Most values (scalars, lists, mappings) a file may hold once aliases are expanded."""

MAX_DEPTH = Limit(64, "levels", "nests lists and mappings {n} levels deep or more")
"""Deepest nesting of lists and mappings (a rule file needs about ten)."""

_TAG = "tag:yaml.org,2002:"
_BREAKS = "\n\x85\u2028\u2029"


# --------------------------------------------------------------------------- resolver
class _CoreResolver(BaseResolver):
    """YAML 1.2 core schema: no yes/no booleans, no dates, no sexagesimals, no implicit octal."""


_CoreResolver.add_implicit_resolver(
    _TAG + "bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_CoreResolver.add_implicit_resolver(
    _TAG + "int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789"))
_CoreResolver.add_implicit_resolver(
    _TAG + "float", re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"),
    list("-+.0123456789"))
_CoreResolver.add_implicit_resolver(
    _TAG + "null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])


# --------------------------------------------------------------------------- composer
class _AliasNode(Node):
    """An alias kept as a reference (PyYAML returns the anchored node itself and loses where the alias was)."""

    id = "alias"

    def __init__(self, target: Node, start_mark: Any, end_mark: Any, anchor: str) -> None:
        super().__init__(target.tag, target.value, start_mark, end_mark)
        self.target = target
        self.anchor = anchor


class _LoaderError(Exception):
    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message


class _StrictComposer(Composer):
    # Provided by the Parser and Resolver the loader mixes in beside this class (PyYAML's design).
    check_event: Callable[..., bool]
    get_event: Callable[[], Any]
    peek_event: Callable[[], Any]
    descend_resolver: Callable[[Node | None, Any], None]
    ascend_resolver: Callable[[], None]

    def __init__(self) -> None:
        super().__init__()
        self._open: set[str] = set()
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            event = self.get_event()
            anchor = event.anchor
            if anchor not in self.anchors:
                raise _LoaderError(event.start_mark, f"alias '*{anchor}' refers to no anchor '&{anchor}' above it")
            if anchor in self._open:
                raise _LoaderError(event.start_mark, f"alias '*{anchor}' is inside the value it refers to "
                                                     "(a value cannot contain itself)")
            return _AliasNode(self.anchors[anchor], event.start_mark, event.end_mark, anchor)
        event = self.peek_event()
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            first = self.anchors[anchor].start_mark
            raise _LoaderError(event.start_mark,
                               f"anchor '&{anchor}' is defined twice (first at line {first.line + 1})")
        if MAX_DEPTH.exceeded(self._depth + 1) and not self.check_event(ScalarEvent):
            # PyYAML composes (and we build) recursively: refuse where the nesting passes the limit.
            raise _LoaderError(event.start_mark, MAX_DEPTH.message("this value", MAX_DEPTH.value + 1))
        self.descend_resolver(parent, index)
        if anchor is not None:
            self._open.add(anchor)
        node: Node
        self._depth += 1
        try:
            if self.check_event(ScalarEvent):
                node = self.compose_scalar_node(anchor)
            elif self.check_event(SequenceStartEvent):
                node = self.compose_sequence_node(anchor)
            else:
                assert self.check_event(MappingStartEvent)
                node = self.compose_mapping_node(anchor)
        finally:
            self._depth -= 1
        if anchor is not None:
            self._open.discard(anchor)
        self.ascend_resolver()
        return node


    def compose_scalar_node(self, anchor: Any) -> ScalarNode:
        event = self.get_event()
        tag = event.tag
        if tag == "!":  # the non-specific tag: a string (libyaml and PyYAML report its 'implicit' apart)
            tag = _TAG + "str"
        elif tag is None:
            tag = self.resolve(ScalarNode, event.value, event.implicit)  # type: ignore[attr-defined]
        node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
        if anchor is not None:
            self.anchors[anchor] = node
        return node


class _PyLoader(Reader, Scanner, Parser, _StrictComposer, _CoreResolver):
    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        _StrictComposer.__init__(self)
        _CoreResolver.__init__(self)


try:  # libyaml's scanner and parser, under the same composer: the pure-Python scanner reads ~0.3 MB/s
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _FastLoader: Any = None
else:
    class _FastLoader(_StrictComposer, _CParser, _CoreResolver):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _StrictComposer.__init__(self)
            _CoreResolver.__init__(self)


# --------------------------------------------------------------------------- public API
@dataclass(frozen=True, slots=True)
class YamlDocument:
    """A loaded file: its located data, the text it was read from, and the name positions use."""

    data: Any
    text: str
    file: str


def display_path(path: str | os.PathLike[str]) -> str:
    """The name a file is shown under.

    A bundled rule file is shown as ``variants/<game>/<file>`` wherever it is installed (the same
    name as in a source checkout), so positions and provenance read the same for every user; any
    other file relative to the current directory when inside it.
    """
    from rulecraft.rules.registry import bundled_variants_dir

    p = Path(path)
    try:
        resolved = p.resolve()
    except (OSError, RuntimeError):  # a loop of symbolic links: RuntimeError before Python 3.13
        return str(path)
    with contextlib.suppress(ValueError, OSError):
        return "variants/" + resolved.relative_to(bundled_variants_dir().resolve()).as_posix()
    try:
        rel = resolved.relative_to(Path.cwd().resolve())
    except ValueError:
        return str(path)
    return rel.as_posix()


_PARSED: dict[tuple[str, bytes], YamlDocument] = {}
_PARSED_KEPT = 64


def read_yaml_file(path: str | os.PathLike[str], display: str | None = None,
                   parse: Callable[[str, str], YamlDocument] | None = None) -> YamlDocument:
    """Load a file, keeping its text (compose needs it to show source lines under errors).

    ``parse`` reads the decoded text (the YAML parser unless given: ``rules.rulefiles`` passes the
    ``.rules`` one), so both forms get the same checks on the file and the same cache.

    The same bytes are parsed once per process: validating a ruleset composes its files once per
    option choice and preset. The located data is then shared, so nothing downstream may change
    it (compose builds new mappings and lists).
    """
    name = display or display_path(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise RuleFileError.single(SourcePos(name, 1, 1), f"cannot read the file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would be read forever
        raise RuleFileError.single(SourcePos(name, 1, 1), f"not a regular file ({_file_kind(info.st_mode)}): a rule "
                                                          "file is a file of text")
    size = info.st_size
    if size > MAX_BYTES:
        raise RuleFileError.single(SourcePos(name, 1, 1),
                                   f"the file is {size:,} bytes; rule files may be at most {MAX_BYTES:,} bytes")
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RuleFileError.single(SourcePos(name, 1, 1), f"cannot read the file: {exc.strerror or exc}") from None
    key = (name, raw)
    doc = _PARSED.get(key)
    if doc is None:
        doc = _parse_kept(raw, name, parse or parse_yaml_text)
        if len(_PARSED) >= _PARSED_KEPT:
            del _PARSED[next(iter(_PARSED))]  # the oldest
        _PARSED[key] = doc
    return doc


def _parse_kept(raw: bytes, name: str, parse: Callable[[str, str], YamlDocument]) -> YamlDocument:
    """The document of ``raw``, from the cache between runs if this parser read the same bytes under the same
    name before (``disk_cache``; a file that does not parse is not kept: it is read again for its message)."""
    if "<" in parse.__qualname__:  # a lambda or a local function: nothing names it for the next run
        return _parse_bytes(raw, name, parse)
    key = _document_key(raw, name, parse)
    kept = _documents().get(key)
    if isinstance(kept, YamlDocument):
        return kept
    doc = _parse_bytes(raw, name, parse)
    _documents().put(key, doc)
    return doc


def _document_key(raw: bytes, name: str, parse: Callable[[str, str], YamlDocument]) -> bytes:
    reader = f"{parse.__module__}.{parse.__qualname__}"
    return b"\0".join((reader.encode("utf-8"), name.encode("utf-8", "surrogatepass"), raw))


@functools.cache
def _documents() -> Shelf:
    """Rule files' located data kept between runs, keyed by the reader, the name positions use and the bytes;
    made anew when any source of this package's rules layer, its grammars or the positions changes."""
    here = Path(__file__).resolve().parent
    sources = sorted([*here.glob("*.py"), *here.glob("*.lark"), here.parent / "errors.py",
                      here.parent / "dsl" / "grammar.lark"])
    # the readers' libraries too: PyYAML reads the YAML, lark the text form
    return Shelf("rule-documents", version_of(*sources, yaml.__version__, *package_files("lark", "__init__.py")),
                 limit=2048)


def _parse_bytes(raw: bytes, name: str, parse: Callable[[str, str], YamlDocument]) -> YamlDocument:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RuleFileError.single(SourcePos(name, line, col),
                                   "the file is not UTF-8 text (save it as UTF-8 in your editor)") from None
    return parse(text, name)


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    return next((what for test, what in kinds if test(mode)), "not a plain file")


def load_yaml_file(path: str | os.PathLike[str]) -> Any:
    """The located data of a YAML file (LDict/LList/LStr/LInt/LFloat; bool and None plain)."""
    return read_yaml_file(path).data


def load_yaml_text(text: str, filename: str = "<string>") -> Any:
    """The located data of YAML text; positions name ``filename``."""
    return parse_yaml_text(text, filename).data


def parse_yaml_text(text: str, filename: str = "<string>") -> YamlDocument:
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text and not text.endswith("\n"):
        text += "\n"  # where a mapping ends at the end of the file, libyaml and PyYAML then agree
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RuleFileError.single(SourcePos(filename, 1, 1), f"rule files may be at most {MAX_BYTES:,} bytes")
    if "\ufeff" in text:
        # An invisible character (files pasted together, each with its mark) that would make 'kup' and
        # 'ku\ufeffp' two names; the two YAML readers do not even agree on its column.
        line, col = _LineIndex(text).linecol(text.index("\ufeff"))
        pos = SourcePos(filename, line, col)
        raise RuleFileError([Diagnostic(pos, "the file contains a byte order mark (U+FEFF, invisible) after its start; "
                                             "remove it", context=excerpt(text, pos))])
    try:
        root = _compose(text)
        if root is None:
            return YamlDocument(None, text, filename)
        _check_budget(root, filename, text)
        builder = _Builder(filename, text)
        data = builder.build(root)
    except _LoaderError as exc:
        raise _error(filename, text, exc.mark, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(filename, text, exc) from None
    except yaml.reader.ReaderError as exc:
        line, col = _LineIndex(text).linecol(exc.position)
        pos = SourcePos(filename, line, col)
        what = f"#x{ord(exc.character):04x}" if isinstance(exc.character, str) else repr(exc.character)
        raise RuleFileError([Diagnostic(pos, f"the file contains a control character ({what}) that YAML does not "
                                             "allow", context=excerpt(text, pos))]) from None
    except RecursionError:
        raise RuleFileError.single(SourcePos(filename, 1, 1), "the file nests lists and mappings too deeply") from None
    if builder.diags:
        raise RuleFileError(builder.diags)
    return YamlDocument(data, text, filename)


_BLOCK_HEADER_THEN_HASH = re.compile(r"[|>][-+0-9]*#")


def _compose(text: str) -> Node | None:
    """The node graph of ``text``: read by libyaml when it can; a file libyaml finds anything wrong with
    is read again by PyYAML's own parser, whose messages (and our hints for them) are the ones reported."""
    # libyaml allows tabs where PyYAML does not (after a scalar, inside a plain one), and a block scalar's
    # header followed by '#' with no space ('key: |#'): a file with either is read by PyYAML alone, so both
    # readers accept exactly the same files (the fuzz tests check it).
    if _FastLoader is not None and "\t" not in text and not _BLOCK_HEADER_THEN_HASH.search(text):
        fast_error: yaml.MarkedYAMLError | None = None
        with contextlib.suppress(yaml.YAMLError, _LoaderError, RecursionError):
            fast = _FastLoader(text)
            try:
                node: Node | None = fast.get_single_node()
                return node
            except yaml.MarkedYAMLError as exc:
                fast_error = exc
            finally:
                fast.dispose()
        if fast_error is not None:
            # (its traceback holds the frames of the composer, and through them every node composed so far:
            # let them go before PyYAML reads)
            fast_error.__traceback__ = None
            del fast
            _raise_from_last_section(text, fast_error)
    loader = _PyLoader(text)
    try:
        slow: Node | None = loader.get_single_node()
        return slow
    except (ValueError, OverflowError):  # PyYAML's scanner hands an escape past U+10FFFF ("\\U20005026") to chr()
        raise yaml.scanner.ScannerError("while scanning a double-quoted scalar", None,
                                        "found an escape beyond the last Unicode character (U+10FFFF)",
                                        loader.get_mark()) from None
    finally:
        loader.dispose()


def _raise_from_last_section(text: str, fast_error: yaml.MarkedYAMLError) -> None:
    """Raise PyYAML's error for a file libyaml refused, reading only from the last top-level key before the
    place libyaml names (returns when that cannot give PyYAML's answer: the whole file is then read again).

    PyYAML's pure-Python reader took 4-6 s to find the error in an 880 KB file. Both readers accept the
    same files, so the entries before that key are accepted by PyYAML too, and from a key at column 0 of
    the top-level mapping it reads on exactly as from the start of a file: its error there, moved down by
    the lines cut, is the one the whole file gives. The key is found in libyaml's own events (a line that
    only looks like a key may be inside a quoted value). Left to the whole reading: entries above the key
    that libyaml does not read alone, or that hold a '?' (libyaml reads '? ' in a flow collection as a key
    where PyYAML stops), an alias to an anchor above the key, a file of more than one document.
    """
    mark = fast_error.problem_mark or fast_error.context_mark
    if mark is None or "\n---" in text or "\n..." in text or text.startswith("%"):
        return
    root, cut = _top_level_key_before(text, mark.index)
    if root is None or cut is None or cut.index == 0 or "?" in text[:cut.index] or not _fast_accepts(text[:cut.index]):
        return  # ('?' in a flow collection: libyaml reads an explicit key where PyYAML stops with an error)
    try:
        loader = _PyLoader(text[cut.index:])  # (a character YAML does not allow: the whole file says where)
    except yaml.YAMLError:
        return
    try:
        loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        if "undefined alias" in (exc.problem or "") or exc.problem_mark is None:
            return
        context_mark = exc.context_mark
        if context_mark is not None and (context_mark.line, context_mark.column) == (0, 0) and \
                exc.context == "while parsing a block mapping":
            context_mark = root  # the top-level mapping, which starts above the cut
        elif context_mark is not None:
            context_mark = _moved(context_mark, cut)
        raise type(exc)(exc.context, context_mark, exc.problem, _moved(exc.problem_mark, cut), exc.note) from None
    except (yaml.YAMLError, _LoaderError, RecursionError, ValueError, OverflowError):
        return
    finally:
        loader.dispose()


def _fast_accepts(text: str) -> bool:
    """Whether libyaml reads ``text`` (the entries above the cut) as one document without an error."""
    parser = _CParser(text)
    try:
        while parser.get_event() is not None:
            pass
    except yaml.YAMLError:
        return False
    finally:
        parser.dispose()
    return True


def _top_level_key_before(text: str, index: int) -> tuple[Any, Any]:
    """Where the top-level block mapping starts, and the last of its keys that starts before ``index`` at column 0
    (None for either when there is none), from libyaml's events."""
    from yaml.events import CollectionEndEvent, DocumentStartEvent

    parser = _CParser(text)
    root: Any = None
    cut: Any = None
    depth = 0
    expect_key = False
    try:
        while True:
            event: Any = parser.get_event()
            if event is None or event.start_mark.index >= index:
                break
            if isinstance(event, DocumentStartEvent) and root is not None:
                return None, None
            at_top = depth == 1 and root is not None
            column = getattr(event.start_mark, "column", -1)
            if at_top and expect_key and isinstance(event, ScalarEvent) and column == 0:
                cut = event.start_mark
            if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                if depth == 0:
                    if not isinstance(event, MappingStartEvent) or event.flow_style:
                        return None, None
                    root = event.start_mark
                    expect_key = True
                    depth += 1
                    continue
                depth += 1
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
                if depth == 1:
                    expect_key = not expect_key
                continue
            if at_top and isinstance(event, (ScalarEvent, AliasEvent)):
                expect_key = not expect_key
    except yaml.YAMLError:
        pass
    finally:
        parser.dispose()
    return root, cut


def _moved(mark: Any, cut: Any) -> yaml.Mark:
    return yaml.Mark(mark.name, mark.index + cut.index, mark.line + cut.line, mark.column,
                     None, None)  # type: ignore[arg-type]  # (no snippet: the message is built from the place)


# --------------------------------------------------------------------------- errors
_HINTS = (
    ("found character '\\t' that cannot start any token",
     "tabs cannot indent YAML; use spaces"),
    ("mapping values are not allowed here",
     "a ':' followed by a space starts a key; if it is part of a value, put the value in quotes"),
    ("could not find expected ':'",
     "each line of a mapping is 'key: value'; check the indentation and any missing ':'"),
    ("found undefined alias", "an alias '*name' needs an anchor '&name' above it"),
    ("expected <block end>, but found",
     "the indentation does not line up with the lines above"),
    ("found unexpected end of stream", "a quote or bracket is not closed"),
    ("did not find expected key", "the indentation does not line up with the lines above"),
    ("found character '%' that cannot start any token", "put a value starting with '%' in quotes"),
    ("found character '@' that cannot start any token", "put a value starting with '@' in quotes"),
    ("found character '`' that cannot start any token", "put a value starting with '`' in quotes"),
)


def _syntax_error(filename: str, text: str, exc: yaml.MarkedYAMLError) -> RuleFileError:
    mark = exc.problem_mark or exc.context_mark
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    if (exc.context or "").startswith("expected a single document"):
        return _error(filename, text, exc.problem_mark, "a rule file holds one YAML document; remove the second '---'")
    message = f"invalid YAML: {problem}"
    if exc.context and exc.context_mark is not None and exc.problem_mark is not None:
        message += f" ({exc.context} at line {exc.context_mark.line + 1})"
    for needle, hint in _HINTS:
        if needle in problem:
            message += f"; {hint}"
            break
    return _error(filename, text, mark, message)


def _mark_pos(filename: str, mark: Any) -> SourcePos:
    if mark is None:
        return SourcePos(filename, 1, 1)
    return SourcePos(filename, mark.line + 1, mark.column + 1)


def _error(filename: str, text: str, mark: Any, message: str) -> RuleFileError:
    pos = _mark_pos(filename, mark)
    return RuleFileError([Diagnostic(pos, message, context=excerpt(text, pos))])


# --------------------------------------------------------------------------- alias budget
def _check_budget(root: Node, filename: str, text: str) -> None:
    """Refuse documents whose aliases expand past MAX_NODES, measuring the graph without expanding it."""
    sizes: dict[int, int] = {}

    def size(node: Node) -> int:
        if isinstance(node, _AliasNode):
            return size(node.target)
        known = sizes.get(id(node))
        if known is not None:
            return known
        total = 1
        if isinstance(node, SequenceNode):
            total += sum(size(c) for c in node.value)
        elif isinstance(node, MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        sizes[id(node)] = total
        return total

    total = 0

    def walk(node: Node) -> None:
        nonlocal total
        if isinstance(node, _AliasNode):
            total += size(node.target)
            if total > MAX_NODES:
                raise _LoaderError(node.start_mark,
                                   f"alias '*{node.anchor}' expands the file past {MAX_NODES:,} values; rule files "
                                   "may not multiply data through aliases (a 'billion laughs' file)")
            return
        total += 1
        if total > MAX_NODES:
            raise _LoaderError(node.start_mark, f"the file holds more than {MAX_NODES:,} values")
        if isinstance(node, SequenceNode):
            for c in node.value:
                walk(c)
        elif isinstance(node, MappingNode):
            for k, v in node.value:
                walk(k)
                walk(v)

    walk(root)


# --------------------------------------------------------------------------- construction
class _LineIndex:
    """Index → (line, col), counting line breaks the way PyYAML's marks do."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch in _BREAKS:
                self.starts.append(i + 1)

    def linecol(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, index) - 1
        return line + 1, index - self.starts[line] + 1


_ESCAPES = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


class _Builder:
    def __init__(self, filename: str, text: str) -> None:
        self.file = filename
        self.text = text
        self.lines = _LineIndex(text)
        self.diags: list[Diagnostic] = []

    # -- positions
    def pos(self, index: int) -> SourcePos:
        line, col = self.lines.linecol(index)
        return SourcePos(self.file, line, col)

    def mark(self, mark: Any) -> SourcePos:
        return _mark_pos(self.file, mark)

    def error(self, pos: SourcePos, message: str) -> None:
        self.diags.append(Diagnostic(pos, message, context=excerpt(self.text, pos)))

    # -- nodes
    def build(self, node: Node) -> Any:
        if isinstance(node, _AliasNode):
            return self.build(node.target)
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            self.check_tag(node, "seq")
            out = LList(pos=self.mark(node.start_mark))
            out.end = self.mark(node.end_mark)  # type: ignore[attr-defined]
            for child in node.value:
                out.append(self.build(child))
                out.item_pos.append(self.mark(child.start_mark))
            return out
        assert isinstance(node, MappingNode)
        self.check_tag(node, "map")
        out_map = LDict(pos=self.mark(node.start_mark))
        out_map.end = self.mark(node.end_mark)  # type: ignore[attr-defined]
        for knode, vnode in node.value:
            key = self.key(knode)
            if key is None:
                continue
            if key in out_map.key_pos:
                first = out_map.key_pos[key]
                self.error(key.pos, f"duplicate key '{key}' (first at line {first.line})")
                continue
            out_map[key] = self.build(vnode)
            out_map.key_pos[key] = key.pos
        return out_map

    def key(self, knode: Node) -> LStr | None:
        target = knode.target if isinstance(knode, _AliasNode) else knode
        pos = self.mark(knode.start_mark)
        if not isinstance(target, ScalarNode):
            self.error(pos, "keys must be names (strings), not lists or mappings")
            return None
        value = self.scalar(target)
        if not isinstance(value, str):
            shown = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            self.error(pos, f"keys must be names (strings); write '{shown}' in quotes if you mean the text")
            return None
        if value == "<<" and not target.style:  # plain (libyaml says '', PyYAML None), not quoted
            self.error(pos, "merge keys ('<<') are not supported; use 'extends:' and overlays to share rules")
            return None
        if isinstance(knode, _AliasNode):
            return LStr(str(value), pos, getattr(value, "style", ""))
        return value if isinstance(value, LStr) else LStr(value, pos)

    def check_tag(self, node: Node, kind: str) -> None:
        if node.tag != _TAG + kind:
            self.error(self.mark(node.start_mark), f"the tag '{_short_tag(node.tag)}' is not supported here")

    def scalar(self, node: ScalarNode) -> Any:
        tag = node.tag
        value: str = node.value
        start = self.mark(node.start_mark)
        try:
            if tag == _TAG + "str":
                return self.located_str(node)
            if tag == _TAG + "int":
                if value.startswith(("0o", "0x")):
                    return LInt(int(value[2:], 8 if value[1] == "o" else 16), start)
                return LInt(int(value, 10), start)
            if tag == _TAG + "float":
                number = float(value)
                if number != number or number in (float("inf"), float("-inf")):
                    raise ValueError
                return LFloat(number, start)
            if tag == _TAG + "bool":
                if value.lower() not in ("true", "false"):
                    raise ValueError
                return value.lower() == "true"
            if tag == _TAG + "null":
                if value not in ("", "~", "null", "Null", "NULL"):
                    raise ValueError
                return None
        except ValueError:
            self.error(start, f"cannot read '{value}' as {_TAG_NAMES.get(tag, _short_tag(tag))}")
            return self.located_str(node)
        self.error(start, f"the tag '{_short_tag(tag)}' is not supported; rule files use plain YAML values")
        return self.located_str(node)

    # -- where each character of a string came from
    def located_str(self, node: ScalarNode) -> LStr:
        style = node.style or ""
        value: str = node.value
        s, e = node.start_mark.index, node.end_mark.index
        one_line = node.start_mark.line == node.end_mark.line
        if style == "" and one_line:
            return LStr(value, self.pos(s), style)
        if style in ("'", '"') and one_line and "\\" not in self.text[s:e] and "''" not in self.text[s:e]:
            return LStr(value, self.pos(s + 1), style)
        units = self.units(node)
        fallback = self.pos(units[0][1]) if units else self.pos(s + (1 if style in ("'", '"') else 0))
        indices = _align(value, units)
        if indices is None or not value:
            return LStr(value, fallback, style)
        segments: list[tuple[int, SourcePos]] = []
        prev: tuple[int, int] | None = None
        for i, idx in enumerate(indices):
            line, col = self.lines.linecol(idx)
            if prev is None or (line, col) != (prev[0], prev[1] + 1):
                segments.append((i, SourcePos(self.file, line, col)))
            prev = (line, col)
        out = LStr(value, segments[0][1], style)
        if len(segments) > 1:
            out.segments = tuple(segments)  # type: ignore[attr-defined]
        return out

    def units(self, node: ScalarNode) -> list[tuple[str, int]]:
        """The source characters a scalar's value is drawn from, with escapes decoded, as (char, index)."""
        text = self.text
        s, e = node.start_mark.index, node.end_mark.index
        style = node.style or ""
        if style in ("|", ">"):
            # Content starts on the line after the header (indicator, chomping, indentation, comment).
            nl = text.find("\n", s)
            return [(text[k], k) for k in range(nl + 1, e)] if nl != -1 else []
        if style == "'":
            return [(text[k], k) for k in range(s + 1, e - 1)]
        if style == "":
            return [(text[k], k) for k in range(s, e)]
        out: list[tuple[str, int]] = []
        k = s + 1
        stop = e - 1
        while k < stop:
            ch = text[k]
            if ch != "\\":
                out.append((ch, k))
                k += 1
                continue
            nxt = text[k + 1] if k + 1 < stop else ""
            if nxt in _ESCAPES:
                out.append((_ESCAPES[nxt], k))
                k += 2
            elif nxt in _HEX_ESCAPES:
                n = _HEX_ESCAPES[nxt]
                with contextlib.suppress(ValueError):  # PyYAML already refused a bad escape
                    out.append((chr(int(text[k + 2:k + 2 + n], 16)), k))
                k += 2 + n
            else:  # an escaped line break: the break and the next line's indentation vanish
                k += 2
        return out


def _align(value: str, units: list[tuple[str, int]]) -> list[int] | None:
    """Map each value character onto the source units it came from, greedily in order.

    Folding only drops whitespace and turns line breaks into spaces (or fewer breaks), so every
    value character is matched by an equal source character, or a space by a break.
    """
    out: list[int] = []
    j, n = 0, len(units)
    for v in value:
        while j < n:
            c = units[j][0]
            if c == v or (v in " \n" and c in _BREAKS):
                break
            j += 1
        if j == n:
            return None
        out.append(units[j][1])
        j += 1
    return out


_TAG_NAMES = {_TAG + "int": "a whole number", _TAG + "float": "a number", _TAG + "bool": "true or false",
              _TAG + "null": "null"}


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag
