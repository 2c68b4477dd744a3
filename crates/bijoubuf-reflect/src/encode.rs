//! The canonical encoder: the runtime's two passes over a descriptor instead of a struct.
//!
//! A message is sized and written exactly as a generated `__walk` does it: the
//! runtime's [`Sizer`] and [`Writer`] are asked for each set field in ascending field
//! number (`implicit_el`, `explicit_el`, `repeated_el`, `map_el`; typed `repeated` for
//! unboxed scalar lists), with nested messages through `nested_with`. Keys and their
//! deltas, implicit defaults, empty runs, packed and fixed-width runs, length prefixes
//! and the size table, the re-emission of preserved unknown records among the known
//! ones and their checks (SPEC §8.2), and the depth limit (SPEC §9.3) are therefore one
//! implementation, the runtime's. This module says, per field, which element type the
//! descriptor gives it ([`DynEl`], [`DynKey`]), checks what only a dynamic value can get
//! wrong (an unset proto2 `required` field), and names the path of a refusal.

use std::cell::{Cell, RefCell};

use bijoubuf::__private::{
    self as c, Codec, EncodeElement, Pass, Sizer, Table, WireType, Writer, encode_with, varint_len,
};
use bijoubuf::EncodeErrorKind;
use bijoubuf_schema::{Presence, ScalarType};

use crate::descriptor::{FieldInfo, Shape, Ty, fixed_width, scalar_wire};
use crate::error::{EncodeError, key_segment};
use crate::value::{DynamicMessage, MapKey, ScalarList, Value};

/// Encode `m` as a top-level message, refusing nesting deeper than `max_depth`.
pub(crate) fn encode(m: &DynamicMessage, max_depth: u32) -> Result<Vec<u8>, EncodeError> {
    let walk = Walk::default();
    let out = encode_with(
        max_depth,
        &m.unknown,
        &m.descriptor().info().numbers,
        |s, _| walk.size(m, s),
        |w, _| walk.write(m, w),
    );
    let path = || {
        let mut p = m.descriptor().name().to_string();
        for seg in walk.rev_path.borrow().iter().rev() {
            p.push_str(seg);
        }
        p
    };
    // The walk's own refusal is recorded only when it came before any of the passes'.
    if walk.missing.get() {
        return Err(EncodeError::MissingRequiredField(path()));
    }
    out.map_err(|e| match e.kind() {
        EncodeErrorKind::DepthLimitExceeded => EncodeError::DepthLimitExceeded(path()),
        EncodeErrorKind::UnknownFieldOrder => EncodeError::UnknownFieldConflict(path()),
        _ => EncodeError::Refused(e, path()),
    })
}

/// One encode's state beyond the runtime's passes: where the first refusal was found.
#[derive(Default)]
struct Walk {
    /// A proto2 `required` field was found unset before the size pass refused anything.
    missing: Cell<bool>,
    /// The path of the first refusal, innermost segment first: pushed on the way out of
    /// the size pass, and only on a refusal (no allocation otherwise).
    rev_path: RefCell<Vec<String>>,
}

impl Walk {
    /// True once the value has been refused, by the size pass or by this walk.
    fn failed<T: Table>(&self, s: &Sizer<'_, T>) -> bool {
        s.failed() || self.missing.get()
    }

    #[cold]
    fn at(&self, seg: String) {
        self.rev_path.borrow_mut().push(seg);
    }

