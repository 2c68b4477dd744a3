//! What the CLI's test files share: running the binary as a user runs it.

#![allow(dead_code)] // each test file uses its own part

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

pub(crate) fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Run the binary in `tests/data` (so paths in messages are short and stable).
pub(crate) fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
        .args(args)
        .current_dir(data())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    // The command may exit before reading (usage errors): ignore a closed pipe.
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().expect("the binary finishes");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    Run {
        code: out.status.code().expect("an exit status"),
        stdout: out.stdout,
        stderr,
    }
}
