//! Repeated fields of every element kind and maps of every key kind.
//!
//! ```proto
//! message Repeats {
//!   repeated int32 i32 = 1;  repeated int64 i64 = 2;  repeated uint32 u32 = 3;
//!   repeated uint64 u64 = 4; repeated sint32 s32 = 5; repeated sint64 s64 = 6;
//!   repeated bool flag = 7;  repeated Color color = 8; repeated fixed32 f32 = 9;
//!   repeated fixed64 f64 = 10; repeated sfixed32 sf32 = 11; repeated sfixed64 sf64 = 12;
//!   repeated float fl = 13;  repeated double db = 14;  repeated string text = 15;
//!   repeated bytes data = 16; repeated Scalars msgs = 17;
//! }
//! message Maps {
//!   map<int32, string> i32 = 1;     map<int64, int64> i64 = 2;
//!   map<uint32, bytes> u32 = 3;     map<uint64, double> u64 = 4;
//!   map<sint32, float> s32 = 5;     map<sint64, bool> s64 = 6;
//!   map<fixed32, Color> f32 = 7;    map<fixed64, uint32> f64 = 8;
//!   map<sfixed32, sfixed64> sf32 = 9; map<sfixed64, fixed32> sf64 = 10;
//!   map<bool, string> flag = 11;    map<string, Scalars> msgs = 12;
//!   map<string, int32> text = 13;
//! }
//! ```

use std::collections::BTreeMap;

use bijoubuf::__private::{
    Bool, Bytes, Double, Enum, Fixed32, Fixed64, Float, Int32, Int64, Msg, Pass, Reader, SFixed32,
    SFixed64, SInt32, SInt64, Str, UInt32, UInt64,
};
use bijoubuf::{DecodeError, Message, UnknownFields};

use super::scalars::Scalars;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Repeats {
    pub i32: Vec<i32>,
    pub i64: Vec<i64>,
    pub u32: Vec<u32>,
    pub u64: Vec<u64>,
    pub s32: Vec<i32>,
    pub s64: Vec<i64>,
    pub flag: Vec<bool>,
    pub color: Vec<i32>,
    pub f32: Vec<u32>,
    pub f64: Vec<u64>,
    pub sf32: Vec<i32>,
    pub sf64: Vec<i64>,
    pub fl: Vec<f32>,
    pub db: Vec<f64>,
    pub text: Vec<String>,
    pub data: Vec<Vec<u8>>,
    pub msgs: Vec<Scalars>,
    pub unknown_fields: UnknownFields,
}

impl Message for Repeats {
    const NAME: &'static str = "Repeats";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] =
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
}

