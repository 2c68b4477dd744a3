//! The `content_store` example: a content-addressed store on redb.
//!
//! [`ContentStore::put`] hashes a value's canonical bytes with BLAKE3 as they are
//! encoded (its content id, `Message::content_id`, with no buffer), and stores the bytes
//! under the hash unless that key is already there. Since a value has exactly one encoding, equal values get
//! one key however they were built, and a key names a value, not a spelling of it.
//! [`ContentStore::get`] decodes strictly and hashes again, so a damaged record is
//! reported, never returned.
//!
//! [`run`] returns a [`Report`]; its `Display` is the example's output.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use bijoubuf::{DecodeError, EncodeError, Message};
use redb::{Database, ReadableDatabase as _, ReadableTableMetadata as _, TableDefinition};

use crate::catalog::Release;
use crate::text::hex;
use crate::wire;

/// A BLAKE3 hash of canonical bytes: the key of a stored value.
pub type Hash = [u8; 32];

/// One table: hash -> canonical bytes.
const OBJECTS: TableDefinition<'_, &Hash, &[u8]> = TableDefinition::new("objects");

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    /// The database failed.
    Db(redb::Error),
    /// The value could not be encoded.
    Encode(EncodeError),
    /// Bytes handed to [`ContentStore::put_encoded`] are not the canonical encoding.
    NotCanonical(DecodeError),
    /// The stored bytes under `hash` are not a canonical encoding any more.
    Corrupt {
        /// The key.
        hash: Hash,
        /// What the strict decoder said.
        error: DecodeError,
    },
    /// The stored bytes under `hash` decode, but hash to something else.
    HashMismatch {
        /// The key.
        hash: Hash,
        /// BLAKE3 of the bytes found.
        actual: Hash,
    },
}

impl StoreError {
    /// A stable code: the decoder's code, `hash-mismatch`, `encode` or `database`.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::Db(_) => "database",
            StoreError::Encode(_) => "encode",
            StoreError::NotCanonical(e) | StoreError::Corrupt { error: e, .. } => e.code(),
            StoreError::HashMismatch { .. } => "hash-mismatch",
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Db(e) => write!(f, "database: {e}"),
            StoreError::Encode(e) => write!(f, "cannot encode: {e}"),
            StoreError::NotCanonical(e) => write!(f, "not canonical, not stored: {e}"),
            StoreError::Corrupt { hash, error } => {
                write!(f, "{error} (record {})", short(hash))
            }
            StoreError::HashMismatch { hash, actual } => write!(
                f,
                "hash-mismatch: record {} holds bytes that hash to {}",
                short(hash),
                short(actual)
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Db(e) => Some(e),
            StoreError::Encode(e) => Some(e),
            StoreError::NotCanonical(e) | StoreError::Corrupt { error: e, .. } => Some(e),
            StoreError::HashMismatch { .. } => None,
        }
    }
}

impl<E: Into<redb::Error>> From<E> for StoreError {
    fn from(e: E) -> Self {
        StoreError::Db(e.into())
    }
}

/// The first 8 bytes of a hash in hex, for messages.
pub fn short(hash: &Hash) -> String {
    hex(&hash[..8]).replace(' ', "")
}

/// A content-addressed store of bijoubuf messages in one redb file.
pub struct ContentStore {
    db: Database,
}

