//! The timed operations, as functions, so the tests below check what the benchmarks time.

/// Encode a bijoubuf message into a reused buffer.
///
/// # Panics
/// If the message is nested deeper than bijoubuf's limit (no dataset is).
pub fn bijou_encode<M: bijoubuf::Message>(m: &M, buf: &mut Vec<u8>) {
    buf.clear();
    m.encode(buf).expect("datasets stay within the depth limit");
}

/// Encode a prost message into a reused buffer.
///
/// # Panics
/// Never: a `Vec` grows as needed.
pub fn prost_encode<M: prost::Message>(m: &M, buf: &mut Vec<u8>) {
    buf.clear();
    m.encode(buf).expect("a Vec has room");
}

/// Encode a bilrost message into a reused buffer.
///
/// # Panics
/// Never: a `Vec` grows as needed.
pub fn bilrost_encode<M: bilrost::Message>(m: &M, buf: &mut Vec<u8>) {
    buf.clear();
    m.encode(buf).expect("a Vec has room");
}

/// Encode a buffa message into a reused buffer.
pub fn buffa_encode<M: buffa::Message>(m: &M, buf: &mut Vec<u8>) {
    buf.clear();
    m.encode(buf);
}

/// What a protobuf user does to learn whether bytes are the canonical encoding of their
/// value: decode, re-encode into a reused buffer, compare. Returns the value when the bytes
/// were canonical (for prost's own encoder: fields in number order, shortest varints,
/// defaults omitted, maps in key order since the types use `BTreeMap`).
pub fn prost_decode_canonical<M: prost::Message + Default>(
    bytes: &[u8],
    buf: &mut Vec<u8>,
) -> Option<M> {
    let m = M::decode(bytes).ok()?;
    buf.clear();
    m.encode(buf).ok()?;
    (buf.as_slice() == bytes).then_some(m)
}

/// A strict decode into bijoubuf's borrowed twin type `R` (strings and bytes borrowed
/// from `bytes`), the value dropped: the operation the `bijou-borrowed-decode` ids time.
pub fn bijou_borrowed_decode<'a, R: bijoubuf::MessageRef<'a>>(bytes: &'a [u8]) -> bool {
    std::hint::black_box(R::decode(bytes).ok()).is_some()
}

