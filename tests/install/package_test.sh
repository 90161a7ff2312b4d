#!/usr/bin/env bash
# Builds the Debian package with CPack into a temporary folder and checks its file list and its
# control file (Depends from dpkg-shlibdeps). Usage: package_test.sh BUILD
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "package_test: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >/dev/null
deb=$(ls "$work"/musket_*.deb) || fail "no .deb was written"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/musket ./usr/share/musket/data/ar/crt.json ./usr/share/musket/data/gl/units.json \
         ./usr/share/man/man1/musket.1 ./usr/share/bash-completion/completions/musket \
         ./usr/share/zsh/site-functions/_musket; do
  grep -q " $f\$" <<<"$contents" || fail "the package lacks $f"
done
if [ -x "$build/musket-gui" ]; then
  for f in ./usr/bin/musket-gui ./usr/share/applications/musket-gui.desktop; do
    grep -q " $f\$" <<<"$contents" || fail "the package lacks $f"
  done
fi
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libcairo2 libpangocairo fonts-dejavu-core; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
[ "$(dpkg-deb -f "$deb" Package)" = musket ] || fail "package name"
echo "package_test: passed ($(basename "$deb"), Depends: $depends)"
