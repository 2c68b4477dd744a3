//! Field-by-field conversions from the bijoubuf values to the prost and bilrost values
//! holding the same logical data, so every peer encodes and decodes the same thing.

use std::collections::BTreeMap;

use super::bijou;
use super::bil;
use super::pb;

fn map<K: Clone + Ord, A, B>(m: &BTreeMap<K, A>, f: impl Fn(&A) -> B) -> BTreeMap<K, B> {
    m.iter().map(|(k, v)| (k.clone(), f(v))).collect()
}

/// Telemetry as prost values.
pub mod telemetry {
    use super::{bijou::telemetry as b, bil::telemetry as l, map, pb::telemetry as p};

    fn any(v: &b::AnyValue) -> p::AnyValue {
        use b::any_value::Value as B;
        use p::any_value::Value as P;
        p::AnyValue {
            value: v.value.as_ref().map(|v| match v {
                B::StringValue(s) => P::StringValue(s.clone()),
                B::BoolValue(x) => P::BoolValue(*x),
                B::IntValue(x) => P::IntValue(*x),
                B::DoubleValue(x) => P::DoubleValue(*x),
                B::BytesValue(x) => P::BytesValue(x.clone()),
            }),
        }
    }

    /// The conversion to `$m`'s types, with `$any` converting an attribute value: prost
    /// and bilrost mirror the schema alike, apart from the attribute value.
    macro_rules! span_batch {
        ($v:ident, $m:ident, $any:ident) => {
            $m::SpanBatch {
                service_name: $v.service_name.clone(),
                resource: map(&$v.resource, $any),
                spans: $v
                    .spans
                    .iter()
                    .map(|s| $m::Span {
                        trace_id: s.trace_id.clone(),
                        span_id: s.span_id.clone(),
                        parent_span_id: s.parent_span_id.clone(),
                        name: s.name.clone(),
                        kind: s.kind,
                        start_time_unix_nano: s.start_time_unix_nano,
                        end_time_unix_nano: s.end_time_unix_nano,
                        attributes: map(&s.attributes, $any),
                        events: s
                            .events
                            .iter()
                            .map(|e| $m::Event {
                                time_unix_nano: e.time_unix_nano,
                                name: e.name.clone(),
                                attributes: map(&e.attributes, $any),
                            })
                            .collect(),
                        links: s
                            .links
                            .iter()
                            .map(|k| $m::Link {
                                trace_id: k.trace_id.clone(),
                                span_id: k.span_id.clone(),
                                attributes: map(&k.attributes, $any),
                            })
                            .collect(),
                        status: s.status.as_ref().map(|st| $m::Status {
                            message: st.message.clone(),
                            code: st.code,
                        }),
                        dropped_attributes_count: s.dropped_attributes_count,
                    })
                    .collect(),
            }
        };
    }

    /// The prost value.
    pub fn to_prost(v: &b::SpanBatch) -> p::SpanBatch {
        span_batch!(v, p, any)
    }

    fn bany(v: &b::AnyValue) -> l::AnyValue {
        use b::any_value::Value as B;
        use l::Value as L;
        l::AnyValue {
            value: v.value.as_ref().map(|v| match v {
                B::StringValue(s) => L::String(s.clone()),
                B::BoolValue(x) => L::Bool(*x),
                B::IntValue(x) => L::Int(*x),
                B::DoubleValue(x) => L::DoubleBits(x.to_bits()),
                B::BytesValue(x) => L::Bytes(x.clone()),
            }),
        }
    }

    /// The bilrost value.
    pub fn to_bilrost(v: &b::SpanBatch) -> l::SpanBatch {
        span_batch!(v, l, bany)
    }
}

/// The content-addressed index.
pub mod cas {
    use super::{bijou::cas as b, bil::cas as l, pb::cas as p};

