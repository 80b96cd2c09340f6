"""Backgammon Companion: a camera watches a physical board and a rules engine judges each move.

The package keeps a pure core (``companion.rules``, ``companion.vision``, ``companion.sim``,
``companion.referee``) and puts every piece of I/O (cameras, displays, files) at the edges.
"""

__version__ = "0.1.0"
