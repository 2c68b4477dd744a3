//! protobuf's benchmark message GoogleMessage1 (proto2 and proto3): seeded values for
//! every peer, shaped like the published `google_message1` payloads.
//!
//! One generator decides which fields are set (the proto2 value, where presence is
//! explicit); the proto3 value is the same data with every unset field at its default,
//! which proto3's implicit presence then leaves out of the bytes. The published payloads
//! are single messages of a few hundred bytes with about half the fields unset, most
//! integers small and strings short, so the generator draws the same way.

use rand::Rng;
use rand_chacha::ChaCha8Rng as R;

use super::bijou::benchmarks::{proto2 as b2, proto3 as b3};
use super::buffa_types::benchmarks::{proto2 as f2, proto3 as f3};
use super::data::{mostly_small, rng, words};
use super::pb::benchmarks::{proto2 as p2, proto3 as p3};

/// Fields of `GoogleMessage1` other than the sub-message (`field15`), by name.
macro_rules! top_fields {
    ($m:ident!($($args:tt)*)) => {
        $m!($($args)* field1 field9 field18 field80 field81 field2 field3 field280 field6
            field22 field4 field5 field59 field7 field16 field130 field12 field17 field13
            field14 field104 field100 field101 field102 field103 field29 field30 field60
            field271 field272 field150 field23 field24 field25 field78 field67 field68
            field128 field129 field131)
    };
}

/// Fields of `GoogleMessage1SubMessage`, by name.
macro_rules! sub_fields {
    ($m:ident!($($args:tt)*)) => {
        $m!($($args)* field1 field2 field3 field15 field12 field13 field14 field16 field19
            field20 field28 field21 field22 field23 field206 field203 field204 field205
            field207 field300)
    };
}

/// A struct literal of type `$ty` copying the named fields of `$v` and `field15` as given.
macro_rules! copy {
    ($v:expr, $($ty:ident)::+, { $($extra:tt)* } $($f:ident)*) => {
        $($ty)::+ { $($f: $v.$f.clone(),)* $($extra)* ..Default::default() }
    };
}

/// proto3 from proto2: an unset field reads as its default.
macro_rules! flatten {
    ($v:expr, $($ty:ident)::+, { $($extra:tt)* } $($f:ident)*) => {
        $($ty)::+ { $($f: Flat::flat(&$v.$f),)* $($extra)* ..Default::default() }
    };
}

/// A proto2 field's value as proto3 holds it.
trait Flat<T> {
    fn flat(&self) -> T;
}

impl<T: Clone + Default> Flat<T> for Option<T> {
    fn flat(&self) -> T {
        self.clone().unwrap_or_default()
    }
}

impl<T: Clone> Flat<T> for T {
    fn flat(&self) -> T {
        self.clone()
    }
}

/// Small signed values as a benchmark's counters and codes are: mostly below 128, some
/// wider, a few `-1` (several fields default to it in the proto2 schema).
fn small_i32(r: &mut R) -> i32 {
    if r.random_bool(0.05) {
        -1
    } else {
        mostly_small(r) as u32 as i32 & 0x7fff_ffff
    }
}

/// `f`'s value with probability `p`.
fn opt<T>(r: &mut R, p: f64, f: impl FnOnce(&mut R) -> T) -> Option<T> {
    if r.random_bool(p) { Some(f(r)) } else { None }
}

fn text(r: &mut R, lo: usize, hi: usize) -> String {
    let n = r.random_range(lo..hi);
    words(r, n, ' ')
}

fn sub(r: &mut R) -> b2::GoogleMessage1SubMessage {
    let i = |r: &mut R| small_i32(r);
    let b = |r: &mut R| r.random_bool(0.5);
    let l = |r: &mut R| mostly_small(r) as i64;
    let u = |r: &mut R| mostly_small(r);
    b2::GoogleMessage1SubMessage {
        field1: opt(r, 0.5, i),
        field2: opt(r, 0.5, i),
        field3: opt(r, 0.5, i),
        field15: opt(r, 0.5, |r| text(r, 4, 24)),
        field12: opt(r, 0.5, b),
        field13: opt(r, 0.3, l),
        field14: opt(r, 0.3, l),
        field16: opt(r, 0.3, i),
        field19: opt(r, 0.5, i),
        field20: opt(r, 0.5, b),
        field28: opt(r, 0.5, b),
        field21: opt(r, 0.4, |r| r.random()),
        field22: opt(r, 0.3, i),
        field23: opt(r, 0.3, b),
        field206: opt(r, 0.3, b),
        field203: opt(r, 0.4, |r| r.random()),
        field204: opt(r, 0.3, i),
        field205: opt(r, 0.3, |r| text(r, 4, 24)),
        field207: opt(r, 0.3, u),
        field300: opt(r, 0.3, u),
        ..Default::default()
    }
}

