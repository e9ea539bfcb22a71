"""A game folder to checked content: manifest, records, rule modules, all diagnostics in one pass."""
from __future__ import annotations

import copy
import hashlib
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from dsl import ast
from dsl.checker import Checker
from dsl.diagnostics import Diagnostic, DiagnosticError, Report, Source, Span, did_you_mean
from dsl.inputs import decode, read_text
from dsl.lint import lint
from dsl.limits import MAX_COPIES, MAX_GAME_RULE_TEXT, MAX_GLOB_FILES, deep_recursion
from dsl.parser import parse_module
from dsl.board_layout import check_board
from dsl.looks import read_looks
from dsl.bots_spec import BotsSpec, read_bots_spec
from dsl.table_spec import read_table_spec
from dsl.schema_check import load_schema, validate
from dsl.translations import (Translations, check_localized, check_translations, language_name, localized, read_catalogue,
                              scan)
from dsl.vocabulary import Vocabulary, build_vocabulary, record_schema
from dsl.yaml_records import YamlDoc, load_yaml
from dsl.paths import shown_path
from dsl.plurals import plural

MANIFEST = "game.yaml"
SCHEMA_LINE = "# yaml-language-server: $schema="


@dataclass
class Record:
    data: dict
    doc: YamlDoc
    path: tuple  # where the record sits in its document

    @property
    def id(self) -> str:
        return self.data["id"]

    def span(self, key: str | None = None) -> Span:
        return self.doc.span(self.path + ((key,) if key else ()))


@dataclass
class GameContent:
    root: Path
    manifest: dict
    vocabulary: Vocabulary
    records: list = field(default_factory=list)  # list[Record]
    entity_ids: dict = field(default_factory=dict)  # entity id -> Record (copies get _1, _2, ...)
    modules: list = field(default_factory=list)  # list[ast.Module]
    checker: Checker | None = None
    translations: Translations = field(default_factory=Translations)
    content_hash: str = ""
    report: Report = field(default_factory=Report)
    bots: BotsSpec = field(default_factory=BotsSpec)  # what bots judge a position by (dsl.bots_spec)

    @property
    def id(self) -> str:
        return self.manifest.get("id", self.root.name)


def find_game_root(path: Path) -> Path | None:
    path = path.resolve()
    for candidate in [path, *path.parents]:
        if (candidate / MANIFEST).is_file():
            return candidate
    return None


def entity_ids_of(record: dict) -> list[str]:
    copies = record.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= MAX_COPIES:
        copies = 1  # the schema has already reported it
    rid = record["id"]
    return [rid] if copies == 1 else [f"{rid}_{i}" for i in range(1, copies + 1)]


def load_game(root: Path, texts: dict | None = None) -> GameContent:
    """Load and check everything; never raises for content errors (they are in .report).

    `texts` (resolved path -> text) stands in for files on disk: an editor's unsaved buffers (rules lsp)."""
    with deep_recursion():  # the parser bounds every AST's depth; checking walks it recursively
        return _load_game(Path(root), texts or {})


