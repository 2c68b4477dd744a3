//! bilrost structs equivalent to the telemetry, cas and numeric schemas, derived by hand
//! (bilrost has no schema compiler), with distinguished decoding.
//!
//! Field tags match the `.proto` numbers. bilrost refuses floating-point fields in
//! distinguished mode (a float has two zeros and many NaNs), and its documentation says to
//! carry their bits as integers instead; so every `double` here is a `u64` of bits with
//! fixed-width encoding, which is the same 8 bytes on the wire.

use std::collections::BTreeMap;

/// `telemetry.proto`.
pub mod telemetry {
    use super::BTreeMap;

    /// `AnyValue`'s oneof.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Oneof)]
    #[bilrost(distinguished)]
    pub enum Value {
        /// `string_value`.
        #[bilrost(1)]
        String(String),
        /// `bool_value`.
        #[bilrost(2)]
        Bool(bool),
        /// `int_value`.
        #[bilrost(3)]
        Int(i64),
        /// `double_value`, as bits.
        #[bilrost(tag(4), encoding(fixed))]
        DoubleBits(u64),
        /// `bytes_value`.
        #[bilrost(tag(5), encoding(plainbytes))]
        Bytes(Vec<u8>),
    }

    /// `AnyValue`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct AnyValue {
        /// The member.
        #[bilrost(oneof(1-5))]
        pub value: Option<Value>,
    }

    /// `Event`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Event {
        /// Field 1.
        #[bilrost(tag(1), encoding(fixed))]
        pub time_unix_nano: u64,
        /// Field 2.
        #[bilrost(2)]
        pub name: String,
        /// Field 3.
        #[bilrost(3)]
        pub attributes: BTreeMap<String, AnyValue>,
    }

    /// `Link`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Link {
        /// Field 1.
        #[bilrost(tag(1), encoding(plainbytes))]
        pub trace_id: Vec<u8>,
        /// Field 2.
        #[bilrost(tag(2), encoding(plainbytes))]
        pub span_id: Vec<u8>,
        /// Field 3.
        #[bilrost(3)]
        pub attributes: BTreeMap<String, AnyValue>,
    }

    /// `Status`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Status {
        /// Field 1.
        #[bilrost(1)]
        pub message: String,
        /// Field 2.
        #[bilrost(2)]
        pub code: u32,
    }

    /// `Span`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Span {
        /// Field 1.
        #[bilrost(tag(1), encoding(plainbytes))]
        pub trace_id: Vec<u8>,
        /// Field 2.
        #[bilrost(tag(2), encoding(plainbytes))]
        pub span_id: Vec<u8>,
        /// Field 3.
        #[bilrost(tag(3), encoding(plainbytes))]
        pub parent_span_id: Vec<u8>,
        /// Field 4.
        #[bilrost(4)]
        pub name: String,
        /// Field 5 (the enum's number).
        #[bilrost(5)]
        pub kind: i32,
        /// Field 6.
        #[bilrost(tag(6), encoding(fixed))]
        pub start_time_unix_nano: u64,
        /// Field 7.
        #[bilrost(tag(7), encoding(fixed))]
        pub end_time_unix_nano: u64,
        /// Field 8.
        #[bilrost(8)]
        pub attributes: BTreeMap<String, AnyValue>,
        /// Field 9.
        #[bilrost(9)]
        pub events: Vec<Event>,
        /// Field 10.
        #[bilrost(10)]
        pub links: Vec<Link>,
        /// Field 11.
        #[bilrost(11)]
        pub status: Option<Status>,
        /// Field 12.
        #[bilrost(12)]
        pub dropped_attributes_count: u32,
    }

    /// `SpanBatch`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct SpanBatch {
        /// Field 1.
        #[bilrost(1)]
        pub service_name: String,
        /// Field 2.
        #[bilrost(2)]
        pub resource: BTreeMap<String, AnyValue>,
        /// Field 3.
        #[bilrost(3)]
        pub spans: Vec<Span>,
    }
}

/// `cas.proto`.
pub mod cas {
    use super::BTreeMap;

    /// `Commit`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Commit {
        /// Field 1.
        #[bilrost(tag(1), encoding(plainbytes))]
        pub id: Vec<u8>,
        /// Field 2.
        #[bilrost(tag(2), encoding(plainbytes))]
        pub tree: Vec<u8>,
        /// Field 3.
        #[bilrost(tag(3), encoding(plainbytes))]
        pub parents: Vec<Vec<u8>>,
        /// Field 4.
        #[bilrost(4)]
        pub author: String,
        /// Field 5.
        #[bilrost(5)]
        pub message: String,
        /// Field 6.
        #[bilrost(6)]
        pub timestamp: i64,
        /// Field 7.
        #[bilrost(7)]
        pub metadata: BTreeMap<String, String>,
    }

    /// `Blob`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Blob {
        /// Field 1.
        #[bilrost(tag(1), encoding(plainbytes))]
        pub id: Vec<u8>,
        /// Field 2.
        #[bilrost(2)]
        pub size: u64,
        /// Field 3.
        #[bilrost(3)]
        pub path: String,
        /// Field 4.
        #[bilrost(4)]
        pub mode: u32,
        /// Field 5.
        #[bilrost(5)]
        pub metadata: BTreeMap<String, String>,
    }

    /// `Index`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Index {
        /// Field 1.
        #[bilrost(1)]
        pub commits: Vec<Commit>,
        /// Field 2.
        #[bilrost(2)]
        pub blobs: Vec<Blob>,
    }
}

/// `numeric.proto`.
pub mod numeric {
    /// `Series`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct Series {
        /// Field 1.
        #[bilrost(1)]
        pub name: String,
        /// Field 2.
        #[bilrost(tag(2), encoding(packed))]
        pub counts: Vec<u64>,
        /// Field 3.
        #[bilrost(tag(3), encoding(packed))]
        pub deltas: Vec<i64>,
        /// Field 4: the doubles' bits.
        #[bilrost(tag(4), encoding(packed<fixed>))]
        pub values: Vec<u64>,
        /// Field 5.
        #[bilrost(tag(5), encoding(packed<fixed>))]
        pub flags: Vec<u32>,
    }

    /// `SeriesBatch`.
    #[derive(Debug, Clone, PartialEq, Eq, bilrost::Message)]
    #[bilrost(distinguished)]
    pub struct SeriesBatch {
        /// Field 1.
        #[bilrost(1)]
        pub series: Vec<Series>,
    }
}
