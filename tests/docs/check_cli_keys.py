#!/usr/bin/env python3
"""Every result key a command prints is documented in docs/cli.md.

Runs each command line of tests/docs/command_examples.txt (one per command, words split on
spaces) with --format json and collects its document's keys: the top level, the fields of
objects and of lists of records, one level down. A key is documented when docs/cli.md writes it
as a word (`key`, or in a list such as `outcomes` {defender_stands, ...}). Keys that are data
rather than names (numbers, region names, chit names) are not required, nor the echo of the
options in `inputs` (docs/options.md lists those).
"""
import json
import re
import subprocess
import sys

NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def keys_of(document):
    found = set()
    for key, value in document.items():
        found.add(key)
        if key == "inputs":
            continue
        children = []
        if isinstance(value, dict):
            children = [value]
        elif isinstance(value, list):
            children = [v for v in value if isinstance(v, dict)][:1]
        for child in children:
            found.update(k for k in child if NAME.match(k))
    return {k for k in found if NAME.match(k)}


def main():
    musket, source = sys.argv[1], sys.argv[2]
    documented = set()
    with open(f"{source}/docs/cli.md", encoding="utf-8") as doc:
        documented.update(re.findall(r"[A-Za-z0-9_]+", doc.read()))
    missing = {}
    with open(f"{source}/tests/docs/command_examples.txt", encoding="utf-8") as examples:
        for line in examples:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            run = subprocess.run([musket, *words, "--format", "json"], cwd=source, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"check_cli_keys: `musket {line.strip()}` failed: {run.stderr.strip()}")
                return 1
            command = " ".join(words[:2])
            for key in sorted(keys_of(json.loads(run.stdout)) - documented):
                missing.setdefault(command, []).append(key)
    for command, keys in missing.items():
        print(f"docs/cli.md does not name {', '.join(keys)} (musket {command})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