def _load_game(root: Path, texts: dict) -> GameContent:
    report = Report()
    hasher = hashlib.sha256()
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        report.error("CONTENT-MISSING", f"{root} has no {MANIFEST}", Span(str(root), 1, 1))
        return GameContent(root, {}, Vocabulary(), report=report)
    if not _inside(root.resolve(), manifest_path):
        report.error("CONTENT-OUTSIDE", f"{MANIFEST} is a link to a file outside {root}", Span(str(manifest_path), 1, 1),
                     OUTSIDE_HINT)
        return GameContent(root, {}, Vocabulary(), report=report)
    doc = _read(manifest_path, report, hasher, texts)
    manifest = doc.data if isinstance(doc.data, dict) else {}
    if doc.data is not None and not doc.broken:
        report.add(validate(doc, load_schema("game.schema.json")))
        if report.ok:
            _check_players(doc, report)
    if not report.ok or not isinstance(doc.data, dict):
        # Without a sound manifest there is no vocabulary to check anything else against.
        if doc.data is None and not doc.broken:
            report.error("CONTENT-MISSING", f"{MANIFEST} is empty", Span(doc.path, 1, 1))
        return GameContent(root, manifest, Vocabulary(), report=report)
    voc = build_vocabulary(doc, report)
    content = GameContent(root, manifest, voc, report=report, translations=Translations(voc.languages))
    files = manifest.get("files") or {}
    _read_translations(content, doc, files, texts)
    # The attributes each kind requires are checked below, in Python: the same errors as the schema's
    # per-kind `if/then` rules (which editors use), without evaluating every kind's rule on every record.
    schema = {"type": "array", "items": record_schema(voc, kinds_required=False)}

    for rel in _file_list(root, files.get("components"), report, doc, "components"):
        cdoc = _read(root / rel, report, hasher, texts)
        if cdoc.data is None:
            continue
        if not cdoc.broken:
            report.add(validate(cdoc, schema))
            report.add(_kind_requirements(cdoc, voc))
        if isinstance(cdoc.data, list):
            for i, item in enumerate(cdoc.data):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    content.records.append(Record(item, cdoc, (i,)))

    _register_ids(content)
    _check_record_refs(content)
    _fill_defaults(content)
    unparsed: set = set()  # names declared in texts that do not parse
    budget = _RuleTextBudget(report, doc)
    for rec in content.records:
        effect = rec.data.get("effect")
        if isinstance(effect, str) and effect.strip() and budget.allows(effect, unparsed):
            try:
                content.modules.append(parse_module(rec.doc.source_of(rec.path + ("effect",), effect), owner=rec.id))
            except DiagnosticError as err:
                report.add(err.diagnostics)
                unparsed.update(_declared_names(effect))
    for rel in _file_list(root, files.get("rules"), report, doc, "rules"):
        path = root / rel
        text = _text(path, report, texts)
        if text is None:
            continue
        hasher.update(rel.encode() + b"\0" + text.encode())
        if not budget.allows(text, unparsed):
            continue
        try:
            content.modules.append(parse_module(_source(path, text)))
        except DiagnosticError as err:
            report.add(err.diagnostics)
            unparsed.update(_declared_names(text))
    _warn_inactive(content)

    checker = Checker(voc, set(content.entity_ids), report, unparsed)
    checker.records = {r.id: r.data for r in content.records}
    checker.declare(content.modules)
    checker.check_modules(content.modules)
    content.checker = checker
    lint(content.modules, checker.records, report)
    start = manifest.get("start")
    if start and start not in checker.signatures and start not in unparsed:
        report.error("REF-UNDEF", f"the start procedure '{start}' is not declared", doc.span(("start",)),
                     did_you_mean(start, checker.signatures))
    _check_setup(manifest, doc, checker, unparsed, report)
    procedures = [n for n, sig in checker.signatures.items() if sig.kind == "procedure"]
    for v in voc.variables.values():
        if v.during is None:
            continue
        where = doc.span(("vocabulary", "variables", v.name, "during"))
        if v.scope != "game":
            report.error("VOCAB-VALUE", f"only a game variable can last during a procedure, not a {v.scope} one", where)
        elif v.during not in procedures and v.during not in unparsed:
            report.error("REF-UNDEF", f"'during' names no procedure: '{v.during}'", where, did_you_mean(v.during, procedures))
    _check_report(manifest.get("report") or {}, doc, voc, checker, report)
    found = scan(content.modules)
    voc.table = read_table_spec(manifest.get("table"), doc, voc, {n: len(sig.params) for n, sig in checker.signatures.items()
                                                                  if sig.kind == "function"}, report, found.option_names)
    if voc.table.board:  # where and as what each area is drawn, and who neighbours whom (dsl.board_layout)
        check_board(root, doc, voc, content.entity_ids, voc.table.board, report, _display)
    voc.table.looks = read_looks(root, manifest.get("looks"), doc, voc, report, _display)  # how it is drawn (dsl.looks)
    content.bots = read_bots_spec(manifest.get("bots"), doc, voc, checker, report)
    functions = {n for n, sig in checker.signatures.items() if sig.kind == "function"} | set(voc.card_functions)
    check_translations(content.translations, found, _words_needed(content, doc, found.options), report, functions)
    _localize(content)
    score = manifest.get("score")
    if score and (score not in voc.variables or voc.variables[score].scope != "player"):
        report.error("REF-UNDEF", f"the score '{score}' is not a player variable", doc.span(("score",)),
                     did_you_mean(score, voc.variables))
    content.content_hash = hasher.hexdigest()[:16]
    return content


