//! `db.changes(..)`: a consumer of a table's stream through the Streams
//! API, for local development and small services. It follows every shard,
//! a child only once its parent is read to the end (so an item's changes
//! come in order across shard splits), and resumes from a [`Checkpoint`].

use std::collections::VecDeque;
use std::time::Duration;

use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodbstreams::operation::describe_stream::DescribeStreamInput;
use aws_sdk_dynamodbstreams::operation::get_records::{GetRecordsError, GetRecordsInput};
use aws_sdk_dynamodbstreams::operation::get_shard_iterator::GetShardIteratorInput;
use aws_sdk_dynamodbstreams::types::ShardIteratorType;
use aws_sdk_dynamodbstreams::Client as StreamsClient;

use super::change::Change;
use super::checkpoint::Checkpoint;
use super::client::{streams_client, LambdaCasedIdentity, SeeEndpoint};
use super::decoder::ChangeDecoder;
use super::streams_api::record_from_stream;
use crate::db::Db;
use crate::error::{Error, RefusedReason};
use crate::send::{send, send_or_none, To};

/// One shard as the feed follows it.
#[derive(Debug)]
struct Shard {
    id: String,
    parent: Option<String>,
    iterator: Option<String>,
    /// The last sequence number read from it (handed out or buffered).
    read_to: Option<String>,
    /// Read to its end: `GetRecords` returned no next iterator.
    ended: bool,
    /// A failed record of it is waiting in the buffer; it is not read
    /// again until that failure is handed out.
    blocked: bool,
    /// Start at LATEST rather than TRIM_HORIZON (no position yet).
    latest: bool,
}

/// What the buffer holds, in the order it was read.
#[derive(Debug)]
enum Buffered<T> {
    Change(Change<T>),
    Failed { shard: String, error: Error },
    End(String),
}

/// A table's changes as typed [`Change`]s, read through the DynamoDB
/// Streams API: from `db.changes(decoder)`. Every shard of the stream is
/// followed, each item's changes come in order, shard ends and new shards
/// are handled, and [`checkpoint`](Self::checkpoint) says how far it got
/// (store it, and [`resume`](Self::resume) from it later).
///
/// Works where the Streams API does: real DynamoDB, the embedded engine and
/// moto. The table needs a stream ([`crate::table::TableOptions::stream`]).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: String }
/// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind, StreamView};
/// use dynakey_runtime::table::TableOptions;
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table_with(&[Note::META], TableOptions::default().stream(StreamView::NewAndOldImages))
///     .await
///     .unwrap();
/// let mut feed = db.changes(ChangeDecoder::<Note>::entity());
/// let note = Note { user: "ann".into(), id: 1, text: "hi".into() };
/// db.put(&note).await.unwrap();
/// db.delete(Note::key("ann", 1).unwrap()).await.unwrap();
/// let changes = feed.catch_up().await.unwrap();
/// assert_eq!(changes[0].kind, ChangeKind::Inserted(note.clone()));
/// assert_eq!(changes[1].kind, ChangeKind::Removed(note));
/// let saved = feed.checkpoint().to_json();             // store it; later:
/// let mut again = db.changes(ChangeDecoder::<Note>::entity())
///     .resume(dynakey_runtime::changes::Checkpoint::from_json(&saved).unwrap());
/// assert!(again.catch_up().await.unwrap().is_empty());  // nothing twice
/// # });
/// ```
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
#[derive(Debug)]
#[must_use = "a change feed reads nothing until polled (catch_up, poll)"]
pub struct ChangeFeed<T> {
    db: Db,
    decoder: ChangeDecoder<T>,
    client: Option<StreamsClient>,
    arn: Option<String>,
    start_latest: bool,
    page_size: i32,
    poll_interval: Duration,
    started: bool,
    shards: Vec<Shard>,
    buffer: VecDeque<Buffered<T>>,
    checkpoint: Checkpoint,
}

