"""The game at the table: the deal being entered, the game and every confirmed change, the settings, the start."""
