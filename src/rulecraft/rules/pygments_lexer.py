"""A Pygments lexer for ``.rules`` files, for documentation and ``pygmentize``.

Pygments is not a dependency of rulecraft: this module is imported only by Pygments itself (the
``pygments.lexers`` entry point, ``pygmentize -l rules``) or by a docs build that has it installed.
The token rules follow ``rulefile.lark``: keys at the start of a line, ``ID:`` items (and the kind after the
id) and ``name:`` rows, ``-`` items, the ``|`` between a table's columns, strings, comments, and values in the
expression language.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

_KEY = r"[A-Za-z0-9_$][A-Za-z0-9_$-]*(?:\([^()\n]*\)|(?:\.[A-Za-z0-9_$][A-Za-z0-9_$-]*|\[[A-Za-z0-9_$-]+\])*)"


_WORD = r"[A-Za-z0-9_$][A-Za-z0-9_$-]*"
_PATH = r"[A-Za-z0-9_$][A-Za-z0-9_$-]*(?:\.[A-Za-z0-9_$][A-Za-z0-9_$-]*|\[[A-Za-z0-9_$-]+\])+"


class RulesLexer(RegexLexer):  # type: ignore[misc]  # pygments ships no type hints
    """Rule files in rulecraft's text form."""

    name = "rulecraft rules"
    aliases = ["rules", "rulecraft"]  # noqa: RUF012 - Pygments reads these class attributes
    filenames = ["*.rules"]  # noqa: RUF012

    tokens = {  # noqa: RUF012
        "root": [
            (r"#[^\n]*", Comment.Single),
            (r"\n", Whitespace),
            # 'ID: kind' or 'ID: "description", kind': the lone name after the id is the item's kind.
            (rf'^([ ]*)({_KEY})(:)(?:([ ]+)("(?:[^"\\\n]|\\.)*")(,))?([ ]+)({_WORD})(?=,|[ ]*(?:#|$))',
             bygroups(Whitespace, Name.Label, Punctuation, Whitespace, String.Double, Punctuation, Whitespace,
                      Keyword.Type)),
            (rf"^([ ]*)({_KEY})(:)(?=[ \n#]|$)", bygroups(Whitespace, Name.Label, Punctuation)),
            (r"^([ ]*)(-)(?=[ \n#]|$)", bygroups(Whitespace, Punctuation)),
            (rf"^([ ]*)({_KEY})(?=[ \n#]|$)", bygroups(Whitespace, Name.Tag)),
            (r'^([ ]*)("(?:[^"\\\n]|\\.)*")(:)', bygroups(Whitespace, Name.Label, Punctuation)),
            (r"[ \t]+", Whitespace),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            (r"'(?:[^'\\\n]|\\.)*'", String.Single),
            (_PATH, Name.Tag),  # a path key after '{' or ',' (a.b[id].c)
            (r"\b(?:and|or|not|in|if|else|for)\b", Keyword),
            (r"\b(?:true|false|none)\b", Keyword.Constant),
            (r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?", Number),
            (r"[A-Za-z_$][A-Za-z0-9_$]*(?:-[A-Za-z0-9_$]+)*(?=\()", Name.Function),
            (r"[A-Za-z_$][A-Za-z0-9_$]*(?:-[A-Za-z0-9_$]+)*", Name),
            (r"==|!=|<=|>=|//|[-+*/%<>]", Operator),
            (r"\|", Punctuation),  # between the columns of a table
            (r"[\[\](){},:]", Punctuation),
        ],
    }