    /// The conversion to `$m`'s types: prost and bilrost mirror the schema alike.
    macro_rules! index {
        ($v:ident, $m:ident) => {
            $m::Index {
                commits: $v
                    .commits
                    .iter()
                    .map(|c| $m::Commit {
                        id: c.id.clone(),
                        tree: c.tree.clone(),
                        parents: c.parents.clone(),
                        author: c.author.clone(),
                        message: c.message.clone(),
                        timestamp: c.timestamp,
                        metadata: c.metadata.clone(),
                    })
                    .collect(),
                blobs: $v
                    .blobs
                    .iter()
                    .map(|b| $m::Blob {
                        id: b.id.clone(),
                        size: b.size,
                        path: b.path.clone(),
                        mode: b.mode,
                        metadata: b.metadata.clone(),
                    })
                    .collect(),
            }
        };
    }

    /// The prost value.
    pub fn to_prost(v: &b::Index) -> p::Index {
        index!(v, p)
    }

    /// The bilrost value.
    pub fn to_bilrost(v: &b::Index) -> l::Index {
        index!(v, l)
    }
}

/// The wide records.
pub mod wide {
    use super::{bijou::wide as b, pb::wide as p};

    /// The prost value.
    pub fn to_prost(v: &b::WideBatch) -> p::WideBatch {
        p::WideBatch {
            items: v
                .items
                .iter()
                .map(|w| p::Wide {
                    name: w.name.clone(),
                    i32: w.i32,
                    i64: w.i64,
                    u32: w.u32,
                    u64: w.u64,
                    s32: w.s32,
                    s64: w.s64,
                    flag: w.flag,
                    level: w.level,
                    f32: w.f32,
                    f64: w.f64,
                    sf32: w.sf32,
                    sf64: w.sf64,
                    fl: w.fl,
                    db: w.db,
                    blob: w.blob.clone(),
                    opt_i32: w.opt_i32,
                    opt_u64: w.opt_u64,
                    opt_flag: w.opt_flag,
                    opt_text: w.opt_text.clone(),
                    text2: w.text2.clone(),
                    small1: w.small1,
                    small2: w.small2,
                    small3: w.small3,
                    flag2: w.flag2,
                    flag3: w.flag3,
                    group: w.group.as_ref().map(|g| p::Group {
                        field5: g.field5,
                        field13: g.field13.clone(),
                        field14: g.field14,
                        field15: g.field15,
                        field16: g.field16,
                        field22: g.field22.clone(),
                    }),
                })
                .collect(),
        }
    }
}

/// The numeric series.
pub mod numeric {
    use super::{bijou::numeric as b, bil::numeric as l, pb::numeric as p};

    /// The prost value.
    pub fn to_prost(v: &b::SeriesBatch) -> p::SeriesBatch {
        p::SeriesBatch {
            series: v
                .series
                .iter()
                .map(|s| p::Series {
                    name: s.name.clone(),
                    counts: s.counts.clone(),
                    deltas: s.deltas.clone(),
                    values: s.values.clone(),
                    flags: s.flags.clone(),
                })
                .collect(),
        }
    }

    /// The bilrost value.
    pub fn to_bilrost(v: &b::SeriesBatch) -> l::SeriesBatch {
        l::SeriesBatch {
            series: v
                .series
                .iter()
                .map(|s| l::Series {
                    name: s.name.clone(),
                    counts: s.counts.clone(),
                    deltas: s.deltas.clone(),
                    values: s.values.iter().map(|x| x.to_bits()).collect(),
                    flags: s.flags.clone(),
                })
                .collect(),
        }
    }
}

/// The nesting chain.
pub mod nest {
    use super::{bijou::nest as b, pb::nest as p};

    /// The prost value.
    pub fn to_prost(v: &b::Nest) -> p::Nest {
        p::Nest {
            value: v.value,
            label: v.label.clone(),
            child: v.child.as_ref().map(|c| Box::new(to_prost(c))),
        }
    }
}
