"""What a hover says about a symbol: its declaration, its type, where it is declared, and the words players
read for it in every language of the game. Markdown; content's own text is put in code spans or escaped, so
an editor shows it as text."""
from __future__ import annotations

import re
from pathlib import Path

from dsl.plurals import plural
from dsl.translations import language_name, text_in
from dsl.types import BUILTINS, CONSTANTS
from interpreter.lsp.index import GameIndex, Place, copies

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~])")


def escape(text) -> str:
    """Content text shown as it is written, never as Markdown or HTML."""
    return _MARKDOWN.sub(r"\\\1", " ".join(str(text).split()))


def where(ix: GameIndex, place: Place | None) -> str:
    if place is None:
        return ""
    try:
        shown = place.path.relative_to(ix.root).as_posix()
    except ValueError:
        shown = str(place.path)
    return f"{shown}:{place.line + 1}"


def signature_line(ix: GameIndex, name: str) -> str:
    """`procedure play(p: player, c: entity)`, with what a function returns when the checker knows it."""
    sig = ix.signature(name)
    sym = ix.symbols.get(("signature", name))
    what = sig.kind if sig is not None else (sym.what if sym is not None else "procedure")
    if sig is not None:
        params = [(p.name, p.type) for p in sig.params]
    else:
        params = ix.params.get(name, [])
    shown = ", ".join(f"{n}: {t}" if t else n for n, t in params)
    line = f"{what} {name}({shown})"
    returns = sig.returns if sig is not None and sig.returns != "any" else ix.returns.get(name, "any")
    if what != "event" and returns not in ("any", "none"):
        line += f" -> {returns}"
    return line


def card_function_line(ix: GameIndex, name: str) -> str:
    f = ix.voc.card_functions.get(name)
    checker = ix.content.checker
    params = list(f.params) if f is not None else \
        [(p.name, p.type) for p in (checker.card_methods.get(name, []) if checker is not None else [])]
    line = f"function {name}({', '.join(f'{n}: {t}' if t else n for n, t in params)})"
    return line + (f" -> {f.returns}" if f is not None and f.returns != "any" else "")


def words(ix: GameIndex, name: str) -> list:
    """How players read an identifier in each language (catalogue words, or the identifier as words)."""
    tr = ix.content.translations
    return [f"- {language_name(lang)}: {escape(tr.word(lang, name))}" for lang in ix.voc.languages]


def describe(ix: GameIndex, key: tuple, local_type: str | None = None, local_of: str = "") -> str:
    kind, name = key[0], key[-1]
    voc = ix.voc
    sym = ix.symbols.get(key)
    declared = where(ix, sym.decls[0]) if sym is not None and sym.decls else ""
    head, body = "", []
    if kind == "local":
        head = f"{name}: {local_type or 'any'}"
        body.append(f"a local name{f' of `{local_of}`' if local_of else ''}")  # identifiers: no backquote in them
    elif kind == "signature":
        head = signature_line(ix, name)
        sig = ix.signature(name)
        if sig is not None and sig.kind == "event":
            body.append("an event: abilities and rules listen to it with `when` and `instead of`")
    elif kind == "cardfn":
        head = card_function_line(ix, name)
        n = len([p for p in sym.decls if p.path.suffix in (".yaml", ".yml") and p.path.name != "game.yaml"]) if sym else 0
        body.append(f"a function of components (called as `c.{name}(...)`), defined in the effect of {plural('en', n, ('# record', '# records'))}")
    elif kind == "zone":
        z = voc.zones[name]
        owner = {"game": "one for the whole game", "player": "one per player (`" + name + " of P`)",
                 "entity": "one per component (`" + name + " of C`)"}[z.scope] if z.scope in ("game", "player", "entity") else z.scope
        head = f"zone {name}"
        body.append(f"{owner}; visibility {z.visibility}" + (f"; shared with the {z.shared_with} player" if z.shared_with else ""))
        body += _declared_text(ix, ("vocabulary", "zones", name))
    elif kind == "variable":
        v = voc.variables[name]
        head = f"variable {name}: {v.type}"
        body.append(f"one per {v.scope}" if v.scope != "game" else "one for the whole game")
        if v.initial is not None:
            body.append(f"starts at `{escape(v.initial)}`")
        if v.kinds:
            body.append(f"only components of kind {', '.join(v.kinds)}")
        if v.initial_from:
            body.append(f"starts at each component's `{v.initial_from}`")
        body += _declared_text(ix, ("vocabulary", "variables", name))
    elif kind == "attribute":
        t = voc.attribute_type(name) or "any"
        head = f"attribute {name}: {t}"
        kinds = sorted({str(r.data.get("kind")) for r in ix.content.records if name in r.data})
        if name in voc.attribute_defaults:
            body.append(f"default `{escape(voc.attribute_defaults[name])}`")
        if kinds and name not in ("id", "kind", "source"):
            body.append(f"on records of kind {', '.join(kinds)}")
        if sym is not None and not sym.decls:
            body.append("a field of every record")
    elif kind == "kind":
        k = voc.kinds[name]
        head = f"kind {name}"
        count = sum(copies(r) for r in ix.content.records if r.data.get("kind") == name)
        body.append(f"{plural('en', count, ('# component', '# components'))}; they start in `{k.starts_in}`" +
                    (f"; abilities work in {', '.join(k.active_in)}" if k.active_in else ""))
        if k.required:
            body.append(f"every record has {', '.join(k.required)}")
    elif kind == "enum":
        head = f"enum {name}"
        body.append("values: " + ", ".join(voc.enums.get(name, [])))
    elif kind == "value":
        head = f"{name}: {voc.enum_of.get(name, 'any')}"
        body.append(f"a value of the enum `{voc.enum_of.get(name)}`")
    elif kind == "record":
        return _record(ix, name, declared)
    elif kind == "timing":
        head = f"timing class {name}"
        body.append("abilities resolve in the order " + ", ".join(voc.priority.timings))
    elif kind == "builtin":
        b = BUILTINS[name]
        count = f"{b.min_args}" + (f" to {b.max_args}" if b.max_args != b.min_args else "")
        head = f"built-in {name}(...)"
        body.append(f"takes {plural('en', count, ('# argument', '# arguments'))}" + ("; also the form (x in COLLECTION where ...)" if b.query else ""))
    elif kind == "constant":
        head = f"{name}: {CONSTANTS[name]}"
        body.append("a built-in value")
    out = [f"```rules\n{head}\n```"]
    note = comment_of(ix, sym.decls[0]) if sym is not None and sym.decls else ""
    if note:
        out.append(note)
    out += body
    names = words(ix, name) if kind in ("zone", "variable", "attribute", "kind", "value") else []
    if names:
        out.append("Players read it as:\n" + "\n".join(names))
    if declared:
        out.append(f"Declared in `{declared}`")
    return "\n\n".join(out)


