//! The vectors as a versioned, hash-pinned pack: `vectors/MANIFEST` names the SPEC
//! version, the pack's version, the number of vectors in each file and a SHA-256 over the
//! set, so that an implementation pinning a pack version (or this repository's own tests)
//! notices any vector or schema that changed without a new version.
//!
//! What is hashed (conformance/README.md, "The vector pack", says the same): the *set* is
//! every `vectors/*.toml` but `known_divergences.toml` (which is about this repository's
//! engines, not the format) and every `schemas/**/*.proto`, each named by its path
//! relative to `conformance/` with `/` separators. The files are taken in byte order of
//! those paths; for each, the path, a line feed, the file's length in bytes as a decimal
//! number, a line feed, then the file's bytes are fed to SHA-256. The digest is written
//! in lower-case hex.
//!
//! The manifest is lines of `key value…`; `#` starts a comment line:
//!
//! ```text
//! spec 1
//! version 1.0
//! sha256 <64 hex digits>
//! cases 01-bijou64.toml 54
//! ```
//!
//! `spec` is the version on SPEC.md's first line; `version` is the pack's (the SPEC
//! version, a dot, a revision); one `cases` line per vector file, in name order, counts
//! its `[[case]]` tables. `vectors-manifest` (a bin of this crate) writes it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::Digest as _;

/// The command that regenerates the manifest, for error messages.
pub const REGENERATE: &str =
    "cargo run -p bijoubuf-conformance --bin vectors-manifest -- --version NEW-VERSION";

/// The parsed or computed contents of `vectors/MANIFEST`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The SPEC version the vectors are for (SPEC.md's first line).
    pub spec: u32,
    /// The pack's version (`bijoubuf-vectors-<version>.tar.gz`).
    pub version: String,
    /// SHA-256 over the set, lower-case hex.
    pub sha256: String,
    /// Vector files by name (in name order) with their number of vectors.
    pub cases: Vec<(String, usize)>,
}

/// Why the manifest cannot be read or does not match the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError(pub String);

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ManifestError {}

fn err(message: impl Into<String>) -> ManifestError {
    ManifestError(message.into())
}

