//! A table-shaped message's `required` fields past its 32nd field: the table's loop notes
//! the fields it read in one 64-bit word (the runtime's `TABLE_REQUIRED_MAX` is 64), and a
//! required field missing at any position up to the 64th is reported as the walk reports
//! it (code, offset, path), the lowest missing one first (SPEC §5.3). The conformance
//! schemas' table-shaped `required` fields all lie among the first six.

use bijoubuf::Message;
use bijoubuf_codegen_tests::table_required::{Open, table, walk};

/// The numbers of `Wide`'s required fields (`protos/table_required.proto`).
const REQUIRED: [i32; 4] = [1, 32, 33, 64];

/// `Open` with every field set to its own number but those in `skip`, encoded.
fn leaving_out(skip: &[i32]) -> Vec<u8> {
    let mut o = Open::default();
    macro_rules! set {
        ($($f:ident $n:literal),*) => {
            $(if !skip.contains(&$n) {
                o.$f = Some($n);
            })*
        };
    }
    set!(
        f1 1, f2 2, f3 3, f4 4, f5 5, f6 6, f7 7, f8 8,
        f9 9, f10 10, f11 11, f12 12, f13 13, f14 14, f15 15, f16 16,
        f17 17, f18 18, f19 19, f20 20, f21 21, f22 22, f23 23, f24 24,
        f25 25, f26 26, f27 27, f28 28, f29 29, f30 30, f31 31, f32 32,
        f33 33, f34 34, f35 35, f36 36, f37 37, f38 38, f39 39, f40 40,
        f41 41, f42 42, f43 43, f44 44, f45 45, f46 46, f47 47, f48 48,
        f49 49, f50 50, f51 51, f52 52, f53 53, f54 54, f55 55, f56 56,
        f57 57, f58 58, f59 59, f60 60, f61 61, f62 62, f63 63, f64 64
    );
    o.encode_to_vec().expect("encodes")
}

/// A decode's outcome as the tests compare it: the re-encoding, or the error's code,
/// offset and path.
fn outcome<M: Message>(bytes: &[u8]) -> Result<Vec<u8>, (&'static str, usize, String)> {
    M::decode(bytes)
        .map(|m| m.encode_to_vec().expect("re-encodes"))
        .map_err(|e| (e.code(), e.offset(), e.path_string()))
}

#[test]
fn a_missing_required_field_at_any_position_is_reported_as_the_walk_reports_it() {
    let mut skips: Vec<Vec<i32>> = vec![vec![]];
    skips.extend((1..=64).map(|n| vec![n]));
    skips.extend([vec![32, 64], vec![33, 64], vec![2, 33], vec![1, 32, 33, 64]]);
    for skip in &skips {
        let bytes = leaving_out(skip);
        let t = outcome::<table::Wide>(&bytes);
        let w = outcome::<walk::Wide>(&bytes);
        assert_eq!(t, w, "table and walk differ without {skip:?}");
        match REQUIRED.iter().find(|n| skip.contains(n)) {
            Some(n) => {
                let (code, _, path) = t.expect_err("a required field is missing");
                assert_eq!(code, "missing-required-field", "without {skip:?}");
                assert_eq!(path, format!("Wide.f{n}"), "without {skip:?}");
            }
            None => assert_eq!(t.as_deref(), Ok(bytes.as_slice()), "without {skip:?}"),
        }
    }
}