#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
impl Db {
    /// The table's changes, decoded by `decoder`; see [`ChangeFeed`].
    pub fn changes<T>(&self, decoder: ChangeDecoder<T>) -> ChangeFeed<T> {
        ChangeFeed {
            db: self.clone(),
            decoder,
            client: None,
            arn: None,
            start_latest: false,
            page_size: 1000,
            poll_interval: Duration::from_millis(250),
            started: false,
            shards: Vec::new(),
            buffer: VecDeque::new(),
            checkpoint: Checkpoint::default(),
        }
    }
}

/// What one round of reads did.
#[derive(Debug, Default)]
struct Round {
    records: usize,
    ended: usize,
}

impl<T> ChangeFeed<T> {
    /// Continues after `checkpoint` (from [`checkpoint`](Self::checkpoint)
    /// of an earlier feed): shards it finished are skipped, the others
    /// resume after its sequence numbers, and shards it never saw start at
    /// their oldest record (see the example on [`ChangeFeed`]).
    pub fn resume(mut self, checkpoint: Checkpoint) -> Self {
        self.checkpoint = checkpoint;
        self
    }

    /// Without a checkpoint, starts at the newest record of each shard
    /// (only changes made from now on) rather than the oldest one kept.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// # let backend = dynakey_runtime::local::memory().unwrap();
    /// # let db = backend.db("notes");
    /// use dynakey_runtime::changes::ChangeDecoder;
    /// let feed = db
    ///     .changes(ChangeDecoder::<Note>::entity())
    ///     .from_latest()
    ///     .page_size(100)
    ///     .poll_interval(std::time::Duration::from_millis(50));
    /// assert!(feed.checkpoint().shards.is_empty());
    /// ```
    pub fn from_latest(mut self) -> Self {
        self.start_latest = true;
        self
    }

    /// Records per `GetRecords` request (1 to 1000; 1000 by default; see
    /// the example on [`from_latest`](Self::from_latest)).
    pub fn page_size(mut self, n: i32) -> Self {
        self.page_size = n.clamp(1, 1000);
        self
    }

    /// How long [`next`](Self::next) waits between reads that find nothing
    /// (250 ms by default; see the example on [`from_latest`](Self::from_latest)).
    pub fn poll_interval(mut self, d: Duration) -> Self {
        self.poll_interval = d;
        self
    }

    /// Reads through this Streams client instead of one derived from the
    /// table's client (same region, credentials, HTTP client; the table's
    /// endpoint on an emulator, the regional Streams endpoint on AWS; see
    /// the example on [`stream_arn`](Self::stream_arn)).
    pub fn streams_client(mut self, client: StreamsClient) -> Self {
        // With the reader of Lambda-cased identities the derived client has.
        let conf = client
            .config()
            .to_builder()
            .interceptor(LambdaCasedIdentity)
            .build();
        self.client = Some(StreamsClient::from_conf(conf));
        self
    }

    /// Follows this stream instead of the table's latest one. With
    /// [`streams_client`](Self::streams_client) too, the feed never asks
    /// the table (the Streams API is all it uses).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let feed = backend
    ///     .db("notes")
    ///     .changes(dynakey_runtime::changes::ChangeDecoder::<Note>::entity())
    ///     .streams_client(backend.streams_client())
    ///     .stream_arn("arn:aws:dynamodb:dynoxide:000000000000:table/notes/stream/1");
    /// assert!(feed.checkpoint().stream_arn.is_none()); // set once it starts
    /// ```
    pub fn stream_arn(mut self, arn: impl Into<String>) -> Self {
        self.arn = Some(arn.into());
        self
    }

