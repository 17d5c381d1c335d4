"""Tien Gow table settings with their RULES.md §5 defaults, validated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qipai.core.errors import InvalidInput


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"tiengow setting {key!r} must be an integer in [{low}, {high}]")
    return value


@dataclass(frozen=True)
class TienGowConfig:
    """One table's settings.

    * `base`: minor units per 栋 (RULES.md §5: "base = stake per 栋").
    * `wen_zun`: the source's optional 文尊 rule (**Decision**: off by default).
    * `zun_units`: 尊钱 in base units that every other player pays the player of 至尊
      (**Decision**: 1).
    * `turn_seconds`: the countdown for each turn; silence = the RULES.md §5 default play.
    """

    base: int = 100
    wen_zun: bool = False
    zun_units: int = 1
    turn_seconds: int = 20

    def __post_init__(self) -> None:
        if isinstance(self.base, bool) or not isinstance(self.base, int) or self.base <= 0:
            raise InvalidInput("tiengow base must be a positive integer of minor units")
        if not isinstance(self.wen_zun, bool):
            raise InvalidInput("tiengow wen_zun must be true or false")
        if isinstance(self.zun_units, bool) or not isinstance(self.zun_units, int):
            raise InvalidInput("tiengow zun_units must be an integer")
        if not 0 <= self.zun_units <= 100:
            raise InvalidInput("tiengow zun_units must be in [0, 100]")
        if isinstance(self.turn_seconds, bool) or not isinstance(self.turn_seconds, int):
            raise InvalidInput("tiengow turn_seconds must be an integer")
        if not 1 <= self.turn_seconds <= 600:
            raise InvalidInput("tiengow turn_seconds must be in [1, 600]")

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "wen_zun": self.wen_zun,
            "zun_units": self.zun_units,
            "turn_seconds": self.turn_seconds,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TienGowConfig:
        if not isinstance(data, Mapping):
            raise InvalidInput("tiengow settings must be a JSON object")
        unknown = set(data) - {"base", "wen_zun", "zun_units", "turn_seconds"}
        if unknown:
            raise InvalidInput(f"unknown tiengow settings: {', '.join(sorted(unknown))}")
        wen_zun = data.get("wen_zun", False)
        if not isinstance(wen_zun, bool):
            raise InvalidInput("tiengow wen_zun must be true or false")
        return cls(
            base=_int(data, "base", 100, 1, 10**12),
            wen_zun=wen_zun,
            zun_units=_int(data, "zun_units", 1, 0, 100),
            turn_seconds=_int(data, "turn_seconds", 20, 1, 600),
        )