impl bijoubuf::__private::Encode for Repeats {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.repeated::<Int32>(1, &self.i32)
            + p.repeated::<Int64>(2, &self.i64)
            + p.repeated::<UInt32>(3, &self.u32)
            + p.repeated::<UInt64>(4, &self.u64)
            + p.repeated::<SInt32>(5, &self.s32)
            + p.repeated::<SInt64>(6, &self.s64)
            + p.repeated::<Bool>(7, &self.flag)
            + p.repeated::<Enum>(8, &self.color)
            + p.repeated::<Fixed32>(9, &self.f32)
            + p.repeated::<Fixed64>(10, &self.f64)
            + p.repeated::<SFixed32>(11, &self.sf32)
            + p.repeated::<SFixed64>(12, &self.sf64)
            + p.repeated::<Float>(13, &self.fl)
            + p.repeated::<Double>(14, &self.db)
            + p.repeated::<Str>(15, &self.text)
            + p.repeated::<Bytes>(16, &self.data)
            + p.repeated::<Msg<Scalars>>(17, &self.msgs)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Repeats {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let i32 = r.repeated::<Int32>(1, "i32")?;
        let i64 = r.repeated::<Int64>(2, "i64")?;
        let u32 = r.repeated::<UInt32>(3, "u32")?;
        let u64 = r.repeated::<UInt64>(4, "u64")?;
        let s32 = r.repeated::<SInt32>(5, "s32")?;
        let s64 = r.repeated::<SInt64>(6, "s64")?;
        let flag = r.repeated::<Bool>(7, "flag")?;
        let color = r.repeated::<Enum>(8, "color")?;
        let f32 = r.repeated::<Fixed32>(9, "f32")?;
        let f64 = r.repeated::<Fixed64>(10, "f64")?;
        let sf32 = r.repeated::<SFixed32>(11, "sf32")?;
        let sf64 = r.repeated::<SFixed64>(12, "sf64")?;
        let fl = r.repeated::<Float>(13, "fl")?;
        let db = r.repeated::<Double>(14, "db")?;
        let text = r.repeated::<Str>(15, "text")?;
        let data = r.repeated::<Bytes>(16, "data")?;
        let msgs = r.repeated::<Msg<Scalars>>(17, "msgs")?;
        let unknown_fields = r.finish()?;
        Ok(Repeats {
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
            msgs,
            unknown_fields,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Maps {
    pub i32: BTreeMap<i32, String>,
    pub i64: BTreeMap<i64, i64>,
    pub u32: BTreeMap<u32, Vec<u8>>,
    pub u64: BTreeMap<u64, f64>,
    pub s32: BTreeMap<i32, f32>,
    pub s64: BTreeMap<i64, bool>,
    pub f32: BTreeMap<u32, i32>,
    pub f64: BTreeMap<u64, u32>,
    pub sf32: BTreeMap<i32, i64>,
    pub sf64: BTreeMap<i64, u32>,
    pub flag: BTreeMap<bool, String>,
    pub msgs: BTreeMap<String, Scalars>,
    pub text: BTreeMap<String, i32>,
    pub unknown_fields: UnknownFields,
}

impl Message for Maps {
    const NAME: &'static str = "Maps";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
}

impl bijoubuf::__private::Encode for Maps {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.map::<Int32, Str>(1, &self.i32)
            + p.map::<Int64, Int64>(2, &self.i64)
            + p.map::<UInt32, Bytes>(3, &self.u32)
            + p.map::<UInt64, Double>(4, &self.u64)
            + p.map::<SInt32, Float>(5, &self.s32)
            + p.map::<SInt64, Bool>(6, &self.s64)
            + p.map::<Fixed32, Enum>(7, &self.f32)
            + p.map::<Fixed64, UInt32>(8, &self.f64)
            + p.map::<SFixed32, SFixed64>(9, &self.sf32)
            + p.map::<SFixed64, Fixed32>(10, &self.sf64)
            + p.map::<Bool, Str>(11, &self.flag)
            + p.map::<Str, Msg<Scalars>>(12, &self.msgs)
            + p.map::<Str, Int32>(13, &self.text)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Maps {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let i32 = r.map::<Int32, Str>(1, "i32")?;
        let i64 = r.map::<Int64, Int64>(2, "i64")?;
        let u32 = r.map::<UInt32, Bytes>(3, "u32")?;
        let u64 = r.map::<UInt64, Double>(4, "u64")?;
        let s32 = r.map::<SInt32, Float>(5, "s32")?;
        let s64 = r.map::<SInt64, Bool>(6, "s64")?;
        let f32 = r.map::<Fixed32, Enum>(7, "f32")?;
        let f64 = r.map::<Fixed64, UInt32>(8, "f64")?;
        let sf32 = r.map::<SFixed32, SFixed64>(9, "sf32")?;
        let sf64 = r.map::<SFixed64, Fixed32>(10, "sf64")?;
        let flag = r.map::<Bool, Str>(11, "flag")?;
        let msgs = r.map::<Str, Msg<Scalars>>(12, "msgs")?;
        let text = r.map::<Str, Int32>(13, "text")?;
        let unknown_fields = r.finish()?;
        Ok(Maps {
            i32,
            i64,
            u32,
            u64,
            s32,
            s64,
            f32,
            f64,
            sf32,
            sf64,
            flag,
            msgs,
            text,
            unknown_fields,
        })
    }
}
