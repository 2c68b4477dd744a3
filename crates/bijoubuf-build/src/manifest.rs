//! What a build wrote into its output directory, so that the next build of the same
//! inputs removes the files it no longer writes (a package no longer imported, an
//! include file renamed) and nothing else.
//!
//! Each call of `compile_protos`, `compile_fds` or `compile_encoded_fds` keeps one manifest,
//! `<out>/.bijoubuf-build/<key>.manifest`, where the key is a hash of the import names
//! it was asked to compile: two calls writing into one directory keep two manifests. A
//! call removes a file only if its own previous manifest lists it, this run did not
//! write it, and no other manifest in the directory lists it (another call that wrote
//! it earlier in this build, or writes it later and will write it again).

use std::collections::BTreeSet;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::Error;

/// The folder of the output directory that holds the manifests.
const DIR: &str = ".bijoubuf-build";

/// The manifest of one call: its file and what it says.
pub(crate) struct Manifest {
    out_dir: PathBuf,
    path: PathBuf,
    header: String,
}

impl Manifest {
    /// The manifest of the call that compiles `inputs` (import names) into `out_dir`.
    pub(crate) fn new(out_dir: &Path, inputs: &[String]) -> Manifest {
        let inputs: Vec<&str> = inputs
            .iter()
            .map(String::as_str)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let joined = inputs.join("\n");
        let path = out_dir
            .join(DIR)
            .join(format!("{:016x}.manifest", fnv1a(joined.as_bytes())));
        let header = format!(
            "# bijoubuf-build: the files written for {}; the next build of these files\n\
             # removes those it no longer writes.\n",
            // One line, whatever the names hold: every other line is an entry.
            inputs.join(", ").replace(['\n', '\r'], " ")
        );
        Manifest {
            out_dir: out_dir.to_path_buf(),
            path,
            header,
        }
    }

    /// Removes what the previous build of these inputs wrote and this one did not
    /// (`written`), unless another manifest in the directory lists it, then records
    /// `written`. Paths outside the output directory are neither recorded nor removed.
    pub(crate) fn update(&self, written: &[PathBuf]) -> Result<(), Error> {
        let now: BTreeSet<String> = written
            .iter()
            .filter_map(|p| p.strip_prefix(&self.out_dir).ok())
            .filter_map(relative)
            .collect();
        let before = read_entries(&self.path)?;
        let mut others = BTreeSet::new();
        let dir = self.out_dir.join(DIR);
        match std::fs::read_dir(&dir) {
            Ok(entries) => {
                for entry in entries {
                    let path = entry.map_err(io_at(&dir))?.path();
                    if path != self.path && path.extension().is_some_and(|e| e == "manifest") {
                        others.extend(read_entries(&path)?);
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_at(&dir)(e)),
        }
        for stale in before.difference(&now).filter(|f| !others.contains(*f)) {
            let path = self.out_dir.join(stale);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_at(&path)(e)),
            }
        }
        let mut text = self.header.clone();
        for f in &now {
            text.push_str(f);
            text.push('\n');
        }
        std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
        crate::write_if_changed(&self.path, text.as_bytes())
    }
}

/// The files a manifest lists (none when it does not exist). A line that is not a plain
/// relative path inside the output directory is ignored, so an edited manifest can
/// never make a build remove a file elsewhere.
fn read_entries(path: &Path) -> Result<BTreeSet<String>, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => return Err(io_at(path)(e)),
    };
    Ok(text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| relative(Path::new(l)))
        .collect())
}

/// `path` as a manifest line (`/`-separated), if it is a plain relative path: only
/// names, no `..`, no root, no manifest folder.
fn relative(path: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(name) => parts.push(name.to_str()?),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if parts.is_empty() || parts[0] == DIR {
        return None;
    }
    Some(parts.join("/"))
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// 64-bit FNV-1a: a key that stays the same across Rust releases, unlike std's hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_entries() {
        assert_eq!(relative(Path::new("a.b.rs")).as_deref(), Some("a.b.rs"));
        assert_eq!(
            relative(Path::new("gen/mod.rs")).as_deref(),
            Some("gen/mod.rs")
        );
        assert_eq!(relative(Path::new("./x.rs")).as_deref(), Some("x.rs"));
        for bad in [
            "",
            "../x.rs",
            "/etc/passwd",
            "a/../../x",
            ".bijoubuf-build/k.manifest",
        ] {
            assert_eq!(relative(Path::new(bad)), None, "{bad:?}");
        }
    }

    #[test]
    fn the_header_is_comments_whatever_the_input_names_hold() {
        let m = Manifest::new(Path::new("out"), &["a.proto\nshop.rs".into()]);
        assert!(m.header.lines().all(|l| l.starts_with('#')), "{}", m.header);
    }

    #[test]
    fn the_key_ignores_the_order_of_the_inputs() {
        let out = Path::new("out");
        let a = Manifest::new(out, &["b.proto".into(), "a.proto".into()]);
        let b = Manifest::new(out, &["a.proto".into(), "b.proto".into(), "a.proto".into()]);
        let c = Manifest::new(out, &["a.proto".into()]);
        assert_eq!(a.path, b.path);
        assert_ne!(a.path, c.path);
    }
}
