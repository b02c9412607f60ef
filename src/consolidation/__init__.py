"""Reference implementation of reasoning-episode history consolidation (the embedded target)."""
