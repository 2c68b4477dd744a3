//! A message reached through a codec that does not hand it over to the pass
//! (`Codec::visit_message` left at its default, `false`) is written with a length the one
//! pass does not have: its size table is empty. The one pass must refuse such an encoding
//! (`Writer::refused`: a write asked the table for a length) and leave it to the two
//! passes, even for a type whose walk is declared plain or local; its bytes would carry a
//! made-up length otherwise. The plain passes keep no table either, so for these types
//! the two passes report `SizeMismatch`: every public encode must give that same result,
//! and append nothing.
use bijoubuf::__private::{
    Codec, Decode, Encode, Int32, Msg, Pass, Reader, Sizer, Str, Table, WalkKind, WireType, Writer,
};
use bijoubuf::{DecodeError, EncodeOptions, Message};

/// A leaf message: one string.
#[derive(Clone, Debug, Default, PartialEq)]
struct Leaf {
    text: String,
}

impl Message for Leaf {
    const NAME: &'static str = "Leaf";
    const FIELD_NUMBERS: &'static [u32] = &[1];
}

impl Encode for Leaf {
    type Schema = Self;
    const WALK: WalkKind = WalkKind::Plain;
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Str>(1, &self.text)
    }
}

impl<'a> Decode<'a> for Leaf {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let text = r.implicit::<Str>(1, "text")?;
        r.finish()?;
        Ok(Leaf { text })
    }
}

/// `Leaf` as a message element, sized and written through the nested-message calls but
/// without `visit_message`: the pass cannot reach the message itself.
struct Opaque;

impl Codec for Opaque {
    type Value = Leaf;
    const WIRE: WireType = WireType::Len;
    const FIXED: Option<usize> = None;
    const OPENS_MESSAGE: bool = true;
    fn size<'v, T: Table>(v: &'v Leaf, s: &mut Sizer<'v, T>) -> usize {
        s.nested(v)
    }
    fn write<'v>(v: &'v Leaf, w: &mut Writer<'_, 'v>) {
        w.nested(v)
    }
    fn is_default(_: &Leaf) -> bool {
        false
    }
}

/// A parent whose walk is declared `KIND` (1 plain, 2 local) and reaches its child only
/// through `Opaque`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Parent<const KIND: u8> {
    id: i32,
    child: Option<Leaf>,
    children: Vec<Leaf>,
}

impl<const KIND: u8> Message for Parent<KIND> {
    const NAME: &'static str = "Parent";
    const FIELD_NUMBERS: &'static [u32] = &[1, 2, 3];
}

impl<const KIND: u8> Encode for Parent<KIND> {
    type Schema = Self;
    const WALK: WalkKind = if KIND == 1 {
        WalkKind::Plain
    } else {
        WalkKind::Local
    };
    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<Int32>(1, &self.id)
            + p.optional::<Opaque>(2, self.child.as_ref())
            + p.repeated::<Opaque>(3, &self.children)
    }
}

impl<'a, const KIND: u8> Decode<'a> for Parent<KIND> {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let id = r.implicit::<Int32>(1, "id")?;
        let child = r.optional::<Msg<Leaf>>(2, "child")?;
        let children = r.repeated::<Msg<Leaf>>(3, "children")?;
        r.finish()?;
        Ok(Parent {
            id,
            child,
            children,
        })
    }
}

/// Every public encode of `v` gives what the two passes give, and appends nothing on
/// error.
fn is_the_two_passes<const KIND: u8>(v: &Parent<KIND>, what: &str) {
    let want = bijoubuf::__private::encode_two_passes(v, false, &EncodeOptions::new());
    assert!(
        format!("{want:?}").contains("SizeMismatch"),
        "{what}: {want:?}"
    );
    let want = format!("{want:?}");
    assert_eq!(
        format!("{:?}", v.encode_to_vec()),
        want,
        "encode_to_vec, {what}"
    );
    // A reused buffer with room: the one pass into its spare capacity.
    let mut roomy = Vec::with_capacity(4096);
    let got = v.encode(&mut roomy).map(|_| roomy.clone());
    assert_eq!(format!("{got:?}"), want, "encode into room, {what}");
    assert!(roomy.is_empty(), "nothing appended, {what}");
    let framed = v.encode_length_delimited_to_vec();
    assert!(
        format!("{framed:?}").contains("SizeMismatch"),
        "{what}: {framed:?}"
    );
}

fn every_encode_is_the_two_passes<const KIND: u8>() {
    for n in [0, 1, 7, 247, 248, 600] {
        let leaf = || Leaf {
            text: "x".repeat(n),
        };
        // Singular: the one pass gives up at the field.
        let single = Parent::<KIND> {
            id: 5,
            child: Some(leaf()),
            ..Parent::default()
        };
        is_the_two_passes(&single, &format!("singular, {n}"));
        // Repeated: each element is written through the codec, asking the (empty) size
        // table for its length.
        let run = Parent::<KIND> {
            id: 5,
            children: vec![leaf(), leaf()],
            ..Parent::default()
        };
        is_the_two_passes(&run, &format!("repeated, {n}"));
    }
}

#[test]
fn a_plain_walk_through_an_opaque_codec_is_left_to_the_two_passes() {
    every_encode_is_the_two_passes::<1>();
}

#[test]
fn a_local_walk_through_an_opaque_codec_is_left_to_the_two_passes() {
    every_encode_is_the_two_passes::<2>();
}