    /// The size pass over `m`'s fields, in ascending number order (SPEC §4.1).
    ///
    /// This frame, and those of the field call holding the next message, are on the
    /// stack once per nesting level, so each shape is sized by a function of its own,
    /// kept out of line (as the decoder's are: in an unoptimized build one frame
    /// holding every shape's calls would not fit the depth cap in a 2 MiB stack).
    fn size<'v, T: Table>(&self, m: &'v DynamicMessage, s: &mut Sizer<'v, T>) -> usize {
        let info = m.descriptor().info();
        if !self.failed(s) {
            // SPEC §5.3: a decoder refuses the bytes without it (generated code cannot
            // leave a required field unset; a dynamic value can).
            if let Some(f) = info
                .fields
                .iter()
                .find(|f| f.shape == Shape::Single(Presence::Required) && m.get(f.number).is_none())
            {
                self.missing.set(true);
                self.at(format!(".{}", f.name));
            }
        }
        let mut n = 0;
        let mut declared = info.fields.iter();
        for (number, v) in &m.fields {
            // Both are in ascending number order; a value holds only declared fields.
            let Some(f) = declared.find(|f| f.number >= *number) else {
                break;
            };
            if f.number == *number {
                n += self.field_size(f, v, s);
            }
        }
        n
    }

    #[inline(never)]
    fn field_size<'v, T: Table>(
        &self,
        f: &'v FieldInfo,
        v: &'v Value,
        s: &mut Sizer<'v, T>,
    ) -> usize {
        let el = DynEl::new(self, f.ty);
        let n = match (f.shape, v) {
            // Oneof members have explicit presence in every pool (the schema compiler's
            // and `from_file_descriptor_set`'s), so a set member is written even when it
            // holds the default (SPEC §5.4).
            (Shape::Single(Presence::Implicit), _) => s.implicit_el(f.number, v, &el),
            // Explicit presence, required, and the set member of a oneof (SPEC §5.2-5.4).
            (Shape::Single(_), _) => s.explicit_el(f.number, v, &el),
            (Shape::Repeated, Value::List(items)) => s.repeated_el(f.number, items, &el),
            (Shape::Repeated, Value::Scalars(list)) => scalar_list(
                f.ty,
                list,
                Size {
                    s,
                    number: f.number,
                },
            )
            .unwrap_or(0),
            (Shape::Map(key), Value::Map(entries)) => {
                s.map_el(f.number, entries.as_slice(), &DynKey(key), &el)
            }
            // Unreachable: `DynamicMessage::set` and the decoder keep values of the
            // field's shape.
            _ => 0,
        };
        if let Some(i) = el.failed_at.get() {
            // The first refusal was inside element `i` of this field.
            match (f.shape, v) {
                (Shape::Repeated, _) => self.at(format!("[{i}]")),
                (Shape::Map(_), Value::Map(entries)) => {
                    if let Some((k, _)) = entries.get(i) {
                        self.at(key_segment(k.clone()).to_string());
                    }
                }
                _ => {}
            }
            self.at(format!(".{}", f.name));
        }
        n
    }

    /// The write pass over `m`'s fields: the calls [`size`](Self::size) made.
    fn write<'v>(&self, m: &'v DynamicMessage, w: &mut Writer<'_, 'v>) {
        let mut declared = m.descriptor().info().fields.iter();
        for (number, v) in &m.fields {
            let Some(f) = declared.find(|f| f.number >= *number) else {
                break;
            };
            if f.number == *number {
                self.field_write(f, v, w);
            }
        }
    }

    #[inline(never)]
    fn field_write<'v>(&self, f: &'v FieldInfo, v: &'v Value, w: &mut Writer<'_, 'v>) {
        let el = DynEl::new(self, f.ty);
        match (f.shape, v) {
            (Shape::Single(Presence::Implicit), _) => w.implicit_el(f.number, v, &el),
            (Shape::Single(_), _) => w.explicit_el(f.number, v, &el),
            (Shape::Repeated, Value::List(items)) => w.repeated_el(f.number, items, &el),
            (Shape::Repeated, Value::Scalars(list)) => {
                scalar_list(
                    f.ty,
                    list,
                    Write {
                        w,
                        number: f.number,
                    },
                );
            }
            (Shape::Map(key), Value::Map(entries)) => {
                w.map_el(f.number, entries.as_slice(), &DynKey(key), &el)
            }
            _ => {}
        }
    }
}

/// The element a descriptor gives a field: a scalar type, an enum or a message type,
/// sized and written by the runtime's codec for it (a message: by this walk, one level
/// deeper). It counts the elements it is given, and keeps the index of the one inside
/// which the first refusal was found.
struct DynEl<'w> {
    walk: &'w Walk,
    ty: Ty,
    count: Cell<usize>,
    failed_at: Cell<Option<usize>>,
}

impl<'w> DynEl<'w> {
    fn new(walk: &'w Walk, ty: Ty) -> Self {
        DynEl {
            walk,
            ty,
            count: Cell::new(0),
            failed_at: Cell::new(None),
        }
    }
}

