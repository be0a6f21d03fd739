"""The table screen: whose turn, the action spaces and their cubes, the well, the round's draw,
Karla's board."""
