"""Password strength: zxcvbn's score (0-4) of at least `MIN_SCORE`, for operators and players
(docs/security.md). zxcvbn estimates how many guesses an attacker who knows common passwords,
words, names, dates, keyboard walks and l33t substitutions needs; a score of 3 is "safely
unguessable" against an online attack at 10^8 guesses."""

from __future__ import annotations

from zxcvbn import zxcvbn

from qipai.authority.errors import WeakPassword

MIN_SCORE = 3
MAX_CHECKED = 100
"""zxcvbn's matching grows with the length: only the first characters are scored (a longer
password is at least as strong as its first hundred characters)."""


def score(password: str, user_inputs: tuple[str, ...] = ()) -> int:
    """zxcvbn's score of `password` (the user's own name and the like count as guessable)."""
    return int(zxcvbn(password[:MAX_CHECKED], user_inputs=list(user_inputs))["score"])


def require_strong(password: str, field: str, user_inputs: tuple[str, ...] = ()) -> None:
    """Refuse (400 `weak_password`, naming `field`) a password scoring below 3."""
    found = score(password, user_inputs)
    if found < MIN_SCORE:
        raise WeakPassword(
            f"this password is too easy to guess (strength {found} of 4, at least "
            f"{MIN_SCORE} needed): use a longer phrase of unrelated words",
            field,
        )
