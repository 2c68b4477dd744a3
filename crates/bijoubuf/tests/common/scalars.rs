//! Singular fields of every scalar type, written as a code generator would write them.
//!
//! ```proto
//! enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
//! message Scalars {            // proto3, implicit presence
//!   int32 i32 = 1;  int64 i64 = 2;  uint32 u32 = 3;  uint64 u64 = 4;
//!   sint32 s32 = 5; sint64 s64 = 6; bool flag = 7;   Color color = 8;
//!   fixed32 f32 = 9; fixed64 f64 = 10; sfixed32 sf32 = 11; sfixed64 sf64 = 12;
//!   float fl = 13;  double db = 14;  string text = 15; bytes data = 16;
//! }
//! message Optionals {          // proto3 `optional`: explicit presence
//!   optional int32 i32 = 1; ... (same types, same numbers) ...
//!   Scalars child = 17;
//! }
//! ```

use bijoubuf::__private::{
    Bool, Bytes, Double, Enum, Fixed32, Fixed64, Float, Int32, Int64, Msg, Pass, Reader, SFixed32,
    SFixed64, SInt32, SInt64, Str, UInt32, UInt64,
};
use bijoubuf::{DecodeError, Message, UnknownFields};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scalars {
    pub i32: i32,
    pub i64: i64,
    pub u32: u32,
    pub u64: u64,
    pub s32: i32,
    pub s64: i64,
    pub flag: bool,
    pub color: i32,
    pub f32: u32,
    pub f64: u64,
    pub sf32: i32,
    pub sf64: i64,
    pub fl: f32,
    pub db: f64,
    pub text: String,
    pub data: Vec<u8>,
    pub unknown_fields: UnknownFields,
}

impl Message for Scalars {
    const NAME: &'static str = "Scalars";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
}

impl bijoubuf::__private::Encode for Scalars {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(1, &self.i32)
            + p.implicit::<Int64>(2, &self.i64)
            + p.implicit::<UInt32>(3, &self.u32)
            + p.implicit::<UInt64>(4, &self.u64)
            + p.implicit::<SInt32>(5, &self.s32)
            + p.implicit::<SInt64>(6, &self.s64)
            + p.implicit::<Bool>(7, &self.flag)
            + p.implicit::<Enum>(8, &self.color)
            + p.implicit::<Fixed32>(9, &self.f32)
            + p.implicit::<Fixed64>(10, &self.f64)
            + p.implicit::<SFixed32>(11, &self.sf32)
            + p.implicit::<SFixed64>(12, &self.sf64)
            + p.implicit::<Float>(13, &self.fl)
            + p.implicit::<Double>(14, &self.db)
            + p.implicit::<Str>(15, &self.text)
            + p.implicit::<Bytes>(16, &self.data)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Scalars {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let i32 = r.implicit::<Int32>(1, "i32")?;
        let i64 = r.implicit::<Int64>(2, "i64")?;
        let u32 = r.implicit::<UInt32>(3, "u32")?;
        let u64 = r.implicit::<UInt64>(4, "u64")?;
        let s32 = r.implicit::<SInt32>(5, "s32")?;
        let s64 = r.implicit::<SInt64>(6, "s64")?;
        let flag = r.implicit::<Bool>(7, "flag")?;
        let color = r.implicit::<Enum>(8, "color")?;
        let f32 = r.implicit::<Fixed32>(9, "f32")?;
        let f64 = r.implicit::<Fixed64>(10, "f64")?;
        let sf32 = r.implicit::<SFixed32>(11, "sf32")?;
        let sf64 = r.implicit::<SFixed64>(12, "sf64")?;
        let fl = r.implicit::<Float>(13, "fl")?;
        let db = r.implicit::<Double>(14, "db")?;
        let text = r.implicit::<Str>(15, "text")?;
        let data = r.implicit::<Bytes>(16, "data")?;
        let unknown_fields = r.finish()?;
        Ok(Scalars {
            i32,
            i64,
            u32,
            u64,
            s32,
            s64,
            flag,
            color,
            f32,
            f64,
            sf32,
            sf64,
            fl,
            db,
            text,
            data,
            unknown_fields,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Optionals {
    pub i32: Option<i32>,
    pub i64: Option<i64>,
    pub u32: Option<u32>,
    pub u64: Option<u64>,
    pub s32: Option<i32>,
    pub s64: Option<i64>,
    pub flag: Option<bool>,
    pub color: Option<i32>,
    pub f32: Option<u32>,
    pub f64: Option<u64>,
    pub sf32: Option<i32>,
    pub sf64: Option<i64>,
    pub fl: Option<f32>,
    pub db: Option<f64>,
    pub text: Option<String>,
    pub data: Option<Vec<u8>>,
    pub child: Option<Scalars>,
    pub unknown_fields: UnknownFields,
}

impl Message for Optionals {
    const NAME: &'static str = "Optionals";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] =
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
}

impl bijoubuf::__private::Encode for Optionals {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.optional::<Int32>(1, self.i32.as_ref())
            + p.optional::<Int64>(2, self.i64.as_ref())
            + p.optional::<UInt32>(3, self.u32.as_ref())
            + p.optional::<UInt64>(4, self.u64.as_ref())
            + p.optional::<SInt32>(5, self.s32.as_ref())
            + p.optional::<SInt64>(6, self.s64.as_ref())
            + p.optional::<Bool>(7, self.flag.as_ref())
            + p.optional::<Enum>(8, self.color.as_ref())
            + p.optional::<Fixed32>(9, self.f32.as_ref())
            + p.optional::<Fixed64>(10, self.f64.as_ref())
            + p.optional::<SFixed32>(11, self.sf32.as_ref())
            + p.optional::<SFixed64>(12, self.sf64.as_ref())
            + p.optional::<Float>(13, self.fl.as_ref())
            + p.optional::<Double>(14, self.db.as_ref())
            + p.optional::<Str>(15, self.text.as_ref())
            + p.optional::<Bytes>(16, self.data.as_ref())
            + p.optional::<Msg<Scalars>>(17, self.child.as_ref())
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Optionals {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let i32 = r.optional::<Int32>(1, "i32")?;
        let i64 = r.optional::<Int64>(2, "i64")?;
        let u32 = r.optional::<UInt32>(3, "u32")?;
        let u64 = r.optional::<UInt64>(4, "u64")?;
        let s32 = r.optional::<SInt32>(5, "s32")?;
        let s64 = r.optional::<SInt64>(6, "s64")?;
        let flag = r.optional::<Bool>(7, "flag")?;
        let color = r.optional::<Enum>(8, "color")?;
        let f32 = r.optional::<Fixed32>(9, "f32")?;
        let f64 = r.optional::<Fixed64>(10, "f64")?;
        let sf32 = r.optional::<SFixed32>(11, "sf32")?;
        let sf64 = r.optional::<SFixed64>(12, "sf64")?;
        let fl = r.optional::<Float>(13, "fl")?;
        let db = r.optional::<Double>(14, "db")?;
        let text = r.optional::<Str>(15, "text")?;
        let data = r.optional::<Bytes>(16, "data")?;
        let child = r.optional::<Msg<Scalars>>(17, "child")?;
        let unknown_fields = r.finish()?;
        Ok(Optionals {
            i32,
            i64,
            u32,
            u64,
            s32,
            s64,
            flag,
            color,
            f32,
            f64,
            sf32,
            sf64,
            fl,
            db,
            text,
            data,
            child,
            unknown_fields,
        })
    }
}
