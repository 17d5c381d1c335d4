"""qipai: rules engine, card-room server and exact analysis for Asian casino games."""

__version__ = "0.1.0"
