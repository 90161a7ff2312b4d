#!/usr/bin/env python3
"""Every command's JSON against its schema, and its CSV as RFC 4180 reads it.

Runs each command line of tests/docs/command_examples.txt (from the source tree, with the binary
under test) with --format json and validates the document against
docs/schema/<game>-<command>.json; runs it with --format csv and parses the text with Python's
csv module (RFC 4180): every record has the header's four fields, every value that is a number is
the shortest decimal that reads back as the same double (no 17-digit 0.63580000000000003), and
exact_num/exact_den are whole numbers. Also checks that every command of every game has an
example. Usage: schema_check.py MUSKET SOURCE_DIR [GAME]
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


def main():
    import jsonschema

    musket, source_dir = sys.argv[1], sys.argv[2]
    only = sys.argv[3] if len(sys.argv) > 3 else None
    problems, covered = [], set()
    for line in example_lines(source_dir):
        game, command = shlex.split(line)[0:2]
        if only and game != only:
            continue
        covered.add((game, command))
        document = json.loads(run(musket, source_dir, line, "json"))
        if document.get("schema_version") != 1:
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
