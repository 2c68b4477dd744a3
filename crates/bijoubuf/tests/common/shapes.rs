//! Recursion, oneofs, proto2 `required`, and a pair of schema versions for unknown fields.
//!
//! ```proto
//! message Tree {
//!   int32 value = 1; Tree child = 2; repeated Tree children = 3; map<string, Tree> named = 4;
//! }
//! message Choice {
//!   string name = 1;
//!   oneof kind { int32 a = 2; string b = 4; Scalars m = 5; }
//!   uint32 mid = 3;          // between two oneof members
//!   double after = 6;
//! }
//! message Req {              // proto2
//!   required int32 id = 1; optional string note = 2; required string name = 3;
//!   optional Req child = 4;
//! }
//! message Known { int32 a = 2; Known child = 4; uint64 d = 6; }       // version 1
//! message Wider {                                                     // version 2
//!   uint64 x = 1; int32 a = 2; string s = 3; Wider child = 4; fixed32 f = 5;
//!   uint64 d = 6; bytes e = 7; fixed64 g = 8;
//! }
//! ```

use std::collections::BTreeMap;

use bijoubuf::__private::{
    BoxMsg, Bytes, Double, Fixed32, Fixed64, Int32, Msg, Pass, Reader, Str, UInt32, UInt64,
};
use bijoubuf::{DecodeError, Message, UnknownFields};

use super::scalars::Scalars;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    pub value: i32,
    pub child: Option<Box<Tree>>,
    pub children: Vec<Tree>,
    pub named: BTreeMap<String, Tree>,
    pub unknown_fields: UnknownFields,
}

impl Message for Tree {
    const NAME: &'static str = "Tree";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4];
}

impl bijoubuf::__private::Encode for Tree {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(1, &self.value)
            + p.optional::<BoxMsg<Tree>>(2, self.child.as_ref())
            + p.repeated::<Msg<Tree>>(3, &self.children)
            + p.map::<Str, Msg<Tree>>(4, &self.named)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Tree {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let value = r.implicit::<Int32>(1, "value")?;
        let child = r.optional::<BoxMsg<Tree>>(2, "child")?;
        let children = r.repeated::<Msg<Tree>>(3, "children")?;
        let named = r.map::<Str, Msg<Tree>>(4, "named")?;
        let unknown_fields = r.finish()?;
        Ok(Tree {
            value,
            child,
            children,
            named,
            unknown_fields,
        })
    }
}

/// The members of `Choice.kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    A(i32),
    B(String),
    M(Scalars),
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Choice {
    pub name: String,
    pub kind: Option<Kind>,
    pub mid: u32,
    pub after: f64,
    pub unknown_fields: UnknownFields,
}

impl Message for Choice {
    const NAME: &'static str = "Choice";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5, 6];
}

impl bijoubuf::__private::Encode for Choice {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Str>(1, &self.name)
            + match &self.kind {
                Some(Kind::A(v)) => p.explicit::<Int32>(2, v),
                _ => Default::default(),
            }
            + p.implicit::<UInt32>(3, &self.mid)
            + match &self.kind {
                Some(Kind::B(v)) => p.explicit::<Str>(4, v),
                _ => Default::default(),
            }
            + match &self.kind {
                Some(Kind::M(v)) => p.explicit::<Msg<Scalars>>(5, v),
                _ => Default::default(),
            }
            + p.implicit::<Double>(6, &self.after)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Choice {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let name = r.implicit::<Str>(1, "name")?;
        let mut kind = None;
        if let Some(v) = r.oneof::<Int32>(2, "a", kind.is_some())? {
            kind = Some(Kind::A(v));
        }
        let mid = r.implicit::<UInt32>(3, "mid")?;
        if let Some(v) = r.oneof::<Str>(4, "b", kind.is_some())? {
            kind = Some(Kind::B(v));
        }
        if let Some(v) = r.oneof::<Msg<Scalars>>(5, "m", kind.is_some())? {
            kind = Some(Kind::M(v));
        }
        let after = r.implicit::<Double>(6, "after")?;
        let unknown_fields = r.finish()?;
        Ok(Choice {
            name,
            kind,
            mid,
            after,
            unknown_fields,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Req {
    pub id: i32,
    pub note: Option<String>,
    pub name: String,
    pub child: Option<Box<Req>>,
    pub unknown_fields: UnknownFields,
}

impl Message for Req {
    const NAME: &'static str = "Req";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4];
}

impl bijoubuf::__private::Encode for Req {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.explicit::<Int32>(1, &self.id)
            + p.optional::<Str>(2, self.note.as_ref())
            + p.explicit::<Str>(3, &self.name)
            + p.optional::<BoxMsg<Req>>(4, self.child.as_ref())
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Req {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let id = r.optional::<Int32>(1, "id")?;
        let note = r.optional::<Str>(2, "note")?;
        let name = r.optional::<Str>(3, "name")?;
        let child = r.optional::<BoxMsg<Req>>(4, "child")?;
        let unknown_fields = r.finish()?;
        let id = r.require(id, "id")?;
        let name = r.require(name, "name")?;
        Ok(Req {
            id,
            note,
            name,
            child,
            unknown_fields,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Known {
    pub a: i32,
    pub child: Option<Box<Known>>,
    pub d: u64,
    pub unknown_fields: UnknownFields,
}

impl Message for Known {
    const NAME: &'static str = "Known";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[2, 4, 6];
}

impl bijoubuf::__private::Encode for Known {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(2, &self.a)
            + p.optional::<BoxMsg<Known>>(4, self.child.as_ref())
            + p.implicit::<UInt64>(6, &self.d)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Known {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let a = r.implicit::<Int32>(2, "a")?;
        let child = r.optional::<BoxMsg<Known>>(4, "child")?;
        let d = r.implicit::<UInt64>(6, "d")?;
        let unknown_fields = r.finish()?;
        Ok(Known {
            a,
            child,
            d,
            unknown_fields,
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wider {
    pub x: u64,
    pub a: i32,
    pub s: String,
    pub child: Option<Box<Wider>>,
    pub f: u32,
    pub d: u64,
    pub e: Vec<u8>,
    pub g: u64,
    pub unknown_fields: UnknownFields,
}

impl Message for Wider {
    const NAME: &'static str = "Wider";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3, 4, 5, 6, 7, 8];
}

impl bijoubuf::__private::Encode for Wider {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<UInt64>(1, &self.x)
            + p.implicit::<Int32>(2, &self.a)
            + p.implicit::<Str>(3, &self.s)
            + p.optional::<BoxMsg<Wider>>(4, self.child.as_ref())
            + p.implicit::<Fixed32>(5, &self.f)
            + p.implicit::<UInt64>(6, &self.d)
            + p.implicit::<Bytes>(7, &self.e)
            + p.implicit::<Fixed64>(8, &self.g)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Wider {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let x = r.implicit::<UInt64>(1, "x")?;
        let a = r.implicit::<Int32>(2, "a")?;
        let s = r.implicit::<Str>(3, "s")?;
        let child = r.optional::<BoxMsg<Wider>>(4, "child")?;
        let f = r.implicit::<Fixed32>(5, "f")?;
        let d = r.implicit::<UInt64>(6, "d")?;
        let e = r.implicit::<Bytes>(7, "e")?;
        let g = r.implicit::<Fixed64>(8, "g")?;
        let unknown_fields = r.finish()?;
        Ok(Wider {
            x,
            a,
            s,
            child,
            f,
            d,
            e,
            g,
            unknown_fields,
        })
    }
}
