//! The content_store example: one key per value, strict reads, corruption reported.

use bijoubuf::Message as _;
use bijoubuf_examples::catalog::Release;
use bijoubuf_examples::store::{self, ContentStore, StoreError, TempPath};

/// The release's bytes, derived by hand: name, version (key 02, LEN), dependencies
/// (key 02, 20 bytes: "bijou64" -> "0.1", "serde" -> "1"), authors (key 02, 10 bytes),
/// yanked omitted, published_at (key 04 = delta 1, VARINT) 1 767 225 600 =
/// FB + (value − 16 843 256) in 4 bytes = FB 68 54 B7 08.
const BYTES: &[u8] = b"\x02\x08bijoubuf\x02\x050.1.0\x02\x14\x07bijou64\x030.1\x05serde\x011\
\x02\x0A\x03Ada\x05Grace\x04\xFB\x68\x54\xB7\x08";

fn report() -> store::Report {
    store::run().expect("the demo runs")
}

fn decode_error(r: &Result<Option<Release>, StoreError>) -> &bijoubuf::DecodeError {
    match r {
        Err(StoreError::Corrupt { error, .. }) => error,
        other => panic!("expected a decode refusal, got {other:?}"),
    }
}

#[test]
fn equal_values_built_differently_land_on_one_key() {
    let r = report();
    assert_eq!(store::release_in_order(), store::release_other_way());
    assert_eq!(r.bytes, BYTES);
    assert_eq!(r.first, *blake3::hash(BYTES).as_bytes());
    assert_eq!(r.second, r.first);
    assert_eq!(r.records_after_puts, 1);
    assert_eq!(
        r.fetched.as_ref().unwrap(),
        &Some(store::release_in_order())
    );
}

#[test]
fn a_non_canonical_spelling_gets_no_second_key() {
    let r = report();
    // yanked = false written as `00 00` at byte 51 (key 00: field 5 after 4, VARINT).
    assert_eq!(&r.non_canonical_bytes[51..54], [0x00, 0x00, 0x00]);
    match &r.non_canonical {
        Err(StoreError::NotCanonical(e)) => {
            assert_eq!((e.code(), e.offset()), ("default-value-present", 51));
            assert_eq!(e.path_string(), "Release.yanked");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(r.records_after_non_canonical, 1);
}

#[test]
fn a_flipped_bit_that_still_decodes_is_a_hash_mismatch() {
    let r = report();
    let c = &r.corruptions[0];
    assert_eq!(&c.bytes[2..10], b"Bijoubuf");
    let Err(StoreError::HashMismatch { hash, actual }) = &c.result else {
        panic!("expected a hash mismatch, got {:?}", c.result);
    };
    assert_eq!(*hash, r.first);
    assert_eq!(*actual, *blake3::hash(&c.bytes).as_bytes());
    assert_eq!(c.result.as_ref().unwrap_err().code(), "hash-mismatch");
}

#[test]
fn a_flipped_bit_that_breaks_map_order_is_a_decode_error() {
    let r = report();
    let c = &r.corruptions[1];
    let e = decode_error(&c.result);
    // "serde"'s entry starts at byte 31 (its length prefix 05).
    assert_eq!((e.code(), e.offset()), ("map-key-order", 31));
    assert_eq!(e.path_string(), "Release.dependencies[\"3erde\"]");
}

#[test]
fn a_lost_last_byte_is_truncated() {
    let r = report();
    let c = &r.corruptions[2];
    let e = decode_error(&c.result);
    // published_at's bijou64 starts with its tag FB at byte 52.
    assert_eq!((e.code(), e.offset()), ("truncated", 52));
    assert_eq!(e.path_string(), "Release.published_at");
}

#[test]
fn the_temporary_database_is_removed() {
    assert!(report().cleaned_up);
    let a = TempPath::new("t");
    let b = TempPath::new("t");
    assert_ne!(a.path(), b.path());
    assert!(a.path().starts_with(std::env::temp_dir()));
    std::fs::write(a.path(), b"x").unwrap();
    let p = a.path().to_path_buf();
    drop(a);
    assert!(!p.exists());
}

#[test]
fn the_store_api_round_trips_and_refuses() {
    let temp = TempPath::new("content-store-test");
    let s = ContentStore::create(temp.path()).unwrap();
    assert!(s.is_empty().unwrap());
    assert!(s.get::<Release>(&[0; 32]).unwrap().is_none());
    let release = store::release_in_order();
    let h = s.put(&release).unwrap();
    assert_eq!(
        s.put_encoded::<Release>(&release.encode_to_vec().unwrap())
            .unwrap(),
        h
    );
    assert_eq!(s.len().unwrap(), 1);
    assert_eq!(s.raw(&h).unwrap().as_deref(), Some(BYTES));
    // The key is the content id: BLAKE3 of the bytes stored, computed without them.
    assert_eq!(ContentStore::key_of(&release).unwrap(), h);
    assert_eq!(h, *blake3::hash(BYTES).as_bytes());
    assert!(s.contains(&h).unwrap());
    assert!(!s.contains(&[0; 32]).unwrap());
    // Another value's bytes under this key: it decodes, the hash says it is not ours.
    let other = Release {
        name: "other".into(),
        ..Release::default()
    };
    s.overwrite_raw(&h, &other.encode_to_vec().unwrap())
        .unwrap();
    assert_eq!(s.get::<Release>(&h).unwrap_err().code(), "hash-mismatch");
    // Garbage: refused by the decoder. 0xFF is a tier-8 tag with nothing after it.
    s.overwrite_raw(&h, &[0xFF]).unwrap();
    let err = s.get::<Release>(&h).unwrap_err();
    assert_eq!(err.code(), "truncated");
}

#[test]
fn the_printed_report_shows_each_outcome() {
    let text = report().to_string();
    assert!(
        text.contains("same key: yes; records in the store: 1"),
        "{text}"
    );
    for code in [
        "default-value-present",
        "hash-mismatch",
        "map-key-order",
        "truncated",
    ] {
        assert!(text.contains(code), "{code} missing from:\n{text}");
    }
    assert!(text.contains("Database file removed: yes"));
}
