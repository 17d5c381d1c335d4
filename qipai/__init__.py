"""qipai: rules engine, card-room server and exact analysis for Asian casino games."""

from importlib.metadata import PackageNotFoundError, version

try:
    # One source of truth: the version in pyproject.toml, as the installed package records it
    # (CHANGELOG.md describes each version; `qipai --version` and the back office show it).
    __version__ = version("qipai")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"
