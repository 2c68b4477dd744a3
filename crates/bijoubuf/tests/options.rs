//! `DecodeOptions` and `EncodeOptions`: the defaults, and every setting read back by its getter (other
//! decoders of the format, such as the reflection decoder, read the limits through them).

use bijoubuf::{
    DEFAULT_MAX_DEPTH, DecodeOptions, EncodeOptions, MAX_DEPTH_LIMIT, UnknownFieldPolicy,
};

#[test]
fn defaults_are_depth_100_no_size_limit_strict() {
    for opts in [DecodeOptions::new(), DecodeOptions::default()] {
        assert_eq!(opts.get_max_depth(), DEFAULT_MAX_DEPTH);
        assert_eq!(DEFAULT_MAX_DEPTH, 100);
        assert_eq!(opts.get_max_size(), None);
        assert_eq!(opts.get_unknown_fields(), UnknownFieldPolicy::Reject);
    }
}

#[test]
fn settings_are_read_back() {
    for depth in [1, 2, 7, 100, 101, MAX_DEPTH_LIMIT - 1, MAX_DEPTH_LIMIT] {
        assert_eq!(DecodeOptions::new().max_depth(depth).get_max_depth(), depth);
        assert_eq!(EncodeOptions::new().max_depth(depth).get_max_depth(), depth);
    }
    // Past the cap, the cap (SPEC §9.3).
    for depth in [MAX_DEPTH_LIMIT + 1, u32::MAX] {
        assert_eq!(
            DecodeOptions::new().max_depth(depth).get_max_depth(),
            MAX_DEPTH_LIMIT
        );
        assert_eq!(
            EncodeOptions::new().max_depth(depth).get_max_depth(),
            MAX_DEPTH_LIMIT
        );
    }
    for opts in [EncodeOptions::new(), EncodeOptions::default()] {
        assert_eq!(opts.get_max_depth(), DEFAULT_MAX_DEPTH);
        assert_eq!(opts.get_max_size(), None);
    }
    let opts = EncodeOptions::new().max_size(Some(17)).max_size(Some(3));
    assert_eq!(opts.get_max_size(), Some(3));
    for size in [
        Some(0),
        Some(1),
        Some(2),
        Some(4096),
        Some(usize::MAX),
        None,
    ] {
        let opts = DecodeOptions::new().max_size(Some(17)).max_size(size);
        assert_eq!(opts.get_max_size(), size);
    }
    let opts = DecodeOptions::new().unknown_fields(UnknownFieldPolicy::Preserve);
    assert_eq!(opts.get_unknown_fields(), UnknownFieldPolicy::Preserve);
    let opts = opts.unknown_fields(UnknownFieldPolicy::Reject);
    assert_eq!(opts.get_unknown_fields(), UnknownFieldPolicy::Reject);
}

#[test]
fn depth_limit_zero_means_one() {
    // SPEC §9.3: the top-level message is always read, so a limit below 1 is 1.
    assert_eq!(DecodeOptions::new().max_depth(0).get_max_depth(), 1);
}

#[test]
fn settings_are_independent() {
    let opts = DecodeOptions::new()
        .max_depth(3)
        .max_size(Some(9))
        .unknown_fields(UnknownFieldPolicy::Preserve);
    assert_eq!(
        (
            opts.get_max_depth(),
            opts.get_max_size(),
            opts.get_unknown_fields()
        ),
        (3, Some(9), UnknownFieldPolicy::Preserve)
    );
}
