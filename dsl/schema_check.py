"""JSON Schema validation whose errors point at the offending line of the YAML file."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from dsl.diagnostics import Diagnostic, did_you_mean
from dsl.schema_fast import Unsure, is_valid
from dsl.yaml_records import YamlDoc

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"

_CODES = {
    "type": "SCHEMA-TYPE",
    "required": "SCHEMA-REQUIRED",
    "enum": "SCHEMA-ENUM",
    "const": "SCHEMA-ENUM",
    "additionalProperties": "SCHEMA-EXTRA",
    "pattern": "SCHEMA-PATTERN",
}


@functools.lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def validate(doc: YamlDoc, schema: dict) -> list[Diagnostic]:
    try:
        if is_valid(doc.data, schema):
            return []  # the usual case, without jsonschema (slow to import and to run)
    except Unsure:
        pass
    from jsonschema import Draft202012Validator  # only for content with errors: their wording and places

    validator = Draft202012Validator(schema)
    out = []
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: (list(map(str, e.absolute_path)), e.validator)):
        out.extend(_diagnose(doc, err))
    return out


def _where(doc: YamlDoc, path: tuple) -> str:
    """A path in words, a record named by its id rather than its place in the file ('dwarves_archer.strength')."""
    parts = [str(p) for p in path]
    data = doc.data
    if path and isinstance(path[0], int) and isinstance(data, list) and 0 <= path[0] < len(data):
        rid = data[path[0]].get("id") if isinstance(data[path[0]], dict) else None
        if isinstance(rid, str) and rid:
            parts[0] = rid if len(parts) > 1 else f"record '{rid}'"
    return ".".join(parts) or "the document"


def _diagnose(doc: YamlDoc, err) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    code = _CODES.get(err.validator, "SCHEMA-VALUE")
    where = _where(doc, path)
    if err.validator == "additionalProperties":
        allowed = list((err.schema.get("properties") or {}).keys())
        extras = [k for k in err.instance if k not in allowed] if isinstance(err.instance, dict) else []
        return [Diagnostic(code, f"unknown field '{k}'" + (f" in {where}" if path else ""), doc.key_span(path + (k,)),
                           did_you_mean(k, allowed) or f"allowed fields: {', '.join(allowed)}") for k in extras]
    if err.validator == "enum":
        options = [str(o) for o in err.validator_value]
        return [Diagnostic(code, f"{err.instance!r} is not one of the allowed values of {where}", doc.span(path),
                           did_you_mean(str(err.instance), options) or f"allowed: {', '.join(options[:12])}")]
    if err.validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return [Diagnostic(code, f"missing required field '{missing}'" + (f" in {where}" if path else ""), doc.span(path))]
    if err.validator == "type":
        return [Diagnostic(code, f"{where} must be of type {err.validator_value}, not {type(err.instance).__name__}", doc.span(path))]
    if err.validator in ("allOf", "if", "then"):
        return []
    if err.validator == "anyOf" and err.context:
        # one of several forms (a word, or a mapping): the error of the form the value came closest to
        return _diagnose(doc, max(err.context, key=lambda e: (len(e.absolute_path), e.validator != "type")))
    return [Diagnostic(code, f"{where}: {err.message}", doc.span(path))]
