"""The expression language of rule files: parse (lark, LALR), check against a scope, compile to Python.

See docs/expressions.md for the language as a rule author reads it.
"""

from rulecraft.dsl.bindings import FunctionBinding, MacroBinding, NameBinding
from rulecraft.dsl.compiler import CompiledExpr, compile_expr, evaluate
from rulecraft.dsl.scope import Scope
from rulecraft.dsl.types import T

__all__ = ["CompiledExpr", "FunctionBinding", "MacroBinding", "NameBinding", "Scope", "T", "compile_expr",
           "evaluate"]
