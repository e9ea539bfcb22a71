"""Who answers decisions: random, scripted and human players (`players`), OpenSpiel's information-set
MCTS (`ismcts_agent`), and every content game as an OpenSpiel game (`openspiel_game`) or a PettingZoo
environment (`pettingzoo_env`), both over `line.Line` and the observation encoding of `encoding`."""
from interpreter.agents.players import (AGENT_ARGS, AGENT_KINDS, HumanAgent, RandomAgent, ScriptedAgent, ScriptExhausted,
                                        make_agent, parse_agent_args, play_with_agents)

__all__ = ["AGENT_ARGS", "AGENT_KINDS", "HumanAgent", "RandomAgent", "ScriptedAgent", "ScriptExhausted", "make_agent",
           "parse_agent_args", "play_with_agents"]
