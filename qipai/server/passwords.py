"""Passwords: the sign-up policy and scrypt hashing in a bounded pool of threads.

scrypt (n=2^14, r=8: ~26 ms of CPU) runs in `Hasher`'s threads, never on the event loop
(hashlib releases the GIL while it works); at most `queue` hashes wait, more are refused as
busy, so a burst of sign-ins can delay other sign-ins but never the tables. On Linux those
threads run at a nice value `NICE` above the process's: a guesser's wrong passwords are
throughput work, and when the cores are contended the kernel should run the event loop (every
other client's requests and frames) before them (docs/security.md).

The policy: 8-200 characters, not the username, and not among the 30,000 most common
passwords (the list `zxcvbn` ships, compared without regard to case) — "123456", "password1",
"Qwerty123" are refused.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import os
import secrets
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from qipai.server.errors import ApiError, FieldError

MIN_LENGTH = 8
MAX_LENGTH = 200
_DUMMY_SALT = b"qipai-no-such-user"
NICE = 10
"""How much lower the hashing threads' CPU priority is than the rest of the process's."""


def _lower_priority() -> None:
    """Run the calling thread at `NICE` above its nice value (Linux: the nice value is per
    thread, `os.setpriority` with its thread id; elsewhere that id would name a process)."""
    if sys.platform != "linux":
        return
    tid = threading.get_native_id()
    try:
        now = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, now + NICE))
    except OSError:
        pass  # not allowed here (a sandbox): the hashes still run, at the process's priority


def hash_password(password: str, salt: bytes) -> str:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=2**14, r=8, p=1).hex()


@functools.cache
def common_passwords() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(p.lower() for p in FREQUENCY_LISTS["passwords"])


def check_policy(username: str, password: str) -> None:
    """Refuse a password a guesser would try early (FieldError naming `password`)."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise FieldError("password", f"a password is {MIN_LENGTH}-{MAX_LENGTH} characters")
    if password.lower() == username.lower():
        raise FieldError("password", "the password must not be the username")
    if password.lower() in common_passwords():
        raise FieldError("password", "this password is among the most common ones: choose another")


class Hasher:
    """scrypt in at most `workers` threads with at most `queue` hashes waiting."""

    def __init__(self, workers: int, queue: int) -> None:
        self._pool = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="qipai-hash", initializer=_lower_priority
        )
        self._limit = workers + queue
        self._pending = 0
        self._lock = threading.Lock()

    async def hash(self, password: str, salt: bytes) -> str:
        with self._lock:
            if self._pending >= self._limit:
                raise ApiError(
                    429,
                    "busy",
                    "too many sign-ins at once: try again in a moment",
                    headers={"Retry-After": "1"},
                )
            self._pending += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, hash_password, password, salt)
        finally:
            with self._lock:
                self._pending -= 1

    async def new_hash(self, password: str) -> tuple[bytes, str]:
        salt = secrets.token_bytes(16)
        return salt, await self.hash(password, salt)

    async def verify(self, password: str, salt: bytes | None, expected: str | None) -> bool:
        """Whether `password` matches; the same work when there is no such account."""
        got = await self.hash(password, salt if salt is not None else _DUMMY_SALT)
        return expected is not None and hmac.compare_digest(got, expected)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["Hasher", "check_policy", "common_passwords", "hash_password"]
