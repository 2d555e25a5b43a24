"""Research adapters: every ruleset as a PettingZoo environment and as an OpenSpiel game.

``rulecraft.rl.pettingzoo.env(ruleset, **options)`` and ``rulecraft.rl.openspiel.load_game(ruleset,
**options)`` share one encoding (``encoding``: stable action ids, observation tensors derived from a
seat's view) and one way of taking a multi-piece play as a sequence of choices (``choices``). Both need
the optional ``rl`` extra (numpy, gymnasium, pettingzoo, open_spiel), imported only by the module that
uses it: importing this package imports nothing beyond the standard library. See docs/research-api.md.
"""
