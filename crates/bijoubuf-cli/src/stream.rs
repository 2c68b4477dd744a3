//! `verify --stream` and `decode --stream`: a length-delimited stream (SPEC §9.2) read
//! from a file or stdin one frame at a time, so memory is one frame (and its message),
//! whatever the stream's length. The BLAKE3 of the whole input is computed as the frames
//! go by.

use std::fs::File;
use std::io::{BufWriter, Read, Write};

use bijoubuf::{Frame, FrameReader, StreamError};
use bijoubuf_reflect::{DynamicMessage, MessageDescriptor};

use crate::commands::{json_options, note_unknown, options, refuse};
use crate::{BinaryInput, Failure, Limits, input, report};

/// The stream's source and its name for reports. Hex text is decoded whole first (it is
/// for dumps typed or pasted by hand); raw bytes are read as they come.
fn source(input: &BinaryInput) -> Result<(String, Box<dyn Read>), Failure> {
    if input.input_hex {
        let i = input::read(input.input.as_deref())?;
        let bytes = input::parse_hex(&i.bytes).map_err(|e| refuse("invalid-hex", &e.0))?;
        return Ok((i.name, Box::new(std::io::Cursor::new(bytes))));
    }
    match input.input.as_deref() {
        Some(p) if p.as_os_str() != "-" => match File::open(p) {
            Ok(f) => Ok((p.display().to_string(), Box::new(f))),
            Err(e) => Err(Failure::Usage(format!("cannot read {}: {e}", p.display()))),
        },
        _ => Ok(("stdin".into(), Box::new(std::io::stdin().lock()))),
    }
}

/// Each frame decoded strictly, handed to `each` with the frame; the first refused frame
/// ends the stream with its report. Returns the stream's length and frame count.
fn frames(
    desc: &MessageDescriptor,
    input: &BinaryInput,
    limits: &Limits,
    mut each: impl FnMut(&Frame<'_>, DynamicMessage) -> Result<(), Failure>,
) -> Result<(u64, u64), Failure> {
    let (name, source) = source(input)?;
    let opts = options(limits);
    let mut reader = FrameReader::new(source, opts);
    while let Some(frame) = reader.next_frame() {
        let frame = frame.map_err(|e| stream_error(&e, desc, &name))?;
        let body = frame.message_bytes();
        let base = frame.offset() + (frame.frame_bytes().len() - body.len()) as u64;
        let msg = DynamicMessage::decode_with(desc, body, &opts)
            .map_err(|e| frame_error(&e, base, &frame, &name))?;
        each(&frame, msg)?;
    }
    Ok((reader.offset(), reader.frames_read()))
}

/// The report of a refusal inside a frame's message, whose offsets count from `base`.
fn frame_error(
    e: &bijoubuf_reflect::DecodeError,
    base: u64,
    frame: &Frame<'_>,
    name: &str,
) -> Failure {
    let path = e.path_string();
    let subject = if path.is_empty() { "input" } else { &path };
    let offset = base + e.offset() as u64;
    let message = format!("{subject} {} at byte {offset}", e.kind().what());
    say!(
        "{}",
        report::stream_refusal(
            e.code(),
            &message,
            (offset, &path),
            name,
            (frame.index(), frame.offset(), frame.frame_bytes())
        )
    );
    Failure::Refused
}

/// The report of a frame that could not be read: a refused prefix (`truncated`,
/// `varint-overflow`, `size-limit-exceeded`, rooted at the type as SPEC §9.2 says), or
/// a failing source.
fn stream_error(e: &StreamError, desc: &MessageDescriptor, name: &str) -> Failure {
    let Some(d) = e.decode_error() else {
        return Failure::Usage(format!("cannot read {name}: {e}"));
    };
    let path = desc.name();
    let message = format!("{path} {} at byte {}", d.kind().what(), e.offset());
    say!(
        "{}",
        report::stream_refusal(
            d.code(),
            &message,
            (e.offset(), path),
            name,
            (e.index(), e.offset(), &[])
        )
    );
    Failure::Refused
}

/// `verify --stream`: every frame decodes strictly and re-encodes to its own bytes;
/// prints `ok <n> bytes in <k> messages blake3:<hash of the whole input>`.
pub(crate) fn verify(
    desc: &MessageDescriptor,
    input: &BinaryInput,
    limits: &Limits,
) -> Result<(), Failure> {
    let mut hasher = blake3::Hasher::new();
    let mut again = Vec::new();
    let (len, count) = frames(desc, input, limits, |frame, msg| {
        // Decoding is strict, so the frame is canonical; re-encoding confirms it.
        let body = msg
            .encode_with_max_depth(limits.max_depth)
            .map_err(|e| refuse("not-canonical", &e.to_string()))?;
        again.clear();
        again.extend_from_slice(bijou64::encode(body.len() as u64).as_slice());
        again.extend_from_slice(&body);
        if again != frame.frame_bytes() {
            return Err(refuse(
                "not-canonical",
                &format!(
                    "frame {} decodes but re-encodes differently (please report this as a bug)",
                    frame.index()
                ),
            ));
        }
        note_unknown(&msg, "the bytes are canonical only for a preserving reader");
        // The frames are the whole input, in order: their hash is the input's.
        hasher.update(frame.frame_bytes());
        Ok(())
    })?;
    crate::commands::out(
        format!(
            "ok {} in {} blake3:{}\n",
            crate::report::count(len, "byte"),
            crate::report::count(count, "message"),
            hasher.finalize().to_hex()
        )
        .as_bytes(),
    )
}

/// `decode --stream`: a JSON array of the messages, each printed as its frame is read.
/// A refused frame ends the output where it is (the report goes to stderr, status 1).
pub(crate) fn decode(
    desc: &MessageDescriptor,
    input: &BinaryInput,
    limits: &Limits,
) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let write_failed = |e: std::io::Error| Failure::Usage(format!("cannot write the output: {e}"));
    let json = json_options(limits.max_depth);
    let result = frames(desc, input, limits, |frame, msg| {
        note_unknown(&msg, "proto3 JSON cannot show them");
        let one = bijoubuf_reflect::json::to_string_with(&msg, &json)
            .map_err(|e| refuse(e.code(), &e.to_string()))?;
        let lead = if frame.index() == 0 { "[\n  " } else { ",\n  " };
        w.write_all(lead.as_bytes())
            .and_then(|()| w.write_all(one.replace('\n', "\n  ").as_bytes()))
            .map_err(write_failed)
    });
    // What was printed before a refusal is flushed, so the output ends where it failed.
    let end: &[u8] = match result {
        Ok((_, 0)) => b"[]\n",
        Ok(_) => b"\n]\n",
        Err(_) => b"",
    };
    w.write_all(end)
        .and_then(|()| w.flush())
        .map_err(write_failed)?;
    result.map(|_| ())
}
