"""Typed boundaries: the pydantic base of every action and settings model, its strict field
types, and one translation of validation errors into `InvalidInput` naming the field.

Every model is frozen and refuses unknown fields (`extra="forbid"`): a misspelt key such as
`{"type": "clear", "spt": "P1"}` is an error naming `spt`, never an ignored field. Scalars are
strict — an amount is an `int` and nothing else (no `true`, no `1.0`, no `"50"`), a flag is a
`bool`, a text is a `str` — while arrays arrive as JSON lists and become tuples. Floats (the
countdowns only) refuse NaN and Infinity.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Annotated, Any, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
)

from qipai.core.errors import InvalidInput
from qipai.core.money import MAX_STAKE

T = TypeVar("T")

# ----- strict scalar types ------------------------------------------------------------------
Int = Annotated[int, Strict()]
Flag = Annotated[bool, Strict()]
Text = Annotated[str, Strict()]
# A positive amount of minor units that any money setting or bet may take (qipai.core.money).
Amount = Annotated[int, Strict(), Field(ge=1, le=MAX_STAKE)]
# The same, zero allowed (an optional stake, a pool seed).
Amount0 = Annotated[int, Strict(), Field(ge=0, le=MAX_STAKE)]
# A countdown in seconds (every countdown lies in 3–120 s).
MIN_COUNTDOWN_S = 3
MAX_COUNTDOWN_S = 120
Seconds = Annotated[
    float, Strict(), Field(ge=MIN_COUNTDOWN_S, le=MAX_COUNTDOWN_S, allow_inf_nan=False)
]
WholeSeconds = Annotated[int, Strict(), Field(ge=MIN_COUNTDOWN_S, le=MAX_COUNTDOWN_S)]


# A rate as an exact decimal string ("0.95"); each use adds its range with `rate_between`.
RATE_PATTERN = r"^[0-9]{1,6}(\.[0-9]{1,12})?$"
RateText = Annotated[str, Strict(), Field(max_length=24, pattern=RATE_PATTERN)]


def rate_between(
    low: Fraction, high: Fraction, *, low_open: bool = False, high_open: bool = False
) -> AfterValidator:
    """The validator of a decimal-string rate within [low, high] (either end open)."""

    def check(value: str) -> str:
        try:
            dec = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError(f"{value!r} is not a decimal number like '0.05'") from None
        if not dec.is_finite():
            raise ValueError(f"{value!r} is not a finite decimal")
        rate = Fraction(dec)
        if rate < low or rate > high or (low_open and rate == low) or (high_open and rate == high):
            left, right = "(" if low_open else "[", ")" if high_open else "]"
            raise ValueError(f"{value} must lie in {left}{low}, {high}{right}")
        return value

    return AfterValidator(check)


# A commission rate (抽水, 公點): a decimal string in [0, 1).
Commission = Annotated[RateText, rate_between(Fraction(0), Fraction(1), high_open=True)]
# A bid or bet multiple offered by a table (the rules offer 1–4 and 1–5; at most 10, so that
# base x bid x bet x hand multiplier stays a sane product).
MAX_MULTIPLE = 10
Multiple = Annotated[int, Strict(), Field(ge=1, le=MAX_MULTIPLE)]


def _increasing(values: tuple[int, ...]) -> tuple[int, ...]:
    if list(values) != sorted(set(values)):
        raise ValueError(f"{list(values)} must be distinct and increasing")
    return values


# The multiples a table offers: 1–10 distinct increasing integers.
Multiples = Annotated[
    tuple[Multiple, ...], Field(min_length=1, max_length=MAX_MULTIPLE), AfterValidator(_increasing)
]
# A multiple chosen in an action (0 = no bid); the round checks it against what it offers.
Chosen = Annotated[int, Strict(), Field(ge=0, le=10**6)]


# ----- models -------------------------------------------------------------------------------
class Model(BaseModel):
    """Frozen, unknown fields refused; strictness comes from the field types above."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    def __init__(self, /, **data: Any) -> None:
        # Built in code (`PokDengConfig(mode="banker-player")`): the same typed error as input.
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise invalid_input(exc, type(self).__name__) from None

    # Validation of nested models must not come through this `__init__` (pydantic calls a
    # custom `__init__` for nested input otherwise, and the typed error would lose the path).
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, data: object) -> Self:
        """Validate JSON-like input; InvalidInput naming the field on any problem."""
        if isinstance(data, cls):
            return data
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise invalid_input(exc, cls.__name__) from None

    @classmethod
    def from_json(cls, data: object) -> Self:
        """`parse` under the name the settings classes always had (None = the defaults)."""
        return cls.parse({} if data is None else data)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _path(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _describe(err: Mapping[str, Any], loc: tuple[int | str, ...]) -> str:
    """A pydantic error in the project's words (the field is named by the caller)."""
    kind = str(err.get("type", ""))
    ctx: Mapping[str, Any] = err.get("ctx") or {}
    got = f" (got {_short(err.get('input'))})"
    name = str(loc[-1]) if loc and isinstance(loc[-1], str) else "value"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be an integer" + got
    if kind == "bool_type":
        return "must be true or false" + got
    if kind == "string_type":
        return "must be a string" + got
    if kind in ("float_type", "float_parsing", "finite_number"):
        return "must be a finite number" + got
    if kind in ("tuple_type", "list_type"):
        return "must be a list" + got
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be an object" + got
    if kind == "greater_than_equal":
        least = ctx.get("ge")
        return ("must be positive" if least == 1 else f"must be at least {least}") + got
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}" + got
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}" + got
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}" + got
    if kind == "literal_error":
        return f"unknown {name} {_short(err.get('input'))}; expected {ctx.get('expected')}"
    if kind == "string_pattern_mismatch":
        if ctx.get("pattern") == RATE_PATTERN:
            return "must be a decimal number like '0.05' (digits and a point only)" + got
        return f"must match {ctx.get('pattern')}" + got
    if kind == "too_long":
        return f"has more than {ctx.get('max_length')} items"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} items"
    if kind == "value_error":
        return str(err.get("msg", "invalid")).removeprefix("Value error, ")
    return str(err.get("msg", "invalid")) + got


