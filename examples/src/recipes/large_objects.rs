//! Seed 003 "Large objects": a value over DynamoDB's 400 KB item limit cut
//! into chunks in one partition, with a manifest written last, so a reader
//! that finds the manifest finds every chunk. A rewrite with fewer chunks
//! leaves old chunks behind: the reader takes only the chunks the manifest
//! names. The versioned variant puts the version into the chunk keys and
//! switches the manifest last, so a reader never mixes two versions.

use std::fmt;

use dynakey::{Blob, Condition, Db, Entity, Error};

use super::adjacency::usage_row;
use crate::meter::{Meter, Usage};
use crate::report::{Printout, Table};
use crate::seeds::{CurrentVersion, FileChunk, FileManifest, VersionChunk};

super::recipe!(
    "large_objects",
    "003 Large objects",
    "chunks + manifest written last; a shorter rewrite reads only the manifest's chunks; versions never mix"
);

/// Bytes per chunk (300 KiB, under the 400 KB item limit).
pub const CHUNK: usize = 300 * 1024;
/// The first content's length (3 chunks).
pub const FIRST_LEN: usize = 700_000;
/// The rewrite's length (2 chunks).
pub const SECOND_LEN: usize = 400_000;

/// Deterministic content: `len` bytes, `seed` telling versions apart.
pub fn content(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(31).wrapping_add(u32::from(seed)) as u8)
        .collect()
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Chunks written the first time, and the bytes read back through the
    /// manifest equal the content.
    pub first_chunks: i32,
    /// Whether the first read returned the first content.
    pub first_ok: bool,
    /// What reading the file cost: one consistent get of the manifest,
    /// one consistent query of its chunks.
    pub read_usage: Usage,
    /// After the rewrite: the manifest's chunk count.
    pub second_chunks: i32,
    /// A reader that takes every chunk of the partition: bytes read.
    pub naive_len: usize,
    /// The reader that takes only the manifest's chunks: bytes read, and
    /// whether they are the second content.
    pub manifest_len: usize,
    /// Whether those bytes are the second content.
    pub manifest_ok: bool,
    /// A single item of 500 KB: the error, raised before sending.
    pub too_large: String,
    /// Versioned: a reader that read the manifest at version 1 before the
    /// switch still reads exactly version 1 after it.
    pub versioned_old_reader_ok: bool,
    /// Versioned: a reader after the switch reads exactly version 2.
    pub versioned_new_reader_ok: bool,
    /// Versioned: a second writer switching from version 1 fails its
    /// condition.
    pub stale_switch_refused: bool,
    /// Versioned: chunks of version 1 left after it was cleaned up.
    pub old_chunks_after_cleanup: u64,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[
        FileChunk::META,
        FileManifest::META,
        VersionChunk::META,
        CurrentVersion::META,
    ])
    .await
}

/// Writes `bytes` as file `file_id`: the chunks in a batch, the manifest
/// last.
pub async fn write_file(db: &Db, file_id: &str, bytes: &[u8]) -> Result<i32, Error> {
    let mut batch = db.batch_write();
    let mut n = 0;
    for (index, part) in bytes.chunks(CHUNK).enumerate() {
        batch = batch.put(&FileChunk {
            file_id: file_id.into(),
            index: index as i32,
            data: Blob::new(part.to_vec()),
        });
        n += 1;
    }
    batch.send().await?;
    db.put(&FileManifest {
        file_id: file_id.into(),
        chunks: n,
    })
    .await?;
    Ok(n)
}

/// Reads file `file_id`: the manifest, then exactly the chunks it names.
/// `None` when there is no manifest (no file, or a writer that stopped
/// halfway).
pub async fn read_file(db: &Db, file_id: &str) -> Result<Option<Vec<u8>>, Error> {
    let Some(manifest) = db.get(FileManifest::key(file_id)?).consistent().await? else {
        return Ok(None);
    };
    if manifest.chunks == 0 {
        return Ok(Some(Vec::new()));
    }
    let chunks = db
        .query(FileChunk::pk(file_id)?)
        .sk(FileChunk::sk().between(0, manifest.chunks - 1)?)
        .consistent()
        .all()
        .await?;
    Ok(Some(
        chunks
            .iter()
            .flat_map(|c| c.data.as_ref().to_vec())
            .collect(),
    ))
}

/// The reader the seed warns about: every chunk of the partition.
pub async fn read_every_chunk(db: &Db, file_id: &str) -> Result<Vec<u8>, Error> {
    let chunks = db
        .query(FileChunk::pk(file_id)?)
        .sk(FileChunk::sk().begins_with()?)
        .consistent()
        .all()
        .await?;
    Ok(chunks
        .iter()
        .flat_map(|c| c.data.as_ref().to_vec())
        .collect())
}

/// Writes version `version` of `file_id`'s chunks (not yet visible).
pub async fn write_version(
    db: &Db,
    file_id: &str,
    version: u32,
    bytes: &[u8],
) -> Result<u32, Error> {
    let mut batch = db.batch_write();
    let mut n = 0;
    for (index, part) in bytes.chunks(CHUNK).enumerate() {
        batch = batch.put(&VersionChunk {
            file_id: file_id.into(),
            version,
            index: index as u32,
            data: Blob::new(part.to_vec()),
        });
        n += 1;
    }
    batch.send().await?;
    Ok(n)
}

/// Makes `to` current, on condition that `from` still is (`None`: that
/// there is no current version yet).
pub async fn switch_version(
    db: &Db,
    current: CurrentVersion,
    from: Option<u32>,
) -> Result<(), Error> {
    let put = db.put(&current);
    let put = match from {
        None => put.if_not_exists(),
        Some(v) => put.condition(Condition::attr("version").eq(v)),
    };
    put.await.map(|_| ())
}

