//! The value distributions, seeded so every run times the same batches.

/// Values per batch.
pub const BATCH: usize = 4096;

/// Distinct batches per distribution that a benchmark cycles through, one per iteration.
///
/// Timing one batch over and over lets the branch predictor learn it: on the machine of
/// `RESULTS.md`, LEB128 decoders ran 2–3× faster on a repeated batch than on fresh ones,
/// and the effect faded only past about 16 batches (64 Ki values). Real inputs are not
/// replayed, so every operation cycles through this many batches (1 Mi values; a few MB of
/// input, streamed sequentially, which the hardware prefetcher keeps up with).
pub const POOL: usize = 64;

/// A distribution of `u64` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dist {
    /// Uniform over 0..=247 (one bijou64 byte; one or two LEB128 bytes).
    Tiny,
    /// Uniform over 248..=65 535.
    Small,
    /// Log-uniform over 2^16..2^32: a bit width drawn uniformly from 17..=32, then a value
    /// of that width. (Uniform over the range would be almost all 32-bit values.)
    Medium,
    /// Log-uniform over 2^32..2^64: a bit width from 33..=64, then a value of that width.
    Large,
    /// Uniform over all of `u64` (almost all 64-bit values).
    Uniform,
    /// About 70 % tiny, 20 % small, 8 % medium, 2 % large, in shuffled order.
    Mixed,
    /// Log-uniform over all of `u64`: a bit width drawn uniformly from 1..=64, then a value
    /// of that width, so every encoded length is about equally likely and a decoder cannot
    /// predict the next one.
    Widths,
}

impl Dist {
    /// Every distribution, in the order the tables list them.
    pub const ALL: [Dist; 7] = [
        Dist::Tiny,
        Dist::Small,
        Dist::Medium,
        Dist::Large,
        Dist::Uniform,
        Dist::Mixed,
        Dist::Widths,
    ];

    /// The name used in benchmark ids and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Dist::Tiny => "tiny",
            Dist::Small => "small",
            Dist::Medium => "medium",
            Dist::Large => "large",
            Dist::Uniform => "uniform",
            Dist::Mixed => "mixed",
            Dist::Widths => "widths",
        }
    }

    /// A one-line description for the results page.
    pub const fn describe(self) -> &'static str {
        match self {
            Dist::Tiny => "uniform 0–247",
            Dist::Small => "uniform 248–65 535",
            Dist::Medium => "log-uniform 2^16–2^32 (bit width uniform in 17..=32)",
            Dist::Large => "log-uniform 2^32–2^64 (bit width uniform in 33..=64)",
            Dist::Uniform => "uniform over u64",
            Dist::Mixed => "70 % tiny, 20 % small, 8 % medium, 2 % large, shuffled",
            Dist::Widths => "log-uniform over u64 (bit width uniform in 1..=64)",
        }
    }

    fn seed(self) -> u64 {
        0xB1_0000 + self as u64
    }
}

/// SplitMix64: a small, well-mixed, seeded generator (no dependency, same stream forever).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (the modulo bias is far below what a benchmark could see).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        let span = hi - lo;
        if span == u64::MAX {
            return self.next_u64();
        }
        lo + self.next_u64() % (span + 1)
    }

    /// A value of exactly `bits` significant bits (1..=64).
    pub fn of_width(&mut self, bits: u32) -> u64 {
        let top = 1u64 << (bits - 1);
        top | (self.next_u64() & (top - 1))
    }
}

fn draw(dist: Dist, rng: &mut SplitMix64) -> u64 {
    match dist {
        Dist::Tiny => rng.range(0, 247),
        Dist::Small => rng.range(248, 65_535),
        Dist::Medium => {
            let bits = rng.range(17, 32) as u32;
            rng.of_width(bits)
        }
        Dist::Large => {
            let bits = rng.range(33, 64) as u32;
            rng.of_width(bits)
        }
        Dist::Uniform => rng.next_u64(),
        Dist::Widths => {
            let bits = rng.range(1, 64) as u32;
            rng.of_width(bits)
        }
        Dist::Mixed => unreachable!("mixed is built from the others"),
    }
}

/// The first batch of [`BATCH`] values for `dist`.
pub fn values(dist: Dist) -> Vec<u64> {
    values_seeded(dist, 0)
}

/// The [`POOL`] batches for `dist`.
pub fn pool(dist: Dist) -> Vec<Vec<u64>> {
    (0..POOL as u64).map(|k| values_seeded(dist, k)).collect()
}

/// Batch number `k` of `dist`.
pub fn values_seeded(dist: Dist, k: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(dist.seed() ^ (k << 32));
    if dist != Dist::Mixed {
        return (0..BATCH).map(|_| draw(dist, &mut rng)).collect();
    }
    // Exact shares (70/20/8/2 of 4096, rounded), then a Fisher–Yates shuffle.
    let shares = [
        (Dist::Tiny, BATCH * 70 / 100),
        (Dist::Small, BATCH * 20 / 100),
        (Dist::Medium, BATCH * 8 / 100),
    ];
    let mut out = Vec::with_capacity(BATCH);
    for (d, n) in shares {
        out.extend((0..n).map(|_| draw(d, &mut rng)));
    }
    while out.len() < BATCH {
        out.push(draw(Dist::Large, &mut rng));
    }
    for i in (1..out.len()).rev() {
        let j = rng.range(0, i as u64) as usize;
        out.swap(i, j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_stay_in_their_ranges() {
        let ranges = [
            (Dist::Tiny, 0, 247),
            (Dist::Small, 248, 65_535),
            (Dist::Medium, 1 << 16, (1 << 32) - 1),
            (Dist::Large, 1 << 32, u64::MAX),
        ];
        for (d, lo, hi) in ranges {
            let v = values(d);
            assert_eq!(v.len(), BATCH);
            assert!(v.iter().all(|&x| (lo..=hi).contains(&x)), "{d:?}");
        }
        // The mix has its shares.
        let mix = values(Dist::Mixed);
        let tiny = mix.iter().filter(|&&x| x < 248).count();
        let large = mix.iter().filter(|&&x| x >= 1 << 32).count();
        assert_eq!(tiny, BATCH * 70 / 100);
        assert!((80..=84).contains(&large), "{large}");
        // Shuffled: not sorted by class.
        assert!(mix[..100].iter().any(|&x| x >= 248));
        // Every encoded length 1..=9 occurs: about 1/8 each, except two bytes (tier 1 holds
        // only 256 values: about 1.5 %).
        let widths = values(Dist::Widths);
        for len in 1..=9 {
            let n = widths
                .iter()
                .filter(|&&x| bijou64::encoded_len(x) == len)
                .count();
            assert!(n > BATCH / 100, "{n} values of {len} bytes");
        }
    }

    #[test]
    fn batches_are_reproducible() {
        assert_eq!(values(Dist::Uniform), values(Dist::Uniform));
        assert_ne!(values(Dist::Uniform), values(Dist::Large));
    }
}
