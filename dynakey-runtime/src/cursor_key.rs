//! The secret that authenticates page cursors.
//!
//! A cursor leaves the process (a web API hands it to its clients and gets
//! it back), so a read must know that a cursor it is given is one it made:
//! each cursor carries an HMAC-SHA-256 tag over what it says and over the
//! read it belongs to (table, index, partition, sort-key condition,
//! direction, filter, projection, scan segments), under a key held by the [`Db`]. A
//! cursor altered in any byte, or made by another read, fails the tag and
//! is refused before anything is sent.
//!
//! By default every `Db` of a process shares one key drawn at random when
//! the first cursor is made, so cursors outlive neither the process nor
//! cross to another instance of a service. Services whose instances share
//! cursors (behind a load balancer, across deploys) set the same key on
//! each: [`Db::with_cursor_key`].
//!
//! [`Db`]: crate::Db
//! [`Db::with_cursor_key`]: crate::Db::with_cursor_key

use std::fmt;
use std::sync::{Arc, OnceLock};

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// How many bytes of the HMAC-SHA-256 tag a cursor carries (128 bits, the
/// truncation RFC 4868 uses).
pub(crate) const TAG_BYTES: usize = 16;

/// The fewest secret bytes [`CursorKey::new`] takes.
pub const MIN_CURSOR_KEY_BYTES: usize = 32;

/// The key that authenticates page cursors.
///
/// A cursor leaves the process and comes back, so each carries an
/// HMAC-SHA-256 tag over what it says and over the read it belongs to,
/// under this key; a cursor altered in any byte, made by another read or
/// under another key is refused before anything is sent. Every `Db` of a
/// process shares a random key by default; instances of a service that
/// take each other's cursors share one ([`Db::with_cursor_key`]).
///
/// [`Db::with_cursor_key`]: crate::Db::with_cursor_key
///
/// ```
/// use dynakey_runtime::query::CursorKey;
/// // From a secret every instance of the service reads (at least 32 bytes).
/// let key = CursorKey::new(b"a secret of at least thirty-two bytes!!").unwrap();
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes").with_cursor_key(key.clone());
/// // Too short a secret is refused.
/// assert!(CursorKey::new(b"short").is_err());
/// // The secret is never printed.
/// assert_eq!(format!("{key:?}"), "CursorKey(..)");
/// ```
#[derive(Clone)]
pub struct CursorKey(Arc<[u8]>);

impl CursorKey {
    /// A key from `secret`, at least [`MIN_CURSOR_KEY_BYTES`] long (a
    /// random one, e.g. `openssl rand -base64 32`, kept where the service
    /// keeps its secrets); shorter secrets are refused.
    pub fn new(secret: impl AsRef<[u8]>) -> Result<Self, ShortCursorKey> {
        let secret = secret.as_ref();
        if secret.len() < MIN_CURSOR_KEY_BYTES {
            return Err(ShortCursorKey { len: secret.len() });
        }
        Ok(Self::from_secret(secret))
    }

    // The secret, not a keyed HMAC state: the state's type (nested
    // `typenum` sizes) would make every read's future, which holds a `Db`,
    // too deeply nested for rustc's default recursion limit.
    fn from_secret(secret: &[u8]) -> Self {
        CursorKey(Arc::from(secret))
    }

    /// A key drawn at random: cursors made under it are refused by any
    /// other key.
    ///
    /// ```
    /// use dynakey_runtime::query::CursorKey;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// // This table's cursors are its own: no other Db (no other key) takes them.
    /// let db = backend.db("notes").with_cursor_key(CursorKey::random());
    /// ```
    pub fn random() -> Self {
        // Three v4 uuids (122 random bits each, from the OS through
        // `getrandom`), hashed into a 256-bit secret.
        let mut h = Sha256::new();
        for _ in 0..3 {
            h.update(uuid::Uuid::new_v4().as_bytes());
        }
        Self::from_secret(&h.finalize())
    }

    /// The key every `Db` of this process uses unless given another:
    /// random, drawn once.
    pub(crate) fn process() -> Self {
        static KEY: OnceLock<CursorKey> = OnceLock::new();
        KEY.get_or_init(CursorKey::random).clone()
    }

    /// The tag of `parts`, each length-prefixed (so no two lists of parts
    /// read alike).
    pub(crate) fn tag(&self, parts: &[&[u8]]) -> [u8; TAG_BYTES] {
        let full = self.mac(parts).finalize().into_bytes();
        let mut tag = [0; TAG_BYTES];
        tag.copy_from_slice(&full[..TAG_BYTES]);
        tag
    }

    /// Whether `tag` is the tag of `parts`, compared in constant time.
    pub(crate) fn verify(&self, parts: &[&[u8]], tag: &[u8]) -> bool {
        tag.len() == TAG_BYTES && self.mac(parts).verify_truncated_left(tag).is_ok()
    }

    fn mac(&self, parts: &[&[u8]]) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        for p in parts {
            mac.update(&(p.len() as u64).to_be_bytes());
            mac.update(p);
        }
        mac
    }
}

impl fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CursorKey(..)")
    }
}

/// A secret too short for a [`CursorKey`] (fewer than
/// [`MIN_CURSOR_KEY_BYTES`]); converts into [`Error::Refused`].
///
/// ```
/// use dynakey_runtime::query::CursorKey;
/// let err = CursorKey::new("short").unwrap_err();
/// assert_eq!(err.to_string(), "a cursor key needs at least 32 bytes of secret, not 5");
/// let as_dynakey: dynakey_runtime::Error = err.into();
/// assert!(matches!(as_dynakey, dynakey_runtime::Error::Refused { .. }));
/// ```
///
/// [`Error::Refused`]: crate::Error::Refused
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortCursorKey {
    /// The secret's length.
    pub len: usize,
}

impl fmt::Display for ShortCursorKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a cursor key needs at least {MIN_CURSOR_KEY_BYTES} bytes of secret, not {}",
            self.len
        )
    }
}

impl std::error::Error for ShortCursorKey {}