/// bijoubuf's options for the preserving decode.
pub const PRESERVE: bijoubuf::DecodeOptions =
    bijoubuf::DecodeOptions::new().unknown_fields(bijoubuf::UnknownFieldPolicy::Preserve);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{bijou, bil, buffa_types, convert, data, gm1, pb};
    use bijoubuf::Message as _;
    use bilrost::OwnedMessage as _;
    use buffa::{Message as _, MessageView as _};
    use prost::Message as _;

    fn check_bijou<M: bijoubuf::Message + PartialEq + std::fmt::Debug>(m: &M) -> Vec<u8> {
        let mut buf = Vec::new();
        bijou_encode(m, &mut buf);
        assert_eq!(buf.len(), m.encoded_len());
        assert_eq!(&M::decode(&buf).expect("strict decode"), m);
        let kept = M::decode_with(&buf, &PRESERVE).expect("preserving decode");
        assert!(!kept.has_unknown_fields());
        assert_eq!(kept.message(), m);
        buf
    }

    fn check_prost<M: prost::Message + Default + PartialEq + std::fmt::Debug>(m: &M) -> Vec<u8> {
        let mut buf = Vec::new();
        prost_encode(m, &mut buf);
        assert_eq!(&M::decode(&buf[..]).expect("prost decode"), m);
        let mut scratch = Vec::new();
        assert_eq!(
            prost_decode_canonical::<M>(&buf, &mut scratch).as_ref(),
            Some(m)
        );
        // The check can fail: a field appended out of order is valid protobuf but not
        // what prost writes.
        let mut twisted = buf.clone();
        twisted.extend_from_slice(&buf[..buf.len().min(2)]);
        assert_ne!(
            prost_decode_canonical::<M>(&twisted, &mut scratch).as_ref(),
            Some(m)
        );
        buf
    }

    fn check_bilrost<M>(m: &M) -> Vec<u8>
    where
        M: bilrost::Message + bilrost::DistinguishedOwnedMessage + PartialEq + std::fmt::Debug,
    {
        let mut buf = Vec::new();
        bilrost_encode(m, &mut buf);
        assert_eq!(&M::decode_canonical(&buf[..]).expect("distinguished"), m);
        assert_eq!(&M::decode(&buf[..]).expect("relaxed"), m);
        buf
    }

    fn check_buffa<M: buffa::Message + PartialEq + std::fmt::Debug>(m: &M) -> Vec<u8> {
        let mut buf = Vec::new();
        buffa_encode(m, &mut buf);
        assert_eq!(buf.len(), m.encoded_len() as usize);
        assert_eq!(&M::decode_from_slice(&buf).expect("buffa decode"), m);
        buf
    }

    #[test]
    fn google_message1_peers_agree() {
        use buffa_types::benchmarks::{proto2 as f2, proto3 as f3};
        let mut sizes = Vec::new();
        for seed in 0..64 {
            let v2 = gm1::proto2(seed);
            let v3 = gm1::proto3(seed);
            check_bijou(&v2);
            let b3 = check_bijou(&v3);
            let p2 = check_prost(&gm1::proto2_to_prost(&v2));
            let p3 = check_prost(&gm1::proto3_to_prost(&v3));
            let o2 = gm1::proto2_to_buffa(&v2);
            let o3 = gm1::proto3_to_buffa(&v3);
            let f2b = check_buffa(&o2);
            let f3b = check_buffa(&o3);
            // prost and buffa both write protobuf: each reads the other's bytes as the
            // same value, so the conversions carry the same data to both.
            assert_eq!(f2::GoogleMessage1::decode_from_slice(&p2).unwrap(), o2);
            assert_eq!(f3::GoogleMessage1::decode_from_slice(&p3).unwrap(), o3);
            assert_eq!(
                pb::benchmarks::proto3::GoogleMessage1::decode(&f3b[..]).unwrap(),
                gm1::proto3_to_prost(&v3)
            );
            // The views borrow the same data.
            let view = f3::GoogleMessage1View::decode_view(&f3b).unwrap();
            assert_eq!(view.field1, v3.field1);
            assert_eq!(view.field15.is_set(), v3.field15.is_some());
            let view = f2::GoogleMessage1View::decode_view(&f2b).unwrap();
            assert_eq!(view.field129, v2.field129.as_deref());
            sizes.push((b3.len(), p3.len()));
        }
        // Shaped like the published payloads: a few hundred bytes, never empty; about
        // half the optional fields set.
        let (b, p): (usize, usize) = sizes.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
        assert!(
            (100..400).contains(&(p / 64)),
            "mean protobuf size {}",
            p / 64
        );
        assert!(b <= p + p / 20, "bijoubuf {b} against protobuf {p}");
        let set = (0..64)
            .map(|s| gm1::proto2(s).field280.is_some() as u32)
            .sum::<u32>();
        assert!((16..48).contains(&set), "{set}");
        assert_eq!(gm1::proto3(7), gm1::proto3(7));
        assert_ne!(gm1::proto3(7), gm1::proto3(8));
    }

    #[test]
    fn borrowed_twins_decode_every_dataset_like_the_owned_types() {
        use crate::msg::bijou::{benchmarks, cas, telemetry};
        use bijoubuf::MessageRef as _;
        for seed in 0..16 {
            let v = gm1::proto3(seed);
            let b = v.encode_to_vec().unwrap();
            let r = benchmarks::proto3::GoogleMessage1Ref::decode(&b).unwrap();
            assert_eq!(r.to_owned(), v);
            assert_eq!(r.encode_to_vec().unwrap(), b);
            assert!(bijou_borrowed_decode::<
                benchmarks::proto3::GoogleMessage1Ref<'_>,
            >(&b));
            let v = gm1::proto2(seed);
            let b = v.encode_to_vec().unwrap();
            let r = benchmarks::proto2::GoogleMessage1Ref::decode(&b).unwrap();
            assert_eq!(r.to_owned(), v);
        }
        let v = data::telemetry(1, 16);
        let b = v.encode_to_vec().unwrap();
        assert_eq!(telemetry::SpanBatchRef::decode(&b).unwrap().to_owned(), v);
        let v = data::cas(2, 8, 32);
        let b = v.encode_to_vec().unwrap();
        assert_eq!(cas::IndexRef::decode(&b).unwrap().to_owned(), v);
        // A refused input is refused alike.
        let bad = [0x00, 0x00];
        assert!(!bijou_borrowed_decode::<cas::IndexRef<'_>>(&bad));
        assert_eq!(
            cas::IndexRef::decode(&bad).unwrap_err().to_string(),
            cas::Index::decode(&bad).unwrap_err().to_string()
        );
    }

    #[test]
    fn telemetry_peers_agree() {
        let v = data::telemetry(1, 16);
        assert_eq!(v.spans.len(), 16);
        let b = check_bijou(&v);
        let p = check_prost(&convert::telemetry::to_prost(&v));
        let l = check_bilrost(&convert::telemetry::to_bilrost(&v));
        // bijoubuf's keys and lengths are never longer than protobuf's varints here.
        assert!(b.len() <= p.len(), "{} > {}", b.len(), p.len());
        assert!(!l.is_empty());
        let again: bil::telemetry::SpanBatch = bil::telemetry::SpanBatch::decode(&l[..]).unwrap();
        assert_eq!(again.spans.len(), 16);
    }

    #[test]
    fn cas_peers_agree() {
        let v = data::cas(2, 8, 32);
        check_bijou(&v);
        check_prost(&convert::cas::to_prost(&v));
        check_bilrost(&convert::cas::to_bilrost(&v));
        assert!(v.commits.iter().all(|c| c.id.len() == 32));
    }

    #[test]
    fn wide_peers_agree() {
        let v = data::wide(3, 32);
        check_bijou(&v);
        check_prost(&convert::wide::to_prost(&v));
    }

    #[test]
    fn numeric_peers_agree() {
        let v = data::numeric(4, 4, 64);
        check_bijou(&v);
        check_prost(&convert::numeric::to_prost(&v));
        check_bilrost(&convert::numeric::to_bilrost(&v));
    }

    #[test]
    fn nest_depths_round_trip() {
        for depth in [1, 2, 50, 100] {
            let v = data::nest(depth);
            let b = check_bijou(&v);
            let mut n = 1;
            let mut cur = &v;
            while let Some(c) = &cur.child {
                n += 1;
                cur = c;
            }
            assert_eq!(n, depth);
            let p = convert::nest::to_prost(&v);
            assert_eq!(pb::nest::Nest::decode(&p.encode_to_vec()[..]).unwrap(), p);
            assert!(!b.is_empty());
        }
        // One more level than the limit is refused on encode.
        let too_deep = data::nest(101);
        assert!(too_deep.encode_to_vec().is_err());
    }

    #[test]
    fn generators_are_seeded() {
        assert_eq!(data::telemetry(9, 4), data::telemetry(9, 4));
        assert_ne!(data::telemetry(9, 4), data::telemetry(10, 4));
        let s: &bijou::numeric::SeriesBatch = &data::numeric(5, 1, 1000);
        let small = s.series[0].counts.iter().filter(|&&c| c < 128).count();
        // 70 % are drawn below 128; allow for chance.
        assert!((600..800).contains(&small), "{small}");
    }
}
