"""The names a game's rule text may use, as declared in its manifest."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from dsl.diagnostics import Report, did_you_mean
from dsl.limits import MAX_COPIES
from dsl.table_spec import TableSpec
from dsl.yaml_records import YamlDoc

BASE_TYPES = {"number", "bool", "text", "player", "entity", "zone", "any"}
RECORD_FIELDS = {"id": "text", "kind": "kind", "name": "text", "text": "text", "effect": "text", "source": "text", "copies": "number"}


# What the owner of a zone and everyone else see of its face-up components: all, only the top one, or none.
SIGHTS = {"public": ("all", "all"), "owner": ("all", "none"), "hidden": ("none", "none")}


@dataclass(frozen=True)
class ZoneDef:
    name: str
    scope: str  # game | player | entity
    visibility: str  # public | owner | hidden, or "owner: all, others: top" for the mapping form
    shared_with: str | None = None  # a player zone that player shares with a neighbour: next | prev
    sight: tuple = ("all", "all")  # (what its owner sees, what others see): all | top | none


def zone_sight(raw) -> tuple[str, tuple]:
    """A zone's `visibility:` as written (a word, or {owner: MODE, others: MODE}) -> (its words, its sight)."""
    if isinstance(raw, dict):
        sight = (str(raw.get("owner", "all")), str(raw.get("others", "none")))
        return f"owner: {sight[0]}, others: {sight[1]}", sight
    word = raw if isinstance(raw, str) else "public"
    return word, SIGHTS.get(word, SIGHTS["public"])


@dataclass(frozen=True)
class VarDef:
    name: str
    scope: str  # game | player | entity
    type: str
    initial: object = None
    kinds: tuple = ()  # entity variables: only components of these kinds have it (all when empty)
    initial_from: str | None = None  # entity variables: start with this attribute's value
    during: str | None = None  # game variables: reset for each call of this procedure, restored after it


@dataclass(frozen=True)
class KindDef:
    name: str
    starts_in: str
    active_in: tuple = ()
    required: tuple = ()


@dataclass(frozen=True)
class CardFunctionDef:
    name: str
    params: tuple  # ((name, type), ...)
    returns: str


@dataclass
class Priority:
    timings: list = field(default_factory=lambda: ["normal"])
    order: list = field(default_factory=lambda: ["timing", "source", "kind", "player"])
    source: list = field(default_factory=lambda: ["card", "rules"])
    kinds: list = field(default_factory=list)
    player_from: str | None = None
    ties: str = "seat"


@dataclass
class Vocabulary:
    enums: dict = field(default_factory=dict)  # enum name -> [values]
    enum_of: dict = field(default_factory=dict)  # value -> enum name
    attributes: dict = field(default_factory=dict)  # attribute -> type
    attribute_defaults: dict = field(default_factory=dict)  # attribute -> what records without it read
    unshown: set = field(default_factory=set)  # attributes kept out of what a component reads as (`shown: false`)
    kinds: dict = field(default_factory=dict)  # kind -> KindDef
    zones: dict = field(default_factory=dict)  # zone -> ZoneDef
    variables: dict = field(default_factory=dict)  # variable -> VarDef
    card_functions: dict = field(default_factory=dict)
    priority: Priority = field(default_factory=Priority)
    variants: dict = field(default_factory=dict)
    languages: tuple = ("en",)  # what players read it in; rule text is written in the first
    table: TableSpec = field(default_factory=TableSpec)  # what the table shows a person (manifest `table:`)

    def type_ok(self, t: str) -> bool:
        if t.startswith("list[") and t.endswith("]"):
            return self.type_ok(t[5:-1])
        return t in BASE_TYPES or t in self.enums or t == "kind"

    def attribute_type(self, name: str) -> str | None:
        if name in RECORD_FIELDS:
            return RECORD_FIELDS[name]
        return self.attributes.get(name)


