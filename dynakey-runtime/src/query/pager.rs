//! The one pager of every read: a query of one partition, a fan-out over
//! several and a scan in segments are all *lanes* (one sequence of
//! requests each, resumed by `ExclusiveStartKey`) read through a pager that
//! merges them (in sort-key order, or one after another for a scan),
//! decodes, and stops at the read's `limit`.
//!
//! A lane remembers where a fresh reader would resume: after the last item
//! it handed out (or after DynamoDB's `LastEvaluatedKey` once its buffer is
//! empty), so a page's cursor resumes exactly after the page's last item,
//! nothing skipped and nothing repeated, however many items the requests
//! brought back beyond it.

use std::collections::VecDeque;

use aws_sdk_dynamodb::operation::query::builders::QueryInputBuilder;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::operation::scan::builders::ScanInputBuilder;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::types::AttributeValue;
use futures_core::Stream;
use futures_util::future::try_join_all;

use super::decode::Decoder;
use super::page::{decode_cursor, encode_cursor, Page, Position};
use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;
use crate::explain::Explain;
use crate::obs::Span;
use crate::ops::build_err;

/// A request with everything but its start key and `Limit`.
#[derive(Debug, Clone)]
pub(crate) enum Request {
    Query(QueryInputBuilder),
    Scan(ScanInputBuilder),
}

/// A lane's first request as the SDK input.
pub(crate) enum Input {
    Query(QueryInput),
    Scan(ScanInput),
}

/// What one request brought back.
struct RawPage {
    items: Vec<Item>,
    last: Option<Item>,
    count: u64,
}

impl Request {
    async fn send(
        &self,
        db: &Db,
        entity: &'static str,
        start: Option<Item>,
        limit: Option<i32>,
    ) -> Result<RawPage, Error> {
        // The same steps for both: only the builder and output types differ.
        macro_rules! send {
            ($op:literal, $b:expr) => {{
                let span = Span::new($op, &db.table, $b.get_index_name().as_deref(), Some(entity));
                let req = $b.clone().set_exclusive_start_key(start).set_limit(limit);
                let out = span.end(
                    span.run(req.send_with(&db.client))
                        .await
                        .map_err(|e| Error::from_sdk(e, db.sdk_attempts())),
                )?;
                span.counts(out.count, out.scanned_count);
                span.capacity(out.consumed_capacity());
                (out.items, out.last_evaluated_key, out.count)
            }};
        }
        let (items, last, count) = match self {
            Request::Query(q) => send!("Query", q),
            Request::Scan(s) => send!("Scan", s),
        };
        Ok(RawPage {
            items: items.unwrap_or_default(),
            last: last.filter(|k| !k.is_empty()),
            count: count.max(0) as u64,
        })
    }
}

/// The `Limit` of a read's first request: the page size, less when the
/// read's limit needs fewer items.
pub(crate) fn first_limit(page_size: Option<u32>, limit: Option<usize>) -> Option<i32> {
    let n = match (page_size.map(|p| p as usize), limit) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    n.map(|n| n.clamp(1, i32::MAX as usize) as i32)
}

/// One partition of a query, or one segment of a scan.
#[derive(Debug)]
pub(crate) struct Lane {
    /// `None` when nothing can match (an empty sort-key range): no request.
    pub(crate) request: Option<Request>,
    /// The entity read (its Rust type name, for the request's span).
    entity: &'static str,
    /// The key attributes of an `ExclusiveStartKey` of this read.
    key_attrs: Vec<&'static str>,
    /// Items fetched and not yet handed out.
    buf: VecDeque<Item>,
    /// Where a fresh reader resumes: after this key (`None`: the start).
    at: Option<Item>,
    /// The start key of the next request.
    next: Option<Item>,
    /// Whether the last request had no `LastEvaluatedKey`.
    fetched_all: bool,
}

impl Lane {
    pub(crate) fn new(
        request: Option<Request>,
        key_attrs: Vec<&'static str>,
        entity: &'static str,
    ) -> Self {
        let fetched_all = request.is_none();
        Self {
            request,
            entity,
            key_attrs,
            buf: VecDeque::new(),
            at: None,
            next: None,
            fetched_all,
        }
    }

    /// The SDK input of the lane's first request (`None`: nothing is sent).
    pub(crate) fn first_input(&self, limit: Option<i32>) -> Result<Option<Input>, Error> {
        Ok(match &self.request {
            Some(Request::Query(q)) => Some(Input::Query(
                q.clone().set_limit(limit).build().map_err(build_err)?,
            )),
            Some(Request::Scan(s)) => Some(Input::Scan(
                s.clone().set_limit(limit).build().map_err(build_err)?,
            )),
            None => None,
        })
    }

