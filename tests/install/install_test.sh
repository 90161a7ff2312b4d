#!/usr/bin/env bash
# Installs the build into a temporary prefix, moves the prefix elsewhere (so nothing can reach the
# source tree's data by a compiled-in path), and runs a battle of every game from the installed
# binary; checks every installed file the packaging promises.
# Usage: install_test.sh BUILD SOURCE SANITIZED (ON for an AddressSanitizer/UBSan build, whose
# instrumentation keeps source file names for its reports, so the no-source-path check is off).
set -euo pipefail
build=$1 source=$2 sanitized=${3:-OFF}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
mv "$work/prefix" "$work/moved"
p=$work/moved
unset MUSKET_DATA_DIR

for f in bin/musket share/musket/data/ar/crt.json share/musket/data/ar/options.json share/musket/data/gl/units.json \
         share/man/man1/musket.1 share/bash-completion/completions/musket share/zsh/site-functions/_musket; do
  [ -s "$p/$f" ] || fail "missing or empty: $f"
done
if [ -x "$build/musket-gui" ]; then
  for f in bin/musket-gui share/man/man1/musket-gui.1 share/applications/musket-gui.desktop \
           share/icons/hicolor/scalable/apps/musket.svg; do
    [ -s "$p/$f" ] || fail "missing or empty: $f"
  done
  "$p/bin/musket-gui" --version | grep -q '^musket-gui [0-9]' || fail "musket-gui --version"
fi
if [ "$sanitized" != ON ]; then
  ! grep -q "$source" "$p/bin/musket" || fail "the installed musket holds the source path $source"
fi

"$p/bin/musket" --version | grep -q '^musket [0-9]\+\.[0-9]\+\.[0-9]\+' || fail "musket --version"
# One battle of every game, answered from the installed data (ar and gl read data files).
"$p/bin/musket" nt battle --attacker crown --terrain point --att-units 3 --att-leaders 1 --att-war 2 --def-units 2 >/dev/null ||
  fail "nt battle"
"$p/bin/musket" ss battle --attacker crown --terrain point --att-units 3 --att-leaders 1 --att-war 2 --def-units 2 >/dev/null ||
  fail "ss battle"
"$p/bin/musket" ar battle --attacker 15M,8C --defender 3T,8B >/dev/null || fail "ar battle"
"$p/bin/musket" gl battle --att "A:regular:2/2:5:2" --def "D:regular:2/2:5:2" >/dev/null || fail "gl battle"
# A chart from the installed binary: cairo, pango and the font are found outside the build tree.
"$p/bin/musket" nt sweep battle --attacker crown --terrain point --att-units 3 --def-units 2 --vary att-war=1..3 \
  --plot "$work/chart.png" >/dev/null || fail "sweep --plot"
[ "$(head -c 4 "$work/chart.png" | tail -c 3)" = PNG ] || fail "sweep --plot wrote no PNG"

# Without its data the installed program says so on one line with the environment exit code, 3.
rm -rf "$p/share/musket"
set +e
err=$("$p/bin/musket" ar battle --attacker 15M,8C --defender 3T,8B 2>&1 >/dev/null)
code=$?
set -e
[ "$code" = 3 ] || fail "no data: exit $code, expected 3"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "no data: more than one line: $err"
echo "install_test: passed"