def invalid_input(exc: ValidationError, what: str, *, tagged: bool = False) -> InvalidInput:
    """One `InvalidInput` for a pydantic error: the first problem's field path and message.

    `tagged`: the errors come from a union tagged by `type`, whose first location part is the
    tag (`("clear", "spt")` → field `spt`)."""
    errors = exc.errors(include_url=False)
    parts: list[str] = []
    first_field: str | None = None
    for err in errors[:3]:
        loc = tuple(err.get("loc", ()))
        kind = err.get("type", "")
        if tagged:
            if kind in ("union_tag_invalid", "union_tag_not_found"):
                loc = ("type",)
            elif loc:
                loc = loc[1:]
        field = _path(loc) if loc else None
        if first_field is None:
            first_field = field
        if kind == "extra_forbidden":
            parts.append(f"unexpected field {field!r}")
        elif kind == "missing":
            parts.append(f"missing field {field!r}")
        elif kind == "union_tag_invalid":
            ctx = err.get("ctx", {})
            parts.append(
                f"unknown action type {ctx.get('tag')!r}; expected one of "
                f"{ctx.get('expected_tags')}"
            )
        elif kind == "union_tag_not_found":
            parts.append("an action is an object with a string 'type'")
        else:
            where = f"{field}: " if field else ""
            parts.append(where + _describe(err, loc))
    if len(errors) > 3:
        parts.append(f"and {len(errors) - 3} more")
    return InvalidInput(f"{what}: " + "; ".join(parts), field=first_field)


def parse_with(adapter: TypeAdapter[T], data: object, what: str, *, tagged: bool = False) -> T:
    if tagged and not isinstance(data, Mapping):
        raise InvalidInput("an action is an object with a string 'type'", field="type")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise invalid_input(exc, what, tagged=tagged) from None


def canonical_json(data: object) -> bytes:
    """The one byte form of JSON data that hashes are taken of: keys sorted, no spaces, UTF-8."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


class ViewModel(BaseModel):
    """The shape of a view (what `Round.view(seat)` returns), for its JSON Schema and for tests
    that check every view against it. Views are built as plain JSON; this model documents and
    checks them (unknown keys refused, types as given)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class CommonView(ViewModel):
    """The keys every game's view starts with (docs/schema/README.md, naming convention)."""

    game: str
    phase: str
    countdown_s: float | None = Field(description="the current phase's countdown; null: none")
    awaiting: list[str] = Field(description="seats whose action the phase still waits for")
