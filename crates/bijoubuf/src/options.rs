//! Decoding options and the result of a decode that may keep unknown fields.

/// The decoder's default nesting limit: the top-level message is depth 1, so 100 levels
/// decode and 101 are refused (SPEC §9.3). Encoding refuses the same.
pub const DEFAULT_MAX_DEPTH: u32 = 100;

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

    /// Refuse messages nested deeper than `depth` (the top level is depth 1; a limit of 0
    /// is treated as 1, since the top-level message itself is always read).
    pub const fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = if depth == 0 { 1 } else { depth };
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