_SECTION = re.compile(r"^#\s*(?:[-=#*_~]{4,}|yaml-language-server:)")


def comment_of(ix: GameIndex, place: Place) -> str:
    """The comment the author wrote for a declaration: the comment lines right above it (up to a blank line,
    a line of code or a section's rule `# ----`), and a comment ending its own line; escaped, one paragraph."""
    text = ix.texts.get(place.path)
    if text is None:
        return ""
    lines = text.split("\n")
    if not 0 <= place.line < len(lines):
        return ""
    above = []
    n = place.line - 1
    while n >= 0:
        line = lines[n].strip()
        if not line.startswith("#") or _SECTION.match(line):
            break
        above.append(line.lstrip("#").strip())
        n -= 1
    own = lines[place.line]
    hash_at = _trailing_comment(own)
    if hash_at is not None:
        above.insert(0, own[hash_at:].lstrip("#").strip())
    words = " ".join(reversed([a for a in above if a]))
    return escape(words) if words else ""


def _trailing_comment(line: str) -> int | None:
    """Where a comment starts after code on a line (a `#` outside quotes, after a space), or None."""
    quote, i = "", 0
    while i < len(line):
        ch = line[i]
        if quote:
            i += 2 if ch == "\\" else 1
            quote = "" if ch == quote else quote
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "#" and i > 0 and line[i - 1] in " \t" and line[:i].strip():
            return i
        i += 1
    return None


def _declared_text(ix: GameIndex, path: tuple) -> list:
    """The `text:` a manifest gives a zone or variable (what it is for)."""
    node = ix.content.manifest
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    text = node.get("text") if isinstance(node, dict) else None
    return [escape(text_in(text, ix.voc.languages[0]))] if text else []


def _record(ix: GameIndex, rid: str, declared: str) -> str:
    rec = ix.record_of(rid)
    if rec is None:
        return f"```rules\n@{rid}\n```"
    data = rec.data
    n = copies(rec)
    out = [f"```rules\n@{rid}: {data.get('kind')}\n```"]
    if n > 1:
        out.append(f"{n} copies: @{rid}_1 to @{rid}_{n}")
    for lang in ix.voc.languages:
        name = text_in(data["name"], lang) if data.get("name") is not None else rid
        text = text_in(data["text"], lang) if data.get("text") is not None else ""
        line = f"**{escape(name)}** ({language_name(lang)})"
        out.append(line + (f": {escape(text)}" if text else ""))
    if declared:
        out.append(f"Declared in `{declared}`")
    return "\n\n".join(out)


def relative(ix: GameIndex, path: Path) -> str:
    try:
        return path.relative_to(ix.root).as_posix()
    except ValueError:
        return str(path)
