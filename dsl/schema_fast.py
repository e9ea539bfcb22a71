"""A quick yes/no JSON Schema check for the subset of Draft 2020-12 our schemas use.

jsonschema is slow to import and to run (most of a cold `rules validate`). Content is nearly always valid, so
the loader asks this check first and calls jsonschema only when the answer is "no" or "not sure", for the
errors and their wording. The check is exact for every keyword it knows and raises Unsure on any other (or on
a value it cannot compare exactly), so a "yes" here is always jsonschema's "yes".
"""
from __future__ import annotations

import re


class Unsure(Exception):
    """A keyword or a value this check does not judge exactly: ask jsonschema."""


_IGNORED = frozenset(("description", "title", "$schema", "$defs", "default", "$comment", "examples", "$id"))


def is_valid(instance, schema, root=None) -> bool:
    """True when `instance` meets `schema` (whose local `$ref`s resolve in `root`); raises Unsure when unsure."""
    return _valid(instance, schema, schema if root is None else root)


def _is_number(x) -> bool:
    return type(x) is not bool and isinstance(x, (int, float))


def _type_ok(x, t: str) -> bool:
    if t == "string":
        return isinstance(x, str)
    if t == "object":
        return isinstance(x, dict)
    if t == "array":
        return isinstance(x, list)
    if t == "boolean":
        return type(x) is bool
    if t == "null":
        return x is None
    if t == "integer":
        return type(x) is not bool and (isinstance(x, int) or (isinstance(x, float) and x.is_integer()))
    if t == "number":
        return _is_number(x)
    raise Unsure(t)


def _equal(a, b) -> bool:
    """jsonschema's equality for scalars (a yes/no is never a number); anything else is not judged here."""
    scalar = [x is None or type(x) in (str, bool, int, float) for x in (a, b)]
    if scalar[0] != scalar[1]:
        return False  # a list or map never equals a scalar
    if not scalar[0]:
        raise Unsure("compound value")
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    return a == b


def _resolve(ref: str, root):
    if not ref.startswith("#/"):
        raise Unsure(ref)
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise Unsure(ref)
        node = node[part]
    return node


def _valid(x, schema, root) -> bool:  # noqa: C901 - one branch per keyword reads best here
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        raise Unsure("schema")
    if "$id" in schema and schema is not root:
        raise Unsure("$id")  # a new base for $ref: not handled here
    for key, value in schema.items():
        if key in _IGNORED:
            continue
        if key == "type":
            if not any(_type_ok(x, t) for t in ([value] if isinstance(value, str) else value)):
                return False
        elif key == "$ref":
            if not _valid(x, _resolve(value, root), root):
                return False
        elif key == "properties":
            if isinstance(x, dict):
                for name, sub in value.items():
                    if name in x and not _valid(x[name], sub, root):
                        return False
        elif key == "additionalProperties":
            if isinstance(x, dict):
                if "patternProperties" in schema:
                    raise Unsure(key)
                known = schema.get("properties") or {}
                for name in x:
                    if name not in known and not _valid(x[name], value, root):
                        return False
        elif key == "required":
            if isinstance(x, dict) and any(name not in x for name in value):
                return False
        elif key == "propertyNames":
            if isinstance(x, dict) and not all(_valid(name, value, root) for name in x):
                return False
        elif key in ("minProperties", "maxProperties"):
            if isinstance(x, dict) and not (len(x) >= value if key == "minProperties" else len(x) <= value):
                return False
        elif key == "items":
            if isinstance(x, list):
                start = len(schema.get("prefixItems") or ())
                if not all(_valid(e, value, root) for e in x[start:]):
                    return False
        elif key == "prefixItems":
            if isinstance(x, list) and not all(_valid(e, s, root) for e, s in zip(x, value)):
                return False
        elif key in ("minItems", "maxItems"):
            if isinstance(x, list) and not (len(x) >= value if key == "minItems" else len(x) <= value):
                return False
        elif key == "uniqueItems":
            if value and isinstance(x, list):
                for i, a in enumerate(x):
                    if any(_equal(a, b) for b in x[i + 1:]):
                        return False
        elif key in ("minLength", "maxLength"):
            if isinstance(x, str) and not (len(x) >= value if key == "minLength" else len(x) <= value):
                return False
        elif key == "pattern":
            if isinstance(x, str):
                if not re.search(value, x):  # as jsonschema does (re's own cache compiles it once)
                    return False
        elif key in ("minimum", "maximum"):
            if _is_number(x) and not (x >= value if key == "minimum" else x <= value):
                return False
        elif key == "enum":
            if not any(_equal(x, e) for e in value):
                return False
        elif key == "const":
            if not _equal(x, value):
                return False
        elif key == "allOf":
            if not all(_valid(x, s, root) for s in value):
                return False
        elif key == "anyOf":
            if not any([_valid(x, s, root) for s in value]):  # every branch judged: an unsure one is never skipped
                return False
        elif key == "oneOf":
            if sum(1 for s in value if _valid(x, s, root)) != 1:
                return False
        elif key == "not":
            if _valid(x, value, root):
                return False
        elif key == "if":
            branch = "then" if _valid(x, value, root) else "else"
            if branch in schema and not _valid(x, schema[branch], root):
                return False
        elif key in ("then", "else"):
            continue  # judged with "if"
        else:
            raise Unsure(key)
    return True