def _read_translations(content: GameContent, doc: YamlDoc, files: dict, texts: dict) -> None:
    """The game's own YAML texts in every language, and its catalogue files (not part of the content
    hash: a translation changes no rule, so logs of the game still replay)."""
    report, languages = content.report, content.vocabulary.languages
    check_localized(content.manifest.get("name"), doc.span(("name",)), "the game's name", languages, report)
    for variant, text in (content.manifest.get("variants") or {}).items():
        check_localized(text, doc.span(("variants", variant)), f"the description of variant '{variant}'", languages, report)
    schema = load_schema("translation.schema.json")
    for rel in _file_list(content.root, files.get("translations"), report, doc, "translations"):
        cdoc = _read(content.root / rel, report, hashlib.sha256(), texts)
        if cdoc.data is None or cdoc.broken:
            continue
        problems = validate(cdoc, schema)
        report.add(problems)
        if not problems:
            read_catalogue(cdoc, content.translations, report)
    for lang in languages[1:]:
        if lang not in content.translations.files:
            report.error("I18N-MISSING", f"the game is played in {language_name(lang)} but no catalogue is for it",
                         doc.span(("languages",)), f"write lang/{lang}.yaml (`language: {lang}`) and list it under files: translations")


def _words_needed(content: GameContent, doc: YamlDoc, options: list) -> dict:
    """Each identifier a player may read (the table, values in messages, options without `ask`), with
    where it is declared."""
    voc = content.vocabulary
    needed: dict = {}
    for name in voc.zones:
        needed[name] = doc.span(("vocabulary", "zones", name))
    for name, v in voc.variables.items():
        if v.scope in ("game", "player"):
            needed.setdefault(name, doc.span(("vocabulary", "variables", name)))
    for name in voc.kinds:
        needed.setdefault(name, doc.span(("vocabulary", "kinds", name)))
    for enum, values in voc.enums.items():
        if enum != "kind":
            for i, value in enumerate(values):
                needed.setdefault(value, doc.span(("vocabulary", "enums", enum, i)))
    for name, t in voc.attributes.items():
        if t == "number" and name not in voc.unshown:  # (a number kept out of names is never read)
            needed.setdefault(name, doc.span(("vocabulary", "attributes", name)))
    for name in voc.table.variables:  # an entity variable the table shows on its components
        needed.setdefault(name, doc.span(("vocabulary", "variables", name)))
    for track in voc.table.looks.tracks:  # a track named by an identifier of the game
        if isinstance(track.name, str):
            needed.setdefault(track.name, doc.span(("looks",)))
    for name in voc.variants:  # `rules play --variant` names them in its first line
        needed.setdefault(name, doc.span(("variants", name)))
    for option in options:
        needed.setdefault(option.name, option.span)
    return needed


def _check_setup(manifest: dict, doc, checker, unparsed: set, report) -> None:
    """The engine runs `setup`, then `start`: a setup that is not a procedure, or a start that calls it again (the
    table would be set twice), is an error."""
    setup, start = manifest.get("setup"), manifest.get("start")
    if not setup:
        return
    sig = checker.signatures.get(setup)
    if (sig is None or sig.kind != "procedure") and setup not in unparsed:
        report.error("REF-UNDEF", f"the setup procedure '{setup}' is not declared", doc.span(("setup",)),
                     did_you_mean(setup, [n for n, s in checker.signatures.items() if s.kind == "procedure"]))
        return
    decl = getattr(checker.signatures.get(start), "decl", None)
    for node in _nodes(getattr(decl, "body", None) or []):
        if isinstance(node, ast.Call) and node.func == setup:
            report.error("DSL-PLACE", f"'{start}' calls '{setup}', which the engine runs before it (game.yaml `setup:`)",
                         node.span, f"remove the call: a game is its setup, then '{start}'")


def _nodes(nodes: list):
    for node in nodes:
        yield node
        yield from _nodes(ast.children(node))


def _localize(content: GameContent) -> None:
    """Records' names and texts as the runtime holds them: Localized when given per language."""
    languages = content.vocabulary.languages
    manifest = content.manifest
    if isinstance(manifest.get("name"), dict):
        manifest["name"] = localized(manifest["name"], languages)
    for variant, text in (manifest.get("variants") or {}).items():
        content.vocabulary.variants[variant] = manifest["variants"][variant] = localized(text, languages)
    for rec in content.records:
        for key in ("name", "text"):
            if isinstance(rec.data.get(key), dict):
                rec.data[key] = localized(rec.data[key], languages)


