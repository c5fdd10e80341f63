"""Hand histories: PHH import/export (NLHE ``NT`` and our five-card draw ``FD-AHIKO``),
PokerStars-style text export, and replay of PHH files through our engine."""
