//! What `verify_table` found: each difference between a live table and
//! what the code needs, with what fixes it.

use std::fmt;

use crate::changes::StreamView;
use crate::entity::{IndexKind, KeyAttrType};
use crate::table::{Encryption, WarmThroughput};

/// One element of a key schema: an attribute and `HASH` or `RANGE`.
pub type KeyElement = (String, String);

/// What fixes a [`Difference`].
///
/// ```
/// use dynakey_runtime::table::verify::Remedy;
/// assert!(Remedy::SyncTable.to_string().contains("sync_table"));
/// assert!(Remedy::SyncTableWith.to_string().contains("sync_table_with"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Remedy {
    /// `db.sync_table(..)` fixes it (it creates a missing table, adds
    /// missing global and vector indexes, and removes vector indexes no
    /// entity declares).
    SyncTable,
    /// `db.sync_table_with(.., &options)` fixes it: a setting DynamoDB
    /// changes on a live table (`UpdateTable`, `TagResource`,
    /// `UntagResource`, `PutResourcePolicy`).
    SyncTableWith,
    /// `create_table_with(..)` on the existing table fixes it (it turns on
    /// TTL, a missing stream and point-in-time recovery).
    CreateTableWith,
    /// A change of the table's settings (`UpdateTable`, or the stack's
    /// definition): nothing in dynakey changes it for you.
    UpdateTable,
    /// The index must be deleted and created again (DynamoDB changes
    /// neither the key nor the projection of an index).
    RecreateIndex,
    /// Only a new table fixes it (its key, or a local index).
    NewTable,
}

impl fmt::Display for Remedy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Remedy::SyncTable => "db.sync_table(..) fixes it",
            Remedy::SyncTableWith => "db.sync_table_with(.., &options) fixes it",
            Remedy::CreateTableWith => "create_table_with(..) on the table fixes it",
            Remedy::UpdateTable => "change the table's settings (UpdateTable or the stack)",
            Remedy::RecreateIndex => "delete the index and create it again",
            Remedy::NewTable => "only a new table fixes it",
        })
    }
}

/// What differs in a vector index (see [`Difference::VectorIndex`]).
///
/// ```
/// use dynakey_runtime::table::verify::{Difference, VectorAspect};
/// let d = Difference::VectorIndex { index: "BySimilar".into(), aspect: VectorAspect::Dimensions, expected: "768".into(), found: "384".into() };
/// assert_eq!(d.to_string(), "vector index BySimilar has dimensions 384, the code needs 768: delete the index and create it again");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorAspect {
    /// The attribute holding the vector.
    VectorAttribute,
    /// The number of dimensions.
    Dimensions,
    /// The distance function.
    Distance,
    /// The search schema (scope and filters).
    SearchSchema,
    /// The projection holds less than a search reads.
    Projection,
}

impl fmt::Display for VectorAspect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VectorAspect::VectorAttribute => "vector attribute",
            VectorAspect::Dimensions => "dimensions",
            VectorAspect::Distance => "distance",
            VectorAspect::SearchSchema => "search schema",
            VectorAspect::Projection => "projection",
        })
    }
}

/// The projection a live index has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveProjection {
    /// `ALL`.
    All,
    /// `KEYS_ONLY`.
    KeysOnly,
    /// `INCLUDE` of these non-key attributes.
    Include(Vec<String>),
}

impl fmt::Display for LiveProjection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiveProjection::All => f.write_str("ALL"),
            LiveProjection::KeysOnly => f.write_str("KEYS_ONLY"),
            LiveProjection::Include(a) => write!(f, "INCLUDE({})", a.join(", ")),
        }
    }
}

/// What TTL the live table has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveTtl {
    /// Off (or being turned off).
    Off,
    /// On (or being turned on) for this attribute.
    On(String),
}

