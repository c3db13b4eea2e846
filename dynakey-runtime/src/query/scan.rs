//! A scan of the table, in parallel segments.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::scan::builders::ScanInputBuilder;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::types::Select;
use futures_core::Stream;
use futures_util::future::BoxFuture;
use futures_util::TryStreamExt;

use super::cursor::{ScanScope, Scope};
use super::decode::key_attrs;
use super::lane::{first_limit, Input, Lane, Request};
use super::pager::{Order, Pager};
use super::{AnyOf, Decoder, Page, Typed};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Error;
use crate::explain::Explain;
use crate::expr::{Condition, Placeholders};
use crate::union::EntityUnion;

/// A scan of the table, optionally in parallel segments. Build it with
/// [`Db::scan`]. `limit`, `page_size` and pages mean what they mean on a
/// [`Query`](super::Query); items come segment after segment (no order),
/// and a page's cursor holds every segment's position.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::Entity;
/// let backend = dynakey_runtime::local::memory().unwrap();
/// let db = backend.db("notes");
/// db.create_table(&[Note::META]).await.unwrap();
/// for id in 0..10 {
///     db.put(&Note { user: format!("u{id}"), id, tag: None, text: String::new() }).await.unwrap();
/// }
/// assert_eq!(db.scan::<Note>().segments(4).all().await.unwrap().len(), 10);
/// assert_eq!(db.scan::<Note>().segments(3).count().await.unwrap(), 10);
/// assert_eq!(db.scan::<Note>().limit(3).all().await.unwrap().len(), 3);
/// let page = db.scan::<Note>().segments(2).page_size(6).page(None).await.unwrap();
/// assert_eq!(page.items.len(), 6);
/// let rest = db.scan::<Note>().segments(2).page_size(6).page(page.cursor.as_deref()).await.unwrap();
/// assert_eq!(rest.items.len(), 4);
/// # });
/// ```
#[must_use = "a scan does nothing until read (.await, all, stream, page, count)"]
pub struct Scan<E, D> {
    db: Db,
    segments: u32,
    limit: Option<usize>,
    page_size: Option<u32>,
    consistent: bool,
    filter: Option<Condition>,
    decoder: D,
    _e: PhantomData<fn() -> E>,
}

impl<E, D: Clone> Clone for Scan<E, D> {
    fn clone(&self) -> Self {
        Self {
            db: self.db.clone(),
            segments: self.segments,
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            filter: self.filter.clone(),
            decoder: self.decoder.clone(),
            _e: PhantomData,
        }
    }
}

impl<E, D: fmt::Debug> fmt::Debug for Scan<E, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scan")
            .field("table", &self.db.table)
            .field("segments", &self.segments)
            .field("limit", &self.limit)
            .field("page_size", &self.page_size)
            .field("consistent", &self.consistent)
            .field("filter", &self.filter)
            .field("decoder", &self.decoder)
            .finish()
    }
}

impl Db {
    /// A scan of the table, reading entity `E`; see [`Scan`].
    pub fn scan<E: Entity>(&self) -> Scan<E, Typed<E>> {
        Scan {
            db: self.clone(),
            segments: 1,
            limit: None,
            page_size: None,
            consistent: false,
            filter: None,
            decoder: Typed::default(),
            _e: PhantomData,
        }
    }
}

impl<E: Entity> Scan<E, Typed<E>> {
    /// Read every entity of the union `U`; an unknown discriminator is an
    /// error (see [`Scan::skip_unknown`]).
    pub fn of<U: EntityUnion>(self) -> Scan<E, AnyOf<U>> {
        Scan {
            db: self.db,
            segments: self.segments,
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            filter: self.filter,
            decoder: AnyOf::default(),
            _e: PhantomData,
        }
    }
}

impl<E: Entity, U: EntityUnion> Scan<E, AnyOf<U>> {
    /// Skip items whose discriminator names no variant instead of failing.
    pub fn skip_unknown(mut self) -> Self {
        self.decoder.skip_unknown = true;
        self
    }
}

