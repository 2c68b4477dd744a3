//! The vectors as a pack: `vectors/MANIFEST` matches the tree (SPEC version, vectors per
//! file, SHA-256 over the set), a changed vector without a new manifest fails, and
//! `scripts/pack.sh` builds the same tarball bytes from the same tree.

use std::path::{Path, PathBuf};
use std::process::Command;

use bijoubuf_conformance::manifest::{self, Manifest};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("bijoubuf-pack-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A copy of what the pack and the manifest read (new files, so new mtimes).
fn copy_tree(to: &Path) {
    let from = root();
    let mut files = manifest::set_files(&from).expect("set");
    files.extend(
        [
            "vectors/MANIFEST",
            "SPEC.md",
            "README.md",
            "scripts/pack.sh",
        ]
        .map(String::from),
    );
    for rel in files {
        let dst = to.join(&rel);
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::copy(from.join(&rel), &dst).expect("copy");
    }
}

fn pack(tree: &Path, out: &Path) -> Result<PathBuf, String> {
    let o = Command::new("bash")
        .arg(tree.join("scripts/pack.sh"))
        .arg(out)
        .output()
        .expect("bash runs");
    if o.status.success() {
        Ok(PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    }
}

#[test]
fn the_manifest_matches_the_vectors() {
    let m = Manifest::check(&root()).unwrap_or_else(|e| panic!("{e}"));
    // Its counts are the loader's too, file by file.
    let cases = bijoubuf_conformance::load_dir(&root().join("vectors")).expect("vectors load");
    for (file, n) in &m.cases {
        let loaded = cases.iter().filter(|c| &c.file == file).count();
        assert_eq!(loaded, *n, "{file}");
    }
    assert_eq!(m.cases.iter().map(|c| c.1).sum::<usize>(), cases.len());
    assert_eq!(
        m.spec,
        manifest::spec_version(&std::fs::read_to_string(root().join("SPEC.md")).expect("SPEC"))
            .expect("version line")
    );
}

#[test]
fn a_vector_changed_without_a_new_manifest_fails() {
    let tmp = TempDir::new("changed");
    copy_tree(&tmp.0);
    Manifest::check(&tmp.0).expect("the copy matches");
    // One byte of one vector file.
    let path = tmp.0.join("vectors/01-bijou64.toml");
    let mut text = std::fs::read_to_string(&path).expect("read");
    text.push('\n');
    std::fs::write(&path, text).expect("write");
    let e = Manifest::check(&tmp.0).expect_err("a changed vector");
    assert!(e.0.contains("SHA-256"), "{e}");
    assert!(
        e.0.contains("Bump the version") && e.0.contains(manifest::REGENERATE),
        "{e}"
    );
    let e = pack(&tmp.0, &tmp.0.join("out")).expect_err("pack refuses");
    assert!(e.contains("bump the version"), "{e}");
    // A schema counts too; so does a vector added to a file.
    copy_tree(&tmp.0);
    let schema = tmp.0.join("schemas/conformance/scalars.proto");
    let text = std::fs::read_to_string(&schema).expect("read") + "// changed\n";
    std::fs::write(&schema, text).expect("write");
    assert!(Manifest::check(&tmp.0).is_err());
    copy_tree(&tmp.0);
    let text = std::fs::read_to_string(&path).expect("read") + "\n[[case]]\n";
    std::fs::write(&path, text).expect("write");
    let e = Manifest::check(&tmp.0).expect_err("a vector added");
    assert!(e.0.contains("vectors per file"), "{e}");
}

#[test]
fn the_pack_is_reproducible_and_complete() {
    let tmp = TempDir::new("pack");
    let copy = tmp.0.join("copy");
    copy_tree(&copy);
    let first = pack(&root(), &tmp.0.join("a")).unwrap_or_else(|e| panic!("{e}"));
    let second = pack(&copy, &tmp.0.join("b")).unwrap_or_else(|e| panic!("{e}"));
    let m = Manifest::check(&root()).expect("manifest");
    let name = format!("bijoubuf-vectors-{}", m.version);
    assert_eq!(
        first.file_name().and_then(|n| n.to_str()),
        Some(format!("{name}.tar.gz").as_str())
    );
    // Other files, other mtimes: the same bytes.
    assert_eq!(
        std::fs::read(&first).expect("a"),
        std::fs::read(&second).expect("b"),
        "the same tree gives the same tarball"
    );
    let list = Command::new("tar")
        .arg("-tzf")
        .arg(&first)
        .output()
        .expect("tar");
    assert!(list.status.success());
    let listed: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .filter(|l| !l.ends_with('/'))
        .map(String::from)
        .collect();
    let mut want: Vec<String> = ["MANIFEST", "SPEC.md", "TESTEE.md"]
        .iter()
        .map(|f| format!("{name}/{f}"))
        .chain(
            manifest::set_files(&root())
                .expect("set")
                .into_iter()
                .map(|f| format!("{name}/{f}")),
        )
        .collect();
    want.sort();
    let mut got = listed.clone();
    got.sort();
    assert_eq!(got, want);
    assert!(!listed.iter().any(|f| f.contains("known_divergences")));
    // The manifest inside is the tree's, and TESTEE.md is the protocol's section.
    let read = |f: &str| {
        let o = Command::new("tar")
            .arg("-xzOf")
            .arg(&first)
            .arg(format!("{name}/{f}"))
            .output()
            .expect("tar");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert_eq!(
        read("MANIFEST"),
        std::fs::read_to_string(root().join("vectors/MANIFEST")).expect("manifest")
    );
    let testee = read("TESTEE.md");
    assert!(testee.starts_with("## The testee protocol"), "{testee}");
    assert!(testee.contains("\"status\": \"refused\"") && !testee.contains("## Properties"));
}