    /// The readable form of the lane's first request.
    pub(crate) fn explain(&self, table: &str, limit: Option<i32>) -> Result<Explain, Error> {
        Ok(match self.first_input(limit)? {
            Some(Input::Query(q)) => Explain::from(&q),
            Some(Input::Scan(s)) => Explain::from(&s),
            None => {
                let mut x = Explain::new("Query", table);
                x.options
                    .push(("sent".into(), "no (the sort-key range is empty)".into()));
                x
            }
        })
    }

    fn resume(&mut self, p: Position) {
        self.buf.clear();
        match p {
            Position::At(k) => {
                self.at = k.clone();
                self.next = k;
                self.fetched_all = self.request.is_none();
            }
            Position::Done => {
                self.at = None;
                self.next = None;
                self.fetched_all = true;
            }
        }
    }

    fn position(&self) -> Position {
        if self.exhausted() {
            Position::Done
        } else {
            Position::At(self.at.clone())
        }
    }

    fn exhausted(&self) -> bool {
        self.buf.is_empty() && self.fetched_all
    }

    fn needs_fetch(&self) -> bool {
        self.buf.is_empty() && !self.fetched_all
    }

    /// One request; returns its `Count`.
    async fn fetch(&mut self, db: &Db, limit: Option<i32>) -> Result<u64, Error> {
        let Some(req) = &self.request else {
            self.fetched_all = true;
            return Ok(0);
        };
        let raw = req.send(db, self.entity, self.next.clone(), limit).await?;
        self.buf.extend(raw.items);
        self.next = raw.last;
        self.fetched_all = self.next.is_none();
        if self.buf.is_empty() {
            // Everything read so far was filtered out: resume after it.
            self.at = self.next.clone();
        }
        Ok(raw.count)
    }

    /// Requests until an item is buffered or nothing is left.
    async fn fill(&mut self, db: &Db, limit: Option<i32>) -> Result<(), Error> {
        while self.needs_fetch() {
            self.fetch(db, limit).await?;
        }
        Ok(())
    }

    /// Requests until `want` items are buffered or nothing is left.
    async fn read_ahead(
        &mut self,
        db: &Db,
        limit: Option<i32>,
        want: Option<usize>,
    ) -> Result<(), Error> {
        while !self.fetched_all && want.is_none_or(|w| self.buf.len() < w) {
            self.fetch(db, limit).await?;
        }
        Ok(())
    }

    /// Sums the `Count` of requests until nothing is left or `cap` is reached.
    async fn count(&mut self, db: &Db, limit: Option<i32>, cap: Option<u64>) -> Result<u64, Error> {
        let mut n = 0;
        while !self.fetched_all && cap.is_none_or(|c| n < c) {
            n += self.fetch(db, limit).await?;
        }
        Ok(n)
    }

    /// Hands out the next buffered item.
    fn pop(&mut self) -> Option<Item> {
        let item = self.buf.pop_front()?;
        self.at = if self.buf.is_empty() {
            self.next.clone()
        } else {
            Some(self.key_of(&item))
        };
        Some(item)
    }

    fn key_of(&self, item: &Item) -> Item {
        self.key_attrs
            .iter()
            .filter_map(|a| item.get(*a).map(|v| ((*a).to_owned(), v.clone())))
            .collect()
    }
}

/// The text of an item's sort key (keys are strings), `""` without one.
fn sort_text<'a>(item: &'a Item, attr: Option<&str>) -> &'a str {
    match attr.and_then(|a| item.get(a)) {
        Some(AttributeValue::S(s)) => s.as_str(),
        _ => "",
    }
}

/// How lanes are merged.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Order {
    /// By the text of this sort-key attribute, ties to the earlier lane.
    Sorted {
        attr: Option<&'static str>,
        forward: bool,
    },
    /// Each lane in turn (scan segments).
    Concat,
}

/// A read over lanes: merge, decode, limit. The merging and fetching
/// ([`RawPager`]) does not depend on the decoder, so it is compiled once
/// here; only the decoding steps are generic.
pub(crate) struct Pager<D> {
    raw: RawPager,
    decoder: D,
}

/// What a [`RawPager`] hands each item to: the decoder, which keeps what
/// it decodes and says whether the item counts (`false`: skipped).
type Sink<'a> = dyn FnMut(&Item) -> Result<bool, Error> + Send + 'a;

