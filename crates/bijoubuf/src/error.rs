//! Decode and encode errors.
//!
//! A [`DecodeError`] is one pointer wide (the details live in a box), so `Result<T,
//! DecodeError>` stays small on the success path. Its field path is built only while an
//! error travels outwards: each nesting level appends its segment on the way up, and
//! nothing path-related happens while decoding succeeds.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// What went wrong: one variant per decoder obligation (SPEC §10), each with a stable
/// kebab-case [`code`](ErrorKind::code) (SPEC §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input or the enclosing message ends inside an element.
    Truncated,
    /// A tier-8 bijou64 above `u64::MAX`.
    VarintOverflow,
    /// A 32-bit integer (or enum number) outside its declared width.
    IntegerOutOfRange,
    /// A bool other than 0 or 1.
    InvalidBool,
    /// A key steps past field number 2^29−1.
    FieldNumberOverflow,
    /// A known field written with a wire type the schema does not give it.
    WireTypeMismatch,
    /// An implicit-presence field record holds the field's default.
    DefaultValuePresent,
    /// A proto2 `required` field is absent.
    MissingRequiredField,
    /// A second member of a oneof is present.
    OneofConflict,
    /// A repeated or map record with zero elements.
    EmptyRepeated,
    /// A fixed-width packed run whose length is not a multiple of the element width.
    PackedLengthMismatch,
    /// A map key not strictly greater than the previous one.
    MapKeyOrder,
    /// A string that is not UTF-8.
    InvalidUtf8,
    /// A NaN other than the canonical one.
    NonCanonicalNan,
    /// A field number the schema does not know, in strict mode.
    UnknownField,
    /// A nested message deeper than the depth limit.
    DepthLimitExceeded,
    /// Input longer than the configured size limit.
    SizeLimitExceeded,
}

impl ErrorKind {
    /// The stable kebab-case code used by the SPEC and the conformance vectors.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "truncated",
            ErrorKind::VarintOverflow => "varint-overflow",
            ErrorKind::IntegerOutOfRange => "integer-out-of-range",
            ErrorKind::InvalidBool => "invalid-bool",
            ErrorKind::FieldNumberOverflow => "field-number-overflow",
            ErrorKind::WireTypeMismatch => "wire-type-mismatch",
            ErrorKind::DefaultValuePresent => "default-value-present",
            ErrorKind::MissingRequiredField => "missing-required-field",
            ErrorKind::OneofConflict => "oneof-conflict",
            ErrorKind::EmptyRepeated => "empty-repeated",
            ErrorKind::PackedLengthMismatch => "packed-length-mismatch",
            ErrorKind::MapKeyOrder => "map-key-order",
            ErrorKind::InvalidUtf8 => "invalid-utf8",
            ErrorKind::NonCanonicalNan => "non-canonical-nan",
            ErrorKind::UnknownField => "unknown-field",
            ErrorKind::DepthLimitExceeded => "depth-limit-exceeded",
            ErrorKind::SizeLimitExceeded => "size-limit-exceeded",
        }
    }

    /// The phrase between the path and the offset in the error's `Display`
    /// (SPEC §11.4): `holds its default` for
    /// [`DefaultValuePresent`](ErrorKind::DefaultValuePresent).
    ///
    /// Public so that every decoder of the format (the generated code and the
    /// run-time reflection decoder) prints the same words from one table.
    pub const fn what(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "ends inside an element",
            ErrorKind::VarintOverflow => "holds a bijou64 above u64::MAX",
            ErrorKind::IntegerOutOfRange => "holds a value outside its declared width",
            ErrorKind::InvalidBool => "holds a bool other than 0 or 1",
            ErrorKind::FieldNumberOverflow => "has a key past field number 536870911",
            ErrorKind::WireTypeMismatch => "has a wire type its schema type does not use",
            ErrorKind::DefaultValuePresent => "holds its default",
            ErrorKind::MissingRequiredField => "is required but absent",
            ErrorKind::OneofConflict => "is a second member of its oneof",
            ErrorKind::EmptyRepeated => "is a repeated record with no elements",
            ErrorKind::PackedLengthMismatch => {
                "has a packed length that is not a multiple of its element width"
            }
            ErrorKind::MapKeyOrder => "has a key not above the previous key",
            ErrorKind::InvalidUtf8 => "is not valid UTF-8",
            ErrorKind::NonCanonicalNan => "holds a non-canonical NaN",
            ErrorKind::UnknownField => "is not in the schema",
            ErrorKind::DepthLimitExceeded => "nests deeper than the depth limit",
            ErrorKind::SizeLimitExceeded => "is longer than the size limit",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One step of an error's field path (SPEC §11).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathSegment {
    /// The top-level message's short type name: `Outer`.
    Message(&'static str),
    /// A field by name: `.inner`.
    Field(&'static str),
    /// A field the schema does not know, by number: `.7`.
    Unknown(u32),
    /// An element of a repeated field: `[3]`.
    Index(usize),
    /// A map entry with a signed integer key: `[-5]`.
    IntKey(i64),
    /// A map entry with an unsigned integer key: `[5]`.
    UintKey(u64),
    /// A map entry with a bool key: `[true]`.
    BoolKey(bool),
    /// A map entry with a string key: `["k"]`.
    StrKey(String),
    /// [`Message`](Self::Message) for a type known only at run time
    /// (`bijoubuf-reflect`), whose name is not `'static`; printed the same.
    MessageName(String),
    /// [`Field`](Self::Field) for a type known only at run time; printed the same.
    FieldName(String),
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Message(name) => f.write_str(name),
            PathSegment::MessageName(name) => f.write_str(name),
            PathSegment::Field(name) => write!(f, ".{name}"),
            PathSegment::FieldName(name) => write!(f, ".{name}"),
            PathSegment::Unknown(n) => write!(f, ".{n}"),
            PathSegment::Index(i) => write!(f, "[{i}]"),
            PathSegment::IntKey(k) => write!(f, "[{k}]"),
            PathSegment::UintKey(k) => write!(f, "[{k}]"),
            PathSegment::BoolKey(k) => write!(f, "[{k}]"),
            PathSegment::StrKey(k) => {
                // SPEC §11.3: escape `"` and `\`, write C0 controls and DEL as `\u{hex}`,
                // every other character as itself.
                f.write_str("[\"")?;
                for c in k.chars() {
                    match c {
                        '"' | '\\' => write!(f, "\\{c}")?,
                        '\u{0}'..='\u{1f}' | '\u{7f}' => write!(f, "\\u{{{:x}}}", c as u32)?,
                        _ => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"]")
            }
        }
    }
}

/// A field's name as the decoder's field reads take it: used only to build an error's
/// path, so a decode that succeeds never looks at it.
///
/// Generated code passes the name as a `&'static str` (a [`PathSegment::Field`], no
/// allocation); a decoder that knows its types only at run time (`bijoubuf-reflect`)
/// passes a [`DynFieldName`] and drives the same reads.
pub trait FieldName: Copy {
    /// The path segment naming this field.
    fn segment(self) -> PathSegment;
}

impl FieldName for &'static str {
    #[inline(always)]
    fn segment(self) -> PathSegment {
        PathSegment::Field(self)
    }
}

