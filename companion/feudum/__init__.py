"""Feudum (2-5 players, 5 epochs): epoch-dawn tallies, the progress die, final scoring."""