/// A sink that decodes each item into `out` (an item the decoder skips
/// does not count).
fn into_vec<'a, D: Decoder>(
    decoder: &'a D,
    out: &'a mut Vec<D::Out>,
) -> impl FnMut(&Item) -> Result<bool, Error> + Send + 'a {
    move |item| match decoder.decode(item)? {
        Some(x) => {
            out.push(x);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// A read over lanes without its decoder: merge and limit.
pub(crate) struct RawPager {
    db: Db,
    pub(crate) lanes: Vec<Lane>,
    order: Order,
    /// The read's total cap on items returned.
    limit: Option<usize>,
    /// Items per page, and the `Limit` of each request.
    page_size: Option<u32>,
    /// Whether lanes are fetched concurrently.
    concurrent: bool,
    /// Items returned so far (carried across pages by the cursor).
    returned: usize,
}

impl<D: Decoder> Pager<D> {
    pub(crate) fn new(
        db: Db,
        lanes: Vec<Lane>,
        order: Order,
        decoder: D,
        limit: Option<usize>,
        page_size: Option<u32>,
    ) -> Self {
        let raw = RawPager {
            db,
            lanes,
            order,
            limit,
            page_size,
            concurrent: true,
            returned: 0,
        };
        Self { raw, decoder }
    }

    /// The lanes (each a request stream).
    pub(crate) fn lanes(&self) -> &[Lane] {
        &self.raw.lanes
    }

    /// Fetch lanes one after another.
    pub(crate) fn sequential(mut self) -> Self {
        self.raw.concurrent = false;
        self
    }

    /// The next item, or `None` at the end or the limit (or, without
    /// `fetch`, when a request would be needed).
    async fn step(&mut self, fetch: bool) -> Result<Option<D::Out>, Error> {
        let dec = &self.decoder;
        let mut got = None;
        self.raw
            .step(fetch, &mut |item| {
                got = dec.decode(item)?;
                Ok(got.is_some())
            })
            .await?;
        Ok(got)
    }

    /// Every item up to the limit. Lanes are read ahead concurrently, each
    /// up to the items the limit allows.
    pub(crate) async fn all(self) -> Result<Vec<D::Out>, Error> {
        let Pager { mut raw, decoder } = self;
        let mut out = Vec::new();
        raw.all(&mut into_vec(&decoder, &mut out)).await?;
        Ok(out)
    }

    /// The page starting at `cursor`: `page_size` items unless the read
    /// ends or reaches its limit first; without a page size, the items of
    /// the requests it takes to find at least one.
    pub(crate) async fn page(self, cursor: Option<&str>) -> Result<Page<D::Out>, Error> {
        let Pager { mut raw, decoder } = self;
        let mut items = Vec::new();
        let cursor = raw
            .page(cursor, &mut into_vec(&decoder, &mut items))
            .await?;
        Ok(Page { items, cursor })
    }

    /// The items as a stream, fetching as it is read.
    pub(crate) fn stream(self) -> impl Stream<Item = Result<D::Out, Error>> + Send + 'static {
        futures_util::stream::unfold(Some(self), |pager| async move {
            let mut pager = pager?;
            match pager.step(true).await {
                Ok(Some(x)) => Some((Ok(x), Some(pager))),
                Ok(None) => None,
                // An error ends the stream.
                Err(e) => Some((Err(e), None)),
            }
        })
    }

    /// How many items match (the lanes' requests ask `Select = COUNT`),
    /// at most the limit.
    pub(crate) async fn count(self) -> Result<u64, Error> {
        self.raw.count().await
    }
}

impl RawPager {
    /// Items still allowed by the limit.
    fn remaining(&self) -> Option<usize> {
        self.limit.map(|l| l.saturating_sub(self.returned))
    }

    /// The `Limit` of a request: the page size, less when the limit needs
    /// fewer items.
    fn request_limit(&self) -> Option<i32> {
        first_limit(self.page_size, self.remaining())
    }

    /// Fills the lanes `which`, concurrently unless sequential.
    async fn fill(&mut self, which: &[usize]) -> Result<(), Error> {
        let limit = self.request_limit();
        let db = &self.db;
        if self.concurrent && which.len() > 1 {
            let lanes = self
                .lanes
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| which.contains(i))
                .map(|(_, l)| l.fill(db, limit));
            try_join_all(lanes).await?;
        } else {
            for &i in which {
                self.lanes[i].fill(db, limit).await?;
            }
        }
        Ok(())
    }

    /// The lanes to fill before the next item can be picked.
    fn needy(&self) -> Vec<usize> {
        match self.order {
            Order::Sorted { .. } => (0..self.lanes.len())
                .filter(|&i| self.lanes[i].needs_fetch())
                .collect(),
            Order::Concat => self
                .lanes
                .iter()
                .position(|l| !l.exhausted())
                .filter(|&i| self.lanes[i].needs_fetch())
                .into_iter()
                .collect(),
        }
    }

    /// The lane whose head comes next; lanes needing a fetch are filled
    /// first, unless `fetch` is false (then `None` means "a fetch is
    /// needed or nothing is left").
    async fn next_raw(&mut self, fetch: bool) -> Result<Option<Item>, Error> {
        loop {
            let needy = self.needy();
            if needy.is_empty() {
                break;
            }
            if !fetch {
                return Ok(None);
            }
            self.fill(&needy).await?;
        }
        let pick = match self.order {
            // The first lane not exhausted holds items (else it was needy).
            Order::Concat => self.lanes.iter().position(|l| !l.buf.is_empty()),
            Order::Sorted { attr, forward } => {
                let mut best: Option<(usize, &str)> = None;
                for (i, l) in self.lanes.iter().enumerate() {
                    if let Some(k) = l.buf.front().map(|it| sort_text(it, attr)) {
                        let better = best.is_none_or(|(_, b)| if forward { k < b } else { k > b });
                        if better {
                            best = Some((i, k));
                        }
                    }
                }
                best.map(|(i, _)| i)
            }
        };
        Ok(pick.and_then(|i| self.lanes[i].pop()))
    }

    /// Hands items to `sink` until it takes one (returns `true`), the end
    /// or the limit; `false` when nothing was taken (or, without `fetch`,
    /// when a request would be needed). The decoder lives in `sink`, so
    /// this loop is compiled once for every entity.
    async fn step(&mut self, fetch: bool, sink: &mut Sink<'_>) -> Result<bool, Error> {
        loop {
            if self.remaining() == Some(0) {
                return Ok(false);
            }
            let Some(item) = self.next_raw(fetch).await? else {
                return Ok(false);
            };
            if sink(&item)? {
                self.returned += 1;
                return Ok(true);
            }
        }
    }

    /// Every item up to the limit, into `sink`. Lanes are read ahead
    /// concurrently, each up to the items the limit allows.
    async fn all(&mut self, sink: &mut Sink<'_>) -> Result<(), Error> {
        self.read_ahead().await?;
        while self.step(true, sink).await? {}
        Ok(())
    }

    /// The page starting at `cursor`, into `sink`; returns the next
    /// page's cursor.
    async fn page(
        &mut self,
        cursor: Option<&str>,
        sink: &mut Sink<'_>,
    ) -> Result<Option<String>, Error> {
        let target = self.resume(cursor)?;
        let mut taken = 0;
        while target.is_none_or(|t| taken < t) {
            // Without a size, a page stops at the first request it would need
            // once it holds an item.
            let fetch = target.is_some() || taken == 0;
            if !self.step(fetch, sink).await? {
                break;
            }
            taken += 1;
        }
        Ok(self.cursor())
    }

    /// Whether nothing follows: the limit is reached or every lane is
    /// exhausted.
    fn finished(&self) -> bool {
        self.remaining() == Some(0) || self.lanes.iter().all(Lane::exhausted)
    }

    /// Reads every lane ahead, concurrently unless sequential, each up to
    /// the items the limit allows (the start of `all`).
    async fn read_ahead(&mut self) -> Result<(), Error> {
        let want = self.remaining();
        let limit = self.request_limit();
        let db = &self.db;
        if self.concurrent {
            try_join_all(self.lanes.iter_mut().map(|l| l.read_ahead(db, limit, want))).await?;
        } else {
            for l in &mut self.lanes {
                l.read_ahead(db, limit, want).await?;
            }
        }
        Ok(())
    }

    /// Resumes the lanes at `cursor` (a page's start); returns how many
    /// items the page holds at most.
    fn resume(&mut self, cursor: Option<&str>) -> Result<Option<usize>, Error> {
        if let Some(c) = cursor {
            let (positions, returned) = decode_cursor(c, self.lanes.len())?;
            for (lane, p) in self.lanes.iter_mut().zip(positions) {
                lane.resume(p);
            }
            self.returned = returned;
        }
        Ok(
            match (self.page_size.map(|p| p as usize), self.remaining()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        )
    }

    /// The cursor of the next page, `None` when nothing follows.
    fn cursor(&self) -> Option<String> {
        (!self.finished()).then(|| {
            let positions: Vec<Position> = self.lanes.iter().map(Lane::position).collect();
            encode_cursor(&positions, self.returned)
        })
    }

    /// How many items match (the lanes' requests ask `Select = COUNT`),
    /// at most the limit.
    async fn count(mut self) -> Result<u64, Error> {
        let cap = self.limit.map(|c| c as u64);
        let limit = self.request_limit();
        let db = &self.db;
        let mut total = 0;
        if self.concurrent {
            let counts =
                try_join_all(self.lanes.iter_mut().map(|l| l.count(db, limit, cap))).await?;
            total = counts.into_iter().sum();
        } else {
            for l in &mut self.lanes {
                total += l.count(db, limit, cap).await?;
            }
        }
        Ok(cap.map_or(total, |c| total.min(c)))
    }
}
