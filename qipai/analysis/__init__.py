"""Exact game mathematics: return to player, optimal strategy and Monte Carlo checks (docs/rtp.md).

One module per game computes exact outcome distributions by enumerating the full card or tile
composition, calling that game's own hand evaluation and payout code; `report` renders them.
"""
