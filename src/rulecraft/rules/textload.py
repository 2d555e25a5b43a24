"""The text form of rule files (``.rules``) into the same located data the YAML loader makes.

Why a second syntax: in YAML every formula is a quoted string and nesting is deep; the text form
writes expressions as themselves and a list item with an ``id`` as ``ID: entries``, so a rule file
reads like rules (``docs/rule-dsl.md``). Everything after loading (composition, options, the schema
check, the builder, ``explain``) sees LDict/LList/LStr/LInt/LFloat values with positions in the
``.rules`` file, exactly as for YAML, so it works unchanged and its errors point into this file.

The grammar (``rulefile.lark``) imports the expression grammar file itself, so a value is parsed as
an expression: a number, ``true``/``false``/``none`` and a quoted string are those values, a list
literal is a list, and any other expression is the string of its source text (what the YAML file
would hold in quotes). Only the grammar *file* is shared: this package does not import ``dsl``.

Bounded: files over the YAML loader's byte limit, indentation deeper than its nesting limit and
brackets nested past the expression language's limit are refused before any tree is built.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from rulecraft.errors import Diagnostic, Limit, RuleFileError, SourcePos
from rulecraft.parser_cache import lalr_parser, write_shipped
from rulecraft.rules.comments import Comment
from rulecraft.rules.excerpt import excerpt
from rulecraft.rules.located import LDict, LFloat, LInt, LList, LStr
from rulecraft.rules.yamlload import MAX_BYTES, MAX_DEPTH, MAX_NODES, YamlDocument

MAX_BRACKETS = Limit(50, "levels", "nests brackets {n} levels deep or more")
"""Deepest nesting of (), [] and {} on one value (the expression language's own limit)."""
MAX_TOKENS = Limit(400_000, "tokens", "holds {n} tokens or more")
"""Most tokens (names, numbers, strings, signs, line ends) in one file: a file of :data:`MAX_NODES` values, the
YAML reader's bound, written one a line is 300,000 tokens. The parser's tree is about 0.4 KB a token, so this
keeps a file's peak near the YAML reader's before the builder can count values. A bundled rule file holds
about 600."""

_DSL_DIR = Path(__file__).resolve().parent.parent / "dsl"


# --------------------------------------------------------------------------- the parser
class _Comment:
    __slots__ = ("col", "line", "own_line", "text")

    def __init__(self, line: int, col: int, text: str, own_line: bool) -> None:
        self.line, self.col, self.text, self.own_line = line, col, text, own_line


class _Limited(Exception):
    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message)
        self.line, self.col, self.message = line, col, message


