//! A query planned without its types: the checks, key condition, request
//! and merge order of one query, from the entity's metadata. Not generic,
//! so one copy serves every entity (see `Query::untyped`).

use aws_sdk_dynamodb::operation::query::builders::QueryInputBuilder;
use aws_sdk_dynamodb::types::{AttributeValue, Select};

use super::cursor::{QueryScope, Scope};
use super::decode;
use super::lane::{Lane, Request};
use super::pager::{Order, RawPager};
use crate::db::Db;
use crate::entity::EntityMeta;
use crate::error::{Error, RefusedReason};
use crate::expr::{Condition, Placeholders};
use crate::key::{NativeRange, NativeSortOp, PkValue, SortKeyOp};

/// A [`Query`] without its types: what it reads, with the entity's
/// metadata in place of the entity.
pub(super) struct Untyped<'a> {
    pub(super) db: &'a Db,
    pub(super) meta: &'static EntityMeta,
    /// Whether the key kind allows a consistent read (not a GSI).
    pub(super) consistent_read: bool,
    pub(super) index: Option<&'static str>,
    pub(super) pk: &'a PkValue,
    /// The sort-key condition: its index, attribute and comparison.
    pub(super) sk: Option<(Option<&'static str>, &'static str, &'a SortKeyOp)>,
    pub(super) forward: bool,
    pub(super) consistent: bool,
    pub(super) filter: Option<&'a Condition>,
}

impl Untyped<'_> {
    /// The sort-key attributes the query orders by, in order: the index's
    /// (a native index may have several), else the table's.
    pub(super) fn sort_attrs(&self) -> Vec<&'static str> {
        match self.index.and_then(|ix| self.meta.index(ix)) {
            Some(ix) => ix.sk_attrs().map(|(a, _)| a).collect(),
            // An index the entity does not declare (a key cast from another
            // entity): the condition names its attribute.
            None => match (&self.sk, self.index) {
                (Some((_, attr, _)), _) => vec![*attr],
                (None, None) => self.meta.sk.as_ref().map(|k| k.attr).into_iter().collect(),
                (None, Some(_)) => Vec::new(),
            },
        }
    }

    /// The request of the query as a lane, with the decoder's `filter` and
    /// `projection` (dropped when counting).
    pub(super) fn lane(
        &self,
        filter: Option<Condition>,
        projection: Option<Vec<&'static str>>,
        count: bool,
    ) -> Result<Lane, Error> {
        if self.consistent && !self.consistent_read {
            return Err(Error::ConsistentReadOnGlobalIndex);
        }
        let index = self.index;
        if let Some((sk_index, _, _)) = &self.sk {
            if *sk_index != index {
                return Err(Error::refused(
                    RefusedReason::InvalidExpression,
                    format!(
                        "the sort-key condition is for {}, the partition key for {}",
                        sk_index.unwrap_or("the table"),
                        index.unwrap_or("the table")
                    ),
                ));
            }
        }
        let filter = match (filter, self.filter) {
            (Some(a), Some(b)) => Some(a.and(b.clone())),
            (a, b) => a.or_else(|| b.cloned()),
        };
        query_lane(LaneSpec {
            db: self.db,
            meta: self.meta,
            index,
            pk: self.pk.values(),
            sk: self.sk.map(|(_, attr, op)| (attr, op)),
            filter,
            projection: projection.filter(|_| !count),
            forward: self.forward,
            consistent: self.consistent,
            count,
        })
    }

    /// The query's pager without its decoder: its one lane, in sort-key
    /// order, with the read's `limit` and `page_size`.
    pub(super) fn pager(
        &self,
        filter: Option<Condition>,
        projection: Option<Vec<&'static str>>,
        count: bool,
        limit: Option<usize>,
        page_size: Option<u32>,
    ) -> Result<RawPager, Error> {
        let order = Order::Sorted {
            attrs: self.sort_attrs(),
            forward: self.forward,
        };
        let lane = self.lane(filter, projection, count)?;
        Ok(RawPager::new(
            self.db.clone(),
            vec![lane],
            order,
            limit,
            page_size,
        ))
    }
}

/// What one query request reads, without the entity's type.
struct LaneSpec<'a> {
    db: &'a Db,
    meta: &'static EntityMeta,
    index: Option<&'static str>,
    /// Every partition attribute with its value.
    pk: Vec<(&'static str, AttributeValue)>,
    sk: Option<(&'static str, &'a SortKeyOp)>,
    filter: Option<Condition>,
    projection: Option<Vec<&'static str>>,
    forward: bool,
    consistent: bool,
    count: bool,
}