    /// How far the feed has handed out changes: store it and
    /// [`resume`](Self::resume) from it (see the example on [`ChangeFeed`]).
    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// Every change available now, in order: reads until a round of reads
    /// finds nothing new. A record that fails to decode is returned as the
    /// error once the changes before it have been returned.
    ///
    /// On DynamoDB an empty read does not prove a shard has nothing more
    /// (records can be a few reads away); use [`next`](Self::next) to follow
    /// a live stream. On the embedded engine and moto it does.
    pub async fn catch_up(&mut self) -> Result<Vec<Change<T>>, Error> {
        loop {
            let round = self.read_round().await?;
            if round.records == 0 && round.ended == 0 {
                break;
            }
        }
        self.drain()
    }

    /// One round of reads (one request per readable shard), and the changes
    /// it found, in order (the same failure rule as [`catch_up`](Self::catch_up)).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::{ChangeDecoder, StreamView};
    /// use dynakey_runtime::table::TableOptions;
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// db.create_table_with(&[Note::META], TableOptions::default().stream(StreamView::NewImage)).await.unwrap();
    /// let mut feed = db.changes(ChangeDecoder::<Note>::entity());
    /// db.put(&Note { user: "ann".into() }).await.unwrap();
    /// assert_eq!(feed.poll().await.unwrap().len(), 1);
    /// assert!(feed.poll().await.unwrap().is_empty());
    /// # });
    /// ```
    pub async fn poll(&mut self) -> Result<Vec<Change<T>>, Error> {
        self.read_round().await?;
        self.drain()
    }

    /// The next change, waiting for one ([`poll_interval`](Self::poll_interval)
    /// between empty reads).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind, StreamView};
    /// use dynakey_runtime::table::TableOptions;
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// db.create_table_with(&[Note::META], TableOptions::default().stream(StreamView::NewAndOldImages)).await.unwrap();
    /// let mut feed = db.changes(ChangeDecoder::<Note>::entity());
    /// let writer = db.clone();
    /// tokio::spawn(async move { writer.put(&Note { user: "ann".into() }).await.unwrap() });
    /// let c = feed.next().await.unwrap();
    /// assert_eq!(c.kind, ChangeKind::Inserted(Note { user: "ann".into() }));
    /// # });
    /// ```
    pub async fn next(&mut self) -> Result<Change<T>, Error> {
        loop {
            if let Some(c) = self.pop()? {
                return Ok(c);
            }
            let round = self.read_round().await?;
            if round.records == 0 && round.ended == 0 && self.buffer.is_empty() {
                tokio::time::sleep(self.poll_interval).await;
            }
        }
    }

    /// Hands out the next buffered change, keeping the checkpoint in step.
    fn pop(&mut self) -> Result<Option<Change<T>>, Error> {
        while let Some(b) = self.buffer.pop_front() {
            match b {
                Buffered::Change(c) => {
                    if let (Some(shard), Some(seq)) = (&c.shard_id, &c.sequence_number) {
                        self.checkpoint.shards.insert(shard.clone(), seq.clone());
                    }
                    return Ok(Some(c));
                }
                Buffered::End(shard) => {
                    self.checkpoint.shards.remove(&shard);
                    self.checkpoint.finished.insert(shard);
                }
                Buffered::Failed { shard, error } => {
                    if let Some(s) = self.shards.iter_mut().find(|s| s.id == shard) {
                        s.blocked = false;
                    }
                    return Err(error);
                }
            }
        }
        Ok(None)
    }

    /// Every buffered change up to the first failure; the failure itself
    /// when it comes first.
    fn drain(&mut self) -> Result<Vec<Change<T>>, Error> {
        let mut out = Vec::new();
        loop {
            if matches!(self.buffer.front(), Some(Buffered::Failed { .. })) && !out.is_empty() {
                return Ok(out);
            }
            match self.pop()? {
                Some(c) => out.push(c),
                None => return Ok(out),
            }
        }
    }

