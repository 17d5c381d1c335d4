"""Play one Hold'em Bonus round with three bots and print each phase as seat "1" sees it.

uv run python qipai/games/holdem_bonus/examples/play_round.py [seed-hex]
"""

from __future__ import annotations

import json
import sys

from qipai.bots.base import Bot
from qipai.core.protocol import Seat
from qipai.core.rng import Rng, new_seed, seed_from_hex
from qipai.games.holdem_bonus import HoldemBonusConfig, HoldemBonusRound
from qipai.games.holdem_bonus.bots import RandomBot, SensibleBot


def main() -> None:
    seed = seed_from_hex(sys.argv[1]) if len(sys.argv) > 1 else new_seed()
    bots: dict[str, Bot] = {
        "1": SensibleBot(bonus=True, pool=True),
        "3": SensibleBot(),
        "6": RandomBot(),
    }
    config = HoldemBonusConfig()
    r = HoldemBonusRound.start(config, [Seat(s, 10_000) for s in bots], Rng(seed))
    bot_rng = Rng(seed).fork("bots")
    print(f"seed {seed.hex()}")
    phase = None
    while not r.finished:
        if r.phase != phase:
            phase = r.phase
            view = r.view("1")
            mine = [b for b in view["boxes"] if b["player"] == "1"]
            print(f"-- {phase}: board {view['board']}, seat 1 holds {[b['cards'] for b in mine]}")
        seat = r.awaiting()[0]
        action = bots[seat].choose(r.view(seat), r.legal_actions(seat), bot_rng)
        print(f"   seat {seat}: {json.dumps(action)}")
        r.act(seat, action)
    result = r.result()
    d = result.details
    print(f"-- showdown: board {d['board']}, dealer {d['dealer_cards']} ({d['dealer']['name']})")
    for box, info in d["boxes"].items():
        print(
            f"   box {box} {info['hole']} {info['hand']['name']:<16} {info['outcome']:<5} "
            f"nets {info['nets']} bonus line {info['bonus_line']}"
        )
    for seat in bots:
        print(f"   seat {seat} net {result.net(seat)}")
    print(f"   pool balance after: {d['pool_balance']}")


if __name__ == "__main__":
    main()
