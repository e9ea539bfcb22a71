"""Text to AST: the Lark LALR parser and a Transformer that builds dsl.ast dataclasses.

Imported by dsl.parser only when a text is not in the cache of syntax trees: Lark is slow to import."""
from __future__ import annotations

import functools
import re

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import DedentError

from dsl import ast
from dsl.plurals import split as plural_split
from dsl.diagnostics import Diagnostic, DiagnosticError, Source, Span, span_in
from dsl.limits import MAX_INT, MAX_LOOP_NESTING, MAX_RULE_CHAIN, MAX_RULE_NESTING, MAX_RULE_TEXT
from dsl.parse_tables import RulesIndenter, build_parser, load_parser  # noqa: F401 - build_parser: for tests
from dsl.syntax_errors import syntax_diagnostic


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    return load_parser()  # from the tables shipped in the package; never from a cache folder


class ParseFailure(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


_QUERY_CALLS = {"count", "sum", "any", "all", "first", "max", "min", "distinct"}
_INTERPOLATION = re.compile(r"\{([^{}]*)\}")


@v_args(meta=True, inline=True)
class ToAst(Transformer):
    """Builds AST nodes; spans are mapped to file positions through the Source."""

    def __init__(self, source: Source):
        super().__init__()
        self.source = source

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return span_in(self.source, 1, 1)
        return span_in(self.source, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return span_in(self.source, tok.line, tok.column, tok.end_line, tok.end_column)

    def _fail(self, span: Span, message: str, hint: str | None = None):
        raise ParseFailure(Diagnostic("DSL-SYNTAX", message, span, hint))

    # -------------------------------------------------------------- structure
    def start(self, meta, *decls):
        return list(decls)

    def expr_only(self, meta, expr):
        return expr

    def block(self, meta, *stmts):
        return list(stmts)

    def params(self, meta, *ps):
        return list(ps)

    def param(self, meta, name, type_name):
        return ast.Param(self._span(meta), str(name), type_name)

    def type_name(self, meta, name, inner):
        return f"{name}[{inner}]" if inner else str(name)

    def names(self, meta, *names):
        return [str(n) for n in names]

    def if_clause(self, meta, expr):
        return expr

    def as_clause(self, meta, name):
        return str(name)

    def where_clause(self, meta, expr):
        return expr

    def by_clause(self, meta, expr):
        return expr

    # -------------------------------------------------------------- declarations
    def procedure(self, meta, name, params, body):
        return ast.Procedure(self._span(meta), str(name), params or [], body)

    def event_decl(self, meta, name, params):
        return ast.EventDecl(self._span(meta), str(name), params or [])

    def function_decl(self, meta, name, params, expr):
        return ast.Function(self._span(meta), str(name), params or [], expr)

    def trigger(self, meta, event, pattern, zones, cond, timing, body):
        return ast.Trigger(self._span(meta), str(event), pattern or [], cond, timing, body, zones)

    def replacement(self, meta, event, pattern, zones, cond, timing, body):
        return ast.Replacement(self._span(meta), str(event), pattern or [], cond, timing, body, zones)

    def zones_clause(self, meta, names):
        return names

    def watcher(self, meta, cond, body):
        return ast.Watcher(self._span(meta), cond, body)

    def modifier(self, meta, func, pattern, zones, cond, timing, expr):
        return ast.Modifier(self._span(meta), str(func), pattern or [], cond, timing, expr, zones)

    # -------------------------------------------------------------- statements
    def let_stmt(self, meta, name, type_name, value):
        return ast.Let(self._span(meta), str(name), value, type_name)

    def assign_op(self, meta, tok):
        return str(tok)

    def expr_stmt(self, meta, target, op, value):
        span = self._span(meta)
        if op is None:
            if not isinstance(target, (ast.Call, ast.Method)):
                self._fail(span, "this line does nothing: expected a statement or a procedure call")
            return ast.CallStmt(span, target)
        if not isinstance(target, (ast.Name, ast.Attr, ast.Index)):
            self._fail(span, "cannot assign to this expression", "assign to a name, an attribute (x.y) or an entry (m[k])")
        return ast.Assign(span, target, op, value)

    def move_stmt(self, meta, what, dest, place, facing):
        return ast.Move(self._span(meta), what, dest, place == "top", facing)

    def place(self, meta, word):
        return word

    def place_word(self, meta, tok):
        return str(tok)

    def facing(self, meta, word):
        return word

    def face_word(self, meta, tok):
        return str(tok)

    def shuffle_stmt(self, meta, zone):
        return ast.Shuffle(self._span(meta), zone)

    def log_stmt(self, meta, to, tok):
        return ast.Log(self._span(meta), self._string(tok), to)

    def return_stmt(self, meta, value):
        return ast.Return(self._span(meta), value)

    def win_stmt(self, meta, who):
        return ast.Win(self._span(meta), who)

    def reveal_stmt(self, meta, what):
        return ast.Reveal(self._span(meta), what)

    def show_stmt(self, meta, what, to):
        return ast.Show(self._span(meta), what, to)

    def pass_stmt(self, meta):
        return ast.Pass(self._span(meta))

    def break_stmt(self, meta):
        return ast.Break(self._span(meta))

    def continue_stmt(self, meta):
        return ast.Continue(self._span(meta))

    def exactly(self, meta, tok):
        return ("exactly", ast.Num(self._tok_span(tok), self._int(tok)))

    def exactly_expr(self, meta, expr):
        return ("exactly", expr)

    def up_to(self, meta, expr):
        return ("up_to", expr)

    def at_least(self, meta, expr):
        return ("at_least", expr)

    def choose_stmt(self, meta, qty, name, coll, cond, by, ask):
        kind, amount = qty if qty else (None, None)
        return ast.Choose(self._span(meta), str(name), coll, cond, by, kind, amount, ask)

    def choose_order_stmt(self, meta, coll, name, by, ask):
        return ast.ChooseOrder(self._span(meta), coll, str(name), by, ask)

    def ask_clause(self, meta, tok):
        return self._string(tok)

    def menu_stmt(self, meta, by, ask, *rest):
        *options, otherwise = rest
        return ast.Menu(self._span(meta), by, list(options), otherwise, ask)

    def option(self, meta, name, params, *rest):
        *bindings, cond, ask, body = rest
        return ast.Option(self._span(meta), str(name), params or [], [b for b in bindings if b is not None], cond, body, ask)

    def binding(self, meta, name, coll, cond):
        return ast.Binding(self._span(meta), str(name), coll, cond)

    def otherwise(self, meta, body):
        return body

    def if_stmt(self, meta, cond, body, *rest):
        *elifs, other = rest
        return ast.If(self._span(meta), [(cond, body)] + list(elifs), other)

    def elif_part(self, meta, cond, body):
        return (cond, body)

    def else_part(self, meta, body):
        return body

    def for_stmt(self, meta, name, coll, cond, body):
        return ast.For(self._span(meta), str(name), coll, cond, body)

    def while_stmt(self, meta, cond, body):
        return ast.While(self._span(meta), cond, body)

    def repeat_stmt(self, meta, count, body):
        return ast.Repeat(self._span(meta), count, body)

    def secretly_stmt(self, meta, name, coll, body):
        return ast.Secretly(self._span(meta), str(name), coll, body)

    def until_stmt(self, meta, event, *decls):
        return ast.Until(self._span(meta), str(event), list(decls))

    # -------------------------------------------------------------- expressions
    def if_expr(self, meta, cond, then, other):
        return ast.IfExpr(self._span(meta), cond, then, other)

    def supposed(self, meta, what, dest):
        return (what, dest)

    def suppose_expr(self, meta, *parts):
        return ast.Suppose(self._span(meta), list(parts[:-1]), parts[-1])

    def or_expr(self, meta, left, right):
        return ast.Binary(self._span(meta), "or", left, right)

    def and_expr(self, meta, left, right):
        return ast.Binary(self._span(meta), "and", left, right)

    def not_expr(self, meta, operand):
        return ast.Unary(self._span(meta), "not", operand)

    def comp_op(self, meta, tok):
        return str(tok)

    def add_op(self, meta, tok):
        return str(tok)

    def mul_op(self, meta, tok):
        return str(tok)

    def compare(self, meta, left, op, right):
        return ast.Binary(self._span(meta), op, left, right)

    def in_expr(self, meta, left, right):
        return ast.Binary(self._span(meta), "in", left, right)

    def not_in_expr(self, meta, left, right):
        return ast.Binary(self._span(meta), "notin", left, right)

    def range_expr(self, meta, low, high):
        return ast.Range(self._span(meta), low, high)

    def arith(self, meta, left, op, right):
        return ast.Binary(self._span(meta), op, left, right)

    def neg(self, meta, operand):
        return ast.Unary(self._span(meta), "-", operand)

    def of(self, meta, name, arg):
        return ast.Of(self._span(meta), str(name), arg)

    def attr(self, meta, obj, name):
        return ast.Attr(self._span(meta), obj, str(name))

    def method(self, meta, obj, name, args):
        return ast.Method(self._span(meta), obj, str(name), args or [])

    def index(self, meta, obj, key):
        return ast.Index(self._span(meta), obj, key)

    def number(self, meta, tok):
        return ast.Num(self._span(meta), self._int(tok))

    def _int(self, tok: Token) -> int:
        digits = str(tok).lstrip("0")
        if len(digits) > 16 or int(digits or "0") > MAX_INT:
            shown = str(tok) if len(tok) <= 24 else f"{str(tok)[:10]}...{str(tok)[-6:]} ({len(tok)} digits)"
            raise ParseFailure(Diagnostic("NUM-RANGE", f"the number {shown} is outside the integer range", self._tok_span(tok),
                                          f"integers lie between -{MAX_INT} and {MAX_INT}"))
        return int(digits or "0")

    def string(self, meta, tok):
        return self._string(tok)

    def true(self, meta):
        return ast.Const(self._span(meta), True)

    def false(self, meta):
        return ast.Const(self._span(meta), False)

    def none(self, meta):
        return ast.Const(self._span(meta), None)

    def name(self, meta, tok):
        return ast.Name(self._span(meta), str(tok))

    def entity(self, meta, tok):
        return ast.EntityRef(self._span(meta), str(tok))

    def call(self, meta, func, args):
        span = self._span(meta)
        # count(c in hand of p) reads as a comprehension without a filter, never as "is c in ...".
        if str(func) in _QUERY_CALLS and args and len(args) == 1 and isinstance(args[0], ast.Binary) \
                and args[0].op == "in" and isinstance(args[0].left, ast.Name):
            return ast.Query(span, str(func), args[0].left.id, args[0].right)
        return ast.Call(span, str(func), args or [])

    def args(self, meta, *items):
        return list(items)

    def _membership(self, span: Span, expr, form: str) -> tuple[str, object]:
        if isinstance(expr, ast.Binary) and expr.op == "in" and isinstance(expr.left, ast.Name):
            return expr.left.id, expr.right
        self._fail(span, f"expected 'NAME in COLLECTION' before '{form}'", "for example: count(c in hand of p where c.strength > 2)")

    def call_where(self, meta, func, expr, cond):
        span = self._span(meta)
        var, coll = self._membership(span, expr, "where")
        return ast.Query(span, str(func), var, coll, cond)

    def call_for(self, meta, func, value, var, coll, cond):
        return ast.Query(self._span(meta), str(func), str(var), coll, cond, value)

    def call_by(self, meta, func, expr, cond, *keys):
        span = self._span(meta)
        var, coll = self._membership(span, expr, "by")
        return ast.Query(span, str(func), var, coll, cond, None, list(keys))

    def sort_key(self, meta, expr, direction):
        return ast.SortKey(self._span(meta), expr, direction == "descending")

    def direction(self, meta, tok):
        return str(tok)

    def list(self, meta, args):
        span = self._span(meta)
        # [c in hand of p] is the zone's components now, a snapshot; never a list of one "is c in" test.
        if args and len(args) == 1 and isinstance(args[0], ast.Binary) and args[0].op == "in" \
                and isinstance(args[0].left, ast.Name):
            return ast.Query(span, "list", args[0].left.id, args[0].right)
        return ast.ListLit(span, args or [])

    def list_where(self, meta, expr, cond):
        span = self._span(meta)
        var, coll = self._membership(span, expr, "where")
        return ast.Query(span, "list", var, coll, cond)

    def list_for(self, meta, value, var, coll, cond):
        return ast.Query(self._span(meta), "list", str(var), coll, cond, value)

    def empty_map(self, meta):
        return ast.MapLit(self._span(meta))

    # -------------------------------------------------------------- strings
    def _string(self, tok: Token) -> ast.Str:
        span = self._tok_span(tok)
        raw, where = _unescape(str(tok)[1:-1])
        parts: list = []
        pos = 0
        plurals: list = []
        n = 0
        for m in _INTERPOLATION.finditer(raw):
            if m.start() > pos:
                parts.append(raw[pos:m.start()])
            expr, forms = plural_split(m.group(1))  # `{n|# card|# cards}`: a number said in its plural forms
            inner = Source(self.source.path, expr, self.source.file_text,
                           span.line - 1, span.col + where[m.start(1)], block=False)
            parts.append(_parse(inner, "expr_only"))  # not cached on its own: it is kept in its text's tree
            if forms:
                plurals.append((n, forms))
            n += 1
            pos = m.end()
        if pos < len(raw):
            parts.append(raw[pos:])
        self._stray_brace(tok, raw, where)
        return ast.Str(span, parts, raw, tuple(plurals))

    def _stray_brace(self, tok: Token, raw: str, where: list[int]) -> None:
        """A brace that opens or closes no {interpolation}: the text would print it literally, which the
        language does not allow (section 4), so it is almost always an unclosed `{`."""
        literal = _INTERPOLATION.sub(lambda m: " " * len(m.group(0)), raw)
        for i, ch in enumerate(literal):
            if ch in "{}":
                col = tok.column + 1 + where[i]
                span = span_in(self.source, tok.line, col, tok.line, col + 1)
                if ch == "{":
                    self._fail(span, "this '{' is never closed: a text cannot hold a literal brace",
                               "close the interpolation: \"{name}\", or write the brace out as words")
                self._fail(span, "this '}' closes no '{': a text cannot hold a literal brace",
                           "an interpolation is written \"{name}\"")


def _unescape(body: str) -> tuple[str, list[int]]:
    """A string literal's text without its escapes, and for each character its offset in the literal."""
    out: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            out.append("\n" if body[i + 1] == "n" else body[i + 1])
            where.append(i)
            i += 2
        else:
            out.append(body[i])
            where.append(i)
            i += 1
    where.append(len(body))
    return "".join(out), where


# Rules whose trees nest: each is one level of MAX_RULE_NESTING. Brackets `( )` leave no tree.
_NESTING = {"if_expr", "or_expr", "and_expr", "not_expr", "compare", "in_expr", "not_in_expr", "range_expr", "arith",
            "neg", "of", "attr", "method", "index", "call", "call_where", "call_for", "call_by", "list", "list_where",
            "list_for", "block"}
# Statements the compiler turns into Python blocks that CPython can nest only 20 deep.
_LOOPS = {"for_stmt", "while_stmt", "repeat_stmt", "secretly_stmt", "menu_stmt"}
# A left operand of the same operator continues a chain (a + b + c, x.y.z): long, not deep.
_CHAINS = {"arith": "arith", "or_expr": "or_expr", "and_expr": "and_expr", "attr": "postfix", "method": "postfix",
           "index": "postfix"}


def _check_depth(source: Source, tree: Tree) -> None:
    """DSL-TOO-DEEP at the first node (in reading order) past the documented bounds; iterative, so any depth is safe."""
    stack = [(tree, 0, 0, 0)]
    while stack:
        node, nesting, links, loops = stack.pop()
        group = _CHAINS.get(node.data)
        for i in range(len(node.children) - 1, -1, -1):
            child = node.children[i]
            if not isinstance(child, Tree):
                continue
            if i == 0 and group is not None and _CHAINS.get(child.data) == group:
                stack.append((child, nesting, links + 1, loops))
            else:
                stack.append((child, nesting + (child.data in _NESTING), links, loops + (child.data in _LOOPS)))
        # children are pushed right to left, so nodes come off the stack in reading order
        if nesting > MAX_RULE_NESTING or links > MAX_RULE_CHAIN or loops > MAX_LOOP_NESTING:
            raise DiagnosticError([_too_deep(source, node, nesting, loops)])


def _too_deep(source: Source, node: Tree, nesting: int, loops: int) -> Diagnostic:
    meta = node.meta  # for a chain: where it starts, since all its nodes start there
    span = span_in(source, 1, 1) if getattr(meta, "empty", True) else span_in(source, meta.line, meta.column)
    if loops > MAX_LOOP_NESTING:
        return Diagnostic("DSL-TOO-DEEP", f"loops nest deeper than {MAX_LOOP_NESTING} levels here", span,
                          "move the inner loops into a procedure of their own")
    if nesting > MAX_RULE_NESTING:
        return Diagnostic("DSL-TOO-DEEP", f"the rule text nests deeper than {MAX_RULE_NESTING} levels here", span,
                          "name inner parts with let or a function")
    return Diagnostic("DSL-TOO-DEEP", f"this chain has more than {MAX_RULE_CHAIN} operators in a row", span,
                      "split the chain: add up parts with let")


def _transform(builder: ToAst, tree: Tree):
    """ToAst applied bottom-up with an explicit stack (Lark's Transformer recurses once per level)."""
    results: list = []
    stack: list = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if not isinstance(node, Tree):
            results.append(node)
        elif not ready:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.children))
        else:
            n = len(node.children)
            children = results[len(results) - n:]
            del results[len(results) - n:]
            results.append(_build(builder, node, children))
    return results[0]


