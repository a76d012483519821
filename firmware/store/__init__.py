"""Storage: the power-safe journal of confirmed actions (see docs/storage.md)."""
