"""A runtime failure of content (a Python exception raised by generated code), in the words of the rules language."""
from __future__ import annotations


# Python's names for the kinds of values, in the words of the rules language
_KINDS = {"NoneType": "none", "int": "number", "str": "text", "list": "list", "tuple": "list", "dict": "map",
          "Entity": "component", "Zone": "zone", "bool": "yes/no", "function": "function"}


def _explain(exc: Exception) -> str:
    """A runtime failure of content, in the words of the rules language rather than Python's."""
    if isinstance(exc, RecursionError):
        return "calls nested too deeply: a procedure or function that keeps calling itself?"
    if isinstance(exc, RuntimeError):
        return str(exc)
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, AttributeError) and "'NoneType'" in str(exc):
        return "a value used here is none (no component, player or zone)"
    if isinstance(exc, (IndexError, KeyError)):
        return "no such player, component or entry here (a seat or key out of range)"
    if isinstance(exc, TypeError):
        text = str(exc)
        for python, word in _KINDS.items():
            text = text.replace(f"'{python}'", word)
        text = text.replace("instances of ", "").replace("unsupported operand type(s) for", "cannot apply")
        return f"values of the wrong kind: {text}"
    if isinstance(exc, MemoryError):
        return "this step ran out of memory (a value grew too large for this machine)"
    return f"this step failed: {str(exc) or type(exc).__name__}"
