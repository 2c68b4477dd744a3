//! What the property test files share.

use proptest::test_runner::{Config as RunnerConfig, TestRunner};

/// A proptest runner for `cases` cases that writes no regression files (the conformance
/// properties draw from fixed seeds per type and report the failing input themselves).
pub(crate) fn runner(cases: u32) -> TestRunner {
    TestRunner::new(RunnerConfig {
        cases,
        failure_persistence: None,
        ..RunnerConfig::default()
    })
}
