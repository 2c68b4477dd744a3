//! Helpers shared by the tests: compile two versions, check, and confirm
//! counterexamples with the real decoder.

#![allow(dead_code, unreachable_pub)]

use bijoubuf_breaking::counterexample::same_message;
use bijoubuf_breaking::counterexample::{Counterexample, counterexample};
use bijoubuf_breaking::{Category, Config, Finding, Old, check, check_with};
use bijoubuf_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, FieldShape, Kind, MapKey, MessageDescriptor,
    Value,
};
use bijoubuf_schema::{Presence, ScalarType};
use bijoubuf_schema::{Schema, compile_sources};

/// Two versions of a schema and the checker's findings.
pub struct Case {
    /// The old version.
    pub old: Schema,
    /// The new version.
    pub new: Schema,
    /// What the checker says.
    pub findings: Vec<Finding>,
}

/// `t.proto` with `text`, compiled.
pub fn compile(text: &str) -> Schema {
    match compile_sources(&[("t.proto", text)]) {
        Ok(c) => c.schema,
        Err(e) => panic!("test schema does not compile: {e}\n{text}"),
    }
}

/// Compile both versions and compare them.
pub fn case(old: &str, new: &str) -> Case {
    let old = compile(old);
    let new = compile(new);
    let findings = check(Old::Schema(&old), &new).expect("schemas compare");
    Case { old, new, findings }
}

/// Compile both versions and compare them, `rename.0` (old) paired with `rename.1` (new).
pub fn renamed_case(old: &str, new: &str, rename: (&str, &str)) -> Case {
    let old = compile(old);
    let new = compile(new);
    let config = Config::new().rename(rename.0, rename.1);
    let findings = check_with(Old::Schema(&old), &new, &config).expect("schemas compare");
    Case { old, new, findings }
}

impl Case {
    /// (rule id, category) of the findings in `cat`, sorted.
    pub fn ids(&self, cat: Category) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self
            .findings
            .iter()
            .filter(|f| f.category == cat)
            .map(|f| f.rule_id())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The counterexample of every canonical and forward finding; panics on a finding
    /// the decoder does not confirm.
    pub fn confirmed(&self) -> Vec<(String, Counterexample)> {
        let old = DescriptorPool::new(&self.old);
        let new = DescriptorPool::new(&self.new);
        self.findings
            .iter()
            .filter(|f| matches!(f.category, Category::Canonical | Category::Forward))
            .map(|f| match counterexample(f, &old, &new) {
                Some(c) => (format!("{}/{}", f.category, f.rule_id()), c),
                None => panic!("checker bug: no counterexample confirms {}", f.to_line()),
            })
            .collect()
    }
}

/// A strict decode under `new` of what `old` wrote: the same value, the same bytes.
pub fn assert_reads_back(old: &MessageDescriptor, new: &MessageDescriptor, msg: &DynamicMessage) {
    let bytes = msg.encode().expect("old value encodes");
    let old_read = DynamicMessage::decode(old, &bytes).expect("old reads its own bytes");
    let new_read = match DynamicMessage::decode(new, &bytes) {
        Ok(m) => m,
        Err(e) => panic!("{}: new schema refuses {bytes:02x?}: {e}", old.full_name()),
    };
    assert!(
        same_message(&old_read, &new_read),
        "{}: {bytes:02x?} read as {new_read:?}, not {old_read:?}",
        old.full_name()
    );
    assert_eq!(new_read.encode().expect("re-encodes"), bytes);
}

/// A small deterministic generator (SplitMix64) for whole messages of any type.
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn arb_scalar(s: ScalarType, rng: &mut Rng) -> Value {
    use ScalarType as S;
    let small = rng.below(4) != 0;
    let x = if small { rng.below(5) } else { rng.next() };
    match s {
        S::Int32 | S::Sint32 | S::Sfixed32 => Value::I32(x as i32 - i32::from(small) * 2),
        S::Int64 | S::Sint64 | S::Sfixed64 => Value::I64(x as i64 - i64::from(small) * 2),
        S::Uint32 | S::Fixed32 => Value::U32(x as u32),
        S::Uint64 | S::Fixed64 => Value::U64(x),
        S::Bool => Value::Bool(x & 1 == 1),
        S::Float => Value::F32(f32::from_bits(x as u32)),
        S::Double => Value::F64(f64::from_bits(x)),
        S::String => Value::String(["", "a", "é", "\u{0}", "zz"][(x % 5) as usize].into()),
        S::Bytes => Value::Bytes(vec![x as u8; (x % 3) as usize]),
    }
}

fn arb_elem(kind: &Kind, rng: &mut Rng, depth: u32) -> Value {
    match kind {
        Kind::Scalar(s) => arb_scalar(*s, rng),
        Kind::Enum(_) => Value::EnumNumber(rng.below(5) as i32 - 1),
        Kind::Message(m) => Value::Message(Box::new(arb_message(m, rng, depth.saturating_sub(1)))),
    }
}

fn arb_field(f: &FieldDescriptor, rng: &mut Rng, depth: u32) -> Value {
    match f.shape() {
        FieldShape::Single(_) => arb_elem(&f.kind(), rng, depth),
        FieldShape::Repeated => Value::List(
            (0..rng.below(3))
                .map(|_| arb_elem(&f.kind(), rng, depth))
                .collect(),
        ),
        FieldShape::Map(k) => {
            // A map holds each key once: later draws of a key replace earlier ones, as
            // they would in a map built by hand.
            let mut entries: Vec<(MapKey, Value)> = Vec::new();
            for _ in 0..rng.below(3) {
                let key = match arb_scalar(k, rng) {
                    Value::Bool(v) => MapKey::Bool(v),
                    Value::I32(v) => MapKey::I32(v),
                    Value::I64(v) => MapKey::I64(v),
                    Value::U32(v) => MapKey::U32(v),
                    Value::U64(v) => MapKey::U64(v),
                    Value::String(v) => MapKey::String(v),
                    _ => continue,
                };
                let value = arb_elem(&f.kind(), rng, depth);
                entries.retain(|(k, _)| *k != key);
                entries.push((key, value));
            }
            Value::Map(entries.into_iter().collect())
        }
    }
}

pub fn arb_message(desc: &MessageDescriptor, rng: &mut Rng, depth: u32) -> DynamicMessage {
    let mut msg = DynamicMessage::new(desc.clone());
    for f in desc.fields() {
        let required = f.shape() == FieldShape::Single(Presence::Required);
        let nested = matches!(f.kind(), Kind::Message(_));
        if required || (rng.below(3) != 0 && (depth > 0 || !nested)) {
            let v = arb_field(&f, rng, depth);
            msg.set(f.number(), v).expect("generated value fits");
        }
    }
    msg
}