/// The proto2 value for `seed`: required fields always set, optional ones about half the
/// time, `field15` (the sub-message) nine times in ten.
pub fn proto2(seed: u64) -> b2::GoogleMessage1 {
    let r = &mut rng(seed);
    let i = |r: &mut R| small_i32(r);
    let b = |r: &mut R| r.random_bool(0.5);
    let s = |r: &mut R| text(r, 6, 32);
    let n5 = r.random_range(0..4);
    b2::GoogleMessage1 {
        field1: text(r, 16, 48),
        field9: opt(r, 0.5, s),
        field18: opt(r, 0.5, s),
        field80: opt(r, 0.5, b),
        field81: opt(r, 0.5, b),
        field2: small_i32(r),
        field3: small_i32(r),
        field280: opt(r, 0.5, i),
        field6: opt(r, 0.5, i),
        field22: opt(r, 0.3, |r| mostly_small(r) as i64),
        field4: opt(r, 0.5, s),
        field5: (0..n5).map(|_| r.random()).collect(),
        field59: opt(r, 0.5, b),
        field7: opt(r, 0.5, s),
        field16: opt(r, 0.5, i),
        field130: opt(r, 0.5, i),
        field12: opt(r, 0.5, b),
        field17: opt(r, 0.5, b),
        field13: opt(r, 0.5, b),
        field14: opt(r, 0.5, b),
        field104: opt(r, 0.5, i),
        field100: opt(r, 0.5, i),
        field101: opt(r, 0.5, i),
        field102: opt(r, 0.5, s),
        field103: opt(r, 0.5, s),
        field29: opt(r, 0.5, i),
        field30: opt(r, 0.5, b),
        field60: opt(r, 0.5, i),
        field271: opt(r, 0.5, i),
        field272: opt(r, 0.5, i),
        field150: opt(r, 0.5, i),
        field23: opt(r, 0.5, i),
        field24: opt(r, 0.5, b),
        field25: opt(r, 0.5, i),
        field15: r.random_bool(0.9).then(|| sub(r)),
        field78: opt(r, 0.5, b),
        field67: opt(r, 0.5, i),
        field68: opt(r, 0.5, i),
        field128: opt(r, 0.5, i),
        field129: opt(r, 0.3, s),
        field131: opt(r, 0.5, i),
        ..Default::default()
    }
}

/// The proto3 value for `seed`: [`proto2`]'s data with unset fields at their defaults.
pub fn proto3(seed: u64) -> b3::GoogleMessage1 {
    let v = proto2(seed);
    let sub = v
        .field15
        .as_ref()
        .map(|s| sub_fields!(flatten!(s, b3::GoogleMessage1SubMessage, {})));
    top_fields!(flatten!(v, b3::GoogleMessage1, { field15: sub, }))
}

/// The proto3 value as prost's type.
#[allow(clippy::needless_update)] // prost's types hold only the schema's fields
pub fn proto3_to_prost(v: &b3::GoogleMessage1) -> p3::GoogleMessage1 {
    let sub = v
        .field15
        .as_ref()
        .map(|s| sub_fields!(copy!(s, p3::GoogleMessage1SubMessage, {})));
    top_fields!(copy!(v, p3::GoogleMessage1, { field15: sub, }))
}

/// The proto2 value as prost's type.
#[allow(clippy::needless_update)] // prost's types hold only the schema's fields
pub fn proto2_to_prost(v: &b2::GoogleMessage1) -> p2::GoogleMessage1 {
    let sub = v
        .field15
        .as_ref()
        .map(|s| sub_fields!(copy!(s, p2::GoogleMessage1SubMessage, {})));
    top_fields!(copy!(v, p2::GoogleMessage1, { field15: sub, }))
}

/// The proto3 value as buffa's owned type.
pub fn proto3_to_buffa(v: &b3::GoogleMessage1) -> f3::GoogleMessage1 {
    let sub = v
        .field15
        .as_ref()
        .map(|s| sub_fields!(copy!(s, f3::GoogleMessage1SubMessage, {})));
    top_fields!(copy!(v, f3::GoogleMessage1, { field15: sub.into(), }))
}

/// The proto2 value as buffa's owned type.
pub fn proto2_to_buffa(v: &b2::GoogleMessage1) -> f2::GoogleMessage1 {
    let sub = v
        .field15
        .as_ref()
        .map(|s| sub_fields!(copy!(s, f2::GoogleMessage1SubMessage, {})));
    top_fields!(copy!(v, f2::GoogleMessage1, { field15: sub.into(), }))
}