impl EncodeElement for DynEl<'_> {
    type Value = Value;

    fn wire(&self) -> WireType {
        self.ty.wire()
    }

    fn fixed(&self) -> Option<usize> {
        self.ty.fixed()
    }

    fn is_default(&self, v: &Value) -> bool {
        v.is_default()
    }

    fn size<'v, T: Table>(&self, v: &'v Value, s: &mut Sizer<'v, T>) -> usize {
        let i = self.count.get();
        self.count.set(i + 1);
        let Value::Message(m) = v else {
            return scalar(self.ty, v, Size { s, number: 0 }).unwrap_or(0);
        };
        let before = self.walk.failed(s);
        let info = m.descriptor().info();
        let n = s.nested_with(|| &m.unknown, &info.numbers, |s, _| self.walk.size(m, s));
        if !before && self.walk.failed(s) {
            self.failed_at.set(Some(i));
        }
        varint_len(n as u64) + n
    }

    fn write<'v>(&self, v: &'v Value, w: &mut Writer<'_, 'v>) {
        match v {
            Value::Message(m) => w.nested_with(|| &m.unknown, |w, _| self.walk.write(m, w)),
            _ => {
                scalar(self.ty, v, Write { w, number: 0 });
            }
        }
    }
}

/// A map key element of scalar type (SPEC §6.3); entries come in ascending key order,
/// as [`Value::Map`] holds them (SPEC §6.4).
struct DynKey(ScalarType);

impl EncodeElement for DynKey {
    type Value = MapKey;

    fn wire(&self) -> WireType {
        scalar_wire(self.0)
    }

    fn fixed(&self) -> Option<usize> {
        fixed_width(self.0)
    }

    fn is_default(&self, k: &MapKey) -> bool {
        match k {
            MapKey::Bool(v) => !*v,
            MapKey::I32(v) => *v == 0,
            MapKey::I64(v) => *v == 0,
            MapKey::U32(v) => *v == 0,
            MapKey::U64(v) => *v == 0,
            MapKey::String(v) => v.is_empty(),
        }
    }

    fn size<'v, T: Table>(&self, k: &'v MapKey, s: &mut Sizer<'v, T>) -> usize {
        key(self.0, k, Size { s, number: 0 }).unwrap_or(0)
    }

    fn write<'v>(&self, k: &'v MapKey, w: &mut Writer<'_, 'v>) {
        key(self.0, k, Write { w, number: 0 });
    }
}

/// What to do with a value once its codec is known: size or write it, as one element or
/// as a repeated field's run. One dispatch from schema type to codec serves both passes.
trait Op<'v> {
    type Out;
    fn one<C: Codec>(self, v: &'v C::Value) -> Self::Out;
    fn run<C: Codec>(self, vs: &'v [C::Value]) -> Self::Out;
}

/// The size pass; `number` is the field's, for a run.
struct Size<'s, 'v, T: Table> {
    s: &'s mut Sizer<'v, T>,
    number: u32,
}

impl<'v, T: Table> Op<'v> for Size<'_, 'v, T> {
    type Out = usize;
    fn one<C: Codec>(self, v: &'v C::Value) -> usize {
        C::size(v, self.s)
    }
    fn run<C: Codec>(self, vs: &'v [C::Value]) -> usize {
        Pass::repeated::<C>(self.s, self.number, vs)
    }
}

/// The write pass; `number` is the field's, for a run.
struct Write<'a, 'o, 'v> {
    w: &'a mut Writer<'o, 'v>,
    number: u32,
}

impl<'v> Op<'v> for Write<'_, '_, 'v> {
    type Out = ();
    fn one<C: Codec>(self, v: &'v C::Value) {
        C::write(v, self.w)
    }
    fn run<C: Codec>(self, vs: &'v [C::Value]) {
        Pass::repeated::<C>(self.w, self.number, vs);
    }
}

