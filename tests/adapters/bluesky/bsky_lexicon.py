"""A validator of atproto data against the official JSON lexicons kept in ./lexicons.

The lexicons are copies of bluesky-social/atproto's ``lexicons/`` (commit named in
lexicons/SOURCE). This checks what the fake PDS receives and what it answers: objects'
required properties, strings' ``maxLength`` (UTF-8 bytes) and ``maxGraphemes``, their
formats, integers' bounds, arrays' lengths, refs, unions (a ``$type`` naming one of the
refs when the union is closed), blobs' ``accept`` and ``maxSize``.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

try:  # real grapheme clusters where the regex module is installed
    import regex

    def graphemes(text: str) -> int:
        return len(regex.findall(r"\X", text))

except ImportError:  # pragma: no cover - code points over-count, never under

    def graphemes(text: str) -> int:
        return len(text)


LEXICONS = Path(__file__).parent / "lexicons"

_FORMATS = {
    "did": re.compile(r"^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$"),
    "handle": re.compile(
        r"^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$"
    ),
    "at-uri": re.compile(r"^at://[^/\s]+(/[a-zA-Z0-9.-]+(/[a-zA-Z0-9._~:@!$&')(*+,;=%-]+)?)?$"),
    "cid": re.compile(r"^b[a-z2-7]{50,}$"),
    "tid": re.compile(r"^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$"),
    "record-key": re.compile(r"^[a-zA-Z0-9_~.:-]{1,512}$"),
    "nsid": re.compile(r"^[a-zA-Z]([a-zA-Z0-9-]*\.)+[a-zA-Z][a-zA-Z0-9]*$"),
    "uri": re.compile(r"^[a-z][a-z0-9+.-]*:\S+$"),
    "language": re.compile(r"^(i|[a-z]{2,3})(-[a-zA-Z0-9]+)*$"),
}


def _datetime_ok(value: str) -> bool:
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$", value):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _full(ref: str, context: str) -> str:
    """``#def`` in lexicon ``context`` → ``nsid#def``; ``nsid#main`` → ``nsid``."""
    if ref.startswith("#"):
        ref = context.split("#")[0] + ref
    return ref.removesuffix("#main")


