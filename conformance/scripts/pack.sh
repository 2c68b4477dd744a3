#!/usr/bin/env bash
# Builds the vector pack: OUT-DIR/bijoubuf-vectors-<version>.tar.gz, <version> read from
# conformance/vectors/MANIFEST. The tarball holds one directory, bijoubuf-vectors-<version>/,
# with MANIFEST, SPEC.md, TESTEE.md (the testee protocol: README.md's section),
# vectors/*.toml (not known_divergences.toml) and schemas/**/*.proto.
#
#   conformance/scripts/pack.sh OUT-DIR
#
# Reproducible: names sorted, mtime 0, owner and group 0, modes 644/755, gzip -n; the
# same tree gives the same bytes. Refuses to pack when the manifest's SHA-256 does not
# match the tree (computed here as conformance/README.md defines it). Needs GNU tar,
# gzip and sha256sum.
set -euo pipefail

[ $# -eq 1 ] || { sed -n '2,12p' "$0"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$root"

version=$(awk '$1 == "version" { print $2 }' vectors/MANIFEST)
want=$(awk '$1 == "sha256" { print $2 }' vectors/MANIFEST)
[ -n "$version" ] && [ -n "$want" ] || { echo "pack: vectors/MANIFEST lacks version or sha256" >&2; exit 1; }

# The set, in byte order of the paths relative to conformance/.
files=$( { find vectors -maxdepth 1 -type f -name '*.toml' ! -name known_divergences.toml
           find schemas -type f -name '*.proto'; } | LC_ALL=C sort)
have=$(for f in $files; do
         printf '%s\n%s\n' "$f" "$(wc -c < "$f" | tr -d ' ')"
         cat "$f"
       done | sha256sum | cut -d' ' -f1)
if [ "$have" != "$want" ]; then
  echo "pack: the vectors or schemas changed since vectors/MANIFEST (pack version $version) was written:" >&2
  echo "pack: bump the version and regenerate it: cargo run -p bijoubuf-conformance --bin vectors-manifest -- --version NEW-VERSION" >&2
  exit 1
fi

name=bijoubuf-vectors-$version
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name"
for f in $files; do
  mkdir -p "$stage/$name/$(dirname "$f")"
  cp "$f" "$stage/$name/$f"
done
cp vectors/MANIFEST "$stage/$name/MANIFEST"
cp SPEC.md "$stage/$name/SPEC.md"
# README.md's "The testee protocol", up to the next section.
awk '/^## The testee protocol/ { on = 1 } on && /^## / && !/^## The testee protocol/ { exit } on' \
  README.md > "$stage/$name/TESTEE.md"
[ -s "$stage/$name/TESTEE.md" ] || { echo "pack: no testee protocol section in README.md" >&2; exit 1; }
find "$stage/$name" -type d -exec chmod 755 {} +
find "$stage/$name" -type f -exec chmod 644 {} +

tar -C "$stage" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
  --format=ustar -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz"
echo "$out/$name.tar.gz"