def _check_report(raw: dict, doc, voc: Vocabulary, checker: Checker, report: Report) -> None:
    """The manifest's `report:` names (what counts as played, what is reported per player) must exist."""
    played = raw.get("played") or {}
    for part in ("from", "to"):
        for i, z in enumerate(played.get(part) or ()):
            where = doc.span(("report", "played", part, i))
            if z not in voc.zones:
                report.error("REF-UNDEF", f"report: no zone '{z}'", where, did_you_mean(z, voc.zones))
            elif part == "from" and voc.zones[z].scope != "player":
                report.error("VOCAB-VALUE", f"report: '{z}' is not a zone of a player, so nobody would have played "
                             "what leaves it", where)
    for i, k in enumerate(played.get("kinds") or ()):
        if k not in voc.kinds:
            report.error("REF-UNDEF", f"report: no kind '{k}'", doc.span(("report", "played", "kinds", i)),
                         did_you_mean(k, voc.kinds))
    functions = [n for n, sig in checker.signatures.items() if sig.kind == "function" and len(sig.params) == 1]
    options = functions + [n for n, v in voc.variables.items() if v.scope == "player"] + \
        [n for n, z in voc.zones.items() if z.scope == "player"]
    for label, entry in (raw.get("per_player") or {}).items():
        name = entry.get("of") if isinstance(entry, dict) else entry
        where = ("report", "per_player", label) + (("of",) if isinstance(entry, dict) else ())
        if name not in options:
            report.error("REF-UNDEF", f"report: per_player {label}: '{name}' is not a function of one player, "
                         "a player variable or a player zone", doc.span(where), did_you_mean(name, options))
        for i, v in enumerate(entry.get("matters_in") or () if isinstance(entry, dict) else ()):
            if v not in voc.variants:
                report.error("REF-UNDEF", f"report: per_player {label}: no variant '{v}'",
                             doc.span(("report", "per_player", label, "matters_in", i)), did_you_mean(v, voc.variants))
    by = played.get("playable_by")
    if by:
        if by["attribute"] not in voc.attributes:
            report.error("REF-UNDEF", f"report: playable_by: no attribute '{by['attribute']}'",
                         doc.span(("report", "played", "playable_by", "attribute")), did_you_mean(by["attribute"], voc.attributes))
        if by["player"] not in options:
            report.error("REF-UNDEF", f"report: playable_by: '{by['player']}' is not a function of one player, a player "
                         "variable or a player zone", doc.span(("report", "played", "playable_by", "player")),
                         did_you_mean(by["player"], options))
    procedures = [n for n, sig in checker.signatures.items() if sig.kind in ("procedure", "event")]
    for label, entry in (raw.get("length") or {}).items():
        if entry["calls"] not in procedures:
            report.error("REF-UNDEF", f"report: length {label}: no procedure '{entry['calls']}'",
                         doc.span(("report", "length", label, "calls")), did_you_mean(entry["calls"], procedures))
    for i, entry in enumerate(raw.get("ends") or ()):
        _check_condition(entry["when"], ("report", "ends", i, "when"), doc, checker, report)
    in_score = raw.get("part_of_score") or {}
    labels = list(raw.get("per_player") or {})
    for i, label in enumerate(in_score.get("per_player") or ()):
        if label not in labels:
            report.error("REF-UNDEF", f"report: part_of_score: no per_player label '{label}'",
                         doc.span(("report", "part_of_score", "per_player", i)), did_you_mean(label, labels))
    for i, k in enumerate(in_score.get("kinds") or ()):
        if k not in voc.kinds:
            report.error("REF-UNDEF", f"report: part_of_score: no kind '{k}'",
                         doc.span(("report", "part_of_score", "kinds", i)), did_you_mean(k, voc.kinds))


def _check_condition(text: str, key: tuple, doc, checker: Checker, report: Report) -> None:
    """A yes/no expression of the rules written in the manifest (how a game ended), checked where it stands."""
    from dsl.parser import parse_expression
    from dsl.types import Scope
    try:
        node = parse_expression(doc.source_of(key, text))
    except DiagnosticError as err:
        report.add(err.diagnostics)
        return
    found = checker.expr(node, Scope({}))
    if found not in ("bool", "any"):
        report.error("TYPE-MISMATCH", f"report: a game's end is told by a yes/no condition, not a {found}", doc.span(key))


