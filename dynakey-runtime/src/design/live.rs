//! The live view of a table: a sample of its items, each named by its
//! entity and checked against what `to_item()` of its decoded value would
//! store (the write guarantee of the guide's Guarantees page,
//! `dynakey::_guide::_11_guarantees`, offered as a tool).

use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::types::AttributeValue;

use super::analysis::{discriminator_attr, key_attrs, table_key};
use super::text::value;
use super::{Reencoded, TableDesign};
use crate::changes::same_opt;
use crate::codec::Item;
use crate::db::Db;
use crate::error::Error;
use crate::send::{send, To};

/// What the live view found about one item.
///
/// ```
/// use dynakey_runtime::design::ItemStatus;
/// assert!(ItemStatus::Unchecked.is_ok());
/// assert!(!ItemStatus::Unmatched { reason: "no discriminator".into() }.is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemStatus {
    /// Decoded as its entity, and every key attribute is what `to_item()`
    /// of the decoded value stores.
    Sound,
    /// An entity's by its discriminator, not decoded: the design has the
    /// entity's metadata only (see [`TableDesign::entity`]).
    Unchecked,
    /// Matches no entity of the design.
    Unmatched {
        /// Why: no discriminator, or one no entity has.
        reason: String,
    },
    /// Carries an entity's discriminator but does not read back as it.
    Undecodable {
        /// The decode error (with the attribute path), or why the decoded
        /// value cannot be written again.
        error: String,
    },
    /// Decodes, but its stored keys differ from what `to_item()` of the
    /// decoded value stores.
    Drift {
        /// Every key attribute that differs.
        keys: Vec<KeyDrift>,
    },
}

impl ItemStatus {
    /// Whether nothing is wrong with the item (sound, or not checkable).
    /// See the example on [`ItemStatus`].
    pub fn is_ok(&self) -> bool {
        matches!(self, ItemStatus::Sound | ItemStatus::Unchecked)
    }
}

/// One key attribute whose stored value is not the one `to_item()` writes.
///
/// ```
/// use dynakey_runtime::design::KeyDrift;
/// let d = KeyDrift { attr: "gsi1pk".into(), stored: None, expected: Some("TEAM#red".into()) };
/// assert_eq!(d.to_string(), "gsi1pk: stored (absent), to_item() writes \"TEAM#red\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyDrift {
    /// The attribute, e.g. `gsi1pk`.
    pub attr: String,
    /// What the table holds (`None`: absent).
    pub stored: Option<String>,
    /// What `to_item()` writes (`None`: absent).
    pub expected: Option<String>,
}

impl std::fmt::Display for KeyDrift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &Option<String>| {
            v.as_ref()
                .map_or("(absent)".to_owned(), |s| format!("{s:?}"))
        };
        write!(
            f,
            "{}: stored {}, to_item() writes {}",
            self.attr,
            show(&self.stored),
            show(&self.expected)
        )
    }
}

/// One sampled item (see the example on [`TableDesign::inspect`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LiveItem {
    /// Its partition key, as text.
    pub pk: String,
    /// Its sort key, as text, when the table has one.
    pub sk: Option<String>,
    /// The type name of its entity, when its discriminator names one.
    pub entity: Option<&'static str>,
    /// Its index key attributes (attribute, value), in the design's order.
    pub index_keys: Vec<(String, String)>,
    /// What the check found.
    pub status: ItemStatus,
    /// The item as stored.
    pub item: Item,
}

/// A sample of a table's items, grouped by partition and in key order, as
/// NoSQL Workbench's aggregate view shows a table; rendered by
/// [`markdown`](Self::markdown) and [`html`](Self::html). Built by
/// [`TableDesign::live`] (a scan) or [`TableDesign::inspect`] (items you
/// have).
#[derive(Debug, Clone)]
pub struct LiveView {
    pub(crate) design: TableDesign,
    pub(crate) table: String,
    pub(crate) items: Vec<LiveItem>,
    pub(crate) complete: bool,
}

impl LiveView {
    /// The table's name (see the example on [`TableDesign::inspect`]).
    pub fn table(&self) -> &str {
        &self.table
    }

    /// Every sampled item, by partition key then sort key.
    /// See the example on [`TableDesign::inspect`].
    pub fn items(&self) -> &[LiveItem] {
        &self.items
    }