class Lexicons:
    def __init__(self, root: Path = LEXICONS) -> None:
        self.docs: dict[str, dict[str, Any]] = {}
        for path in root.rglob("*.json"):
            doc = json.loads(path.read_text(encoding="utf-8"))
            self.docs[doc["id"]] = doc

    def definition(self, ref: str, context: str = "") -> tuple[str, dict[str, Any]]:
        """(its full name, the definition) of ``ref`` (``nsid``, ``nsid#def``, ``#def``)."""
        if ref.startswith("#"):
            ref = context.split("#")[0] + ref
        nsid, _, name = ref.partition("#")
        doc = self.docs.get(nsid)
        if doc is None:
            raise KeyError(f"lexicon {nsid} is not kept under {LEXICONS}")
        return f"{nsid}#{name or 'main'}", doc["defs"][name or "main"]

    def method(self, nsid: str) -> dict[str, Any]:
        return self.definition(nsid)[1]

    def validate(self, ref: str, value: Any, where: str = "$") -> list[str]:
        name, schema = self.definition(ref)
        if schema.get("type") == "record":
            schema = schema["record"]
        return self._check(schema, value, name, where)

    def validate_record(self, collection: str, value: Any) -> list[str]:
        errors = self.validate(collection, value, "record")
        if isinstance(value, dict) and value.get("$type") != collection:
            errors.append(f"record.$type: expected {collection!r}, got {value.get('$type')!r}")
        return errors

    def _check(self, schema: dict[str, Any], value: Any, context: str, where: str) -> list[str]:
        kind = schema.get("type")
        if kind == "ref":
            name, target = self.definition(schema["ref"], context)
            if target.get("type") == "record":
                target = target["record"]
            return self._check(target, value, name, where)
        if kind == "union":
            if not isinstance(value, dict):
                return [f"{where}: expected an object of {schema['refs']}"]
            refs = [_full(r, context) for r in schema["refs"]]
            given = value.get("$type")
            if not given:
                return [f"{where}: a union member needs $type (one of {refs})"]
            if given not in refs:
                if schema.get("closed"):
                    return [f"{where}: $type {given!r} is not one of {refs}"]
                return []
            return self._check({"type": "ref", "ref": given}, value, context, where)
        if kind in ("object", "params"):
            if not isinstance(value, dict):
                return [f"{where}: expected an object"]
            errors = [
                f"{where}.{key}: required"
                for key in schema.get("required", ())
                if value.get(key) is None and key not in schema.get("nullable", ())
            ]
            for key, item in value.items():
                sub = schema.get("properties", {}).get(key)
                if sub is not None and item is not None:
                    errors += self._check(sub, item, context, f"{where}.{key}")
            return errors
        if kind == "string":
            if not isinstance(value, str):
                return [f"{where}: expected a string"]
            errors = []
            size = len(value.encode("utf-8"))
            if "maxLength" in schema and size > schema["maxLength"]:
                errors.append(f"{where}: {size} bytes > maxLength {schema['maxLength']}")
            if "minLength" in schema and size < schema["minLength"]:
                errors.append(f"{where}: {size} bytes < minLength {schema['minLength']}")
            count = graphemes(value)
            if "maxGraphemes" in schema and count > schema["maxGraphemes"]:
                errors.append(f"{where}: {count} graphemes > maxGraphemes {schema['maxGraphemes']}")
            if "minGraphemes" in schema and count < schema["minGraphemes"]:
                errors.append(f"{where}: {count} graphemes < minGraphemes")
            if "enum" in schema and value not in schema["enum"]:
                errors.append(f"{where}: {value!r} not in {schema['enum']}")
            if "const" in schema and value != schema["const"]:
                errors.append(f"{where}: expected {schema['const']!r}")
            fmt = schema.get("format")
            if fmt == "datetime" and not _datetime_ok(value):
                errors.append(f"{where}: {value!r} is not a datetime")
            elif fmt == "at-identifier":
                if not (_FORMATS["did"].match(value) or _FORMATS["handle"].match(value)):
                    errors.append(f"{where}: {value!r} is not a DID or handle")
            elif fmt in _FORMATS and not _FORMATS[fmt].match(value):
                errors.append(f"{where}: {value!r} is not a {fmt}")
            return errors
        if kind == "integer":
            if not isinstance(value, int) or isinstance(value, bool):
                return [f"{where}: expected an integer"]
            if "minimum" in schema and value < schema["minimum"]:
                return [f"{where}: {value} < minimum {schema['minimum']}"]
            if "maximum" in schema and value > schema["maximum"]:
                return [f"{where}: {value} > maximum {schema['maximum']}"]
            return []
        if kind == "boolean":
            return [] if isinstance(value, bool) else [f"{where}: expected a boolean"]
        if kind == "array":
            if not isinstance(value, list):
                return [f"{where}: expected an array"]
            errors = []
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                errors.append(f"{where}: {len(value)} items > maxLength {schema['maxLength']}")
            if "minLength" in schema and len(value) < schema["minLength"]:
                errors.append(f"{where}: {len(value)} items < minLength {schema['minLength']}")
            for index, item in enumerate(value):
                errors += self._check(schema["items"], item, context, f"{where}[{index}]")
            return errors
        if kind == "blob":
            if not isinstance(value, dict) or value.get("$type") != "blob":
                return [f"{where}: expected a blob ref"]
            errors = []
            if "maxSize" in schema and int(value.get("size", 0)) > schema["maxSize"]:
                errors.append(
                    f"{where}: blob of {value.get('size')} bytes > maxSize {schema['maxSize']}"
                )
            accept = schema.get("accept")
            mime = str(value.get("mimeType", ""))
            if accept and not any(
                a == "*/*" or a == mime or (a.endswith("/*") and mime.startswith(a[:-1]))
                for a in accept
            ):
                errors.append(f"{where}: {mime} not in accept {accept}")
            return errors
        if kind == "unknown":
            return [] if isinstance(value, dict) else [f"{where}: expected an object"]
        if kind == "cid-link":
            return (
                []
                if isinstance(value, dict) and "$link" in value
                else [f"{where}: expected a cid-link"]
            )
        if kind == "token":
            return []
        if kind in ("query", "procedure", "subscription"):
            return []
        raise AssertionError(f"lexicon type {kind!r} at {where} is not validated by this test")