impl<E: Entity, D: Decoder> Scan<E, D> {
    /// Scan in `n` parallel segments (1 to 1,000,000).
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n.clamp(1, 1_000_000);
        self
    }

    /// At most `n` items in all.
    pub fn limit(mut self, n: u32) -> Self {
        self.limit = Some(n as usize);
        self
    }

    /// `n` items per page, and the `Limit` of each request.
    pub fn page_size(mut self, n: u32) -> Self {
        self.page_size = Some(n.max(1));
        self
    }

    /// A strongly consistent scan.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// An extra filter (and-ed with any given before).
    pub fn filter(mut self, cond: Condition) -> Self {
        self.filter = Some(Condition::join(self.filter.take(), cond));
        self
    }

    fn pager(&self, count: bool) -> Result<Pager<D>, Error> {
        let mut cx = Placeholders::default();
        let filter = match (self.decoder.filter(E::META), &self.filter) {
            (Some(a), Some(b)) => Some(a.and(b.clone())),
            (a, b) => a.or_else(|| b.clone()),
        };
        let filter = filter.map(|f| f.render(&mut cx)).transpose()?;
        let projection = match self.decoder.projection(E::META, None) {
            Some(attrs) if !count => {
                let names: Vec<String> = attrs.iter().map(|a| cx.name(a)).collect();
                Some(names.join(", "))
            }
            _ => None,
        };
        let req = ScanInputBuilder::default()
            .table_name(&*self.db.table)
            .set_filter_expression(filter.clone())
            .set_projection_expression(projection.clone())
            .set_consistent_read(self.consistent.then_some(true))
            .set_select(count.then_some(Select::Count))
            .set_expression_attribute_names(cx.names())
            .set_expression_attribute_values(cx.values());
        let lanes = (0..self.segments)
            .map(|s| {
                let req = if self.segments > 1 {
                    req.clone()
                        .segment(s as i32)
                        .total_segments(self.segments as i32)
                } else {
                    req.clone()
                };
                let scope = Scope::scan(
                    ScanScope {
                        table: &self.db.table,
                        filter: filter.as_deref(),
                        projection: projection.as_deref(),
                        segment: (s, self.segments),
                    },
                    &cx,
                    key_attrs(E::META, None),
                );
                Lane::new(Some(Request::Scan(req)), scope, E::META.type_name)
            })
            .collect();
        Ok(Pager::new(
            self.db.clone(),
            lanes,
            Order::Concat,
            self.decoder.clone(),
            self.limit,
            self.page_size,
        ))
    }

    /// The SDK input of each segment's first request, without sending them.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let inputs = db.scan::<Note>().segments(3).to_input().unwrap();
    /// assert_eq!(inputs[2].segment(), Some(2));
    /// ```
    pub fn to_input(&self) -> Result<Vec<ScanInput>, Error> {
        let limit = first_limit(self.page_size, self.limit);
        let mut out = Vec::new();
        for lane in self.pager(false)?.lanes() {
            if let Some(Input::Scan(i)) = lane.first_input(limit)? {
                out.push(i);
            }
        }
        Ok(out)
    }

    /// The scan in readable form (one action per segment when there are
    /// several), without sending it.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
    /// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
    /// use dynakey_runtime::Entity;
    /// let backend = dynakey_runtime::local::memory().unwrap();
    /// let db = backend.db("notes");
    /// let x = db.scan::<Note>().explain().unwrap();
    /// assert_eq!(x.filter.as_deref(), Some("#n0 = :v0")); // the discriminator
    /// ```
    pub fn explain(&self) -> Result<Explain, Error> {
        let mut xs: Vec<Explain> = self.to_input()?.iter().map(Explain::from).collect();
        if xs.len() == 1 {
            return Ok(xs.remove(0));
        }
        let mut x = Explain::new("Scan", &self.db.table);
        x.actions = xs;
        Ok(x)
    }

    /// Every item up to the limit, the segments read concurrently.
    pub fn all(&self) -> BoxFuture<'_, Result<Vec<D::Out>, Error>> {
        self.read_all()
    }

    /// Sends the scan: every item up to the limit, as [`all`](Self::all);
    /// awaiting it does the same.
    pub fn send(self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>> {
        self.read_all()
    }

    /// What `all` and `send` read: the pager is built first, so the
    /// future owns everything it needs.
    fn read_all(&self) -> BoxFuture<'static, Result<Vec<D::Out>, Error>> {
        match self.pager(false) {
            Ok(pager) => pager.all(),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        }
    }

    /// One page, starting at `cursor` (`None` first).
    pub async fn page(&self, cursor: Option<&str>) -> Result<Page<D::Out>, Error> {
        self.pager(false)?.page(cursor).await
    }

    /// The items as a stream, segment after segment.
    pub fn stream(self) -> impl Stream<Item = Result<D::Out, Error>> + Send + 'static {
        futures_util::stream::iter(Some(self.pager(false)))
            .map_ok(Pager::stream)
            .try_flatten()
    }

    /// How many items match (`Select = COUNT`), summed over segments, at
    /// most the limit.
    pub async fn count(&self) -> Result<u64, Error> {
        self.pager(true)?.count().await
    }
}

/// `.await` sends the scan ([`Scan::send`]).
impl<E: Entity, D: Decoder> std::future::IntoFuture for Scan<E, D> {
    type Output = Result<Vec<D::Out>, Error>;
    type IntoFuture = BoxFuture<'static, Self::Output>;
    fn into_future(self) -> Self::IntoFuture {
        self.send()
    }
}
