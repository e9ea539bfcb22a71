"""Content games seen through the field's own libraries: OpenSpiel (`openspiel_game`) and PettingZoo
(`pettingzoo_env`), both over `line.Line` (a game as its world and answers, replayed on demand)."""