    async fn start(&mut self) -> Result<(), Error> {
        if self.client.is_none() || self.arn.is_none() {
            // Through a client that notes where the request goes.
            let seen = SeeEndpoint::default();
            let watched = aws_sdk_dynamodb::Client::from_conf(
                self.db
                    .client
                    .config()
                    .to_builder()
                    .interceptor(seen.clone())
                    .build(),
            );
            let name = self.db.table_name();
            let req = DescribeTableInput::builder().table_name(name);
            let table = send(&To::table(&watched, name), req).await?;
            if self.client.is_none() {
                self.client = Some(streams_client(&self.db.client, &seen));
            }
            if self.arn.is_none() {
                let arn = table
                    .table()
                    .filter(|t| t.stream_specification().is_none_or(|s| s.stream_enabled()))
                    .and_then(|t| t.latest_stream_arn());
                self.arn = Some(arn.map(str::to_owned).ok_or_else(|| {
                    Error::refused(
                        RefusedReason::TableDefinition,
                        format!(
                        "table {} has no stream: create it with TableOptions::default().stream(..)",
                        self.db.table_name()
                    ),
                    )
                })?);
            }
        }
        if self.checkpoint.stream_arn.is_some() && self.checkpoint.stream_arn != self.arn {
            // The positions are another stream's (the table's stream was
            // turned off and on): this one is read from its oldest record.
            self.checkpoint = Checkpoint::default();
        }
        self.checkpoint.stream_arn = self.arn.clone();
        self.started = true;
        self.refresh().await
    }

    /// Learns the stream's shards (DescribeStream, every page) and adds the
    /// ones not yet followed.
    async fn refresh(&mut self) -> Result<(), Error> {
        let (Some(client), Some(arn)) = (&self.client, &self.arn) else {
            return Ok(());
        };
        let first_time = self.shards.is_empty() && self.checkpoint.shards.is_empty();
        let to = To::stream(client, self.db.table_name());
        let mut after: Option<String> = None;
        loop {
            let req = DescribeStreamInput::builder()
                .stream_arn(arn)
                .set_exclusive_start_shard_id(after.clone());
            let out = send(&to, req).await?;
            let Some(desc) = out.stream_description() else {
                break;
            };
            for s in desc.shards() {
                let Some(id) = s.shard_id() else { continue };
                if self.shards.iter().any(|k| k.id == id) {
                    continue;
                }
                self.shards.push(Shard {
                    id: id.to_owned(),
                    parent: s.parent_shard_id().map(str::to_owned),
                    iterator: None,
                    read_to: self.checkpoint.position(id).map(str::to_owned),
                    ended: self.checkpoint.is_finished(id),
                    blocked: false,
                    latest: first_time && self.start_latest,
                });
            }
            match desc.last_evaluated_shard_id() {
                Some(last) => after = Some(last.to_owned()),
                None => break,
            }
        }
        Ok(())
    }

    /// Whether shard `i` may be read: not ended, not blocked, and its
    /// parent (if the stream still lists it) read to its end first, which
    /// keeps an item's changes in order across a split.
    fn readable(&self, i: usize) -> bool {
        let s = &self.shards[i];
        !s.ended
            && !s.blocked
            && s.parent.as_ref().is_none_or(|p| {
                self.shards
                    .iter()
                    .find(|k| &k.id == p)
                    .is_none_or(|k| k.ended)
            })
    }

    /// One `GetRecords` per readable shard, in the stream's shard order;
    /// what was read goes to the buffer.
    async fn read_round(&mut self) -> Result<Round, Error> {
        if !self.started {
            self.start().await?;
        }
        let mut round = Round::default();
        for i in 0..self.shards.len() {
            if self.readable(i) {
                self.read_shard(i, &mut round).await?;
            }
        }
        // A shard ended: its children may be listed by now.
        if round.ended > 0 || self.shards.iter().all(|s| s.ended) {
            self.refresh().await?;
        }
        Ok(round)
    }

