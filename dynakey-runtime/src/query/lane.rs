//! One lane of a read: a sequence of requests (a query of one partition, or
//! one scan segment) resumed by `ExclusiveStartKey`, with the items it has
//! fetched and not yet handed out, and where a fresh reader would resume.
//! The [pager](super::pager) merges lanes.
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

use super::cursor::Scope;
use super::page::Position;
use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;
use crate::explain::Explain;
use crate::send::{send, To};
use crate::write::build_err;

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
        let to = To::db(db).entity(entity);
        let (items, last, count) = match self {
            Request::Query(q) => {
                let req = q.clone().set_exclusive_start_key(start).set_limit(limit);
                let out = send(&to, req).await?;
                (out.items, out.last_evaluated_key, out.count)
            }
            Request::Scan(s) => {
                let req = s.clone().set_exclusive_start_key(start).set_limit(limit);
                let out = send(&to, req).await?;
                (out.items, out.last_evaluated_key, out.count)
            }
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
    /// What the lane's cursors are bound to, and its start keys' shape.
    scope: Scope,
    /// Items fetched and not yet handed out.
    buf: VecDeque<Item>,
    /// Where a fresh reader resumes.
    at: At,
    /// The item handed out last (kept, so its key is taken only when a
    /// cursor asks for it, not for every item).
    last: Option<Item>,
    /// The start key of the next request.
    next: Option<Item>,
    /// Whether the last request had no `LastEvaluatedKey`.
    fetched_all: bool,
}

impl Lane {
    pub(crate) fn new(request: Option<Request>, scope: Scope, entity: &'static str) -> Self {
        let fetched_all = request.is_none();
        Self {
            request,
            entity,
            scope,
            buf: VecDeque::new(),
            at: At::Key(None),
            last: None,
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

    pub(crate) fn resume(&mut self, p: Position) {
        self.buf.clear();
        match p {
            Position::At(k) => {
                self.at = At::Key(k.clone());
                self.next = k;
                self.fetched_all = self.request.is_none();
            }
            Position::Done => {
                self.at = At::Key(None);
                self.next = None;
                self.fetched_all = true;
            }
        }
    }

    pub(crate) fn position(&self) -> Position {
        if self.exhausted() {
            Position::Done
        } else {
            Position::At(match &self.at {
                At::Key(k) => k.clone(),
                At::AfterLast => self.last.as_ref().map(|item| self.key_of(item)),
            })
        }
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.buf.is_empty() && self.fetched_all
    }

    pub(crate) fn needs_fetch(&self) -> bool {
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
            self.at = At::Key(self.next.clone());
        }
        Ok(raw.count)
    }

    /// Requests until an item is buffered or nothing is left.
    pub(crate) async fn fill(&mut self, db: &Db, limit: Option<i32>) -> Result<(), Error> {
        while self.needs_fetch() {
            self.fetch(db, limit).await?;
        }
        Ok(())
    }

    /// Requests until `want` items are buffered or nothing is left.
    pub(crate) async fn read_ahead(
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
    pub(crate) async fn count(
        &mut self,
        db: &Db,
        limit: Option<i32>,
        cap: Option<u64>,
    ) -> Result<u64, Error> {
        let mut n = 0;
        while !self.fetched_all && cap.is_none_or(|c| n < c) {
            n += self.fetch(db, limit).await?;
        }
        Ok(n)
    }

    /// Hands out the next buffered item.
    /// The next item the lane hands out, if it has one fetched.
    pub(crate) fn head(&self) -> Option<&Item> {
        self.buf.front()
    }

    /// What the lane reads (its cursor's scope).
    pub(crate) fn scope(&self) -> &Scope {
        &self.scope
    }

    pub(crate) fn pop(&mut self) -> Option<&Item> {
        let item = self.buf.pop_front()?;
        self.at = if self.buf.is_empty() {
            At::Key(self.next.clone())
        } else {
            At::AfterLast
        };
        self.last = Some(item);
        self.last.as_ref()
    }

    fn key_of(&self, item: &Item) -> Item {
        self.scope
            .key_attrs
            .iter()
            .filter_map(|a| item.get(*a).map(|v| ((*a).to_owned(), v.clone())))
            .collect()
    }
}

/// Where a fresh reader of a lane resumes.
#[derive(Debug)]
enum At {
    /// After this key (`None`: the start).
    Key(Option<Item>),
    /// After the lane's last item handed out.
    AfterLast,
}
