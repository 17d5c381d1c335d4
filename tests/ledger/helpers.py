"""Playing the test coin game through the ledger, as the table layer does."""

from __future__ import annotations

from collections.abc import Mapping

from qipai.core.protocol import RecordedAction, Seat
from qipai.core.rng import Rng, new_seed
from qipai.ledger import Ledger
from tests.ledger.coin_game import CoinConfig, CoinRound


def play_coin(
    ledger: Ledger,
    bets: Mapping[str, int],
    players: Mapping[str, str],
    *,
    table: str = "t1",
    seed: bytes | None = None,
    settle: bool = True,
    reveal_seed: bool = True,
) -> tuple[str, CoinRound]:
    """Open a round, hold each bet, journal every action with its events, settle."""
    config = CoinConfig()
    seats = [Seat(seat, ledger.stack(user, table)) for seat, user in players.items()]
    seed = seed or new_seed()
    rid = ledger.open_round(
        table_id=table,
        game="coin",
        config=config.to_json(),
        seats=seats,
        players=players,
        seed=seed,
        holds=bets,
    )
    round_ = CoinRound.start(config, seats, Rng(seed))
    for seat, amount in bets.items():
        action = {"type": "bet", "amount": amount}
        events = round_.act(seat, action)
        ledger.append(rid, RecordedAction(seat, action), *events, client_id=f"c-{seat}")
    if settle:
        ledger.settle_round(rid, round_.result(), reveal_seed=reveal_seed)
    return rid, round_
