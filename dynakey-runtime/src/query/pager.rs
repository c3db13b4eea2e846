//! The one pager of every read: a query of one partition, a fan-out over
//! several and a scan in segments are all *lanes* (one sequence of
//! requests each, resumed by `ExclusiveStartKey`) read through a pager that
//! merges them (in sort-key order, or one after another for a scan),
//! decodes, and stops at the read's `limit` (a lane is a [`Lane`]).

use std::cmp::Ordering;

use futures_core::Stream;
use futures_util::future::{try_join_all, BoxFuture};

use super::cursor::{decode_cursor, encode_cursor, Scope};
use super::decode::Decoder;
use super::lane::{first_limit, Lane};
use super::page::{Page, Position};
use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;
use crate::key::compare_key_values;

/// Two items in the order of their sort key attributes `attrs`: the first
/// attribute, then the next on a tie, each by value as DynamoDB orders it
/// (a template key's text bytewise, a native key's numbers by value and
/// binary bytewise). An item without an attribute sorts first.
fn sort_cmp(a: &Item, b: &Item, attrs: &[&str]) -> Ordering {
    for attr in attrs {
        let o = match (a.get(*attr), b.get(*attr)) {
            (Some(x), Some(y)) => compare_key_values(x, y),
            (x, y) => x.is_some().cmp(&y.is_some()),
        };
        if o.is_ne() {
            return o;
        }
    }
    Ordering::Equal
}

/// How lanes are merged.
#[derive(Debug, Clone)]
pub(crate) enum Order {
    /// By these sort-key attributes (see [`sort_cmp`]), ties to the
    /// earlier lane.
    Sorted {
        attrs: Vec<&'static str>,
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
        Self::from_raw(RawPager::new(db, lanes, order, limit, page_size), decoder)
    }

    /// The pager of `raw` decoding with `decoder`.
    pub(crate) fn from_raw(raw: RawPager, decoder: D) -> Self {
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
    pub(crate) fn all(self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>> {
        let Pager { mut raw, decoder } = self;
        Box::pin(async move {
            let mut out = Vec::new();
            raw.all(&mut into_vec(&decoder, &mut out)).await?;
            Ok(out)
        })
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
    pub(crate) fn new(
        db: Db,
        lanes: Vec<Lane>,
        order: Order,
        limit: Option<usize>,
        page_size: Option<u32>,
    ) -> Self {
        RawPager {
            db,
            lanes,
            order,
            limit,
            page_size,
            concurrent: true,
            returned: 0,
        }
    }

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

    /// The lane whose head comes next (it holds one); lanes needing a fetch are filled
    /// first, unless `fetch` is false (then `None` means "a fetch is
    /// needed or nothing is left").
    async fn next_raw(&mut self, fetch: bool) -> Result<Option<usize>, Error> {
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
        let pick = match &self.order {
            // The first lane not exhausted holds items (else it was needy).
            Order::Concat => self.lanes.iter().position(|l| l.head().is_some()),
            // One partition: nothing to compare.
            Order::Sorted { .. } if self.lanes.len() == 1 => {
                self.lanes[0].head().is_some().then_some(0)
            }
            Order::Sorted { attrs, forward } => {
                let mut best: Option<(usize, &Item)> = None;
                for (i, l) in self.lanes.iter().enumerate() {
                    if let Some(k) = l.head() {
                        let better = best.is_none_or(|(_, b)| {
                            let o = sort_cmp(k, b, attrs);
                            if *forward {
                                o.is_lt()
                            } else {
                                o.is_gt()
                            }
                        });
                        if better {
                            best = Some((i, k));
                        }
                    }
                }
                best.map(|(i, _)| i)
            }
        };
        Ok(pick)
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
            let Some(lane) = self.next_raw(fetch).await? else {
                return Ok(false);
            };
            let Some(item) = self.lanes[lane].pop() else {
                return Ok(false);
            };
            if sink(item)? {
                self.returned = self.returned.saturating_add(1);
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
            let (positions, returned) =
                decode_cursor(&self.db.cursor_key, &self.scopes(), self.limit, c)?;
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

    /// What each lane's cursors are bound to.
    fn scopes(&self) -> Vec<&Scope> {
        self.lanes.iter().map(Lane::scope).collect()
    }

    /// The cursor of the next page, `None` when nothing follows.
    fn cursor(&self) -> Option<String> {
        (!self.finished()).then(|| {
            let positions: Vec<Position> = self.lanes.iter().map(Lane::position).collect();
            encode_cursor(
                &self.db.cursor_key,
                &self.scopes(),
                &positions,
                self.returned,
            )
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
