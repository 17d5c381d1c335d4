"""The table runtime: drives rounds of a game in time (seats, countdowns, defaults on silence,
bots, journaling, settlement, reconnection, crash recovery)."""