/// The request of a query as a lane (see `Query::lane`). Not generic: one
/// copy serves every entity.
fn query_lane(q: LaneSpec<'_>) -> Result<Lane, Error> {
    let key_attrs = decode::key_attrs(q.meta, q.index);
    let mut cx = Placeholders::default();
    let mut parts: Vec<String> = Vec::with_capacity(q.pk.len() + 1);
    let mut empty = false;
    for (attr, value) in &q.pk {
        let n = cx.name(attr);
        parts.push(format!("{n} = {}", cx.value(value.clone())));
    }
    if let Some((attr, op)) = q.sk {
        match sort_condition(&mut cx, attr, op) {
            Some(Some(part)) => parts.push(part),
            Some(None) => {}
            None => empty = true,
        }
    }
    let kc = parts.join(" AND ");
    let filter = q.filter.map(|f| f.render(&mut cx)).transpose()?;
    let projection = q.projection.map(|attrs| {
        let names: Vec<String> = attrs.iter().map(|a| cx.name(a)).collect();
        names.join(", ")
    });
    let scope = Scope::query(
        QueryScope {
            table: &q.db.table,
            index: q.index,
            key_condition: &kc,
            filter: filter.as_deref(),
            projection: projection.as_deref(),
            forward: q.forward,
            partition: &q.pk,
            sort: q.sk,
        },
        &cx,
        key_attrs,
    );
    if empty {
        // Nothing can match: no request.
        return Ok(Lane::new(None, scope, q.meta.type_name));
    }
    let req = QueryInputBuilder::default()
        .table_name(&*q.db.table)
        .set_index_name(q.index.map(str::to_owned))
        .key_condition_expression(kc)
        .set_filter_expression(filter)
        .set_projection_expression(projection)
        .scan_index_forward(q.forward)
        .set_consistent_read(q.consistent.then_some(true))
        .set_select(q.count.then_some(Select::Count))
        .set_expression_attribute_names(cx.names())
        .set_expression_attribute_values(cx.values());
    Ok(Lane::new(
        Some(Request::Query(req)),
        scope,
        q.meta.type_name,
    ))
}

/// The key condition's part for the sort key: `Some(None)` when it sends
/// none (every sort key), `None` when nothing can match (no request).
fn sort_condition(
    cx: &mut Placeholders,
    attr: &'static str,
    op: &SortKeyOp,
) -> Option<Option<String>> {
    match op {
        SortKeyOp::All => return Some(None),
        SortKeyOp::Empty => return None,
        SortKeyOp::Native(op) => return Some(native_condition(cx, op)),
        _ => {}
    }
    let n = cx.name(attr);
    let mut v = |s: &String| cx.value(AttributeValue::S(s.clone()));
    Some(match op {
        SortKeyOp::Eq(s) => Some(format!("{n} = {}", v(s))),
        SortKeyOp::Lt(s) => Some(format!("{n} < {}", v(s))),
        SortKeyOp::Le(s) => Some(format!("{n} <= {}", v(s))),
        SortKeyOp::Gt(s) => Some(format!("{n} > {}", v(s))),
        SortKeyOp::Ge(s) => Some(format!("{n} >= {}", v(s))),
        SortKeyOp::Between(a, b) => {
            let a = v(a);
            Some(format!("{n} BETWEEN {a} AND {}", v(b)))
        }
        SortKeyOp::BeginsWith(s) => Some(format!("begins_with({n}, {})", v(s))),
        SortKeyOp::All | SortKeyOp::Empty | SortKeyOp::Native(_) => None,
    })
}

/// A native sort condition: `#a = :x AND #b = :y AND #c < :z`.
fn native_condition(cx: &mut Placeholders, op: &NativeSortOp) -> Option<String> {
    let mut parts: Vec<String> = Vec::with_capacity(op.eq.len() + 1);
    for (attr, value) in &op.eq {
        let n = cx.name(attr);
        parts.push(format!("{n} = {}", cx.value(value.clone())));
    }
    if let Some((attr, range)) = &op.range {
        let n = cx.name(attr);
        let mut v = |x: &AttributeValue| cx.value(x.clone());
        parts.push(match range {
            NativeRange::Lt(x) => format!("{n} < {}", v(x)),
            NativeRange::Le(x) => format!("{n} <= {}", v(x)),
            NativeRange::Gt(x) => format!("{n} > {}", v(x)),
            NativeRange::Ge(x) => format!("{n} >= {}", v(x)),
            NativeRange::Between(a, b) => {
                let a = v(a);
                format!("{n} BETWEEN {a} AND {}", v(b))
            }
            NativeRange::BeginsWith(x) => format!("begins_with({n}, {})", v(x)),
        });
    }
    (!parts.is_empty()).then(|| parts.join(" AND "))
}
