"""The verifiable deal (pokerfair/1, FAIRNESS.md): shuffle, salts, the Merkle commitment,
per-card openings, the release policy, proof files and the verifier.

This package never imports the rules engine; it shares only the card encoding and the deal
layouts (``ahiko.poker.cards``, ``ahiko.poker.layout``)."""
