"""Competition: players' numbers and leaderboards from the hand archive, shared
hands and rabbit hunts (public views of finished hands, with their proofs).

Layer: above ``rooms`` (it reads finished hands through ``rooms.finished``), below ``server``.
"""
