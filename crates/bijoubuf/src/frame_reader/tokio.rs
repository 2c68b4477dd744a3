//! [`FrameReader`](super::FrameReader) over a `tokio::io::AsyncRead`: the same buffer,
//! checks and errors, with the read call awaited.

use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::task::Poll;

use tokio::io::{AsyncRead, ReadBuf};

use super::{Frame, Step, StreamError, Window};
use crate::Message;
use crate::options::{DecodeOptions, Decoded};

/// The messages of a length-delimited stream read from a `tokio::io::AsyncRead` (SPEC
/// §9.2), one frame at a time in one reused buffer: [`FrameReader`](super::FrameReader)
/// with `async` reads, the same checks, offsets and errors.
///
/// ```
/// # async fn run(socket: impl tokio::io::AsyncRead + Unpin) -> Result<u64, bijoubuf::StreamError> {
/// use bijoubuf::{AsyncFrameReader, DecodeOptions};
/// let mut frames = AsyncFrameReader::new(socket, DecodeOptions::new().max_size(Some(1 << 20)));
/// let mut bytes = 0;
/// while let Some(frame) = frames.next_frame().await {
///     bytes += frame?.message_bytes().len() as u64;
/// }
/// # Ok(bytes) }
/// ```
#[derive(Debug)]
pub struct AsyncFrameReader<R> {
    inner: R,
    w: Window,
}

impl<R: AsyncRead + Unpin> AsyncFrameReader<R> {
    /// Read frames from `inner`, each decoded with `opts` (a size limit applies per frame).
    pub fn new(inner: R, opts: DecodeOptions) -> Self {
        AsyncFrameReader {
            inner,
            w: Window::new(opts),
        }
    }

