//! [`Explain`] from each SDK input the runtime sends (and the actions and
//! requests inside transactions and batches).

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemInput;
use aws_sdk_dynamodb::operation::batch_write_item::BatchWriteItemInput;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::operation::search_vectors::SearchVectorsInput;
use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsInput;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, WriteRequest};

use super::Explain;

/// A field the SDK gives as `&T` (required) or `Option<&T>`.
trait Opt<'a, T: ?Sized> {
    fn opt(self) -> Option<&'a T>;
}
impl<'a, T: ?Sized> Opt<'a, T> for &'a T {
    fn opt(self) -> Option<&'a T> {
        Some(self)
    }
}
impl<'a, T: ?Sized> Opt<'a, T> for Option<&'a T> {
    fn opt(self) -> Option<&'a T> {
        self
    }
}

fn text<'a>(s: impl Opt<'a, str>) -> Option<String> {
    s.opt().map(str::to_owned)
}

fn sorted<'a, V: Clone + 'a>(m: impl Opt<'a, HashMap<String, V>>) -> BTreeMap<String, V> {
    m.opt()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

/// Fills the fields every input spells alike.
macro_rules! common {
    ($x:ident, $i:expr; names) => {
        $x.names = sorted($i.expression_attribute_names());
    };
    ($x:ident, $i:expr; values) => {
        $x.values = sorted($i.expression_attribute_values());
    };
    ($x:ident, $i:expr; cond) => {
        $x.condition = text($i.condition_expression());
    };
    ($x:ident, $i:expr; key) => {
        $x.key = sorted($i.key());
    };
    ($x:ident, $i:expr; $($what:ident),+) => {
        $( common!($x, $i; $what); )+
    };
}

fn option(x: &mut Explain, name: &str, v: Option<impl ToString>) {
    if let Some(v) = v {
        x.options.push((name.to_owned(), v.to_string()));
    }
}

impl From<&PutItemInput> for Explain {
    fn from(i: &PutItemInput) -> Self {
        let mut x = Explain::new("PutItem", i.table_name().unwrap_or_default());
        x.item = sorted(i.item());
        common!(x, i; names, values, cond);
        option(
            &mut x,
            "ReturnValues",
            i.return_values().map(|r| r.as_str()),
        );
        x
    }
}

impl From<&GetItemInput> for Explain {
    fn from(i: &GetItemInput) -> Self {
        let mut x = Explain::new("GetItem", i.table_name().unwrap_or_default());
        common!(x, i; key, names);
        x.projection = text(i.projection_expression());
        option(&mut x, "ConsistentRead", i.consistent_read());
        x
    }
}

impl From<&UpdateItemInput> for Explain {
    fn from(i: &UpdateItemInput) -> Self {
        let mut x = Explain::new("UpdateItem", i.table_name().unwrap_or_default());
        common!(x, i; key, names, values, cond);
        x.update = text(i.update_expression());
        option(
            &mut x,
            "ReturnValues",
            i.return_values().map(|r| r.as_str()),
        );
        x
    }
}

impl From<&DeleteItemInput> for Explain {
    fn from(i: &DeleteItemInput) -> Self {
        let mut x = Explain::new("DeleteItem", i.table_name().unwrap_or_default());
        common!(x, i; key, names, values, cond);
        option(
            &mut x,
            "ReturnValues",
            i.return_values().map(|r| r.as_str()),
        );
        x
    }
}

impl From<&QueryInput> for Explain {
    fn from(i: &QueryInput) -> Self {
        let mut x = Explain::new("Query", i.table_name().unwrap_or_default());
        x.index = text(i.index_name());
        x.key_condition = text(i.key_condition_expression());
        x.filter = text(i.filter_expression());
        x.projection = text(i.projection_expression());
        common!(x, i; names, values);
        option(&mut x, "ScanIndexForward", i.scan_index_forward());
        option(&mut x, "Limit", i.limit());
        option(&mut x, "ConsistentRead", i.consistent_read());
        option(&mut x, "Select", i.select().map(|s| s.as_str()));
        x
    }
}

impl From<&SearchVectorsInput> for Explain {
    fn from(i: &SearchVectorsInput) -> Self {
        let mut x = Explain::new("SearchVectors", i.table_name().unwrap_or_default());
        x.index = text(i.index_name());
        // The search schema's condition: the scope by equality, then the
        // filters.
        x.filter = text(i.search_condition_expression());
        x.projection = text(i.projection_expression());
        common!(x, i; names, values);
        option(&mut x, "TopK", i.top_k());
        option(&mut x, "Dimensions", Some(i.search_vector().len()));
        x
    }
}

impl From<&ScanInput> for Explain {
    fn from(i: &ScanInput) -> Self {
        let mut x = Explain::new("Scan", i.table_name().unwrap_or_default());
        x.index = text(i.index_name());
        x.filter = text(i.filter_expression());
        x.projection = text(i.projection_expression());
        common!(x, i; names, values);
        option(&mut x, "Segment", i.segment());
        option(&mut x, "TotalSegments", i.total_segments());
        option(&mut x, "Limit", i.limit());
        option(&mut x, "ConsistentRead", i.consistent_read());
        option(&mut x, "Select", i.select().map(|s| s.as_str()));
        x
    }
}

impl From<&TransactWriteItem> for Explain {
    fn from(a: &TransactWriteItem) -> Self {
        if let Some(p) = a.put() {
            let mut x = Explain::new("Put", p.table_name());
            x.item = sorted(p.item());
            common!(x, p; names, values, cond);
            x
        } else if let Some(u) = a.update() {
            let mut x = Explain::new("Update", u.table_name());
            x.update = text(u.update_expression());
            common!(x, u; key, names, values, cond);
            x
        } else if let Some(d) = a.delete() {
            let mut x = Explain::new("Delete", d.table_name());
            common!(x, d; key, names, values, cond);
            x
        } else if let Some(c) = a.condition_check() {
            let mut x = Explain::new("ConditionCheck", c.table_name());
            common!(x, c; key, names, values, cond);
            x
        } else {
            Explain::new("Unknown", "")
        }
    }
}

impl From<&TransactWriteItemsInput> for Explain {
    fn from(i: &TransactWriteItemsInput) -> Self {
        let mut x = Explain::new("TransactWriteItems", "");
        x.actions = i.transact_items().iter().map(Explain::from).collect();
        option(&mut x, "ClientRequestToken", i.client_request_token());
        x
    }
}

impl From<&TransactGetItemsInput> for Explain {
    fn from(i: &TransactGetItemsInput) -> Self {
        let mut x = Explain::new("TransactGetItems", "");
        x.actions = i
            .transact_items()
            .iter()
            .filter_map(|g| g.get())
            .map(|g| {
                let mut a = Explain::new("Get", g.table_name());
                common!(a, g; key, names);
                a.projection = text(g.projection_expression());
                a
            })
            .collect();
        x
    }
}

/// One request of a batch write.
fn write_request(table: &str, r: &WriteRequest) -> Explain {
    if let Some(p) = r.put_request() {
        let mut x = Explain::new("PutRequest", table);
        x.item = sorted(p.item());
        x
    } else if let Some(d) = r.delete_request() {
        let mut x = Explain::new("DeleteRequest", table);
        x.key = sorted(d.key());
        x
    } else {
        Explain::new("Unknown", table)
    }
}

/// The tables of a batch, sorted (the SDK holds them in a map).
fn tables<V>(m: Option<&HashMap<String, V>>) -> Vec<(&String, &V)> {
    let mut v: Vec<_> = m.into_iter().flatten().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

impl From<&BatchWriteItemInput> for Explain {
    fn from(i: &BatchWriteItemInput) -> Self {
        let tables = tables(i.request_items());
        let first = tables.first().map_or("", |(t, _)| t.as_str());
        let mut x = Explain::new("BatchWriteItem", first);
        for (table, reqs) in tables {
            x.actions
                .extend(reqs.iter().map(|r| write_request(table, r)));
        }
        x
    }
}

impl From<&BatchGetItemInput> for Explain {
    fn from(i: &BatchGetItemInput) -> Self {
        let tables = tables(i.request_items());
        let first = tables.first().map_or("", |(t, _)| t.as_str());
        let mut x = Explain::new("BatchGetItem", first);
        for (table, ka) in tables {
            for k in ka.keys() {
                let mut a = Explain::new("Get", table);
                a.key = sorted(k);
                a.names = sorted(ka.expression_attribute_names());
                a.projection = text(ka.projection_expression());
                x.actions.push(a);
            }
        }
        x
    }
}

/// Values of a map as text, for `Display`.
pub(super) fn value_text(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => format!("{s:?}"),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".into(),
        AttributeValue::B(b) => crate::codec::binary_text(b.as_ref()),
        AttributeValue::L(l) => {
            let parts: Vec<String> = l.iter().map(value_text).collect();
            format!("[{}]", parts.join(", "))
        }
        AttributeValue::M(m) => {
            let sorted: BTreeMap<_, _> = m.iter().collect();
            let parts: Vec<String> = sorted
                .into_iter()
                .map(|(k, v)| format!("{k:?}: {}", value_text(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        AttributeValue::Ss(s) => format!("<<{}>>", s.join(", ")),
        AttributeValue::Ns(s) => format!("<<{}>>", s.join(", ")),
        AttributeValue::Bs(s) => format!("<<{} binaries>>", s.len()),
        other => format!("{other:?}"),
    }
}
