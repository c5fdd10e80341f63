"""The rules of Ahiko's games, pure: no I/O, no clock, no randomness."""