/// A scalar or enum element through the runtime's codec for its type; `None` for a
/// value that is not of that type (which `DynamicMessage::set` refuses).
fn scalar<'v, O: Op<'v>>(ty: Ty, v: &'v Value, op: O) -> Option<O::Out> {
    use ScalarType as S;
    let Ty::Scalar(s) = ty else {
        return match (ty, v) {
            (Ty::Enum(_), Value::EnumNumber(x)) => Some(op.one::<c::Enum>(x)),
            _ => None,
        };
    };
    Some(match (s, v) {
        (S::Bool, Value::Bool(x)) => op.one::<c::Bool>(x),
        (S::Int32, Value::I32(x)) => op.one::<c::Int32>(x),
        (S::Sint32, Value::I32(x)) => op.one::<c::SInt32>(x),
        (S::Sfixed32, Value::I32(x)) => op.one::<c::SFixed32>(x),
        (S::Int64, Value::I64(x)) => op.one::<c::Int64>(x),
        (S::Sint64, Value::I64(x)) => op.one::<c::SInt64>(x),
        (S::Sfixed64, Value::I64(x)) => op.one::<c::SFixed64>(x),
        (S::Uint32, Value::U32(x)) => op.one::<c::UInt32>(x),
        (S::Fixed32, Value::U32(x)) => op.one::<c::Fixed32>(x),
        (S::Uint64, Value::U64(x)) => op.one::<c::UInt64>(x),
        (S::Fixed64, Value::U64(x)) => op.one::<c::Fixed64>(x),
        (S::Float, Value::F32(x)) => op.one::<c::Float>(x),
        (S::Double, Value::F64(x)) => op.one::<c::Double>(x),
        (S::String, Value::String(x)) => op.one::<c::Str>(x),
        (S::Bytes, Value::Bytes(x)) => op.one::<c::Bytes>(x),
        _ => return None,
    })
}

/// A map key through the runtime's codec for its type.
fn key<'v, O: Op<'v>>(s: ScalarType, k: &'v MapKey, op: O) -> Option<O::Out> {
    use ScalarType as S;
    Some(match (s, k) {
        (S::Bool, MapKey::Bool(x)) => op.one::<c::Bool>(x),
        (S::Int32, MapKey::I32(x)) => op.one::<c::Int32>(x),
        (S::Sint32, MapKey::I32(x)) => op.one::<c::SInt32>(x),
        (S::Sfixed32, MapKey::I32(x)) => op.one::<c::SFixed32>(x),
        (S::Int64, MapKey::I64(x)) => op.one::<c::Int64>(x),
        (S::Sint64, MapKey::I64(x)) => op.one::<c::SInt64>(x),
        (S::Sfixed64, MapKey::I64(x)) => op.one::<c::SFixed64>(x),
        (S::Uint32, MapKey::U32(x)) => op.one::<c::UInt32>(x),
        (S::Fixed32, MapKey::U32(x)) => op.one::<c::Fixed32>(x),
        (S::Uint64, MapKey::U64(x)) => op.one::<c::UInt64>(x),
        (S::Fixed64, MapKey::U64(x)) => op.one::<c::Fixed64>(x),
        (S::String, MapKey::String(x)) => op.one::<c::Str>(x),
        _ => return None,
    })
}

/// A repeated field of numbers, bools or enums, unboxed, as a run of its codec: the
/// typed call generated code makes.
fn scalar_list<'v, O: Op<'v>>(ty: Ty, list: &'v ScalarList, op: O) -> Option<O::Out> {
    use ScalarType as S;
    let Ty::Scalar(s) = ty else {
        return match (ty, list) {
            (Ty::Enum(_), ScalarList::Enum(l)) => Some(op.run::<c::Enum>(l)),
            _ => None,
        };
    };
    Some(match (s, list) {
        (S::Bool, ScalarList::Bool(l)) => op.run::<c::Bool>(l),
        (S::Int32, ScalarList::I32(l)) => op.run::<c::Int32>(l),
        (S::Sint32, ScalarList::I32(l)) => op.run::<c::SInt32>(l),
        (S::Sfixed32, ScalarList::I32(l)) => op.run::<c::SFixed32>(l),
        (S::Int64, ScalarList::I64(l)) => op.run::<c::Int64>(l),
        (S::Sint64, ScalarList::I64(l)) => op.run::<c::SInt64>(l),
        (S::Sfixed64, ScalarList::I64(l)) => op.run::<c::SFixed64>(l),
        (S::Uint32, ScalarList::U32(l)) => op.run::<c::UInt32>(l),
        (S::Fixed32, ScalarList::U32(l)) => op.run::<c::Fixed32>(l),
        (S::Uint64, ScalarList::U64(l)) => op.run::<c::UInt64>(l),
        (S::Fixed64, ScalarList::U64(l)) => op.run::<c::Fixed64>(l),
        (S::Float, ScalarList::F32(l)) => op.run::<c::Float>(l),
        (S::Double, ScalarList::F64(l)) => op.run::<c::Double>(l),
        _ => return None,
    })
}
