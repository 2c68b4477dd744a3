//! A `Message` implementation whose size pass and write pass disagree is a bug in that
//! implementation; encoding reports it instead of writing garbage or panicking.
//!
//! One walk serves both passes, so a hand-written walk disagrees with itself only by
//! asking which pass runs it; these do (the write pass's contributions are zero-sized),
//! to show what the encoder does when they differ.
use bijoubuf::__private::{Bytes, Int32, Pass, Reader, WalkKind};
use bijoubuf::{DecodeError, EncodeErrorKind, Message, UnknownFields};

/// True in the write pass, whose field calls return a zero-sized value.
fn writing<'v, P: Pass<'v>>() -> bool {
    core::mem::size_of::<P::Out>() == 0
}

/// Sizes field 1 and, when `pad` is not empty, field 2 holding it; writes field 1, or
/// with `skip_write` nothing (fields 1 and 2 when `pad` is empty).
#[derive(Debug, Default)]
struct Lies {
    pad: Vec<u8>,
    skip_write: bool,
    unknown_fields: UnknownFields,
}

impl Message for Lies {
    const NAME: &'static str = "Lies";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1];
}

impl bijoubuf::__private::Encode for Lies {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        if !writing::<P>() {
            let n = p.explicit::<Int32>(1, &7);
            if self.pad.is_empty() {
                return n;
            }
            return n + p.explicit::<Bytes>(2, &self.pad);
        }
        if !self.skip_write {
            return p.explicit::<Int32>(1, &7);
        }
        // Writes past what the size pass announced.
        if self.pad.is_empty() {
            return p.explicit::<Int32>(1, &7) + p.explicit::<Int32>(2, &7);
        }
        P::Out::default()
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Lies {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let _ = r.optional::<Int32>(1, "x")?;
        let unknown_fields = r.finish()?;
        Ok(Lies {
            unknown_fields,
            ..Default::default()
        })
    }
}

#[test]
fn short_write_is_a_size_mismatch() {
    let m = Lies {
        pad: vec![0; 3],
        ..Default::default()
    };
    let e = m.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
}

#[test]
fn long_write_is_a_size_mismatch_not_a_panic() {
    let m = Lies {
        skip_write: true,
        ..Default::default()
    };
    let e = m.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
}

#[test]
fn consistent_impl_encodes() {
    let m = Lies::default();
    assert_eq!(m.encode_to_vec().unwrap(), [0x00, 0x0E]);
}

/// Written, without unknown records, through the writer's register copy
/// (`WalkKind::Local`): field 1, and with `extra_field` also field 2 that the size pass
/// did not count.
#[derive(Debug, Default)]
struct Local {
    extra_field: bool,
    unknown_fields: UnknownFields,
}

impl Message for Local {
    const NAME: &'static str = "Local";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2];
}

impl bijoubuf::__private::Encode for Local {
    type Schema = Self;

    const WALK: WalkKind = WalkKind::Local;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        let n = p.explicit::<Int32>(1, &7);
        if self.extra_field && writing::<P>() {
            return n + p.explicit::<Int32>(2, &7);
        }
        n
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Local {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let _ = r.optional::<Int32>(1, "x")?;
        let unknown_fields = r.finish()?;
        Ok(Local {
            unknown_fields,
            ..Default::default()
        })
    }
}

#[test]
fn local_writer_writes_what_the_writer_does() {
    assert_eq!(Local::default().encode_to_vec().unwrap(), [0x00, 0x0E]);
}

#[test]
fn local_writer_long_write_is_a_size_mismatch() {
    let m = Local {
        extra_field: true,
        ..Default::default()
    };
    // The two passes compare what the walk writes with what it sized, through the
    // writer's register copy too.
    let opts = bijoubuf::EncodeOptions::new();
    let e = bijoubuf::__private::encode_two_passes(&m, false, &opts).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
    // A walk declared `Local` or `Plain` (generated code's) is promised to be one walk
    // for every pass; the one pass, which `encode_to_vec` tries first and which has no
    // size pass to compare with, writes what this one writes.
    assert_eq!(m.encode_to_vec().unwrap(), [0x00, 0x0E, 0x00, 0x0E]);
}

#[test]
fn a_sink_gets_a_size_mismatch_for_a_short_or_long_write_too() {
    // Short by 3 bytes, short by more than a chunk, and long by one record.
    for (extra, skip_write) in [(1, false), (3 * bijoubuf::sink::CHUNK, false), (0, true)] {
        let m = Lies {
            pad: vec![0; extra],
            skip_write,
            ..Default::default()
        };
        let mut out = Vec::new();
        let e = m.encode_to_sink(&mut out).unwrap_err();
        assert_eq!(
            e.kind(),
            EncodeErrorKind::SizeMismatch,
            "{extra} {skip_write}"
        );
        let e = m.encode_to_writer(&mut Vec::new()).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    }
}

/// Sizes field 1 as empty bytes, then writes `blob` there, then field 2: the write pass
/// runs past the end of a buffer sized exactly, and writes on.
#[derive(Debug, Default)]
struct Overruns {
    blob: Vec<u8>,
    unknown_fields: UnknownFields,
}

impl Message for Overruns {
    const NAME: &'static str = "Overruns";
    const KEEPS_UNKNOWN_FIELDS: bool = true;
    const FIELD_NUMBERS: &'static [u32] = &[1, 2];
}

impl bijoubuf::__private::Encode for Overruns {
    type Schema = Self;

    fn __unknown(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __walk<'v, P: Pass<'v>>(&'v self, p: &mut P) -> P::Out {
        static EMPTY: Vec<u8> = Vec::new();
        let blob = if writing::<P>() { &self.blob } else { &EMPTY };
        p.explicit::<Bytes>(1, blob) + p.explicit::<Int32>(2, &7)
    }
}

impl<'a> bijoubuf::__private::Decode<'a> for Overruns {
    fn __decode(r: &mut Reader<'a>) -> Result<Self, DecodeError> {
        let _ = r.optional::<Bytes>(1, "blob")?;
        let _ = r.optional::<Int32>(2, "x")?;
        let unknown_fields = r.finish()?;
        Ok(Overruns {
            unknown_fields,
            ..Default::default()
        })
    }
}

#[test]
fn a_write_past_the_end_is_a_size_mismatch_however_far_it_runs() {
    // Whatever the write pass writes past the end, nothing lands in the buffer: not
    // even wrapped around to its start, where the field after the blob could bring the
    // cursor to the right length (a 4-byte blob would).
    for n in 1..=40 {
        let m = Overruns {
            blob: vec![0xB0; n],
            ..Default::default()
        };
        let e = m.encode_to_vec().unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch, "{n} bytes");
        let mut buf = vec![0x11];
        assert!(m.encode(&mut buf).is_err(), "{n} bytes");
        assert_eq!(buf, [0x11]);
        let mut taken = Vec::new();
        let e = m.encode_to_sink(&mut taken).unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch, "{n} bytes");
    }
}
