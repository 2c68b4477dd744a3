//! Every scalar type through the dynamic encoder, in every position the encoder chooses
//! a codec for: a singular field, a repeated field, a map key and a map value. Each
//! value is one no other type's codec writes the same way (a negative number, a value
//! past one byte), and the bytes must decode back to the same message.

use bijoubuf_reflect::{DescriptorPool, DynamicMessage, MapKey, MessageDescriptor, Value};

const SCHEMA: &str = r#"
syntax = "proto3";
message Kinds {
  bool b = 1;
  int32 i32 = 2;
  sint32 s32 = 3;
  sfixed32 sf32 = 4;
  int64 i64 = 5;
  sint64 s64 = 6;
  sfixed64 sf64 = 7;
  uint32 u32 = 8;
  fixed32 f32 = 9;
  uint64 u64 = 10;
  fixed64 f64 = 11;
  float fl = 12;
  double db = 13;
  string s = 14;
  bytes by = 15;
  E e = 16;
}
enum E { E_ZERO = 0; E_ONE = 1; }
message Lists {
  repeated bool b = 1;
  repeated int32 i32 = 2;
  repeated sint32 s32 = 3;
  repeated sfixed32 sf32 = 4;
  repeated int64 i64 = 5;
  repeated sint64 s64 = 6;
  repeated sfixed64 sf64 = 7;
  repeated uint32 u32 = 8;
  repeated fixed32 f32 = 9;
  repeated uint64 u64 = 10;
  repeated fixed64 f64 = 11;
  repeated float fl = 12;
  repeated double db = 13;
  repeated string s = 14;
  repeated bytes by = 15;
  repeated E e = 16;
}
message Keys {
  map<bool, int32> b = 1;
  map<int32, int32> i32 = 2;
  map<sint32, int32> s32 = 3;
  map<sfixed32, int32> sf32 = 4;
  map<int64, int32> i64 = 5;
  map<sint64, int32> s64 = 6;
  map<sfixed64, int32> sf64 = 7;
  map<uint32, int32> u32 = 8;
  map<fixed32, int32> f32 = 9;
  map<uint64, int32> u64 = 10;
  map<fixed64, int32> f64 = 11;
  map<string, int32> s = 14;
}
message Values {
  map<int32, bool> b = 1;
  map<int32, int32> i32 = 2;
  map<int32, sint32> s32 = 3;
  map<int32, sfixed32> sf32 = 4;
  map<int32, int64> i64 = 5;
  map<int32, sint64> s64 = 6;
  map<int32, sfixed64> sf64 = 7;
  map<int32, uint32> u32 = 8;
  map<int32, fixed32> f32 = 9;
  map<int32, uint64> u64 = 10;
  map<int32, fixed64> f64 = 11;
  map<int32, float> fl = 12;
  map<int32, double> db = 13;
  map<int32, string> s = 14;
  map<int32, bytes> by = 15;
  map<int32, E> e = 16;
  map<int32, Kinds> m = 17;
}
"#;

fn pool() -> DescriptorPool {
    let compiled = bijoubuf_schema::compile_sources(&[("kinds.proto", SCHEMA)]).expect("compiles");
    DescriptorPool::new(&compiled.schema)
}

/// A value of field `n`'s type (numbered as in `Kinds`) that is not the default.
fn value(n: u32) -> Value {
    match n {
        1 => Value::Bool(true),
        2..=4 => Value::I32(-300),
        5..=7 => Value::I64(-(1 << 40)),
        8 | 9 => Value::U32(300),
        10 | 11 => Value::U64(1 << 40),
        12 => Value::F32(-1.5),
        13 => Value::F64(-2.25),
        14 => Value::String("héllo".into()),
        15 => Value::Bytes(vec![0, 0xFF, 7]),
        16 => Value::EnumNumber(-2),
        _ => unreachable!("field {n}"),
    }
}

/// Two keys of field `n`'s key type (numbered as in `Kinds`), in ascending order.
fn keys(n: u32) -> [MapKey; 2] {
    match n {
        1 => [MapKey::Bool(false), MapKey::Bool(true)],
        2..=4 => [MapKey::I32(-300), MapKey::I32(5)],
        5..=7 => [MapKey::I64(-(1 << 40)), MapKey::I64(5)],
        8 | 9 => [MapKey::U32(5), MapKey::U32(300)],
        10 | 11 => [MapKey::U64(5), MapKey::U64(1 << 40)],
        14 => [MapKey::String("a".into()), MapKey::String("é".into())],
        _ => unreachable!("field {n}"),
    }
}

fn round_trip(desc: &MessageDescriptor, m: &DynamicMessage) -> Vec<u8> {
    let bytes = m.encode().expect("encodes");
    let back =
        DynamicMessage::decode(desc, &bytes).unwrap_or_else(|e| panic!("{}: {e}", desc.name()));
    assert_eq!(&back, m, "{}", desc.name());
    bytes
}

#[test]
fn every_scalar_type_round_trips_in_every_position() {
    let pool = pool();
    let kinds = pool.message("Kinds").expect("Kinds");
    let lists = pool.message("Lists").expect("Lists");
    let key_maps = pool.message("Keys").expect("Keys");
    let value_maps = pool.message("Values").expect("Values");
    for n in 1..=16 {
        // Alone, so that a field written wrongly cannot be hidden by the next one.
        let mut one = DynamicMessage::new(kinds.clone());
        one.set(n, value(n)).expect("fits");
        round_trip(&kinds, &one);
        let mut list = DynamicMessage::new(lists.clone());
        list.set(n, Value::List(vec![value(n), value(n)]))
            .expect("fits");
        round_trip(&lists, &list);
        if n != 12 && n != 13 && n != 15 && n != 16 {
            let mut map = DynamicMessage::new(key_maps.clone());
            let entries = keys(n).map(|k| (k, Value::I32(-1))).to_vec();
            map.set(n, Value::Map(entries)).expect("fits");
            round_trip(&key_maps, &map);
        }
        let mut map = DynamicMessage::new(value_maps.clone());
        map.set(n, Value::Map(vec![(MapKey::I32(1), value(n))]))
            .expect("fits");
        round_trip(&value_maps, &map);
    }
    // Everything at once, and a message as a map value.
    let mut all = DynamicMessage::new(kinds.clone());
    for n in 1..=16 {
        all.set(n, value(n)).expect("fits");
    }
    let one = round_trip(&kinds, &all);
    let mut map = DynamicMessage::new(value_maps.clone());
    map.set(17, Value::Map(vec![(MapKey::I32(3), Value::from(all))]))
        .expect("fits");
    let bytes = round_trip(&value_maps, &map);
    // The entry is key 3 then the message, length-prefixed (SPEC §6.3).
    assert!(bytes.ends_with(&one));
}