/// A field name that is not `'static` (from a descriptor loaded at run time); printed as
/// a [`PathSegment::FieldName`], which prints the same as [`PathSegment::Field`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DynFieldName<'n>(pub &'n str);

impl FieldName for DynFieldName<'_> {
    #[cold]
    fn segment(self) -> PathSegment {
        PathSegment::FieldName(String::from(self.0))
    }
}

/// Why a byte string was refused: the [`ErrorKind`], the absolute byte offset in the
/// top-level input, and the field path.
///
/// ```
/// # use bijoubuf::{DecodeError, ErrorKind};
/// fn explain(e: &DecodeError) -> (&'static str, usize) {
///     (e.kind().code(), e.offset())
/// }
/// ```
pub struct DecodeError {
    inner: Box<Inner>,
}

#[derive(Clone)]
struct Inner {
    kind: ErrorKind,
    offset: usize,
    /// Innermost segment first: pushing while the error propagates outwards is O(1).
    rev_path: Vec<PathSegment>,
}

impl DecodeError {
    /// An error of `kind` at absolute byte `offset`, with an empty path.
    #[cold]
    #[inline(never)]
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        DecodeError {
            inner: Box::new(Inner {
                kind,
                offset,
                rev_path: Vec::new(),
            }),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The stable kebab-case code of [`kind`](Self::kind).
    pub fn code(&self) -> &'static str {
        self.inner.kind.code()
    }

    /// The absolute byte offset in the top-level input (SPEC §11 says which byte).
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// The field path, outermost first: `Outer.inner[3].name`.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> + '_ {
        self.inner.rev_path.iter().rev()
    }

    /// The field path rendered as text: `Outer.inner[3].name`.
    pub fn path_string(&self) -> String {
        use fmt::Write as _;
        let mut s = String::new();
        for seg in self.path() {
            let _ = write!(s, "{seg}");
        }
        s
    }

    /// Append an outer segment while the error propagates (the path is stored innermost
    /// first).
    #[cold]
    #[inline(never)]
    pub(crate) fn push(mut self, seg: PathSegment) -> Self {
        self.inner.rev_path.push(seg);
        self
    }

    /// Out of line, as [`push`](Self::push): every field read maps its element's error
    /// through this, and inlined it would put the segment's construction in each.
    #[cold]
    #[inline(never)]
    pub(crate) fn in_field<N: FieldName>(self, name: N) -> Self {
        self.push(name.segment())
    }

    #[cold]
    pub(crate) fn in_message(self, name: &'static str) -> Self {
        self.push(PathSegment::Message(name))
    }

    /// The same error with its offset moved `by` bytes later: for a frame decoded out of
    /// a buffer that starts `by` bytes into the stream (saturating where `usize` cannot
    /// count that far).
    #[cfg(feature = "std")]
    #[cold]
    pub(crate) fn shifted(mut self, by: u64) -> Self {
        let at = by.saturating_add(self.inner.offset as u64);
        self.inner.offset = usize::try_from(at).unwrap_or(usize::MAX);
        self
    }
}