class _Layout(Indenter):
    """Indentation to _INDENT/_DEDENT (newlines inside brackets are spaces), keeping the comments it sees."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]  # noqa: RUF012 - lark's Indenter reads these class attributes
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]  # noqa: RUF012
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def __init__(self) -> None:
        super().__init__()
        self.comments: list[_Comment] = []
        self.open: list[Token] = []  # the brackets not yet closed, to name the one a file leaves open

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        self.comments = []
        self.open = []
        out: Iterator[Token] = super().process(self._watch(stream))  # type: ignore[no-untyped-call]
        return out

    def _watch(self, stream: Iterator[Token]) -> Iterator[Token]:
        for count, tok in enumerate(stream, 1):
            if MAX_TOKENS.exceeded(count):
                raise _Limited(tok.line or 1, tok.column or 1, MAX_TOKENS.message("the file", count))
            if tok.type == "_NL":
                self._comments_in(tok)
            elif tok.type in self.OPEN_PAREN_types:
                if MAX_BRACKETS.exceeded(self.paren_level + 1):
                    raise _Limited(tok.line or 1, tok.column or 1,
                                   MAX_BRACKETS.message("this value", MAX_BRACKETS.value + 1))
                self.open.append(tok)
            elif tok.type in self.CLOSE_PAREN_types and self.open:
                self.open.pop()
            yield tok

    def handle_NL(self, token: Token) -> Iterator[Token]:
        indent = token.rsplit("\n", 1)[1] if "\n" in token else ""
        if "\t" in indent:
            line = (token.end_line or 1)
            raise _Limited(line, 1, "tabs cannot indent a rule file; use spaces")
        if len(self.indent_level) > MAX_DEPTH.value and indent.count(" ") > self.indent_level[-1]:
            raise _Limited(token.end_line or 1, 1, MAX_DEPTH.message("the file", MAX_DEPTH.value + 1))
        yield from super().handle_NL(token)

    def _comments_in(self, tok: Token) -> None:
        line, col = tok.line or 1, tok.column or 1
        own = col == 1 and line == 1  # a comment that starts the file stands on its own line
        text = str(tok)
        start = 0
        for part in re.finditer(r"#[^\n]*|\n[\t ]*", text):
            piece = part.group()
            if piece.startswith("\n"):
                line += 1
                col = len(piece)  # the next character's column (1-based) is len(indent) + 1
                own = True
                start = part.end()
                continue
            self.comments.append(_Comment(line, col + (part.start() - start), piece.rstrip(), own))
        del start


_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # As for the expression parser (dsl/larkparse.py): building the LALR tables costs more than reading
    # a file, so rulecraft ships them, used only when made from this grammar and the expression grammar
    # it imports, with these options, by this lark (parser_cache); otherwise lark keeps them in the
    # user's cache directory (it checks both files), made again if that file cannot be read.
    grammar, imported = _grammars()
    parser = lalr_parser("rulefile-parser", grammar, imported=imported, postlex=_Layout(), **_options())
    _collapse_wrappers(parser)
    return parser


def _collapse_wrappers(parser: Lark) -> None:
    """Make the parser return the one child of an or_/and_/compare/arith node instead of the node.

    The expression grammar's aliased rules keep a node even with one child, so the tree of a plain name
    in a list was seven nodes, each with its positions: a 1.5 MB list of 150,000 names peaked at 530 MB
    before the builder counted one value. The builder skips those nodes anyway (``_UNWRAP``); dropping
    them as the parser reduces keeps a fifth of the tree. Lark has no option for it, so the tree-building
    callbacks of these rules are wrapped (where this lark keeps them elsewhere, nothing is changed).
    """
    callbacks = getattr(getattr(getattr(parser.parser, "parser", None), "parser", None), "callbacks", None)
    if not isinstance(callbacks, dict):
        return
    for rule, build in list(callbacks.items()):
        alias = getattr(rule, "alias", None)
        if isinstance(alias, str) and alias.split("__")[-1] in _UNWRAP:
            callbacks[rule] = _collapsing(build)


def _collapsing(build: Any) -> Any:
    def collapse(children: list[Any]) -> Any:
        if len(children) == 1 and isinstance(children[0], Tree):
            return children[0]
        return build(children)

    return collapse


def _grammars() -> tuple[str, tuple[str]]:
    return ((Path(__file__).resolve().parent / "rulefile.lark").read_text(encoding="utf-8"),
            ((_DSL_DIR / "grammar.lark").read_text(encoding="utf-8"),))


def _options() -> dict[str, Any]:
    return {"propagate_positions": True, "maybe_placeholders": True, "import_paths": [str(_DSL_DIR)],
            "start": ["start", "value"]}


def write_shipped_tables() -> Path:
    """Make the shipped tables of the text form's grammar (``scripts/parser_tables.py``)."""
    grammar, imported = _grammars()
    return write_shipped("rulefile-parser", grammar, imported=imported, postlex=_Layout(), **_options())


def _parse(text: str, start: str = "start") -> tuple[Tree[Token] | Token, list[_Comment]]:
    parser = _parser()
    layout = parser.options.postlex
    assert isinstance(layout, _Layout)
    with _LOCK:
        try:
            tree = parser.parse(text, start=start)
        except UnexpectedToken as exc:
            if exc.token.type == "$END" and layout.open:
                tok = layout.open[-1]
                raise _Limited(tok.line or 1, tok.column or 1, f"this '{tok}' is not closed") from None
            raise
        comments = list(layout.comments)
    return tree, comments


