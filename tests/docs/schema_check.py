#!/usr/bin/env python3
"""Every command's JSON against its schema, and its CSV as RFC 4180 reads it.

Runs each command line of tests/docs/command_examples.txt (from the source tree, with the binary
under test) with --format json and validates the document against
docs/schema/<game>-<command>.json; runs it with --format csv and parses the text with Python's
csv module (RFC 4180): every record has the header's four fields, every value that is a number is
the shortest decimal that reads back as the same double (no 17-digit 0.63580000000000003), and
exact_num/exact_den are whole numbers; and that the schema describes every key the document
prints (schema drift: validation alone lets an undeclared key through). Also checks that every
command of every game has an example. Usage: schema_check.py MUSKET SOURCE_DIR [GAME], or
schema_check.py --self-test (the drift check on a made-up schema).
"""
import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys

EXAMPLES = "tests/docs/command_examples.txt"


def example_lines(source_dir):
    with open(os.path.join(source_dir, EXAMPLES), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def run(musket, source_dir, line, fmt):
    done = subprocess.run([musket] + shlex.split(line) + ["--format", fmt], cwd=source_dir, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{line} --format {fmt}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def schema_path(source_dir, game, command):
    return os.path.join(source_dir, "docs", "schema", f"{game}-{command}.json")


def commands_of(musket, game):
    out = subprocess.run([musket, game, "--help"], capture_output=True, text=True).stdout
    block = out.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    return [row.split()[0] for row in block.splitlines() if row.strip()]


def significant_digits(text):
    mantissa = re.split("[eE]", text)[0].lstrip("+-").replace(".", "")
    return len(mantissa.strip("0"))


def check_csv(line, text, problems):
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    if not rows or rows[0] != ["key", "value", "exact_num", "exact_den"]:
        problems.append(f"{line}: CSV header is {rows[:1]}")
        return
    for row in rows[1:]:
        if len(row) != 4:
            problems.append(f"{line}: CSV record {row} has {len(row)} fields")
            continue
        key, value, num, den = row
        if re.fullmatch(r"-?[0-9.]+(e[-+]?[0-9]+)?", value):
            shortest = repr(float(value))
            if significant_digits(value) > significant_digits(shortest):
                problems.append(f"{line}: {key} = {value} is not the shortest decimal ({shortest})")
        if (num or den) and not (re.fullmatch(r"-?[0-9]+", num) and re.fullmatch(r"[0-9]+", den)):
            problems.append(f"{line}: {key} exact {num!r}/{den!r} is not two whole numbers")


# --- schema drift: a key the document prints and the committed schema does not describe ---------
# JSON Schema lets any undeclared key through, so validation alone would never notice a new key.
# Every key of the document must be named by `properties` or `patternProperties`, or fall under an
# `additionalProperties` schema, along the branch of an anyOf/oneOf that the value validates against.

def resolve(schema, root):
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/"), ref
        node = root
        for part in ref[2:].split("/"):
            node = node[part]
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**node, **rest} if rest else node
    return schema

def undescribed(node, schema, root, path="", validator=None):
    """Dotted paths of keys in `node` that `schema` describes nowhere."""
    schema = resolve(schema, root)
    if schema is True or not isinstance(schema, dict):
        return []
    branches = [schema.get(k) for k in ("anyOf", "oneOf") if k in schema]
    if branches:
        best = None
        for branch in branches[0]:
            if validator and not validator(branch, node):
                continue
            found = undescribed(node, branch, root, path, validator)
            if best is None or len(found) < len(best):
                best = found
        return best or []
    out = []
    for sub in schema.get("allOf", []):
        out += undescribed(node, sub, root, path, validator)
    if isinstance(node, dict):
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        extra = schema.get("additionalProperties")
        for key, value in node.items():
            where = f"{path}.{key}" if path else key
            if key in props:
                out += undescribed(value, props[key], root, where, validator)
                continue
            matched = [s for p, s in patterns.items() if re.search(p, key)]
            if matched:
                for s in matched:
                    out += undescribed(value, s, root, where, validator)
            elif isinstance(extra, dict):
                out += undescribed(value, extra, root, where, validator)
            elif extra is not True:
                out.append(where)
    elif isinstance(node, list):
        items = schema.get("items")
        prefix = schema.get("prefixItems", [])
        for i, value in enumerate(node):
            where = f"{path}.{i}" if path else str(i)
            s = prefix[i] if i < len(prefix) else items
            if s is None:
                if isinstance(value, (dict, list)) and value:
                    out.append(where)
            else:
                out += undescribed(value, s, root, where, validator)
    return out


def drift(document, schema):
    """The document's keys the schema does not describe, as dotted paths."""
    import jsonschema

    defs = schema.get("$defs", {})

    def valid(branch, node):
        return jsonschema.Draft202012Validator({**branch, "$defs": defs}).is_valid(node)

    return undescribed(document, schema, schema, "", valid)


def self_test():
    """The drift check finds a key a schema leaves out (so the check can fail), and accepts keys a
    pattern, a shared definition or an anyOf branch describes."""
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/pair"},
                                               "b": {"anyOf": [{"type": "number"},
                                                               {"type": "object", "properties": {"x": {}}}]},
                                               "c": {"type": "object", "additionalProperties": {"type": "number"}},
                                               "d": {"type": "array", "items": {"type": "object",
                                                                                "properties": {"y": {}}}}},
              "$defs": {"pair": {"type": "object", "properties": {"low": {}, "high": {}}}}}
    document = {"a": {"low": 1, "high": 2, "level": 0.95}, "b": {"x": 1, "z": 2}, "c": {"any": 1},
                "d": [{"y": 1}, {"y": 2, "w": 3}], "e": 1}
    found = drift(document, schema)
    expected = ["a.level", "b.z", "d.1.w", "e"]
    if found != expected:
        print(f"drift check found {found}, expected {expected}")
        return 1
    if drift({"a": {"low": 1}, "b": 2, "c": {"k": 1}, "d": [{"y": 1}]}, schema):
        print("drift check reports a described key")
        return 1
    print("drift check finds undescribed keys")
    return 0


def main():
    import jsonschema

    if sys.argv[1:] == ["--self-test"]:
        return self_test()

    musket, source_dir = sys.argv[1], sys.argv[2]
    only = sys.argv[3] if len(sys.argv) > 3 else None
    problems, covered = [], set()
    for line in example_lines(source_dir):
        game, command = shlex.split(line)[0:2]
        if only and game != only:
            continue
        covered.add((game, command))
        document = json.loads(run(musket, source_dir, line, "json"))
        if document.get("schema_version") != 2:
            problems.append(f"{line}: schema_version is {document.get('schema_version')!r}")
        path = schema_path(source_dir, game, command)
        if not os.path.exists(path):
            problems.append(f"{line}: no schema {os.path.relpath(path, source_dir)}")
            continue
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        for error in jsonschema.Draft202012Validator(schema).iter_errors(document):
            where = "/".join(str(p) for p in error.absolute_path)
            problems.append(f"{line}: /{where}: {error.message[:200]}")
        for key in drift(document, schema):
            problems.append(f"{line}: {key} is not described by {os.path.relpath(path, source_dir)} "
                            f"(draft it again: scripts/schema-draft build/musket {game} {command})")
        check_csv(line, run(musket, source_dir, line, "csv"), problems)
    for game in [only] if only else ["nt", "ss", "ar", "gl"]:
        for command in commands_of(musket, game):
            if (game, command) not in covered:
                problems.append(f"{game} {command}: no example in {EXAMPLES}")
    for p in problems:
        print(p)
    print(f"{len(covered)} commands checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