def _kind_requirements(doc, voc: Vocabulary) -> list:
    out = []
    for i, item in enumerate(doc.data if isinstance(doc.data, list) else []):
        kind = voc.kinds.get(item.get("kind")) if isinstance(item, dict) and isinstance(item.get("kind"), str) else None
        for name in kind.required if kind is not None else ():
            if name not in item:
                rid = item.get("id")
                what = f"record '{rid}'" if isinstance(rid, str) else f"record {i + 1} of the file"
                out.append(Diagnostic("SCHEMA-REQUIRED", f"missing required field '{name}' in {what}", doc.span((i,))))
    return out


def _source(path: Path, text: str) -> Source:
    return Source(_display(path), text, text)


def _display(path: Path) -> str:
    """How diagnostics name a file: its path in its repository, whatever folder the command runs from (dsl.paths)."""
    return shown_path(path)


def _check_players(doc: YamlDoc, report: Report) -> None:
    """min <= default <= max, which a JSON Schema cannot say."""
    spec = doc.data["players"]
    low, high = spec["min"], spec["max"]
    if low > high:
        report.error("SCHEMA-VALUE", f"players: min {low} is more than max {high}", doc.span(("players", "min")),
                     "the game is for min to max players")
    elif "default" in spec and not low <= spec["default"] <= high:
        report.error("SCHEMA-VALUE", f"players: the default {spec['default']} is not between min {low} and max {high}",
                     doc.span(("players", "default")))


def _text(path: Path, report: Report, texts: dict) -> str | None:
    """A content file's text, or None with the reason reported (too large, not UTF-8, not a file)."""
    try:
        if texts:
            unsaved = texts.get(path.resolve())
            if unsaved is not None:  # held to the same limits as the file it stands for
                return decode(unsaved.encode("utf-8", "surrogatepass"), _display(path))
        return read_text(path, _display(path))
    except DiagnosticError as err:
        report.add(err.diagnostics)
        return None


def _read(path: Path, report: Report, hasher, texts: dict) -> YamlDoc:
    """Parse one YAML file. A file with YAML errors gets no schema check, whose errors would only echo them."""
    text = _text(path, report, texts)
    if text is None:
        return YamlDoc(_display(path), "", broken=True)
    hasher.update(path.name.encode() + b"\0" + text.encode())
    doc, problems = load_yaml(_display(path), text)
    report.add(problems)
    doc.broken = bool(problems)
    return doc


