//! Length-delimited streams: frames of `bijou64(L)` + `L` bytes (SPEC §9.2).

use core::marker::PhantomData;

use crate::__private::{Decode, Reader};
use crate::error::{DecodeError, ErrorKind};
use crate::options::{DecodeOptions, Decoded};

/// Decode the frame whose length prefix starts at `start`; offsets (in errors too) count
/// from the start of `bytes`. Returns the message and the offset just past the frame.
pub(crate) fn decode_frame<'a, M: Decode<'a>>(
    bytes: &'a [u8],
    start: usize,
    opts: &DecodeOptions,
) -> Result<(Decoded<M>, usize), DecodeError> {
    let rest = bytes.get(start..).unwrap_or(&[]);
    let (len, n) = bijou64::decode(rest).map_err(|e| {
        let kind = match e {
            bijou64::Error::Overflow => ErrorKind::VarintOverflow,
            _ => ErrorKind::Truncated,
        };
        DecodeError::new(kind, start).in_message(crate::__private::name::<M>())
    })?;
    if let Some(max) = opts.max_size
        && len > max as u64
    {
        // SPEC §9.4: per frame, at its prefix, before the frame's bytes are checked.
        return Err(DecodeError::new(ErrorKind::SizeLimitExceeded, start)
            .in_message(crate::__private::name::<M>()));
    }
    if len > (rest.len() - n) as u64 {
        // SPEC §9.2: a partial frame is truncated at its length prefix.
        return Err(
            DecodeError::new(ErrorKind::Truncated, start).in_message(crate::__private::name::<M>())
        );
    }
    let body = start + n;
    let end = body + len as usize;
    let mut r = Reader::new(bytes, body, end, opts);
    let m = r.top()?;
    Ok((Decoded::new(m, r.unknown_count()), end))
}

/// The messages of a length-delimited stream, in order (SPEC §9.2).
///
/// Error offsets count from the first byte of the stream. The iterator ends after the
/// last complete frame, or after the first error.
///
/// ```
/// # use bijoubuf::{DecodeOptions, Frames, Message};
/// # fn count<M: Message>(stream: &[u8]) -> Result<usize, bijoubuf::DecodeError> {
/// let mut n = 0;
/// for frame in Frames::<M>::new(stream, DecodeOptions::new()) {
///     let _message = frame?.into_message();
///     n += 1;
/// }
/// # Ok(n) }
/// ```
#[derive(Debug, Clone)]
pub struct Frames<'a, M> {
    bytes: &'a [u8],
    pos: usize,
    opts: DecodeOptions,
    failed: bool,
    _message: PhantomData<fn() -> M>,
}

impl<'a, M: Decode<'a>> Frames<'a, M> {
    /// Iterate over the frames of `bytes`.
    pub fn new(bytes: &'a [u8], opts: DecodeOptions) -> Self {
        Frames {
            bytes,
            pos: 0,
            opts,
            failed: false,
            _message: PhantomData,
        }
    }

    /// The offset of the next frame (the stream's length once all frames are read).
    pub fn offset(&self) -> usize {
        self.pos
    }
}

impl<'a, M: Decode<'a>> Iterator for Frames<'a, M> {
    type Item = Result<Decoded<M>, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.bytes.len() {
            return None;
        }
        match decode_frame::<M>(self.bytes, self.pos, &self.opts) {
            Ok((m, end)) => {
                self.pos = end;
                Some(Ok(m))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}
