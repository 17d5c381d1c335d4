"""High card: a game that lives in this one folder and nowhere else (ARCHITECTURE.md, "The game contract").

Dropped into `qipai/games/` (the tests mount this folder's parent onto `qipai.games.__path__`,
which is what a new folder there amounts to), it is found by the registry and played by every
layer — `/api/games`, the table runtime, the CLI, the schemas and the conformance suite — with
no edit anywhere else. Everything it needs is imported relatively or from `qipai.core`.

Rules: every seat antes 1..`max_ante` (silence = 1, or the stack if smaller), is dealt one
hidden card, then in seat order may `keep` or `switch` it for the next card of the deck
(silence = keep); the highest card (rank, then suit) takes every ante.
"""
