"""The panels beside the table: a player's board, the market day, the mass, the chronicle and
graveyard, final scoring."""