def build_vocabulary(doc: YamlDoc, report: Report) -> Vocabulary:
    """Read the manifest's vocabulary and priority sections; report inconsistencies."""
    manifest = doc.data if isinstance(doc.data, dict) else {}
    raw = manifest.get("vocabulary") or {}
    voc = Vocabulary()
    voc.variants = dict(manifest.get("variants") or {})
    voc.languages = tuple(manifest.get("languages") or ("en",))
    for enum, values in (raw.get("enums") or {}).items():
        voc.enums[enum] = list(values)
        for v in values:
            if v in voc.enum_of and voc.enum_of[v] != enum:
                report.error("VOCAB-DUP", f"the value '{v}' belongs to two enums ('{voc.enum_of[v]}' and '{enum}')",
                             doc.span(("vocabulary", "enums", enum)), "give each value one meaning")
            voc.enum_of[v] = enum
    kinds = raw.get("kinds") or {}
    voc.enums["kind"] = list(kinds)
    for k in kinds:
        voc.enum_of.setdefault(k, "kind")
    for name, t in (raw.get("attributes") or {}).items():
        if name in RECORD_FIELDS:
            report.error("VOCAB-DUP", f"'{name}' is a field of every record and cannot be redeclared",
                         doc.span(("vocabulary", "attributes", name)))
        if isinstance(t, dict):  # the long form: {type: number, default: 0, shown: false}
            if "default" in t:
                voc.attribute_defaults[name] = t["default"]
            if t.get("shown") is False:
                voc.unshown.add(name)
            t = t.get("type", "any")
        voc.attributes[name] = t
    for name, z in (raw.get("zones") or {}).items():
        words, sight = zone_sight(z.get("visibility", "public"))
        voc.zones[name] = ZoneDef(name, z.get("scope", "game"), words, z.get("shared_with"), sight)
        if z.get("shared_with") and z.get("scope") != "player":
            report.error("VOCAB-VALUE", f"zone '{name}' is shared with a neighbour, so its scope must be player",
                         doc.span(("vocabulary", "zones", name, "shared_with")), "with shared_with: next, the zone of P lies between P and next(P)")
    for name, v in (raw.get("variables") or {}).items():
        voc.variables[name] = VarDef(name, v.get("scope", "game"), v.get("type", "any"), v.get("initial"),
                                     tuple(v.get("kinds") or ()), v.get("initial_from"), v.get("during"))
    for name, k in kinds.items():
        voc.kinds[name] = KindDef(name, k.get("starts_in", ""), tuple(k.get("active_in") or ()), tuple(k.get("required") or ()))
    for name, f in (raw.get("card_functions") or {}).items():
        voc.card_functions[name] = CardFunctionDef(name, tuple((f.get("params") or {}).items()), f.get("returns", "any"))
    pr = manifest.get("priority") or {}
    voc.priority = Priority(
        timings=list(pr.get("timings") or ["normal"]),
        order=list(pr.get("order") or ["timing", "source", "kind", "player"]),
        source=list(pr.get("source") or ["card", "rules"]),
        kinds=list(pr.get("kinds") or []),
        player_from=pr.get("player_from"),
        ties=pr.get("ties", "seat"),
    )
    _check(voc, doc, report)
    return voc


def _check(voc: Vocabulary, doc: YamlDoc, report: Report) -> None:
    where = ("vocabulary",)
    for name, t in list(voc.attributes.items()):
        if not voc.type_ok(t):
            report.error("VOCAB-TYPE", f"unknown type '{t}' for attribute '{name}'", doc.span(where + ("attributes", name)),
                         did_you_mean(t, list(BASE_TYPES) + list(voc.enums)))
            voc.attributes[name] = "any"  # reported once here, not again at every use
        elif name in voc.attribute_defaults:
            problem = value_problem(voc, t, voc.attribute_defaults[name])
            if problem:
                report.error("VOCAB-VALUE", f"the default of attribute '{name}' {problem}",
                             doc.span(where + ("attributes", name, "default")))
    for name, v in list(voc.variables.items()):
        if not voc.type_ok(v.type):
            report.error("VOCAB-TYPE", f"unknown type '{v.type}' for variable '{name}'", doc.span(where + ("variables", name, "type")),
                         did_you_mean(v.type, list(BASE_TYPES) + list(voc.enums)))
            voc.variables[name] = v = replace(v, type="any")
        elif v.initial is not None:
            problem = value_problem(voc, v.type, v.initial)
            if problem:
                report.error("VOCAB-VALUE", f"the initial value of variable '{name}' {problem}",
                             doc.span(where + ("variables", name, "initial")))
        if name in voc.zones:
            report.error("VOCAB-DUP", f"'{name}' is both a zone and a variable", doc.span(where + ("variables", name)))
        _check_entity_var(voc, v, doc, report)
    for name, k in voc.kinds.items():
        for z in (k.starts_in, *k.active_in):
            if z not in voc.zones:
                report.error("REF-UNDEF", f"unknown zone '{z}' in kind '{name}'", doc.span(where + ("kinds", name)),
                             did_you_mean(z, voc.zones))
        start = voc.zones.get(k.starts_in)
        if start is not None and start.scope != "game":
            report.error("VOCAB-VALUE", f"kind '{name}' starts in '{k.starts_in}', a zone of each {start.scope}: "
                         "there is no owner to put its components in front of", doc.span(where + ("kinds", name, "starts_in")),
                         "start in a zone of scope game and move the components in the setup procedure")
        for a in k.required:
            if voc.attribute_type(a) is None:
                report.error("REF-UNDEF", f"unknown attribute '{a}' required by kind '{name}'", doc.span(where + ("kinds", name, "required")),
                             did_you_mean(a, voc.attributes))
    for k in voc.priority.kinds:
        if k not in voc.kinds:
            report.error("REF-UNDEF", f"unknown kind '{k}' in the priority policy", doc.span(("priority", "kinds")), did_you_mean(k, voc.kinds))
    if voc.priority.player_from and voc.priority.player_from not in voc.variables:
        report.error("REF-UNDEF", f"unknown variable '{voc.priority.player_from}' in the priority policy", doc.span(("priority", "player_from")),
                     did_you_mean(voc.priority.player_from, voc.variables))