    /// The next frame, undecoded, as [`FrameReader::next_frame`](super::FrameReader::next_frame).
    pub async fn next_frame(&mut self) -> Option<Result<Frame<'_>, StreamError>> {
        if self.w.failed {
            return None;
        }
        loop {
            match self.w.step() {
                Ok(Step::Ready { prefix, len }) => return Some(Ok(self.w.take(prefix, len))),
                Ok(Step::End) => return None,
                Ok(Step::More(total)) => {
                    self.w.make_room(total);
                    match read(&mut self.inner, self.w.room()).await {
                        Ok(n) => self.w.filled(n),
                        Err(e) => return Some(Err(self.w.io(e))),
                    }
                }
                Err(e) => {
                    self.w.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }

    /// The next frame decoded as an `M`, as
    /// [`FrameReader::next_message`](super::FrameReader::next_message).
    pub async fn next_message<M: Message>(&mut self) -> Option<Result<Decoded<M>, StreamError>> {
        let r = match self.next_frame().await? {
            Ok(frame) => frame.decode::<M>(),
            Err(e) => Err(e.in_message(crate::__private::name::<M>())),
        };
        self.w.failed |= r.is_err();
        Some(r)
    }

    /// The next frame decoded into `m`, as
    /// [`FrameReader::next_into`](super::FrameReader::next_into).
    pub async fn next_into<M: Message>(&mut self, m: &mut M) -> Option<Result<(), StreamError>> {
        let r = match self.next_frame().await? {
            Ok(frame) => frame.decode_into(m),
            Err(e) => Err(e.in_message(crate::__private::name::<M>())),
        };
        self.w.failed |= r.is_err();
        Some(r)
    }

    /// The stream offset of the next frame (the stream's length once it has ended).
    pub fn offset(&self) -> u64 {
        self.w.pos
    }

    /// The number of frames handed out so far.
    pub fn frames_read(&self) -> u64 {
        self.w.index
    }

    /// The bytes the buffer holds room for.
    pub fn buffer_capacity(&self) -> usize {
        self.w.buf.len()
    }
}

/// One read into `room`, retried on `Interrupted`; 0 when the source has ended.
async fn read<R: AsyncRead + Unpin>(inner: &mut R, room: &mut [u8]) -> io::Result<usize> {
    poll_fn(|cx| {
        let mut buf = ReadBuf::new(room);
        match Pin::new(&mut *inner).poll_read(cx, &mut buf) {
            Poll::Ready(Ok(())) => Poll::Ready(Ok(buf.filled().len())),
            Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::task::{Context, Waker};

    use super::*;
    use crate::FrameReader;
    use crate::wkt::StringValue;

    /// Poll `f` to completion on this thread; the sources below wake at once.
    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    /// A source that is not ready every third poll, interrupted every fifth, and hands out
    /// at most `chunk` bytes per read.
    struct Slow<'a> {
        bytes: &'a [u8],
        chunk: usize,
        polls: usize,
    }

    impl AsyncRead for Slow<'_> {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            self.polls += 1;
            if self.polls.is_multiple_of(3) {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            if self.polls.is_multiple_of(5) {
                return Poll::Ready(Err(io::ErrorKind::Interrupted.into()));
            }
            let n = self.chunk.min(buf.remaining()).min(self.bytes.len());
            let (now, later) = self.bytes.split_at(n);
            buf.put_slice(now);
            self.bytes = later;
            Poll::Ready(Ok(()))
        }
    }

    /// Each frame's (index, offset, text) or the error's (index, code, offset, path).
    type Outcome = Result<(u64, u64, String), (u64, &'static str, u64, String)>;

    fn outcome(r: Result<(u64, u64, Decoded<StringValue>), StreamError>) -> Outcome {
        r.map(|(i, o, d)| (i, o, d.into_message().value))
            .map_err(|e| {
                let d = e.decode_error().expect("a decode error");
                (e.index(), d.code(), e.offset(), d.path_string())
            })
    }

    fn blocking(stream: &[u8], opts: DecodeOptions) -> Vec<Outcome> {
        let mut frames = FrameReader::new(stream, opts);
        let mut out = Vec::new();
        while let Some(r) = frames.next_frame() {
            let r = r.and_then(|f| Ok((f.index(), f.offset(), f.decode::<StringValue>()?)));
            out.push(outcome(r));
        }
        out
    }

    fn not_blocking(stream: &[u8], chunk: usize, opts: DecodeOptions) -> Vec<Outcome> {
        let source = Slow {
            bytes: stream,
            chunk,
            polls: 0,
        };
        block_on(async {
            let mut frames = AsyncFrameReader::new(source, opts);
            let mut out = Vec::new();
            while let Some(r) = frames.next_frame().await {
                let r = r.and_then(|f| Ok((f.index(), f.offset(), f.decode::<StringValue>()?)));
                out.push(outcome(r));
            }
            assert!(frames.next_frame().await.is_none());
            out
        })
    }

    #[test]
    fn the_same_frames_and_errors_as_the_blocking_reader() {
        let mut good = Vec::new();
        for text in ["", "a", &"long ".repeat(30_000), "z"] {
            let m = StringValue { value: text.into() };
            m.encode_length_delimited(&mut good).unwrap();
        }
        let mut bad_utf8 = good.clone();
        bad_utf8.extend_from_slice(&[0x03, 0x02, 0x01, 0xFF]);
        let mut cut = good.clone();
        cut.pop();
        let streams = [good, bad_utf8, cut, vec![0xFF; 9], vec![]];
        for opts in [
            DecodeOptions::new(),
            DecodeOptions::new().max_size(Some(100)),
        ] {
            for s in &streams {
                let want = blocking(s, opts);
                assert!(!want.is_empty() || s.is_empty());
                for chunk in [1, 3, 1 << 20] {
                    assert_eq!(not_blocking(s, chunk, opts), want);
                }
            }
        }
    }

    #[test]
    fn typed_reads_root_frame_errors_at_the_type() {
        let stream = [0x03, 0x02, 0x01, b'a', 0x05, 0x02];
        let source = Slow {
            bytes: &stream,
            chunk: 2,
            polls: 0,
        };
        block_on(async {
            let mut frames = AsyncFrameReader::new(source, DecodeOptions::new());
            let mut value = StringValue::default();
            frames.next_into(&mut value).await.unwrap().unwrap();
            assert_eq!(value.value, "a");
            let e = frames
                .next_message::<StringValue>()
                .await
                .unwrap()
                .unwrap_err();
            assert_eq!(
                e.to_string(),
                "frame 1: truncated: StringValue ends inside an element at byte 4"
            );
            assert_eq!((frames.frames_read(), frames.offset()), (1, 4));
            assert!(frames.next_frame().await.is_none());
        });
    }
}
