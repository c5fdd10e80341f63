"""Ahiko: free-to-play online poker with a verifiable deal."""

__version__ = "0.19.0"
