"""rulecraft: traditional card and tile games as declarative rule files run by a generic engine."""

__version__ = "0.1.0"