/// One way the live table differs from what the code needs.
///
/// ```
/// use dynakey_runtime::table::verify::{Difference, Remedy};
/// use dynakey_runtime::entity::IndexKind;
/// let d = Difference::MissingIndex { index: "GSI1".into(), kind: IndexKind::Global };
/// assert_eq!(d.remedy(), Remedy::SyncTable);
/// assert!(d.breaks_code());
/// assert_eq!(d.to_string(), "global index GSI1 is missing: db.sync_table(..) fixes it");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Difference {
    /// There is no such table.
    MissingTable,
    /// The table's key schema is not the entities'.
    TableKey {
        /// What the entities need.
        expected: Vec<KeyElement>,
        /// What the table has.
        found: Vec<KeyElement>,
    },
    /// A key attribute is defined with another type.
    AttributeType {
        /// The attribute.
        attribute: String,
        /// The type the code writes.
        expected: KeyAttrType,
        /// The type the table defines.
        found: String,
    },
    /// An index the code reads or maintains is not there.
    MissingIndex {
        /// Its name.
        index: String,
        /// Global or local.
        kind: IndexKind,
    },
    /// The table has an index no entity declares: harmless to the code,
    /// but every write pays for it.
    ExtraIndex {
        /// Its name.
        index: String,
        /// Global or local.
        kind: IndexKind,
    },
    /// An index has other key attributes (or order) than the code's, or is
    /// local where the code declares it global (or the reverse).
    IndexKey {
        /// Its name.
        index: String,
        /// The kind the code declares.
        kind: IndexKind,
        /// What the code needs.
        expected: Vec<KeyElement>,
        /// What the table has (with the kind it has).
        found: Vec<KeyElement>,
    },
    /// An index holds less than the code reads through it (DYNA402's rule,
    /// at run time): reads would come back with fields missing.
    NarrowProjection {
        /// Its name.
        index: String,
        /// Global or local.
        kind: IndexKind,
        /// What the index has.
        found: LiveProjection,
        /// What is missing: the attributes, or `["(every attribute)"]`
        /// when the code reads whole items.
        missing: Vec<String>,
    },
    /// A vector index the code searches is not there.
    MissingVectorIndex {
        /// Its name.
        index: String,
    },
    /// The table has a vector index no entity declares: every write of a
    /// vector pays for it.
    ExtraVectorIndex {
        /// Its name.
        index: String,
    },
    /// A vector index is declared otherwise than the code's (see
    /// [`VectorAspect`]).
    VectorIndex {
        /// Its name.
        index: String,
        /// What differs.
        aspect: VectorAspect,
        /// What the code declares (for a projection: what it lacks).
        expected: String,
        /// What the table has.
        found: String,
    },
    /// TTL is off, or on another attribute, while an entity has a TTL field.
    Ttl {
        /// The TTL attribute of the entities.
        expected: String,
        /// What the table has.
        found: LiveTtl,
    },
    /// The code consumes changes, and the stream is off or another view.
    Stream {
        /// The view the code needs.
        expected: StreamView,
        /// The view the table streams (`None`: no stream).
        found: Option<String>,
    },
    /// Point-in-time recovery is off, or keeps another number of days.
    PointInTimeRecovery {
        /// Days asked for (`None`: DynamoDB's default).
        expected_days: Option<u32>,
        /// Whether it is on, and the days it keeps.
        found: Option<Option<u32>>,
    },
    /// Deletion protection is off while the options ask for it.
    DeletionProtection,
    /// Another billing mode than the options'.
    BillingMode {
        /// The options' mode.
        expected: &'static str,
        /// The table's.
        found: String,
    },
    /// Another table class than the options'.
    TableClass {
        /// The options' class.
        expected: &'static str,
        /// The table's.
        found: String,
    },
    /// Encryption at rest is not the options' (`SSEDescription`); `found`
    /// names the key by the ARN DynamoDB reports.
    Encryption {
        /// The options' encryption.
        expected: Encryption,
        /// The table's.
        found: Encryption,
    },
    /// A tag of the options is missing or has another value, or the table
    /// has a tag the options (which list tags) do not.
    Tag {
        /// The tag's key.
        key: String,
        /// The options' value (`None`: the options do not have the tag).
        expected: Option<String>,
        /// The table's value (`None`: the table does not have it).
        found: Option<String>,
    },
    /// The resource policy is missing, or another document than the
    /// options' (compared as JSON, not as text).
    ResourcePolicy {
        /// The table's policy, as `GetResourcePolicy` returns it.
        found: Option<String>,
    },
    /// The table's warm throughput is below the options'.
    WarmThroughput {
        /// The options'.
        expected: WarmThroughput,
        /// The table's (`None`: the table reports none).
        found: Option<WarmThroughput>,
    },
    /// The on-demand maximum of the table (`index: None`) or of a global
    /// index is not the options': `(read, write)` request units, `None`
    /// for no maximum.
    OnDemandThroughput {
        /// The global index, or `None` for the table.
        index: Option<String>,
        /// The options' `(max_read, max_write)`.
        expected: (Option<u64>, Option<u64>),
        /// The table's or index's.
        found: (Option<u64>, Option<u64>),
    },
    /// The provisioned capacity of the table (`index: None`) or of a global
    /// index is not the options': `(read, write)` capacity units.
    ProvisionedThroughput {
        /// The global index, or `None` for the table.
        index: Option<String>,
        /// The options' `(read, write)`.
        expected: (u64, u64),
        /// The table's or index's.
        found: (u64, u64),
    },
}