    /// Whether the sample is the whole table (the scan reached its end).
    /// See the example on [`TableDesign::inspect`].
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The items grouped by partition key, in order.
    /// See the example on [`TableDesign::inspect`].
    pub fn partitions(&self) -> Vec<(&str, &[LiveItem])> {
        let mut out: Vec<(&str, &[LiveItem])> = Vec::new();
        let mut start = 0;
        for i in 1..=self.items.len() {
            if i == self.items.len() || self.items[i].pk != self.items[start].pk {
                out.push((&self.items[start].pk, &self.items[start..i]));
                start = i;
            }
        }
        out
    }

    /// The items something is wrong with: unmatched, undecodable, drifted.
    /// See the example on [`TableDesign::inspect`].
    pub fn problems(&self) -> impl Iterator<Item = &LiveItem> {
        self.items.iter().filter(|i| !i.status.is_ok())
    }

    /// How many sampled items each entity has, in the design's order (and
    /// none for the unmatched). See the example on [`TableDesign::inspect`].
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        self.design
            .entities
            .iter()
            .map(|e| {
                let n = self
                    .items
                    .iter()
                    .filter(|i| i.entity == Some(e.meta.type_name))
                    .count();
                (e.meta.type_name, n)
            })
            .collect()
    }

    /// The view as Markdown: a summary, the problems, what allowed
    /// overlaps cost in this sample, then every partition.
    /// See the example on [`TableDesign::inspect`].
    pub fn markdown(&self) -> String {
        super::live_render::markdown(self)
    }

    /// The view as one self-contained HTML page.
    /// See the example on [`TableDesign::inspect`].
    pub fn html(&self) -> String {
        super::live_render::html(self)
    }
}

impl TableDesign {
    /// Checks items you already have (a scan's, an export's) as
    /// [`live`](Self::live) checks a sample.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "TEAM")]
    /// # #[pk("GROUP#<group_id>")]
    /// # #[sk("INFO")]
    /// # #[gsi("GSI1", pk = "GROUP#<group_id>", sk = "INFO")]
    /// # struct Team { group_id: String, title: String }
    /// use aws_sdk_dynamodb::types::AttributeValue::S;
    /// use dynakey_runtime::{design::{ItemStatus, TableDesign}, Entity};
    /// let design = TableDesign::new("shop").entity::<Team>();
    /// let good = Team { group_id: "staff".into(), title: "Staff".into() }.to_item().unwrap();
    /// let mut drifted = Team { group_id: "ops".into(), title: "Ops".into() }.to_item().unwrap();
    /// drifted.insert("gsi1pk".into(), S("GROUP#old".into()));
    /// let mut stray = good.clone();
    /// stray.insert("pk".into(), S("X#1".into()));
    /// stray.insert(Team::META.discriminator_attr.into(), S("STRAY".into()));
    /// let view = design.inspect(vec![good, drifted, stray]);
    /// assert_eq!((view.table(), view.is_complete()), ("shop", true));
    /// assert_eq!(view.partitions().len(), 3);
    /// assert_eq!(view.counts(), [("Team", 2)]);
    /// let problems: Vec<_> = view.problems().map(|i| i.pk.as_str()).collect();
    /// assert_eq!(problems, ["GROUP#ops", "X#1"]);
    /// assert!(matches!(&view.items()[0].status, ItemStatus::Drift { keys } if keys[0].attr == "gsi1pk"));
    /// assert!(view.markdown().contains("matches no entity"));
    /// assert!(view.html().contains("GROUP#old"));
    /// ```
    pub fn inspect(&self, items: Vec<Item>) -> LiveView {
        self.view(self.name().to_owned(), items, true)
    }

    /// Scans up to `limit` items of `db`'s table and checks each: its
    /// entity by discriminator, and, for entities added with their type,
    /// whether its stored keys (table and every index) are what `to_item()`
    /// of its decoded value would store. A scan reads items in storage
    /// order, so a partition may be cut at the sample's edge
    /// ([`LiveView::is_complete`] says whether the sample is the table).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")]
    /// # #[sk("NOTE#<id:d6>")]
    /// # struct Note { user: String, id: u32 }
    /// use dynakey_runtime::{design::TableDesign, Entity};
    /// let local = dynakey_runtime::local::memory().unwrap();
    /// let db = local.db("notes");
    /// db.create_table(&[Note::META]).await.unwrap();
    /// for id in 0..5 {
    ///     db.put(&Note { user: "ann".into(), id }).await.unwrap();
    /// }
    /// let design = TableDesign::new("notes").entity::<Note>();
    /// let view = design.live(&db, 3).await.unwrap();
    /// assert_eq!((view.items().len(), view.is_complete()), (3, false));
    /// assert_eq!(design.live(&db, 100).await.unwrap().problems().count(), 0);
    /// # });
    /// ```
    pub async fn live(&self, db: &Db, limit: usize) -> Result<LiveView, Error> {
        let mut items = Vec::new();
        let mut start = None;
        let complete = loop {
            let want = limit.saturating_sub(items.len());
            if want == 0 {
                break start.is_none();
            }
            let req = ScanInput::builder()
                .table_name(db.table_name())
                .limit(i32::try_from(want.min(1000)).unwrap_or(1000))
                .set_exclusive_start_key(start.take());
            let out = send(&To::db(db), req).await?;
            items.extend(out.items().iter().cloned());
            start = out.last_evaluated_key().cloned().filter(|k| !k.is_empty());
            if start.is_none() {
                break true;
            }
        };
        items.truncate(limit);
        Ok(self.view(db.table_name().to_owned(), items, complete))
    }

