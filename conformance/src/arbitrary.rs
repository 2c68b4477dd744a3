//! Values of any conformance message type built from a byte string of entropy, for
//! property tests and fuzz targets: the same bytes always build the same value, and
//! shorter entropy builds smaller values (missing bytes read as zero).

use std::collections::BTreeMap;

use bijoubuf_reflect::{DynamicMessage, FieldShape, Kind, MapKey, MessageDescriptor, Value};
use bijoubuf_schema::{Presence, ScalarType};

/// A reader of entropy bytes.
#[derive(Debug, Clone)]
pub struct Entropy<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Entropy<'a> {
    /// Entropy from `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Entropy { bytes, pos: 0 }
    }

    /// The next byte, 0 once the bytes are used up.
    pub fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// Whether any bytes are left.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn u64(&mut self) -> u64 {
        // A small selector byte picks the tier-edge values of SPEC §2.3 often.
        const EDGES: [u64; 12] = [
            0,
            1,
            247,
            248,
            503,
            504,
            66039,
            66040,
            16843255,
            16843256,
            u32::MAX as u64,
            u64::MAX,
        ];
        let sel = self.byte();
        if sel < 96 {
            EDGES[(sel % 12) as usize]
        } else {
            let mut v = 0u64;
            for _ in 0..(sel % 9) {
                v = (v << 8) | u64::from(self.byte());
            }
            v
        }
    }

    fn below(&mut self, n: u8) -> u8 {
        self.byte() % n
    }
}

fn float64(e: &mut Entropy<'_>) -> f64 {
    match e.below(8) {
        0 => 0.0,
        1 => -0.0,
        2 => f64::INFINITY,
        3 => f64::NEG_INFINITY,
        4 => f64::NAN,
        5 => f64::from_bits(1),
        _ => f64::from_bits(e.u64()),
    }
}

fn float32(e: &mut Entropy<'_>) -> f32 {
    match e.below(8) {
        0 => 0.0,
        1 => -0.0,
        2 => f32::INFINITY,
        3 => f32::NEG_INFINITY,
        4 => f32::NAN,
        5 => f32::from_bits(1),
        _ => f32::from_bits(e.u64() as u32),
    }
}

fn string(e: &mut Entropy<'_>) -> String {
    const PIECES: [&str; 8] = ["", "a", "é", "Ａ", "😀", "\u{0}", "e\u{301}", "\u{10ffff}"];
    let n = e.below(4);
    (0..n).map(|_| PIECES[e.below(8) as usize]).collect()
}

fn scalar(t: ScalarType, e: &mut Entropy<'_>) -> Value {
    match t {
        ScalarType::Double => Value::F64(float64(e)),
        ScalarType::Float => Value::F32(float32(e)),
        ScalarType::Int32 | ScalarType::Sint32 | ScalarType::Sfixed32 => {
            Value::I32(e.u64() as u32 as i32)
        }
        ScalarType::Int64 | ScalarType::Sint64 | ScalarType::Sfixed64 => Value::I64(e.u64() as i64),
        ScalarType::Uint32 | ScalarType::Fixed32 => Value::U32(e.u64() as u32),
        ScalarType::Uint64 | ScalarType::Fixed64 => Value::U64(e.u64()),
        ScalarType::Bool => Value::Bool(e.byte() & 1 == 1),
        ScalarType::String => Value::String(string(e)),
        ScalarType::Bytes => {
            let n = e.below(5);
            Value::Bytes((0..n).map(|_| e.byte()).collect())
        }
    }
}

fn map_key(t: ScalarType, e: &mut Entropy<'_>) -> Option<MapKey> {
    Some(match scalar(t, e) {
        Value::Bool(b) => MapKey::Bool(b),
        Value::I32(v) => MapKey::I32(v),
        Value::I64(v) => MapKey::I64(v),
        Value::U32(v) => MapKey::U32(v),
        Value::U64(v) => MapKey::U64(v),
        Value::String(s) => MapKey::String(s),
        _ => return None,
    })
}

fn element(kind: &Kind, e: &mut Entropy<'_>, depth: u32) -> Option<Value> {
    Some(match kind {
        Kind::Scalar(t) => scalar(*t, e),
        Kind::Enum(_) => Value::EnumNumber(e.u64() as u32 as i32),
        Kind::Message(m) => {
            if depth == 0 {
                return None;
            }
            Value::from(message(m, e, depth - 1))
        }
    })
}

/// A value of type `desc` built from `e`, nesting at most `depth` more levels (required
/// fields are always set, so the value can be encoded).
pub fn message(desc: &MessageDescriptor, e: &mut Entropy<'_>, depth: u32) -> DynamicMessage {
    let mut m = DynamicMessage::new(desc.clone());
    for f in desc.fields() {
        let required = f.shape() == FieldShape::Single(Presence::Required);
        if !required && (e.is_empty() || e.below(3) != 0) {
            continue;
        }
        let kind = f.kind();
        let value = match f.shape() {
            FieldShape::Single(_) => element(&kind, e, depth),
            FieldShape::Repeated => {
                let n = e.below(4);
                let items: Vec<Value> = (0..n).filter_map(|_| element(&kind, e, depth)).collect();
                Some(Value::List(items))
            }
            FieldShape::Map(key) => {
                let n = e.below(4);
                let mut entries = BTreeMap::new();
                for _ in 0..n {
                    if let (Some(k), Some(v)) = (map_key(key, e), element(&kind, e, depth)) {
                        entries.insert(k, v);
                    }
                }
                Some(Value::Map(entries.into_iter().collect()))
            }
        };
        if let Some(v) = value {
            // A value of the field's own type always fits; `set` refuses nothing here.
            let _ = m.set(f.number(), v);
        }
    }
    m
}