impl ContentStore {
    /// Create (or open) the store at `path`.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub fn create(path: &Path) -> Result<Self, StoreError> {
        let db = Database::create(path)?;
        let txn = db.begin_write()?;
        txn.open_table(OBJECTS)?;
        txn.commit()?;
        Ok(ContentStore { db })
    }

    /// The key `value` is stored under: its content id, the BLAKE3 hash of its
    /// canonical bytes, hashed as they are encoded (`Message::content_id`), with no
    /// buffer of them.
    ///
    /// # Errors
    /// [`StoreError::Encode`].
    pub fn key_of<M: Message>(value: &M) -> Result<Hash, StoreError> {
        Ok(*value.content_id().map_err(StoreError::Encode)?.as_bytes())
    }

    /// Store `value` under the BLAKE3 hash of its canonical bytes; returns the hash.
    /// Storing an equal value again changes nothing and costs a hash and a lookup: the
    /// key is computed first ([`key_of`](Self::key_of)), and the bytes are encoded only
    /// when it is new.
    ///
    /// # Errors
    /// [`StoreError::Encode`] or [`StoreError::Db`].
    pub fn put<M: Message>(&self, value: &M) -> Result<Hash, StoreError> {
        let hash = Self::key_of(value)?;
        if self.contains(&hash)? {
            return Ok(hash);
        }
        let bytes = value.encode_to_vec().map_err(StoreError::Encode)?;
        self.insert_raw(&bytes)
    }

    /// Whether a record is stored under `hash`.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub fn contains(&self, hash: &Hash) -> Result<bool, StoreError> {
        let txn = self.db.begin_read()?;
        Ok(txn.open_table(OBJECTS)?.get(hash)?.is_some())
    }

    /// Store bytes received from elsewhere, after checking that they are the canonical
    /// encoding of an `M`: a non-canonical spelling would otherwise get a second key for
    /// an equal value.
    ///
    /// # Errors
    /// [`StoreError::NotCanonical`] with the decoder's error, or [`StoreError::Db`].
    pub fn put_encoded<M: Message>(&self, bytes: &[u8]) -> Result<Hash, StoreError> {
        M::decode(bytes).map_err(StoreError::NotCanonical)?;
        self.insert_raw(bytes)
    }

    fn insert_raw(&self, bytes: &[u8]) -> Result<Hash, StoreError> {
        let hash: Hash = *blake3::hash(bytes).as_bytes();
        let txn = self.db.begin_write()?;
        txn.open_table(OBJECTS)?.insert(&hash, bytes)?;
        txn.commit()?;
        Ok(hash)
    }

    /// The value stored under `hash`: the bytes are decoded strictly, then hashed again.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when the bytes are not canonical (with the decoder's code,
    /// offset and path), [`StoreError::HashMismatch`] when they decode but are not the
    /// bytes that were stored, [`StoreError::Db`].
    pub fn get<M: Message>(&self, hash: &Hash) -> Result<Option<M>, StoreError> {
        let Some(bytes) = self.raw(hash)? else {
            return Ok(None);
        };
        let value =
            M::decode(&bytes).map_err(|error| StoreError::Corrupt { hash: *hash, error })?;
        let actual: Hash = *blake3::hash(&bytes).as_bytes();
        if actual != *hash {
            return Err(StoreError::HashMismatch {
                hash: *hash,
                actual,
            });
        }
        Ok(Some(value))
    }

    /// The stored bytes under `hash`, unchecked.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub fn raw(&self, hash: &Hash) -> Result<Option<Vec<u8>>, StoreError> {
        let txn = self.db.begin_read()?;
        let table = txn.open_table(OBJECTS)?;
        Ok(table.get(hash)?.map(|g| g.value().to_vec()))
    }

    /// Overwrite the bytes under `hash` without any check: what a failing disk or a
    /// stray write does. For demonstrations and tests.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub fn overwrite_raw(&self, hash: &Hash, bytes: &[u8]) -> Result<(), StoreError> {
        let txn = self.db.begin_write()?;
        txn.open_table(OBJECTS)?.insert(hash, bytes)?;
        txn.commit()?;
        Ok(())
    }

    /// The number of stored records.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub fn len(&self) -> Result<u64, StoreError> {
        let txn = self.db.begin_read()?;
        Ok(txn.open_table(OBJECTS)?.len()?)
    }

    /// True when nothing is stored.
    ///
    /// # Errors
    /// [`StoreError::Db`].
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.len()? == 0)
    }
}

/// A file path under the system's temporary directory, unique to this process and
/// call, removed when dropped.
#[derive(Debug)]
pub struct TempPath {
    path: PathBuf,
}