/// The files of the set under `root` (the `conformance/` directory): their paths
/// relative to it, in byte order.
///
/// # Errors
/// A directory that cannot be read.
pub fn set_files(root: &Path) -> Result<Vec<String>, ManifestError> {
    let mut out = Vec::new();
    for entry in read_dir(&root.join("vectors"))? {
        let name = file_name(&entry);
        if name.ends_with(".toml") && name != "known_divergences.toml" && entry.is_file() {
            out.push(format!("vectors/{name}"));
        }
    }
    let mut stack = vec![(root.join("schemas"), "schemas".to_string())];
    while let Some((dir, rel)) = stack.pop() {
        for entry in read_dir(&dir)? {
            let name = file_name(&entry);
            if entry.is_dir() {
                stack.push((entry.clone(), format!("{rel}/{name}")));
            } else if name.ends_with(".proto") {
                out.push(format!("{rel}/{name}"));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, ManifestError> {
    let entries = std::fs::read_dir(dir).map_err(|e| err(format!("{}: {e}", dir.display())))?;
    Ok(entries.filter_map(Result::ok).map(|e| e.path()).collect())
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn read(root: &Path, rel: &str) -> Result<Vec<u8>, ManifestError> {
    std::fs::read(root.join(rel)).map_err(|e| err(format!("{rel}: {e}")))
}

/// SHA-256 over the set under `root`, as the module documentation defines it.
///
/// # Errors
/// A file that cannot be read.
pub fn digest(root: &Path) -> Result<String, ManifestError> {
    let mut sha = sha2::Sha256::new();
    for rel in set_files(root)? {
        let bytes = read(root, &rel)?;
        sha.update(format!("{rel}\n{}\n", bytes.len()).as_bytes());
        sha.update(&bytes);
    }
    let mut hex = String::with_capacity(64);
    for b in sha.finalize() {
        let _ = write!(hex, "{b:02x}");
    }
    Ok(hex)
}

/// The number of vectors in a vector file's text: its lines that are `[[case]]`.
pub fn count_cases(text: &str) -> usize {
    text.lines().filter(|l| l.trim() == "[[case]]").count()
}

/// The SPEC version on SPEC.md's first line (`# bijoubuf wire format, version N`).
///
/// # Errors
/// A first line of another form.
pub fn spec_version(spec_md: &str) -> Result<u32, ManifestError> {
    spec_md
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# bijoubuf wire format, version "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| err("SPEC.md: the first line is not `# bijoubuf wire format, version N`"))
}

impl Manifest {
    /// The manifest of the tree under `root` (`conformance/`), with pack version `version`.
    ///
    /// # Errors
    /// Unreadable files, or SPEC.md without its version line.
    pub fn compute(root: &Path, version: &str) -> Result<Self, ManifestError> {
        let spec = std::fs::read_to_string(root.join("SPEC.md"))
            .map_err(|e| err(format!("SPEC.md: {e}")))?;
        let mut cases = Vec::new();
        for rel in set_files(root)? {
            if let Some(name) = rel.strip_prefix("vectors/") {
                let text = String::from_utf8(read(root, &rel)?)
                    .map_err(|_| err(format!("{rel}: not UTF-8")))?;
                cases.push((name.to_string(), count_cases(&text)));
            }
        }
        Ok(Manifest {
            spec: spec_version(&spec)?,
            version: version.to_string(),
            sha256: digest(root)?,
            cases,
        })
    }

    /// Parse a manifest's text.
    ///
    /// # Errors
    /// A line that is not one of the keys above, a missing key, a bad number.
    pub fn parse(text: &str) -> Result<Self, ManifestError> {
        let (mut spec, mut version, mut sha256) = (None, None, None);
        let mut cases = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let bad = || err(format!("MANIFEST line {}: cannot read {line:?}", i + 1));
            match words.as_slice() {
                ["spec", v] => spec = Some(v.parse().map_err(|_| bad())?),
                ["version", v] => version = Some((*v).to_string()),
                ["sha256", h] if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    sha256 = Some(h.to_ascii_lowercase());
                }
                ["cases", file, n] => {
                    cases.push(((*file).to_string(), n.parse().map_err(|_| bad())?))
                }
                _ => return Err(bad()),
            }
        }
        Ok(Manifest {
            spec: spec.ok_or_else(|| err("MANIFEST: no `spec` line"))?,
            version: version.ok_or_else(|| err("MANIFEST: no `version` line"))?,
            sha256: sha256.ok_or_else(|| err("MANIFEST: no `sha256` line"))?,
            cases,
        })
    }

    /// The manifest's text.
    pub fn render(&self) -> String {
        let mut out = String::from(
            "# The conformance vectors as a pack (conformance/README.md, \"The vector pack\").\n\
             # Written by `vectors-manifest`; after changing a vector or a schema, bump the\n\
             # version and regenerate:\n",
        );
        let _ = writeln!(out, "#   {REGENERATE}");
        let _ = writeln!(out, "spec {}", self.spec);
        let _ = writeln!(out, "version {}", self.version);
        let _ = writeln!(out, "sha256 {}", self.sha256);
        for (file, n) in &self.cases {
            let _ = writeln!(out, "cases {file} {n}");
        }
        out
    }

    /// Check `vectors/MANIFEST` under `root` against the tree: the SPEC version, every
    /// file's count and the digest.
    ///
    /// # Errors
    /// What differs, with the command that regenerates the manifest.
    pub fn check(root: &Path) -> Result<Self, ManifestError> {
        let text = std::fs::read_to_string(root.join("vectors/MANIFEST"))
            .map_err(|e| err(format!("vectors/MANIFEST: {e}")))?;
        let written = Manifest::parse(&text)?;
        let actual = Manifest::compute(root, &written.version)?;
        let stale = |what: String| {
            err(format!(
                "{what}: the conformance vectors or schemas changed since vectors/MANIFEST was \
                 written (pack version {}). Bump the version and regenerate it: {REGENERATE}",
                written.version
            ))
        };
        if written.spec != actual.spec {
            return Err(stale(format!(
                "MANIFEST says SPEC version {}, SPEC.md is version {}",
                written.spec, actual.spec
            )));
        }
        if written.cases != actual.cases {
            return Err(stale(format!(
                "vectors per file: MANIFEST has {:?}, the tree {:?}",
                written.cases, actual.cases
            )));
        }
        if written.sha256 != actual.sha256 {
            return Err(stale(format!(
                "SHA-256 over the set: MANIFEST has {}, the tree {}",
                written.sha256, actual.sha256
            )));
        }
        if !written.version.starts_with(&format!("{}.", written.spec)) {
            return Err(err(format!(
                "MANIFEST: version {} does not start with the SPEC version {} and a dot",
                written.version, written.spec
            )));
        }
        Ok(written)
    }
}