/// Reads the chunks of one version.
pub async fn read_version(db: &Db, current: &CurrentVersion) -> Result<Vec<u8>, Error> {
    let chunks = db
        .query(VersionChunk::pk(&current.file_id)?)
        .sk(VersionChunk::sk().version(current.version).begins_with()?)
        .consistent()
        .all()
        .await?;
    Ok(chunks
        .iter()
        .flat_map(|c| c.data.as_ref().to_vec())
        .collect())
}

/// Writes, rewrites and reads a file, tries a 500 KB item, then runs the
/// versioned variant with a reader across the switch.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let first = content(FIRST_LEN, 1);
    let second = content(SECOND_LEN, 2);
    let first_chunks = write_file(db, "report", &first).await?;
    let (metered, meter) = Meter::attach(db);
    let first_ok = read_file(&metered, "report").await?.as_deref() == Some(&first[..]);
    let read_usage = meter.take();

    let second_chunks = write_file(db, "report", &second).await?;
    let naive_len = read_every_chunk(db, "report").await?.len();
    let by_manifest = read_file(db, "report").await?.unwrap_or_default();

    let too_large = match db
        .put(&FileChunk {
            file_id: "big".into(),
            index: 0,
            data: Blob::new(vec![0u8; 500 * 1024]),
        })
        .await
    {
        Err(e) => e.to_string(),
        Ok(_) => "accepted".into(),
    };

    // Versioned: v1 current; a reader reads the manifest; v2 is written and
    // switched; the reader goes on with v1's chunks.
    let n1 = write_version(db, "logo", 1, &first).await?;
    let v1 = CurrentVersion {
        file_id: "logo".into(),
        version: 1,
        chunks: n1,
    };
    switch_version(db, v1, None).await?;
    let early = db
        .get(CurrentVersion::key("logo")?)
        .consistent()
        .await?
        .ok_or_else(|| Error::Refused {
            reason: dynakey::RefusedReason::Other,
            message: "no current version".into(),
        })?;
    let n2 = write_version(db, "logo", 2, &second).await?;
    let v2 = CurrentVersion {
        file_id: "logo".into(),
        version: 2,
        chunks: n2,
    };
    switch_version(db, v2, Some(1)).await?;
    let versioned_old_reader_ok = read_version(db, &early).await? == first;
    let late = db.get(CurrentVersion::key("logo")?).consistent().await?;
    let versioned_new_reader_ok = match &late {
        Some(c) => c.version == 2 && read_version(db, c).await? == second,
        None => false,
    };
    let stale = CurrentVersion {
        file_id: "logo".into(),
        version: 3,
        chunks: 0,
    };
    let stale_switch_refused = matches!(
        switch_version(db, stale, Some(1)).await,
        Err(Error::ConditionFailed { .. })
    );
    let mut cleanup = db.batch_write();
    for index in 0..n1 {
        cleanup = cleanup.delete(VersionChunk::key("logo", 1, index)?);
    }
    cleanup.send().await?;
    let old_chunks_after_cleanup = db
        .query(VersionChunk::pk("logo")?)
        .sk(VersionChunk::sk().version(1).begins_with()?)
        .count()
        .await?;

    Ok(Report {
        first_chunks,
        first_ok,
        read_usage,
        second_chunks,
        naive_len,
        manifest_len: by_manifest.len(),
        manifest_ok: by_manifest == second,
        too_large,
        versioned_old_reader_ok,
        versioned_new_reader_ok,
        stale_switch_refused,
        old_chunks_after_cleanup,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        p.table(
            Table::new("FILE#report", ["step", "result"])
                .row([
                    format!("write {FIRST_LEN} bytes"),
                    format!(
                        "{} chunks, read back intact: {}",
                        self.first_chunks, self.first_ok
                    ),
                ])
                .row([
                    format!("rewrite {SECOND_LEN} bytes"),
                    format!(
                        "manifest names {} chunks (chunk 2 is left behind)",
                        self.second_chunks
                    ),
                ])
                .row([
                    "read every chunk of the partition".to_owned(),
                    format!("{} bytes (wrong: old chunk appended)", self.naive_len),
                ])
                .row([
                    "read the manifest's chunks".to_owned(),
                    format!(
                        "{} bytes, the new content: {}",
                        self.manifest_len, self.manifest_ok
                    ),
                ])
                .row(["one 500 KB item".to_owned(), self.too_large.clone()]),
        );
        p.table(
            Table::new(
                "reading the file",
                [
                    "read",
                    "requests",
                    "returned",
                    "read (ScannedCount)",
                    "capacity",
                ],
            )
            .row(usage_row("manifest + its chunks", &self.read_usage)),
        );
        p.table(
            Table::new(
                "FILE#logo, versioned chunks (VERSION#<v:d6>#CHUNK#<i:d4>)",
                ["check", "result"],
            )
            .row([
                "reader of v1 across the switch to v2 reads only v1",
                &self.versioned_old_reader_ok.to_string(),
            ])
            .row([
                "reader after the switch reads only v2",
                &self.versioned_new_reader_ok.to_string(),
            ])
            .row([
                "a stale writer's switch from v1 is refused",
                &self.stale_switch_refused.to_string(),
            ])
            .row([
                "v1 chunks left after cleanup",
                &self.old_chunks_after_cleanup.to_string(),
            ]),
        );
        p.fmt(f)
    }
}
