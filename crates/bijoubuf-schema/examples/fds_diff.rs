//! Compares two encoded `FileDescriptorSet`s field by field, options included:
//!
//! ```text
//! cargo run -p bijoubuf-schema --example fds_diff -- ours.binpb reference.binpb
//! ```
//!
//! The reference set must hold descriptor.proto and the files declaring custom options
//! (`protoc --include_imports`). Prints every difference and a summary; exits 1 if any.

#[path = "../tests/support/fds_diff.rs"]
mod fds_diff;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [ours, theirs] = args.as_slice() else {
        eprintln!("usage: fds_diff OURS.binpb REFERENCE.binpb");
        return std::process::ExitCode::from(2);
    };
    let read = |p: &str| std::fs::read(p).map_err(|e| format!("{p}: {e}"));
    let result = read(ours)
        .and_then(|a| read(theirs).map(|b| (a, b)))
        .and_then(|(a, b)| fds_diff::diff(&a, &b));
    match result {
        Ok(report) => {
            for d in &report.differences {
                println!("{d}");
            }
            println!(
                "files compared: {}, identical: {}, differences: {}, only in the reference: {}",
                report.files_compared,
                report.files_identical,
                report.differences.len(),
                report.only_in_reference.len()
            );
            if report.differences.is_empty() {
                std::process::ExitCode::SUCCESS
            } else {
                std::process::ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