_DECLARATION = re.compile(r"^[ \t]*(?:procedure|event|function)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)


class _RuleTextBudget:
    """All the rule text of a game is parsed up to MAX_GAME_RULE_TEXT characters (a bound in time: parsing
    is slow per character); past it, once, INPUT-LIMIT, and the rest is only scanned for the names it declares."""

    def __init__(self, report: Report, doc):
        self.report, self.doc, self.used = report, doc, 0

    def allows(self, text: str, unparsed: set) -> bool:
        self.used += len(text)
        if self.used <= MAX_GAME_RULE_TEXT:
            return True
        if self.used - len(text) <= MAX_GAME_RULE_TEXT:
            self.report.error("INPUT-LIMIT", f"the game's rule text is longer than {MAX_GAME_RULE_TEXT // 1024} KiB: "
                              "the rest is not read", self.doc.span(("files", "rules")), "a game's rules are a few hundred KB")
        unparsed.update(_declared_names(text))
        return False


def _declared_names(text: str) -> set:
    """What a text that failed to parse declares, found by its declaration lines alone."""
    return set(_DECLARATION.findall(text))


def _fill_defaults(content: GameContent) -> None:
    """Records without an attribute that has a default read the default (the runtime gets complete records)."""
    defaults = content.vocabulary.attribute_defaults
    if not defaults:
        return
    for rec in content.records:
        for name, value in defaults.items():
            if name not in rec.data:
                rec.data[name] = copy.deepcopy(value)


def _warn_inactive(content: GameContent) -> None:
    """Abilities on a kind that has no `active_in` zone can never apply: say so once per kind."""
    voc = content.vocabulary
    owners = {m.owner for m in content.modules  # an ability that names its own zones (`in hand`) works there
              if m.owner is not None and any(isinstance(d, (ast.Trigger, ast.Replacement, ast.Modifier)) and not d.zones
                                             for d in m.decls)}
    seen: set = set()
    for rec in content.records:
        kind = voc.kinds.get(rec.data.get("kind"))
        if rec.id not in owners or kind is None or kind.active_in or kind.name in seen:
            continue
        seen.add(kind.name)
        count = sum(1 for r in content.records if r.id in owners and r.data.get("kind") == kind.name)
        content.report.add([Diagnostic(
            "DSL-INACTIVE", f"kind '{kind.name}' has no active_in zone, so the triggers, replacements and modifiers of "
            f"its {plural('en', count, ('record', '# records'))} with abilities never apply", rec.span("effect"),
            f"add active_in: [ZONE, ...] to kind '{kind.name}' in game.yaml", severity="warning")])


OUTSIDE_HINT = "a game reads only files inside its own folder: list paths relative to game.yaml"


def _inside(base: Path, path: Path) -> bool:
    """Whether `path`, with every symlink and '..' resolved, lies in the (resolved) folder `base`."""
    return path.resolve().is_relative_to(base)


def _file_list(root: Path, entries, report: Report, doc: YamlDoc, key: str) -> list[str]:
    """The files a manifest lists, each checked to lie inside the game folder before anything reads it."""
    out = []
    base = root.resolve()
    for i, rel in enumerate(entries or []):
        where = doc.span(("files", key, i))
        pattern = any(c in rel for c in "*?[")
        if PurePosixPath(rel).is_absolute() or rel.startswith("\\") or (pattern and ".." in PurePosixPath(rel).parts):
            # Not even listed: a pattern with '..' could walk the whole disk before anything is filtered.
            report.error("CONTENT-OUTSIDE", f"'{rel}' in {key} points outside the game folder", where, OUTSIDE_HINT)
            continue
        try:
            found = list(itertools.islice(base.glob(rel), MAX_GLOB_FILES + 1)) if pattern else [base / rel]
        except (OSError, ValueError, NotImplementedError) as err:
            report.error("CONTENT-MISSING", f"cannot list '{rel}' in {key}: {err}", where)
            continue
        if len(found) > MAX_GLOB_FILES:
            report.error("INPUT-LIMIT", f"'{rel}' in {key} matches more than {MAX_GLOB_FILES:,} files", where)
            continue
        if pattern and not found:
            report.error("CONTENT-MISSING", f"the pattern '{rel}' listed in {key} matches no file", where,
                         "check the folder and the file extension")
        for path in sorted(found):
            m = path.relative_to(base).as_posix()
            try:
                inside = _inside(base, path)
                is_file = inside and path.is_file()
            except (OSError, ValueError, RuntimeError):  # a NUL in the name, a symlink loop
                inside, is_file = True, False
            if not inside:
                report.error("CONTENT-OUTSIDE", f"the file '{m}' listed in {key} leads outside the game folder "
                             "(through '..' or a symbolic link)", where, OUTSIDE_HINT)
            elif is_file:
                out.append(m)
            else:
                report.error("CONTENT-MISSING", f"the file '{m}' listed in {key} does not exist", where)
    return out


def _register_ids(content: GameContent) -> None:
    for rec in content.records:
        told = False  # one error per record, not one per copy (`copies: 10`)
        for eid in entity_ids_of(rec.data):
            if eid in content.entity_ids:
                other = content.entity_ids[eid]
                if not told:
                    said = f"the id '{eid}' is used twice" if eid == rec.id else \
                        f"the id '{eid}' (a copy of '{rec.id}') is used twice"
                    content.report.error("REF-DUP", said, rec.span("id"), f"the first is at {other.span('id')}")
                    told = True
                continue
            content.entity_ids[eid] = rec


def _check_record_refs(content: GameContent) -> None:
    """Attributes typed as entities must name existing records."""
    voc = content.vocabulary
    for rec in content.records:
        for key, value in rec.data.items():
            t = voc.attribute_type(key)
            if t not in ("entity", "list[entity]"):
                continue
            values = value if isinstance(value, list) else [value]
            for i, v in enumerate(values):
                if isinstance(v, str) and v not in content.entity_ids:
                    path = (key, i) if isinstance(value, list) else (key,)
                    content.report.error("REF-UNDEF", f"'{v}' names no record", rec.doc.span(rec.path + path),
                                         did_you_mean(v, content.entity_ids))


def ensure_loaded(root: Path) -> GameContent:
    content = load_game(root)
    content.report.raise_if_errors()
    return content


def all_decls(modules: list):
    """Every declaration, including those nested in `until` blocks, with the module owning it."""
    for module in modules:
        for decl in module.decls:
            yield module, decl
            yield from ((module, d) for d in _nested(decl))


def _nested(node):
    for child in ast.children(node) if isinstance(node, ast.Node) else []:
        if isinstance(child, ast.Until):
            for d in child.decls:
                yield d
                yield from _nested(d)
        else:
            yield from _nested(child)
