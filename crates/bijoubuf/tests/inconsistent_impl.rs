//! A `Message` implementation whose size pass and write pass disagree is a bug in that
//! implementation; encoding reports it instead of writing garbage or panicking.
use bijoubuf::__private::{Int32, Reader, Sizer, Writer};
use bijoubuf::{DecodeError, EncodeErrorKind, Message, UnknownFields};

#[derive(Debug, Default)]
struct Lies {
    extra: usize,
    skip_write: bool,
    unknown_fields: UnknownFields,
}

impl Message for Lies {
    const NAME: &'static str = "Lies";
    const FIELD_NUMBERS: &'static [u32] = &[1];

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __size<'v>(&'v self, s: &mut Sizer<'v>) -> usize {
        s.explicit::<Int32>(1, &7) + self.extra
    }

    fn __write<'v>(&'v self, w: &mut Writer<'_, 'v>) {
        if !self.skip_write {
            w.explicit::<Int32>(1, &7);
        }
        // Writes past what the size pass announced when `extra` is 0 and we add more.
        if self.extra == 0 && self.skip_write {
            w.explicit::<Int32>(1, &7);
            w.explicit::<Int32>(2, &7);
        }
    }

    fn __decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
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
        extra: 3,
        ..Default::default()
    };
    let e = m.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
}

#[test]
fn long_write_is_a_size_mismatch_not_a_panic() {
    let m = Lies {
        extra: 0,
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

/// Writes its field through the writer's register copy (`plain_local`), then does what
/// safe code may do with that copy: forget it, so the writer's state is never given back.
#[derive(Debug, Default)]
struct Forgets {
    forget: bool,
    extra_field: bool,
    unknown_fields: UnknownFields,
}

impl Message for Forgets {
    const NAME: &'static str = "Forgets";
    const FIELD_NUMBERS: &'static [u32] = &[1, 2];

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn __size<'v>(&'v self, s: &mut Sizer<'v>) -> usize {
        s.explicit::<Int32>(1, &7)
    }

    fn __write<'v>(&'v self, w: &mut Writer<'_, 'v>) {
        let mut l = w.plain_local();
        l.explicit::<Int32>(1, &7);
        if self.extra_field {
            l.explicit::<Int32>(2, &7);
        }
        if self.forget {
            core::mem::forget(l);
        }
    }

    fn __decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let _ = r.optional::<Int32>(1, "x")?;
        let unknown_fields = r.finish()?;
        Ok(Forgets {
            unknown_fields,
            ..Default::default()
        })
    }
}

#[test]
fn local_writer_writes_what_the_writer_does() {
    assert_eq!(Forgets::default().encode_to_vec().unwrap(), [0x00, 0x0E]);
}

#[test]
fn local_writer_long_write_is_a_size_mismatch() {
    let m = Forgets {
        extra_field: true,
        ..Default::default()
    };
    let e = m.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
}

#[test]
fn forgotten_local_writer_is_a_size_mismatch_not_unwritten_bytes() {
    // The writer never gets its output back: the encode must fail, not report the
    // buffer filled (its bytes were written only through the forgotten copy).
    let m = Forgets {
        forget: true,
        ..Default::default()
    };
    let e = m.encode_to_vec().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
    let mut buf = vec![0xAA; 3];
    let e = m.encode(&mut buf).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::SizeMismatch);
}

#[test]
fn a_sink_gets_a_size_mismatch_for_a_short_or_long_write_too() {
    // Short by 3 bytes, short by more than a chunk, and long by one record.
    for (extra, skip_write) in [(3, false), (3 * bijoubuf::sink::CHUNK, false), (0, true)] {
        let m = Lies {
            extra,
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