    fn view(&self, table: String, items: Vec<Item>, complete: bool) -> LiveView {
        let mut items: Vec<LiveItem> = items.into_iter().map(|i| self.classify(i)).collect();
        items.sort_by(|a, b| (&a.pk, &a.sk).cmp(&(&b.pk, &b.sk)));
        LiveView {
            design: self.clone(),
            table,
            items,
            complete,
        }
    }

    fn classify(&self, item: Item) -> LiveItem {
        let (pk_attr, sk_attr) = table_key(self);
        let text = |a: &str| item.get(a).map(value);
        let keys = key_attrs(self);
        let index_keys = keys
            .iter()
            .filter(|a| **a != pk_attr && Some(**a) != sk_attr)
            .filter_map(|a| text(a).map(|v| ((*a).to_owned(), v)))
            .collect();
        let disc = discriminator_attr(self);
        let (entity, status) = match item.get(disc) {
            None => (
                None,
                ItemStatus::Unmatched {
                    reason: format!("it has no `{disc}` attribute (the discriminator)"),
                },
            ),
            Some(AttributeValue::S(d)) => match self
                .entities
                .iter()
                .find(|e| e.meta.discriminator == d.as_str())
            {
                None => (
                    None,
                    ItemStatus::Unmatched {
                        reason: format!(
                            "its discriminator {d:?} is none of {}",
                            self.entities
                                .iter()
                                .map(|e| e.meta.discriminator)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    },
                ),
                Some(e) => (Some(e.meta.type_name), check(e.reencode, &item, &keys)),
            },
            Some(other) => (
                None,
                ItemStatus::Unmatched {
                    reason: format!("its `{disc}` is not a string: {}", value(other)),
                },
            ),
        };
        LiveItem {
            pk: text(pk_attr).unwrap_or_default(),
            sk: sk_attr.and_then(text),
            entity,
            index_keys,
            status,
            item,
        }
    }
}

fn check(reencode: Option<super::Reencode>, item: &Item, keys: &[&str]) -> ItemStatus {
    let Some(reencode) = reencode else {
        return ItemStatus::Unchecked;
    };
    match reencode(item) {
        Err(Reencoded::Decode(error)) => ItemStatus::Undecodable { error },
        Err(Reencoded::Encode(e)) => ItemStatus::Undecodable {
            error: format!("it decodes, but to_item() of the value fails: {e}"),
        },
        Ok(expected) => {
            let drift: Vec<KeyDrift> = keys
                .iter()
                // By value: a number key another client wrote as `1E+2`
                // is the `100` to_item() writes.
                .filter(|a| !same_opt(item.get(**a), expected.get(**a)))
                .map(|a| KeyDrift {
                    attr: (*a).to_owned(),
                    stored: item.get(*a).map(value),
                    expected: expected.get(*a).map(value),
                })
                .collect();
            if drift.is_empty() {
                ItemStatus::Sound
            } else {
                ItemStatus::Drift { keys: drift }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `to_item()` would write: the number `100`, as dynakey does.
    fn writes_100(item: &Item) -> Result<Item, Reencoded> {
        let mut out = item.clone();
        out.insert("n".into(), AttributeValue::N("100".into()));
        Ok(out)
    }

    #[test]
    fn a_key_number_in_another_form_is_not_drift() {
        let stored = |n: &str| -> Item { [("n".to_owned(), AttributeValue::N(n.into()))].into() };
        for same in ["1E+2", "100.000", "0.1E3", "+100"] {
            assert_eq!(
                check(Some(writes_100), &stored(same), &["n"]),
                ItemStatus::Sound,
                "{same}"
            );
        }
        let ItemStatus::Drift { keys } = check(Some(writes_100), &stored("1E+3"), &["n"]) else {
            panic!("1E+3 is not 100")
        };
        assert_eq!(keys[0].stored.as_deref(), Some("1E+3"));
    }
}