impl Clone for DecodeError {
    fn clone(&self) -> Self {
        DecodeError {
            inner: Box::new((*self.inner).clone()),
        }
    }
}

impl PartialEq for DecodeError {
    fn eq(&self, other: &Self) -> bool {
        self.inner.kind == other.inner.kind
            && self.inner.offset == other.inner.offset
            && self.inner.rev_path == other.inner.rev_path
    }
}

impl Eq for DecodeError {}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("code", &self.code())
            .field("offset", &self.offset())
            .field("path", &self.path_string())
            .finish()
    }
}

impl fmt::Display for DecodeError {
    /// `default-value-present: Person.age holds its default at byte 17` (SPEC §11).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.code())?;
        let mut any = false;
        for seg in self.path() {
            write!(f, "{seg}")?;
            any = true;
        }
        if !any {
            f.write_str("input")?;
        }
        write!(
            f,
            " {} at byte {}",
            self.inner.kind.what(),
            self.inner.offset
        )
    }
}

impl core::error::Error for DecodeError {}

/// Why a value could not be encoded. The codes of the kinds that follow from the format
/// are listed in SPEC §11.1; the others report a full buffer or a bug in a hand-written
/// [`Message`](crate::Message) implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The value nests messages deeper than the depth limit
    /// ([`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH) unless
    /// [`EncodeOptions`](crate::EncodeOptions) say otherwise), so a decoder with the same
    /// limit would refuse the bytes.
    DepthLimitExceeded,
    /// The encoding is longer than the size limit of the
    /// [`EncodeOptions`](crate::EncodeOptions).
    SizeLimitExceeded,
    /// The buffer cannot hold the encoding.
    BufferTooSmall,
    /// Preserved unknown fields whose numbers are not strictly ascending or collide with
    /// a known field that is set; re-emitting them would not give valid delta keys.
    UnknownFieldOrder,
    /// A message's hand-written encoding wrote a different number of bytes than its size
    /// pass announced (a bug in a `Message` implementation, never in generated code).
    SizeMismatch,
    /// A message's hand-written encoding wrote a field number not above the one before
    /// it in the same message, or outside 1 ..= 536870911: delta keys (SPEC §4.1) cannot
    /// spell it (a bug in a `Message` implementation, never in generated code).
    FieldOrder,
}

impl EncodeErrorKind {
    /// The stable kebab-case code (SPEC §11.1), e.g. `depth-limit-exceeded`.
    pub const fn code(self) -> &'static str {
        match self {
            EncodeErrorKind::DepthLimitExceeded => "depth-limit-exceeded",
            EncodeErrorKind::SizeLimitExceeded => "size-limit-exceeded",
            EncodeErrorKind::BufferTooSmall => "buffer-too-small",
            EncodeErrorKind::UnknownFieldOrder => "unknown-field-order",
            EncodeErrorKind::SizeMismatch => "size-mismatch",
            EncodeErrorKind::FieldOrder => "field-order",
        }
    }
}

/// Why [`Message::encode`](crate::Message::encode) refused a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodeError {
    kind: EncodeErrorKind,
    needed: usize,
    limit: usize,
}

impl EncodeError {
    #[cold]
    pub(crate) fn new(kind: EncodeErrorKind, needed: usize) -> Self {
        EncodeError {
            kind,
            needed,
            limit: 0,
        }
    }

    /// An error for a limit: `limit` is the configured limit.
    #[cold]
    pub(crate) fn over_limit(kind: EncodeErrorKind, needed: usize, limit: usize) -> Self {
        EncodeError {
            kind,
            needed,
            limit,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> EncodeErrorKind {
        self.kind
    }

    /// The stable code of the kind (SPEC §11.1).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// For [`EncodeErrorKind::BufferTooSmall`] and
    /// [`EncodeErrorKind::SizeLimitExceeded`]: the number of bytes the encoding needs.
    pub fn needed(&self) -> usize {
        self.needed
    }

    /// For [`EncodeErrorKind::DepthLimitExceeded`] and
    /// [`EncodeErrorKind::SizeLimitExceeded`]: the limit that was exceeded.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.kind.code();
        match self.kind {
            EncodeErrorKind::DepthLimitExceeded => write!(
                f,
                "{code}: the value nests messages deeper than {}",
                self.limit
            ),
            EncodeErrorKind::SizeLimitExceeded => write!(
                f,
                "{code}: the encoding needs {} bytes, more than the limit of {}",
                self.needed, self.limit
            ),
            EncodeErrorKind::BufferTooSmall => {
                write!(f, "{code}: the encoding needs {} bytes", self.needed)
            }
            EncodeErrorKind::UnknownFieldOrder => write!(
                f,
                "{code}: preserved unknown fields are out of order or collide with a known field"
            ),
            EncodeErrorKind::SizeMismatch => {
                write!(
                    f,
                    "{code}: a message wrote a different size than it announced"
                )
            }
            EncodeErrorKind::FieldOrder => write!(
                f,
                "{code}: a message wrote its fields out of ascending number order"
            ),
        }
    }
}

impl core::error::Error for EncodeError {}