    async fn read_shard(&mut self, i: usize, round: &mut Round) -> Result<(), Error> {
        let (Some(client), Some(arn)) = (self.client.clone(), self.arn.clone()) else {
            return Ok(());
        };
        let to = To::stream(&client, self.db.table_name());
        let shard = &mut self.shards[i];
        let iterator = match shard.iterator.take() {
            Some(it) => it,
            None => {
                let req = GetShardIteratorInput::builder()
                    .stream_arn(&arn)
                    .shard_id(&shard.id);
                let req = match (&shard.read_to, shard.latest) {
                    (Some(seq), _) => req
                        .shard_iterator_type(ShardIteratorType::AfterSequenceNumber)
                        .sequence_number(seq),
                    (None, true) => req.shard_iterator_type(ShardIteratorType::Latest),
                    (None, false) => req.shard_iterator_type(ShardIteratorType::TrimHorizon),
                };
                let out = send(&to, req).await?;
                match out.shard_iterator() {
                    Some(it) => it.to_owned(),
                    // No iterator: the shard has nothing more to give.
                    None => {
                        shard.ended = true;
                        round.ended += 1;
                        self.buffer.push_back(Buffered::End(shard.id.clone()));
                        return Ok(());
                    }
                }
            }
        };
        let req = GetRecordsInput::builder()
            .shard_iterator(iterator)
            .limit(self.page_size);
        // Iterators expire (15 minutes on DynamoDB): get a new one at the
        // same position next round.
        let expired = GetRecordsError::is_expired_iterator_exception;
        let Some(out) = send_or_none(&to, req, expired).await? else {
            return Ok(());
        };
        // The table the stream belongs to, as a Lambda record names it.
        let table = self
            .arn
            .as_deref()
            .and_then(super::record::table_of_stream_arn)
            .map(str::to_owned);
        let shard = &mut self.shards[i];
        for r in out.records() {
            round.records += 1;
            let decoded = record_from_stream(r).and_then(|mut rec| {
                rec.shard_id = Some(shard.id.clone());
                rec.table = table.clone();
                self.decoder.decode(&rec)
            });
            match decoded {
                Ok(c) => {
                    shard.read_to = c.sequence_number.clone().or(shard.read_to.take());
                    self.buffer.push_back(Buffered::Change(c));
                }
                Err(e) => {
                    // Stop at the failed record: the next read of this shard
                    // starts right after the last good one, so the failure
                    // comes back until the caller changes something.
                    shard.blocked = true;
                    self.buffer.push_back(Buffered::Failed {
                        shard: shard.id.clone(),
                        error: Error::Change(e),
                    });
                    return Ok(());
                }
            }
        }
        match out.next_shard_iterator() {
            Some(next) => shard.iterator = Some(next.to_owned()),
            None => {
                shard.ended = true;
                round.ended += 1;
                self.buffer.push_back(Buffered::End(shard.id.clone()));
            }
        }
        Ok(())
    }

    /// The feed as an endless `Stream` of changes ([`next`](Self::next) in a loop).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # struct Note { user: String }
    /// use futures_util::StreamExt;
    /// use dynakey_runtime::changes::{ChangeDecoder, StreamView};
    /// use dynakey_runtime::table::TableOptions;
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// db.create_table_with(&[Note::META], TableOptions::default().stream(StreamView::NewAndOldImages)).await.unwrap();
    /// db.put(&Note { user: "ann".into() }).await.unwrap();
    /// db.put(&Note { user: "bob".into() }).await.unwrap();
    /// let feed = db.changes(ChangeDecoder::<Note>::entity()).into_stream();
    /// let two: Vec<_> = feed.take(2).collect().await;
    /// assert_eq!(two.len(), 2);
    /// # });
    /// ```
    pub fn into_stream(self) -> impl futures_core::Stream<Item = Result<Change<T>, Error>> {
        futures_util::stream::unfold(self, |mut feed| async move {
            let next = feed.next().await;
            Some((next, feed))
        })
    }
}
