//! Decoding and encoding options, and the result of a decode that may keep unknown
//! fields.

/// The default nesting limit of both sides: the top-level message is depth 1, so 100
/// levels decode and 101 are refused (SPEC §9.3); encoding refuses the same.
pub const DEFAULT_MAX_DEPTH: u32 = 100;

/// The largest nesting limit either side can be configured with (SPEC §9.3); a larger
/// request is this.
///
/// Why a cap: decoding and encoding recurse once per nesting level, so the limit is what
/// bounds their stack use, and without a cap a configured limit of a few thousand let a
/// small input overflow an 8 MiB stack. At the cap both sides fit the 2 MiB stack Rust
/// gives spawned threads, in a debug build too (release frames are smaller): measured
/// with a chain of the test type `Tree` (a value, a child, a repeated field and a map),
/// generated code decodes and encodes 500 levels, nested through any of the three
/// message-holding fields, within 1.75 MiB (it overflows 1.5 MiB), and
/// `bijoubuf-reflect`'s dynamic messages within 1.7 MiB. Types that hold many fields
/// inline use more stack per level.
pub const MAX_DEPTH_LIMIT: u32 = 500;

/// A configured depth limit as both sides use it: 0 is 1 (the top-level message itself
/// is always read or written), and above [`MAX_DEPTH_LIMIT`] is the cap.
const fn clamp_depth(depth: u32) -> u32 {
    if depth == 0 {
        1
    } else if depth > MAX_DEPTH_LIMIT {
        MAX_DEPTH_LIMIT
    } else {
        depth
    }
}

/// What a decode does with a field number the schema does not know (SPEC §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum UnknownFieldPolicy {
    /// Refuse the input with `unknown-field` (SPEC §8.1). The default.
    #[default]
    Reject,
    /// Keep the records and re-emit them on encode (SPEC §8.2).
    Preserve,
}

/// Limits and policies for [`Message::decode_with`](crate::Message::decode_with).
///
/// ```
/// use bijoubuf::{DecodeOptions, UnknownFieldPolicy};
/// let opts = DecodeOptions::new()
///     .max_depth(16)
///     .max_size(Some(1 << 20))
///     .unknown_fields(UnknownFieldPolicy::Preserve);
/// assert_eq!(opts.get_max_depth(), 16);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodeOptions {
    pub(crate) max_depth: u32,
    pub(crate) max_size: Option<usize>,
    pub(crate) unknown: UnknownFieldPolicy,
}

impl DecodeOptions {
    /// The defaults: depth limit 100, no size limit, unknown fields rejected.
    pub const fn new() -> Self {
        DecodeOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_size: None,
            unknown: UnknownFieldPolicy::Reject,
        }
    }

    /// Refuse messages nested deeper than `depth` (the top level is depth 1). A limit of 0
    /// is treated as 1, since the top-level message itself is always read, and a limit
    /// above [`MAX_DEPTH_LIMIT`] as that cap, which keeps the decoder's recursion within
    /// an ordinary thread's stack.
    pub const fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = clamp_depth(depth);
        self
    }

    /// Refuse inputs (or frames, for length-delimited decoding) longer than `size` bytes.
    pub const fn max_size(mut self, size: Option<usize>) -> Self {
        self.max_size = size;
        self
    }

    /// Reject or preserve unknown fields.
    pub const fn unknown_fields(mut self, policy: UnknownFieldPolicy) -> Self {
        self.unknown = policy;
        self
    }

    /// The depth limit.
    pub const fn get_max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The size limit, if any.
    pub const fn get_max_size(&self) -> Option<usize> {
        self.max_size
    }

    /// The unknown-field policy.
    pub const fn get_unknown_fields(&self) -> UnknownFieldPolicy {
        self.unknown
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions::new()
    }
}

/// Limits for [`Message::encode_with`](crate::Message::encode_with) and the other
/// `…_with` encoders: the same limits a decoder has, so that an encoder refuses what a
/// decoder with the same settings would refuse (SPEC §9).
///
/// ```
/// use bijoubuf::EncodeOptions;
/// let opts = EncodeOptions::new().max_depth(16).max_size(Some(1 << 20));
/// assert_eq!(opts.get_max_depth(), 16);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodeOptions {
    pub(crate) max_depth: u32,
    pub(crate) max_size: Option<usize>,
}

impl EncodeOptions {
    /// The defaults: depth limit 100, no size limit.
    pub const fn new() -> Self {
        EncodeOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_size: None,
        }
    }

    /// Refuse values nesting messages deeper than `depth` with `depth-limit-exceeded`
    /// (the top level is depth 1; 0 is treated as 1 and a limit above
    /// [`MAX_DEPTH_LIMIT`] as that cap, as for [`DecodeOptions::max_depth`]).
    pub const fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = clamp_depth(depth);
        self
    }

    /// Refuse values whose encoding is longer than `size` bytes with
    /// `size-limit-exceeded`, before anything is written. For a length-delimited frame
    /// the limit applies to the frame's content, as a decoder's does (SPEC §9.4).
    pub const fn max_size(mut self, size: Option<usize>) -> Self {
        self.max_size = size;
        self
    }

    /// The depth limit.
    pub const fn get_max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The size limit, if any.
    pub const fn get_max_size(&self) -> Option<usize> {
        self.max_size
    }
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions::new()
    }
}

/// The result of [`Message::decode_with`](crate::Message::decode_with): the message and
/// how many unknown field records it (and its nested messages) held.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<M> {
    message: M,
    unknown_count: usize,
}

impl<M> Decoded<M> {
    pub(crate) fn new(message: M, unknown_count: usize) -> Self {
        Decoded {
            message,
            unknown_count,
        }
    }

    /// True when the input held at least one unknown field record, at any depth.
    pub fn has_unknown_fields(&self) -> bool {
        self.unknown_count != 0
    }

    /// The number of unknown field records kept, at every depth.
    pub fn unknown_field_count(&self) -> usize {
        self.unknown_count
    }

    /// The decoded message.
    pub fn message(&self) -> &M {
        &self.message
    }

    /// The decoded message, by value.
    pub fn into_message(self) -> M {
        self.message
    }
}