fn keys(k: &[KeyElement]) -> String {
    if k.is_empty() {
        return "(none)".into();
    }
    k.iter()
        .map(|(a, t)| format!("{a} {t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind(k: IndexKind) -> &'static str {
    match k {
        IndexKind::Global => "global",
        IndexKind::Local => "local",
    }
}

impl Difference {
    /// What fixes it (see the example on [`Difference`]).
    pub fn remedy(&self) -> Remedy {
        use Difference as D;
        match self {
            D::MissingTable => Remedy::SyncTable,
            D::MissingIndex {
                kind: IndexKind::Global,
                ..
            } => Remedy::SyncTable,
            D::TableKey { .. } | D::AttributeType { .. } => Remedy::NewTable,
            D::MissingIndex { .. } => Remedy::NewTable,
            D::MissingVectorIndex { .. } => Remedy::SyncTable,
            D::VectorIndex { .. } => Remedy::RecreateIndex,
            D::ExtraVectorIndex { .. } => Remedy::SyncTable,
            D::IndexKey { kind, .. } | D::NarrowProjection { kind, .. } => match kind {
                IndexKind::Global => Remedy::RecreateIndex,
                IndexKind::Local => Remedy::NewTable,
            },
            D::ExtraIndex { kind, .. } => match kind {
                IndexKind::Global => Remedy::UpdateTable,
                IndexKind::Local => Remedy::NewTable,
            },
            D::Ttl {
                found: LiveTtl::Off,
                ..
            } => Remedy::CreateTableWith,
            D::Stream { found: None, .. } => Remedy::CreateTableWith,
            D::PointInTimeRecovery { .. } => Remedy::CreateTableWith,
            D::Ttl { .. } | D::Stream { .. } => Remedy::UpdateTable,
            D::DeletionProtection
            | D::BillingMode { .. }
            | D::TableClass { .. }
            | D::Encryption { .. }
            | D::Tag { .. }
            | D::ResourcePolicy { .. }
            | D::WarmThroughput { .. }
            | D::OnDemandThroughput { .. }
            | D::ProvisionedThroughput { .. } => Remedy::SyncTableWith,
        }
    }

    /// Whether `db.sync_table(..)` fixes it.
    ///
    /// ```
    /// use dynakey_runtime::table::verify::Difference;
    /// assert!(Difference::MissingTable.fixed_by_sync_table());
    /// assert!(!Difference::DeletionProtection.fixed_by_sync_table());
    /// ```
    pub fn fixed_by_sync_table(&self) -> bool {
        self.remedy() == Remedy::SyncTable
    }

    /// Whether the code misbehaves with it (every difference but an extra
    /// index, which only costs writes, and the production settings, which
    /// change no read or write; throughput settings change how much the
    /// table serves before it throttles, not what it answers).
    ///
    /// ```
    /// use dynakey_runtime::table::verify::Difference;
    /// use dynakey_runtime::entity::IndexKind;
    /// assert!(!Difference::ExtraIndex { index: "Old".into(), kind: IndexKind::Global }.breaks_code());
    /// assert!(!Difference::DeletionProtection.breaks_code());
    /// ```
    pub fn breaks_code(&self) -> bool {
        // The settings `sync_table_with` changes live change no read or
        // write either.
        self.remedy() != Remedy::SyncTableWith
            && !matches!(
                self,
                Difference::ExtraIndex { .. }
                    | Difference::ExtraVectorIndex { .. }
                    | Difference::PointInTimeRecovery { .. }
            )
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Difference as D;
        match self {
            D::MissingTable => write!(f, "the table does not exist"),
            D::TableKey { expected, found } => write!(
                f,
                "the table key is {}, the code needs {}",
                keys(found),
                keys(expected)
            ),
            D::AttributeType {
                attribute,
                expected,
                found,
            } => write!(
                f,
                "key attribute {attribute} is defined as {found}, the code writes {expected}"
            ),
            D::MissingIndex { index, kind: k } => {
                write!(f, "{} index {index} is missing", kind(*k))
            }
            D::ExtraIndex { index, kind: k } => write!(
                f,
                "{} index {index} is declared by no entity (every write pays for it)",
                kind(*k)
            ),
            D::IndexKey {
                index,
                kind: k,
                expected,
                found,
            } => write!(
                f,
                "{} index {index} has key {}, the code needs {}",
                kind(*k),
                keys(found),
                keys(expected)
            ),
            D::NarrowProjection {
                index,
                kind: k,
                found,
                missing,
            } => write!(
                f,
                "{} index {index} projects {found}, which lacks {} the code reads through it",
                kind(*k),
                missing.join(", ")
            ),
            D::MissingVectorIndex { index } => write!(f, "vector index {index} is missing"),
            D::ExtraVectorIndex { index } => write!(
                f,
                "vector index {index} is declared by no entity (every write of a vector pays for it)"
            ),
            D::VectorIndex {
                index,
                aspect: VectorAspect::Projection,
                expected,
                found,
            } => write!(
                f,
                "vector index {index} projects {found}, which lacks {expected} a search reads"
            ),
            D::VectorIndex {
                index,
                aspect,
                expected,
                found,
            } => write!(
                f,
                "vector index {index} has {aspect} {found}, the code needs {expected}"
            ),
            D::Ttl { expected, found } => match found {
                LiveTtl::Off => write!(f, "TTL is off, the code expires items by {expected}"),
                LiveTtl::On(a) => write!(f, "TTL is on {a}, the code expires items by {expected}"),
            },
            D::Stream { expected, found } => match found {
                None => write!(f, "the stream is off, the code consumes {expected} changes"),
                Some(v) => write!(f, "the stream is {v}, the code consumes {expected} changes"),
            },
            D::PointInTimeRecovery {
                expected_days,
                found,
            } => {
                let want = expected_days.map_or("on".to_owned(), |d| format!("on for {d} days"));
                match found {
                    None => write!(
                        f,
                        "point-in-time recovery is off, the options ask for it {want}"
                    ),
                    Some(d) => write!(
                        f,
                        "point-in-time recovery keeps {} days, the options ask for it {want}",
                        d.map_or("(unknown)".into(), |d| d.to_string())
                    ),
                }
            }
            D::DeletionProtection => {
                write!(f, "deletion protection is off, the options ask for it")
            }
            D::BillingMode { expected, found } => {
                write!(f, "billing mode is {found}, the options say {expected}")
            }
            D::TableClass { expected, found } => {
                write!(f, "table class is {found}, the options say {expected}")
            }
            other => super::live::describe(other, f),
        }?;
        write!(f, ": {}", self.remedy())
    }
}

/// The live check of one table (see
/// [`Db::verify_table`](crate::Db::verify_table)).
///
/// ```
/// use dynakey_runtime::table::verify::{Difference, TableReport};
/// let r = TableReport { table: "shop".into(), differences: vec![Difference::DeletionProtection], unchecked: vec![] };
/// assert!(r.is_ok()); // nothing the code reads or writes is wrong
/// assert!(!r.matches());
/// assert!(r.to_string().contains("deletion protection is off"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableReport {
    /// The table checked.
    pub table: String,
    /// Every difference, in the order: table, attributes, indexes, TTL,
    /// stream, settings.
    pub differences: Vec<Difference>,
    /// What could not be checked on this backend, and why.
    pub unchecked: Vec<String>,
}

impl TableReport {
    /// Whether nothing that breaks the code differs (see
    /// [`Difference::breaks_code`]).
    pub fn is_ok(&self) -> bool {
        !self.differences.iter().any(Difference::breaks_code)
    }

    /// Whether nothing differs at all.
    pub fn matches(&self) -> bool {
        self.differences.is_empty()
    }

    /// The differences `db.sync_table(..)` fixes.
    pub fn fixed_by_sync_table(&self) -> impl Iterator<Item = &Difference> {
        self.differences.iter().filter(|d| d.fixed_by_sync_table())
    }
}

impl fmt::Display for TableReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.matches() {
            writeln!(f, "table {}: matches the code", self.table)?;
        } else {
            let n = self.differences.len();
            let s = if n == 1 { "" } else { "s" };
            writeln!(f, "table {}: {n} difference{s} from the code", self.table)?;
        }
        for d in &self.differences {
            let mark = if d.breaks_code() { "✗" } else { "·" };
            writeln!(f, "  {mark} {d}")?;
        }
        for u in &self.unchecked {
            writeln!(f, "  ? not checked: {u}")?;
        }
        Ok(())
    }
}