impl TempPath {
    /// `<tmp>/bijoubuf-<name>-<pid>-<n>-<nanos>.redb`.
    pub fn new(name: &str) -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let file = format!("bijoubuf-{name}-{}-{n}-{nanos}.redb", std::process::id());
        TempPath {
            path: std::env::temp_dir().join(file),
        }
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        // Nothing to do if the file was never created or is already gone.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The release the example stores, built field by field in declaration order.
pub fn release_in_order() -> Release {
    Release {
        name: "bijoubuf".into(),
        version: "0.1.0".into(),
        dependencies: BTreeMap::from([
            ("bijou64".into(), "0.1".into()),
            ("serde".into(), "1".into()),
        ]),
        authors: vec!["Ada".into(), "Grace".into()],
        yanked: false,
        published_at: 1_767_225_600,
    }
}

/// An equal release built another way: fields set in reverse order on a default value,
/// the map filled in reverse key order.
// Setting the fields one by one, in another order than the literal, is the point here.
#[allow(clippy::field_reassign_with_default)]
pub fn release_other_way() -> Release {
    let mut r = Release::default();
    r.published_at = 1_767_225_600;
    r.authors.push("Ada".into());
    r.authors.push("Grace".into());
    r.dependencies.insert("serde".into(), "1".into());
    r.dependencies.insert("bijou64".into(), "0.1".into());
    r.version = "0.1.0".into();
    r.name = "bijoubuf".into();
    r
}

/// One deliberate corruption of the stored record and what `get` said.
#[derive(Debug)]
pub struct Corruption {
    /// What was done.
    pub description: &'static str,
    /// The damaged bytes written over the record.
    pub bytes: Vec<u8>,
    /// What [`ContentStore::get`] returned.
    pub result: Result<Option<Release>, StoreError>,
}

/// Everything the example shows.
#[derive(Debug)]
pub struct Report {
    /// Where the database lived (removed by the time [`run`] returns).
    pub path: PathBuf,
    /// The release's canonical bytes.
    pub bytes: Vec<u8>,
    /// The hash `put` returned for the release built in declaration order.
    pub first: Hash,
    /// The hash `put` returned for the release built the other way.
    pub second: Hash,
    /// Records in the store after both puts.
    pub records_after_puts: u64,
    /// `get` of the hash, before any damage.
    pub fetched: Result<Option<Release>, StoreError>,
    /// The same release with `yanked = false` written out: a non-canonical spelling.
    pub non_canonical_bytes: Vec<u8>,
    /// `put_encoded` of that spelling.
    pub non_canonical: Result<Hash, StoreError>,
    /// Records in the store after that attempt.
    pub records_after_non_canonical: u64,
    /// Damage done to the stored record, one at a time, and what `get` said.
    pub corruptions: Vec<Corruption>,
    /// Whether the file was gone after the store was dropped.
    pub cleaned_up: bool,
}

/// Write `bad` over the record under `hash`, `get` it, and put the good bytes back.
fn corrupt(
    store: &ContentStore,
    hash: &Hash,
    good: &[u8],
    bad: Vec<u8>,
    description: &'static str,
) -> Result<Corruption, StoreError> {
    store.overwrite_raw(hash, &bad)?;
    let result = store.get::<Release>(hash);
    store.overwrite_raw(hash, good)?;
    Ok(Corruption {
        description,
        bytes: bad,
        result,
    })
}

fn flip(bytes: &[u8], at: usize, mask: u8) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if let Some(b) = out.get_mut(at) {
        *b ^= mask;
    }
    out
}

/// Run the example in a fresh temporary database, removed at the end.
///
/// # Errors
/// A [`StoreError`] when the store itself fails; the refusals the example provokes are
/// part of the [`Report`].
pub fn run() -> Result<Report, Box<dyn Error>> {
    let temp = TempPath::new("content-store");
    let path = temp.path().to_path_buf();
    let report = run_at(&path)?;
    drop(temp);
    Ok(Report {
        cleaned_up: !path.exists(),
        ..report
    })
}

