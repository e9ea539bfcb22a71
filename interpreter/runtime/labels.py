"""The answers' labels (Session.labels), made when read: which answered values can wait to be labelled."""
from __future__ import annotations

from interpreter.codegen.library import MenuChoice
from interpreter.core.decisions import label_of, player_label
from interpreter.core.state import Entity, Zone

# values whose label never changes (a component's id, a zone's name and owner, a number, a text)
SETTLED = frozenset({Entity, Zone, int, str, bool, type(None)})


def settled_choice(choice: MenuChoice) -> bool:
    """Does a menu option's label never change: do the values it shows all have settled labels?"""
    bound = choice.bound
    for j in choice.option[1]:
        if type(bound[j]) not in SETTLED:
            return False
    return True


def made(unlabelled: list) -> list[str]:
    """The labels of answers kept unlabelled: (value, players flag) of each, or the label made at once."""
    return [x if type(x) is str else (player_label(x[0]) if x[1] else label_of(x[0])) for x in unlabelled]
