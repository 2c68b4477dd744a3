//! The reader's position accessors, as a hand-written `__decode` sees them: the offset
//! of the key of the record just handed out, and the offset of the next unread byte.

use bijoubuf::__private::{Pass, Reader, UInt64};
use bijoubuf::{DecodeError, Message, UnknownFields};

/// `uint64 a = 2; uint64 b = 5;`, decoded with a note of where the reader stood after
/// each field: `(key_position, position)`.
#[derive(Debug, Clone, Default, PartialEq)]
struct Probe {
    a: u64,
    b: u64,
    seen: Vec<(usize, usize)>,
    unknown_fields: UnknownFields,
}

impl Message for Probe {
    const NAME: &'static str = "Probe";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[2, 5];
}

impl bijoubuf::__private::Encode for Probe {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        p.implicit::<UInt64>(2, &self.a) + p.implicit::<UInt64>(5, &self.b)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Probe {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let mut seen = Vec::new();
        let a = r.implicit::<UInt64>(2, "a")?;
        seen.push((r.key_position(), r.position()));
        let b = r.implicit::<UInt64>(5, "b")?;
        seen.push((r.key_position(), r.position()));
        let unknown_fields = r.finish()?;
        Ok(Probe {
            a,
            b,
            seen,
            unknown_fields,
        })
    }
}

#[test]
fn key_and_read_positions_after_each_field() {
    // a: key 04 at 0, value 300 = F8 34 (1..3); b: key 08 at 3, value 9 at 4.
    let p = Probe::decode(&[0x04, 0xF8, 0x34, 0x08, 0x09]).unwrap();
    assert_eq!((p.a, p.b), (300, 9));
    assert_eq!(p.seen, [(0, 3), (3, 5)]);
    // Only b: its key is at 0; a's absence reads the key without handing it out.
    let p = Probe::decode(&[0x10, 0xF8, 0x00]).unwrap();
    assert_eq!((p.a, p.b), (0, 248));
    assert_eq!(p.seen[1], (0, 3));
}
