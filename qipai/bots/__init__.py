"""Players that choose actions from what their seat may see (ARCHITECTURE.md: bots)."""
