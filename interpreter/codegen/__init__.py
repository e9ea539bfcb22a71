"""The compiler: checked AST → Python source → code objects, once, at load (as Jinja2 compiles templates).

`declarations` assembles a game's module from `statements` and `expressions`; `source` writes and
compiles it with its line map; `library` is all the generated code may call.
"""
from interpreter.codegen.declarations import compile_expression, compile_game, compile_statements
from interpreter.codegen.model import CompiledGame, Func, GameOver, Hook, Proc, RunLimit

__all__ = ["compile_game", "compile_statements", "compile_expression", "CompiledGame", "Func", "GameOver",
           "Hook", "Proc", "RunLimit"]