def _build(builder: ToAst, node: Tree, children: list):
    method = getattr(builder, node.data, None)
    if method is None:
        return Tree(node.data, children, node.meta)
    try:
        wrapper = getattr(method, "visit_wrapper", None)
        return wrapper(method, node.data, children, node.meta) if wrapper else method(children)
    except (ParseFailure, DiagnosticError):
        raise
    except Exception as exc:  # never a traceback: say what could not be built, and where
        meta = node.meta
        span = span_in(builder.source, 1, 1) if getattr(meta, "empty", True) else span_in(builder.source, meta.line, meta.column)
        raise ParseFailure(Diagnostic("DSL-SYNTAX", f"cannot read this {node.data.replace('_', ' ')}: {exc}", span)) from None


def _parse(source: Source, start: str):
    if len(source.text) > MAX_RULE_TEXT:  # a bound in time as well as size (dsl/limits.py)
        raise DiagnosticError([Diagnostic("INPUT-LIMIT", f"this rule text has {len(source.text):,} characters, more than "
                                          f"{MAX_RULE_TEXT // 1024} KiB", span_in(source, 1, 1),
                                          "split it into several files or texts")])
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    try:
        tree = _parser().parse(text, start=start)
        _check_depth(source, tree)
        return _transform(ToAst(source), tree)
    except ParseFailure as err:
        raise DiagnosticError([err.diagnostic]) from None
    except UnexpectedInput as err:
        raise DiagnosticError([syntax_diagnostic(source, err)]) from None
    except DedentError:
        return _indent_failure(source)
    except VisitError as err:
        if isinstance(err.orig_exc, ParseFailure):
            raise DiagnosticError([err.orig_exc.diagnostic]) from None
        if isinstance(err.orig_exc, DiagnosticError):
            raise err.orig_exc from None
        raise DiagnosticError([Diagnostic("DSL-SYNTAX", f"cannot read this rule text: {err.orig_exc}", span_in(source, 1, 1))]) from None


def _indent_failure(source: Source):
    # Lark reports a bad dedent without a position; find the first line that lands between levels.
    levels = [0]
    for number, line in enumerate(source.text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        lead = line[:len(line) - len(line.lstrip())]
        width = lead.count(" ") + lead.count("\t") * RulesIndenter.tab_len  # as Lark's Indenter counts
        if width > levels[-1]:
            levels.append(width)
        else:
            while width < levels[-1]:
                levels.pop()
            if width != levels[-1]:
                raise DiagnosticError([Diagnostic("DSL-INDENT", "this line's indentation matches no outer block",
                                                  span_in(source, number, len(lead) + 1), "line it up with an enclosing block")])
    raise DiagnosticError([Diagnostic("DSL-INDENT", "inconsistent indentation", span_in(source, 1, 1))])