/// [`run`] in a database at `path` (left in place).
///
/// # Errors
/// See [`run`].
pub fn run_at(path: &Path) -> Result<Report, Box<dyn Error>> {
    let store = ContentStore::create(path)?;
    let a = release_in_order();
    let b = release_other_way();
    let first = store.put(&a)?;
    let second = store.put(&b)?;
    let records_after_puts = store.len()?;
    let fetched = store.get::<Release>(&first);
    let bytes = a.encode_to_vec()?;

    // The same release with `yanked = false` written out: field 5, VARINT 0, inserted
    // before field 6 (`wire::join` recomputes the key of the record after it).
    let mut records = wire::split(&bytes)?;
    let at = records
        .iter()
        .position(|r| r.number > 5)
        .unwrap_or(records.len());
    records.insert(at, wire::Record::new(5, wire::VARINT, vec![0]));
    let non_canonical_bytes = wire::join(&records)?;
    let non_canonical = store.put_encoded::<Release>(&non_canonical_bytes);
    let records_after_non_canonical = store.len()?;

    // Byte 2 is the `b` of "bijoubuf" (key 02, length 08, then the name); flipping bit
    // 0x20 makes it `B`: still a valid release, just not the stored one.
    let name = flip(&bytes, 2, 0x20);
    // The second dependency's key starts with the `s` of "serde"; flipping bit 0x40
    // makes it `3`, which sorts before "bijou64".
    let serde_at = find(&bytes, b"\x05serde").map_or(0, |i| i + 1);
    let order = flip(&bytes, serde_at, 0x40);
    // The last byte lost, as a short write would.
    let short_write = bytes[..bytes.len() - 1].to_vec();
    let corruptions = vec![
        corrupt(
            &store,
            &first,
            &bytes,
            name,
            "one bit of the name: \"bijoubuf\" -> \"Bijoubuf\"",
        )?,
        corrupt(
            &store,
            &first,
            &bytes,
            order,
            "one bit of a dependency: \"serde\" -> \"3erde\", which sorts before \"bijou64\"",
        )?,
        corrupt(&store, &first, &bytes, short_write, "the last byte lost")?,
    ];
    Ok(Report {
        path: path.to_path_buf(),
        bytes,
        first,
        second,
        records_after_puts,
        fetched,
        non_canonical_bytes,
        non_canonical,
        records_after_non_canonical,
        corruptions,
        cleaned_up: false,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Content store: BLAKE3 of canonical bytes as the key, on redb"
        )?;
        writeln!(
            f,
            "============================================================"
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "The database is a new file under std::env::temp_dir(), removed at the end."
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "put(value) encodes the value canonically and stores the bytes under their BLAKE3 hash."
        )?;
        writeln!(f, "Two equal releases, built independently:")?;
        writeln!(
            f,
            "  A: a struct literal, fields in declaration order, dependencies bijou64 then serde"
        )?;
        writeln!(
            f,
            "  B: Release::default(), fields set last to first, dependencies serde then bijou64"
        )?;
        writeln!(f, "  A == B: {}", release_in_order() == release_other_way())?;
        writeln!(f, "  put(A) -> {}", hex(&self.first).replace(' ', ""))?;
        writeln!(f, "  put(B) -> {}", hex(&self.second).replace(' ', ""))?;
        writeln!(
            f,
            "  same key: {}; records in the store: {}",
            if self.first == self.second {
                "yes"
            } else {
                "NO"
            },
            self.records_after_puts
        )?;
        writeln!(f, "  the canonical bytes ({}):", self.bytes.len())?;
        writeln!(f, "    {}", wrap_hex(&self.bytes))?;
        writeln!(f)?;
        match &self.fetched {
            Ok(Some(r)) => writeln!(
                f,
                "get(key) decodes strictly and hashes again: {} {}, {} dependencies, authors {:?}",
                r.name,
                r.version,
                r.dependencies.len(),
                r.authors
            )?,
            Ok(None) => writeln!(f, "get(key): not found")?,
            Err(e) => writeln!(f, "get(key): {e}")?,
        }
        writeln!(f)?;
        writeln!(
            f,
            "Bytes from elsewhere go through put_encoded, which decodes strictly first. The same"
        )?;
        writeln!(
            f,
            "release with `yanked = false` written out ({} bytes) would be a second key for",
            self.non_canonical_bytes.len()
        )?;
        writeln!(f, "an equal value:")?;
        match &self.non_canonical {
            Ok(h) => writeln!(f, "  stored under {} (!)", short(h))?,
            Err(e) => writeln!(f, "  {e}")?,
        }
        writeln!(
            f,
            "  records in the store: {}",
            self.records_after_non_canonical
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "Damage to the stored record (written straight into the table, then get):"
        )?;
        for (i, c) in self.corruptions.iter().enumerate() {
            writeln!(f, "  {}. {}", i + 1, c.description)?;
            match &c.result {
                Ok(Some(_)) => writeln!(f, "     get returned a value (!)")?,
                Ok(None) => writeln!(f, "     get found nothing")?,
                Err(e) => writeln!(
                    f,
                    "     {}",
                    crate::text::wrap(&e.to_string(), 88, "       ")
                )?,
            }
        }
        writeln!(f)?;
        writeln!(
            f,
            "A bit flip that still decodes is caught by the hash; one that breaks the canonical form is"
        )?;
        writeln!(
            f,
            "caught by the decoder, with the rule, the field and the byte."
        )?;
        writeln!(
            f,
            "Database file removed: {}",
            if self.cleaned_up { "yes" } else { "no" }
        )
    }
}

fn wrap_hex(bytes: &[u8]) -> String {
    crate::text::hex_lines(bytes, 20, "    ")
}
