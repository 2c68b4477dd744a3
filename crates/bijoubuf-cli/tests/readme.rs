//! Every command of the README's command-line block runs as written from the
//! repository's root, exits 0, and the sample schema draws no lint warning.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The lines of the first `sh` block after the "The command line" paragraph.
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme
        .split_once("**The command line**")
        .expect("the README has a command-line section")
        .1;
    let block = section
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a sh block")
        .0;
    block
        .lines()
        .map(|l| l.split(" #").next().unwrap_or(l).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn every_readme_command_runs_as_written() {
    let commands = readme_commands();
    assert!(commands.len() >= 8, "{commands:?}");
    for line in &commands {
        let mut words = line.split_whitespace();
        assert_eq!(words.next(), Some("bijoubuf"), "{line}");
        let out = Command::new(env!("CARGO_BIN_EXE_bijoubuf"))
            .args(words)
            .current_dir(root())
            .output()
            .expect("the binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "`{line}` exited {:?}:\n{stderr}",
            out.status.code()
        );
        assert!(!stdout.is_empty(), "`{line}` printed nothing");
        if line.contains(" check ") {
            assert!(
                stdout.ends_with(", 0 warnings\n") && stderr.is_empty(),
                "`{line}` warns:\n{stdout}{stderr}"
            );
        }
    }
}