# --------------------------------------------------------------------------- public API
def parse_rules_text(text: str, filename: str = "<string>") -> YamlDocument:
    """The located data of a ``.rules`` text, and the text (normalised) it was read from."""
    return parse_rules_with_comments(text, filename)[0]


def parse_rules_with_comments(text: str, filename: str = "<string>") -> tuple[YamlDocument, list[Comment]]:
    """The document and its comments (``convert`` and ``fmt`` keep them)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text and not text.endswith("\n"):
        text += "\n"
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RuleFileError.single(SourcePos(filename, 1, 1), f"rule files may be at most {MAX_BYTES:,} bytes")
    try:
        tree, comments = _parse(text)
    except _Limited as exc:
        raise _error(filename, text, exc.line, exc.col, exc.message) from None
    except DedentError:
        line = _dedent_line(text)
        raise _error(filename, text, line, 1, "the indentation does not line up with any line above") from None
    except UnexpectedInput as exc:
        raise _syntax_error(filename, text, exc) from None
    except RecursionError:
        raise RuleFileError.single(SourcePos(filename, 1, 1), "the file nests values too deeply") from None
    builder = _Builder(filename, text)
    assert isinstance(tree, Tree)
    lines = tree.children[0] if tree.children else None
    try:
        data = builder.block(lines) if isinstance(lines, Tree) else None
    except _Limited as exc:
        raise _error(filename, text, exc.line, exc.col, exc.message) from None
    if builder.diags:
        raise RuleFileError(builder.diags)
    return YamlDocument(data, text, filename), [(c.line, c.col, c.text, c.own_line) for c in comments]


def load_rules_text(text: str, filename: str = "<string>") -> Any:
    """The located data of ``.rules`` text; positions name ``filename``."""
    return parse_rules_text(text, filename).data


def read_back_value(text: str) -> Any:
    """What ``text`` written as a value reads as (None when it is not one value): the printer's test for
    whether a string may be written unquoted."""
    try:
        tree, _ = _parse(text, start="value")
    except (UnexpectedInput, _Limited, DedentError, RecursionError):
        return _NOT_A_VALUE
    builder = _Builder("<value>", text)
    value = builder.value(tree)
    return _NOT_A_VALUE if builder.diags else value


_NOT_A_VALUE: Any = object()


# --------------------------------------------------------------------------- errors
_WORDS = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "LBRACE": "'{'", "RBRACE": "'}'", "COMMA": "','",
    "COLON": "':'", "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "KEY": "a key",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/', '//' or '%'", "MINUS": "'-'", "PLUS": "'+'", "IF": "'if'",
    "ELSE": "'else'", "FOR": "'for'", "IN": "'in'", "NOT": "'not'", "AND": "'and'", "OR": "'or'",
    "TRUE": "'true'", "FALSE": "'false'", "NONE": "'none'", "EQUAL": "'=='", "NOTEQUAL": "'!='",
    "LESSTHAN": "'<'", "MORETHAN": "'>'", "LESSEQUAL": "'<='", "MOREEQUAL": "'>='",
    "_NL": "the end of the line",
    "VBAR": "'|'", "ROW_KEY": "a row's name ('name:')", "WORDS": "a list of words",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block",
    "$END": "the end of the file",
}

# Habits from YAML and other languages, and what to write instead.
_HABITS = (
    ("=", "did you mean '=='? (a key and its value are written 'key value')"),
    ("&", "did you mean 'and'?"),
    ("|", "did you mean 'or'?"),
    ("!", "did you mean 'not' or '!='?"),
    (":", "write 'key value' without ':' (only a list item's id is followed by ':', as in 'ID: key value')"),
    ("'", "a quoted string ends on its line; write long text as several quoted lines in an indented block"),
    ('"', "a quoted string ends on its line; write long text as several quoted lines in an indented block"),
)

_KEYWORDS = ("true", "false", "none", "and", "or", "not", "in", "if", "else", "for")


def _word(term: str) -> str:
    term = term.split("__")[-1]
    return _WORDS.get(term, f"'{term.lower()}'" if term.isupper() else term)


def _syntax_error(filename: str, text: str, exc: UnexpectedInput) -> RuleFileError:
    line, col = int(exc.line or 1), int(exc.column or 1)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "_INDENT":
        # Layout tokens carry the place of the line break before them: point at the line they concern,
        # the indented line for an indent; for a line end (or the dedent after it), the line that ended.
        line, col = int(exc.token.end_line or line), int(exc.token.end_column or col)
    if line < 1:
        line, col = text.count("\n") or 1, 1
    if isinstance(exc, UnexpectedCharacters):
        at = int(exc.pos_in_stream or 0)
        found = text[at] if at < len(text) else ""
        message = f"unexpected character '{found}'"
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        found = str(tok)
        if tok.type == "$END":
            message = "the file ends too early"
        elif tok.type in ("_NL", "_DEDENT"):
            message = "the line ends too early"
        elif tok.type == "_INDENT":
            message = "this line is indented, but the line above does not open a block"
        else:
            message = f"unexpected {_word(tok.type) if tok.type in _WORDS else repr(found)}"
        expected = sorted({_word(t) for t in exc.expected if not t.startswith("__")})
        if expected and len(expected) <= 6:
            message += "; expected " + ", ".join(expected[:-1]) + (" or " if len(expected) > 1 else "") + expected[-1]
    else:
        assert isinstance(exc, UnexpectedEOF)
        found = ""
        message = "the file ends too early (a bracket is not closed)"
    hint = next((h for needle, h in _HABITS if found.startswith(needle)), "")
    if not hint and found and found[:1].isalpha():
        close = difflib.get_close_matches(found, _KEYWORDS, n=1, cutoff=0.75)
        if close and close[0] != found:
            hint = f"did you mean '{close[0]}'?"
    if hint:
        message += f" ({hint})"
    return _error(filename, text, line, col, message)


def _error(filename: str, text: str, line: int, col: int, message: str) -> RuleFileError:
    pos = SourcePos(filename, line, col)
    return RuleFileError([Diagnostic(pos, message, context=excerpt(text, pos))])


def _dedent_line(text: str) -> int:
    """The first line whose indentation matches no enclosing block (where lark's DedentError arose)."""
    levels = [0]
    for n, raw in enumerate(text.split("\n"), 1):
        stripped = raw.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(stripped)
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while indent < levels[-1]:
            levels.pop()
        if indent != levels[-1]:
            return n
    return 1


# --------------------------------------------------------------------------- tree to located data
_UNWRAP = {"or_", "and_", "compare", "arith"}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


def _rule(tree: Tree[Token]) -> str:
    return str(tree.data).split("__")[-1]


class _Builder:
    def __init__(self, filename: str, text: str) -> None:
        self.file = filename
        self.text = text
        self.diags: list[Diagnostic] = []
        self.values = 0

    def count(self, n: int, at: SourcePos) -> None:
        """``n`` more values, at ``at``: a file holds at most as many as a YAML file may (a line of a million
        words was a list of a million located strings, 1.2 GB)."""
        self.values += n
        if self.values > MAX_NODES:
            raise _Limited(at.line, at.col, f"the file holds more than {MAX_NODES:,} values")

    def pos(self, line: int | None, col: int | None) -> SourcePos:
        return SourcePos(self.file, line or 1, col or 1)

    def at(self, node: Tree[Token] | Token) -> SourcePos:
        if isinstance(node, Token):
            return self.pos(node.line, node.column)
        return self.pos(node.meta.line, node.meta.column)

    def error(self, pos: SourcePos, message: str) -> None:
        self.diags.append(Diagnostic(pos, message, context=excerpt(self.text, pos)))

    # -- blocks
    def block(self, lines: Tree[Token]) -> Any:
        rows = [c for c in lines.children if isinstance(c, Tree)]
        families = [_family(r) for r in rows]
        if len(set(families)) > 1:
            first = families[0]
            odd = next(r for r, f in zip(rows, families, strict=True) if f != first)
            self.error(self.at(odd), f"this block mixes {first} and {_family(odd)}: a block holds entries "
                                     "('key value'), or list items ('- value', 'ID: ...'), or lines of text")
            return LDict(pos=self.at(rows[0]))
        if families[0] == "lines of text":
            return self.text_block(rows)
        if families[0] == "list items":
            out_list = LList(pos=self.at(rows[0]))
            for r in rows:
                out_list.append(self.list_item(r))
                out_list.item_pos.append(self.at(r.children[0]) if r.data == "id_item" else self.item_pos(r))
            return out_list
        out = LDict(pos=self.at(rows[0]))
        for r in rows:
            if r.data == "table":
                self.put_path(out, r.children[0], self.table(r))
                continue
            body = r.children[1]
            value = self.block(body) if r.data in ("block_entry", "text_line") and isinstance(body, Tree) \
                else self.value(body)
            self.put_path(out, r.children[0], value)
            if r.data == "entry":  # 'key value, key value': more entries on the same line
                for pair in r.children[2:]:
                    assert isinstance(pair, Tree)
                    self.put_path(out, pair.children[0], self.value(pair.children[1]))
        return out

    def item_pos(self, row: Tree[Token]) -> SourcePos:
        if row.data == "item":
            return self.at(row.children[0])
        inner = row.children[0]
        assert isinstance(inner, Tree)
        first = next((c for c in inner.children if isinstance(c, Tree)), inner)
        return self.at(first.children[0] if isinstance(first, Tree) and first.children else first)

    def list_item(self, row: Tree[Token]) -> Any:
        if row.data == "item":
            return self.value(row.children[0])
        if row.data == "block_item":
            return self.block(row.children[0])  # type: ignore[arg-type]
        key_tok, head, body = row.children
        assert key_tok is not None
        key = self.key(key_tok)  # an id as written, even with dots: it names an item, it is no path
        out = LDict(pos=key.pos)
        self.put(out, LStr("id", key.pos), key)
        fields: Tree[Token] | Token | None
        if isinstance(head, Tree) and head.data == "described":
            text, fields = head.children
            assert isinstance(text, Token)
            self.put(out, LStr("description", self.at(text)), self.quoted(text, self.at(text)))
        else:
            fields = head.children[0] if isinstance(head, Tree) else None
        pairs = fields.children[0] if isinstance(fields, Tree) and fields.data == "id_fields" else None
        if isinstance(fields, Tree) and fields.data == "headed":  # a lone name first: the item's kind
            word, pairs = fields.children
            assert isinstance(word, Token)
            if _path_steps(str(word)) is not None or "(" in str(word):
                self.error(self.at(word), f"'{word}' stands alone after the id, so it is the item's kind: a "
                                          "name (an entry is written 'key value')")
            self.put(out, LStr("kind", self.at(word)), LStr(str(word), self.at(word)))
        if isinstance(pairs, Tree):
            self.pairs(out, pairs)
        if isinstance(body, Tree):
            rest = self.block(body)
            if not isinstance(rest, LDict):
                self.error(self.at(body), f"the block under item '{key}' should hold its entries ('key value')")
                return out
            for k, v in rest.items():
                self.put(out, LStr(k, rest.key_pos[k]), v, merge=True)
        return out

    def table(self, node: Tree[Token]) -> LDict | LList:
        """``key | col | col`` and its rows: a list of mappings, or (rows ``name: ...``) a mapping of them."""
        *heads, rows = node.children[1:]
        cols = [self.key(h) for h in heads]
        assert isinstance(rows, Tree)
        named = [r.children[0] is not None for r in rows.children if isinstance(r, Tree)]
        first = rows.children[0]
        assert isinstance(first, Tree)
        out: LDict | LList = LDict(pos=self.at(first)) if named[0] else LList(pos=self.at(first))
        if len(set(named)) > 1:
            odd = next(r for r, n in zip(rows.children, named, strict=True) if n != named[0])
            assert isinstance(odd, Tree)
            self.error(self.at(odd), "this table mixes rows with a name ('name: cells') and rows without: a table "
                                     "is a mapping (every row named) or a list (no row named)")
            return out
        for r in rows.children:
            assert isinstance(r, Tree)
            name, *cells = r.children
            start = self.at(name if name is not None else r)
            row = LDict(pos=start)
            if len(cells) > len(cols):
                extra = cells[len(cols)]
                self.error(self.at(extra) if extra is not None else start,
                           f"this row has {len(cells)} cells but the table {len(cols)} "
                           f"column{'s' if len(cols) > 1 else ''}")
                continue
            for head, cell in zip(heads, cells, strict=False):
                if cell is not None:  # a column 'a.b' is the entry b of a mapping a, as a path key is
                    assert isinstance(head, Tree)
                    tok = head.children[0]
                    assert isinstance(tok, Token)
                    at = self.at(cell)
                    self.put_path(row, Tree("key", [Token(tok.type, str(tok), line=at.line, column=at.col)]),
                                  self.value(cell), written=self.at(tok))
            if isinstance(out, LDict):
                assert isinstance(name, Token)
                text = str(name)[:-1]
                if text.startswith('"'):
                    value, segs = self.string(Token("STRING", text, line=name.line, column=name.column))
                    key = LStr(value, segs[0][1] if segs else start, '"')
                else:
                    key = LStr(text, start)
                self.put(out, key, row)
            else:
                out.append(row)
                out.item_pos.append(start)
        return out

    def quoted(self, tok: Token, pos: SourcePos) -> LStr:
        value, segs = self.string(tok)
        out = LStr(value, segs[0][1] if segs else pos, '"')
        if len(segs) > 1:
            out.segments = tuple(segs)  # type: ignore[attr-defined]
        return out

    def text_block(self, rows: list[Tree[Token]]) -> LStr:
        parts: list[str] = []
        segments: list[tuple[int, SourcePos]] = []
        for r in rows:
            tok = r.children[0]
            assert isinstance(tok, Token)
            value, segs = self.string(tok)
            base = sum(map(len, parts))
            segments.extend((base + i, p) for i, p in segs)
            parts.append(value)
        out = LStr("".join(parts), segments[0][1] if segments else self.at(rows[0]), '"')
        if len(segments) > 1:
            out.segments = tuple(segments)  # type: ignore[attr-defined]
        return out

    def put(self, out: LDict, key: LStr, value: Any, merge: bool = False) -> None:
        """``key value`` into ``out``; with ``merge`` (a path key) a mapping already there takes its entries."""
        if key in out.key_pos:
            old = out[str(key)]
            if merge and isinstance(old, LDict) and isinstance(value, LDict):
                for k, v in value.items():
                    self.put(old, LStr(k, value.key_pos[k]), v, merge=True)
                return
            if merge and isinstance(old, LList) and isinstance(value, LList) and _ids(old) and _ids(value):
                for item, at in zip(value, value.item_pos, strict=True):
                    same = next((o for o in old if o["id"] == item["id"]), None)
                    if same is None:
                        old.append(item)
                        old.item_pos.append(at)
                    else:
                        for k, v in item.items():
                            if k != "id":
                                self.put(same, LStr(k, item.key_pos[k]), v, merge=True)
                return
            first = out.key_pos[key]
            self.error(key.pos, f"duplicate key '{key}' (first at line {first.line})")
            return
        out[str(key)] = value
        out.key_pos[str(key)] = key.pos

    def put_path(self, out: LDict, node: Tree[Token] | Token, value: Any, written: SourcePos | None = None) -> None:
        """An entry whose key may be a path (``a.b[id].c``): the nesting it stands for, merged into ``out``.
        ``written``: where the key is written, when not at the value (a table's column: its header)."""
        key = self.key(node)
        tok = node.children[0] if isinstance(node, Tree) else node
        steps = _path_steps(str(key)) if isinstance(tok, Token) and tok.type == "KEY" else None
        if steps is None:
            self.put(out, key, value)
            return
        pos = key.pos
        if MAX_DEPTH.exceeded(len(steps)):  # each step nests a mapping (or a list and a mapping): as YAML's limit
            self.error(pos, MAX_DEPTH.message("this key", len(steps)))
            return
        for n in range(len(steps) - 1, 0, -1):
            is_id, name, offset = steps[n]
            # A step is where it is written; in a table (``written``: the header) a row's keys are at its cell.
            at = pos if written is not None else SourcePos(pos.file, pos.line, pos.col + offset)
            if not is_id:
                inner = LDict(pos=at)
                inner[name] = value
                inner.key_pos[name] = at
                value = inner
                continue
            if not isinstance(value, LDict) or "id" in value:
                head = written or pos
                self.error(SourcePos(head.file, head.line, head.col + offset),
                           f"'[{name}]' in a key names a list item: it is followed by '.key', or its value is a "
                           "mapping of the item's entries")
                return
            item = LDict(pos=at)
            item["id"] = LStr(name, at)
            item.key_pos["id"] = at
            for k, v in value.items():
                item[k] = v
                item.key_pos[k] = value.key_pos[k]
            value = LList([item], pos=at)
            value.item_pos.append(at)
        self.put(out, LStr(steps[0][1], pos), value, merge=True)

    def pairs(self, out: LDict, pairs: Tree[Token]) -> None:
        for pair in pairs.children:
            assert isinstance(pair, Tree)
            self.put_path(out, pair.children[0], self.value(pair.children[1]))

    def key(self, node: Tree[Token] | Token) -> LStr:
        tok = node.children[0] if isinstance(node, Tree) else node
        assert isinstance(tok, Token)
        if tok.type.endswith("STRING"):
            value, segs = self.string(tok)
            return LStr(value, segs[0][1] if segs else self.at(tok), '"')
        return LStr(str(tok), self.at(tok))

    # -- values
    def value(self, node: Tree[Token] | Token) -> Any:
        while isinstance(node, Tree) and _rule(node) in _UNWRAP and len(node.children) == 1:
            node = node.children[0]  # lark keeps an aliased rule with one child: the value is that child
        if isinstance(node, Token) and node.type == "WORDS":  # 'A 2 3 J': a list of strings, each as written
            out_words = LList(pos=self.at(node))
            for m in re.finditer(r"\S+", str(node)):
                at = self.pos(node.line, (node.column or 1) + m.start())
                self.count(1, at)
                out_words.append(LStr(m.group(), at))
                out_words.item_pos.append(at)
            return out_words
        if isinstance(node, Token):  # a bare terminal (NAME) when the value is a name
            self.count(1, self.at(node))
            return LStr(str(node), self.at(node))
        rule = _rule(node)
        pos = self.at(node)
        self.count(1, pos)
        if rule == "inline_map":
            out = LDict(pos=pos)
            if isinstance(node.children[0], Tree):
                self.pairs(out, node.children[0])
            return out
        if rule == "number":
            return self.number(str(node.children[0]), pos)
        if rule == "neg" and isinstance(node.children[0], Tree) and _rule(node.children[0]) == "number":
            return self.number("-" + str(node.children[0].children[0]), pos)
        if rule == "string":
            tok = node.children[0]
            assert isinstance(tok, Token)
            value, segs = self.string(tok)
            out_str = LStr(value, segs[0][1] if segs else pos, '"')
            if len(segs) > 1:
                out_str.segments = tuple(segs)  # type: ignore[attr-defined]
            return out_str
        if rule in ("true", "false"):
            return rule == "true"
        if rule == "none":
            return None
        if rule == "list_lit":
            out_list = LList(pos=pos)
            args = node.children[0]
            for child in args.children if isinstance(args, Tree) else ():
                if child is None:
                    continue
                out_list.append(self.value(child))
                out_list.item_pos.append(self.at(child))
            return out_list
        return self.source(node)

    def number(self, text: str, pos: SourcePos) -> Any:
        if any(ch in text for ch in ".eE"):
            number = float(text)
            if number in (float("inf"), float("-inf")):
                self.error(pos, f"the number {text[:30]} is too large")
            return LFloat(number, pos)
        if len(text) > 4000:
            self.error(pos, f"the number is {len(text):,} digits long")
            return LInt(0, pos)
        return LInt(int(text), pos)

    def source(self, node: Tree[Token]) -> LStr:
        """An expression: the string of its text as written, each line's characters at their place."""
        start, end = node.meta.start_pos, node.meta.end_pos
        raw = self.text[start:end]
        line, col = node.meta.line, node.meta.column
        out = LStr(raw, self.pos(line, col))
        if "\n" in raw:
            segments = [(0, self.pos(line, col))]
            for m in re.finditer("\n", raw):
                line += 1
                segments.append((m.end(), self.pos(line, 1)))
            out.segments = tuple(segments)  # type: ignore[attr-defined]
        return out

    def string(self, tok: Token) -> tuple[str, list[tuple[int, SourcePos]]]:
        """A quoted string's value, and where its characters stand (a segment after each escape)."""
        raw = str(tok)[1:-1]
        line, col = tok.line or 1, (tok.column or 1) + 1
        out: list[str] = []
        segs: list[tuple[int, SourcePos]] = [(0, self.pos(line, col))]
        last = value_index = 0  # the value's length so far (kept as it grows: summed afresh, n escapes cost n²)
        for m in _ESCAPE.finditer(raw):
            out.append(raw[last:m.start()])
            value_index += m.start() - last
            code = m.group(1)
            if code[0] in "xuU" and len(code) > 1:
                n = int(code[1:], 16)
                if n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
                    self.error(self.pos(line, col + m.start()), f"'\\{code}' is not a character")
                    n = 0xFFFD
                ch = chr(n)
            elif code in _SIMPLE_ESCAPES:
                ch = _SIMPLE_ESCAPES[code]
            else:
                self.error(self.pos(line, col + m.start()),
                           f"unknown escape '\\{code}': write \\\\ for a backslash (escapes: \\n \\t \\\" \\' "
                           "\\\\ \\xNN \\uNNNN)")
                ch = code
            out.append(ch)
            value_index += len(ch)
            segs.append((value_index - 1, self.pos(line, col + m.start())))
            segs.append((value_index, self.pos(line, col + m.end())))
            last = m.end()
        out.append(raw[last:])
        return "".join(out), segs if len(segs) > 1 else segs[:1]


_STEP = re.compile(r"\.?([A-Za-z0-9_$][A-Za-z0-9_$-]*)|\[([A-Za-z0-9_$-]+)\]")


def _path_steps(key: str) -> list[tuple[bool, str, int]] | None:
    """A path key's steps as (is an [id], name, column offset), or None for a plain key or a signature."""
    if "(" in key or ("." not in key and "[" not in key):
        return None
    return [(m.group(2) is not None, m.group(1) or m.group(2), m.start(1) if m.group(1) else m.start(2))
            for m in _STEP.finditer(key)]


def _ids(items: list[Any]) -> bool:
    return all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items)


def _family(row: Tree[Token]) -> str:
    if row.data in ("entry", "block_entry", "table"):
        return "entries"
    if row.data == "text_line":  # a quoted line with a block under it is a quoted key and its value
        return "lines of text" if row.children[1] is None else "entries"
    return "list items"
