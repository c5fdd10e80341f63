"""The Ahiko house rooms: fixed-stake tables paid from the wallet, their tiers, the lobby
that keeps two open per tier, and the Bot Ahiko."""