def _check_entity_var(voc: Vocabulary, v: VarDef, doc: YamlDoc, report: Report) -> None:
    at = ("vocabulary", "variables", v.name)
    if v.scope != "entity":
        for key in ("kinds", "initial_from"):
            if getattr(v, key):
                report.error("VOCAB-VALUE", f"'{key}' is for entity variables; '{v.name}' has scope {v.scope}", doc.span(at + (key,)))
        return
    for k in v.kinds:
        if k not in voc.kinds:
            report.error("REF-UNDEF", f"unknown kind '{k}' for variable '{v.name}'", doc.span(at + ("kinds",)), did_you_mean(k, voc.kinds))
    if v.initial_from is not None:
        t = voc.attributes.get(v.initial_from)
        if t is None:
            report.error("REF-UNDEF", f"unknown attribute '{v.initial_from}' for the initial value of '{v.name}'",
                         doc.span(at + ("initial_from",)), did_you_mean(v.initial_from, voc.attributes))
        elif t in ("entity", "list[entity]"):
            report.error("VOCAB-VALUE", f"'{v.name}' cannot start from '{v.initial_from}', an attribute naming components",
                         doc.span(at + ("initial_from",)), "set it in the setup procedure")
        elif t != v.type and "any" not in (t, v.type):
            report.error("VOCAB-VALUE", f"'{v.name}' is a {v.type}, but the attribute '{v.initial_from}' is a {t}",
                         doc.span(at + ("initial_from",)))


def value_problem(voc: Vocabulary, t: str, value) -> str | None:
    """Why a value written in the manifest cannot stand for type `t` (None when it can)."""
    if value is None or t == "any":
        return None
    if t.startswith("list["):
        if not isinstance(value, list):
            return f"must be a list, not {value!r}"
        return next((p for p in (value_problem(voc, t[5:-1], v) for v in value) if p), None)
    if t in ("entity", "zone"):
        return f"cannot be written in the manifest (a {t} exists only once the game runs); set it in the setup procedure"
    if t in voc.enums:
        return None if value in voc.enums[t] else f"must be one of {', '.join(map(str, voc.enums[t]))}, not {value!r}"
    is_int = isinstance(value, int) and not isinstance(value, bool)
    ok = {"number": is_int, "bool": isinstance(value, bool), "text": isinstance(value, str),
          "player": is_int and value >= 0}.get(t, True)
    if ok:
        return None
    wanted = {"number": "a whole number", "bool": "true or false", "text": "a text", "player": "a seat number (0 for P1)"}[t]
    return f"must be {wanted}, not {value!r}"


def record_schema(voc: Vocabulary, kinds_required: bool = True) -> dict:
    """The JSON Schema of one component record of this game, derived from its vocabulary."""
    words = words_schema(voc.languages)
    props: dict = {
        "id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "kind": {"enum": sorted(voc.kinds)},
        "name": words,
        "copies": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        "text": words,
        "effect": {"type": "string"},
        "source": {"type": "string", "minLength": 1},
    }
    for name, t in voc.attributes.items():
        props[name] = type_schema(voc, t)
        if name in voc.attribute_defaults:
            props[name] = dict(props[name], default=voc.attribute_defaults[name])
    schema: dict = {
        "type": "object",
        "required": ["id", "kind", "source"] + (["name"] if len(voc.languages) > 1 else []),
        "properties": props,
        "additionalProperties": False,
    }
    rules = [{"if": {"properties": {"kind": {"const": k.name}}, "required": ["kind"]}, "then": {"required": list(k.required)}}
             for k in voc.kinds.values() if k.required]
    if rules and kinds_required:
        schema["allOf"] = rules
    return schema


def words_schema(languages: tuple) -> dict:
    """A player-facing text of a record: a string in a game of one language, else one entry per language."""
    if len(languages) == 1:
        return {"type": "string"}
    return {"type": "object", "required": list(languages), "additionalProperties": False,
            "properties": {code: {"type": "string", "minLength": 1} for code in languages}}


def type_schema(voc: Vocabulary, t: str) -> dict:
    if t.startswith("list["):
        return {"type": "array", "items": type_schema(voc, t[5:-1])}
    if t in voc.enums:
        return {"enum": voc.enums[t]}
    return {
        "number": {"type": "integer"},
        "bool": {"type": "boolean"},
        "text": {"type": "string"},
        "player": {"type": "integer", "minimum": 0},
        "entity": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
    }.get(t, {})
