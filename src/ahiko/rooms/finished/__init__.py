"""Finished hands: the archive every room writes, the downloads (PHH, PokerStars text,
proof files) and the replayer's documents built from it."""
