//! The design as a NoSQL Workbench data model, in the JSON format the
//! Workbench imports ("NoSQL Workbench model format", version 3.0).
//!
//! The format as AWS publishes it:
//! - the Amazon DynamoDB Developer Guide, "Editing an existing data model"
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/workbench.Modeler.Edit.html>,
//!   source `doc_source/workbench.Modeler.Edit.md` of
//!   `awsdocs/amazon-dynamodb-developer-guide`): `ModelName`, `DataModel`
//!   with `TableName`, `KeyAttributes` (`PartitionKey`, `SortKey`, each an
//!   `AttributeName` and `AttributeType`), `NonKeyAttributes`, and
//!   `TableFacets`, each with a `FacetName` unique across the model, a
//!   `KeyAttributeAlias` (`PartitionKeyAlias`, and `SortKeyAlias` when the
//!   table has a sort key) and `NonKeyAttributes` naming attributes the
//!   table defines;
//! - the models AWS ships as examples, exported by the Workbench
//!   (`aws-samples/aws-dynamodb-examples`,
//!   `schema_design/SchemaExamples/*/*Schema.json`): `ModelMetadata`
//!   (`Author`, `DateCreated`, `DateLastModified`, `Description`,
//!   `AWSService`, `Version` "3.0"), `GlobalSecondaryIndexes` (`IndexName`,
//!   `KeyAttributes`, `Projection`), `TableData` (items in DynamoDB JSON),
//!   `DataAccess` and `BillingMode`.
//!
//! Every template key attribute is a string (`S`), as dynakey writes keys;
//! a native index key attribute has its field's type (`S`, `N` or `B`);
//! other attributes take the type their example values have (`S` without
//! one). The format keys an index by one partition and one sort attribute:
//! a native index of more attributes is left out of the model, and its
//! description says so, as it says each vector index the format has no
//! place for.

use time::OffsetDateTime;

use super::analysis::{discriminator_attr, indexes, table_key};
use super::json::{self, Json};
use super::text::{type_of, type_of_rust};
use super::TableDesign;
use std::fmt::Write as _;

use crate::entity::{IndexKind, KeyAttrType};

/// `May 11, 2023, 09:18 PM`, as the Workbench writes its dates.
fn date(t: OffsetDateTime) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (h, ampm) = match t.hour() {
        0 => (12, "AM"),
        h @ 1..=11 => (h, "AM"),
        12 => (12, "PM"),
        h => (h - 12, "PM"),
    };
    format!(
        "{} {:02}, {}, {:02}:{:02} {ampm}",
        MONTHS[usize::from(u8::from(t.month())) - 1],
        t.day(),
        t.year(),
        h,
        t.minute()
    )
}

fn attribute(name: &str, ty: &str) -> Json {
    Json::obj([
        ("AttributeName", Json::str(name)),
        ("AttributeType", Json::str(ty)),
    ])
}

/// `KeyAttributes`: one partition and at most one sort attribute, with
/// their types (a template key's are strings; a native key's are the
/// fields' own types).
fn key_attributes(pk: Option<(&str, KeyAttrType)>, sk: Option<(&str, KeyAttrType)>) -> Json {
    let (pk, pt) = pk.unwrap_or(("pk", KeyAttrType::S));
    let mut fields = vec![("PartitionKey", attribute(pk, pt.as_str()))];
    if let Some((sk, st)) = sk {
        fields.push(("SortKey", attribute(sk, st.as_str())));
    }
    Json::obj(fields)
}

/// The non-key attributes of the table, each once, with a type.
fn non_key_attributes(d: &TableDesign) -> Vec<(&'static str, &'static str)> {
    let (pk, sk) = table_key(d);
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    let mut add = |name: &'static str, ty: &'static str| {
        if name != pk && Some(name) != sk && !out.iter().any(|(n, _)| *n == name) {
            out.push((name, ty));
        }
    };
    add(discriminator_attr(d), "S");
    for ix in indexes(d) {
        for (a, ty) in ix.pk.iter().chain(&ix.sk) {
            add(a, ty.as_str());
        }
    }
    for e in &d.entities {
        for f in e.meta.fields {
            let ty = e.examples.iter().find_map(|it| it.get(f.attr)).map_or_else(
                || type_of_rust(f.ty, e.meta.ttl_attr == Some(f.attr)),
                type_of,
            );
            add(f.attr, ty);
        }
    }
    out
}

/// An index's `Projection`: `ALL`, or `INCLUDE` with its attributes.
fn projection(plan: Option<&crate::table::Plan>, name: &str) -> Json {
    let Some(p) = plan.map(|p| p.projection(name)) else {
        return Json::obj([("ProjectionType", Json::str("ALL"))]);
    };
    let ty = p.projection_type().map_or("ALL", |t| t.as_str());
    match p.non_key_attributes() {
        [] => Json::obj([("ProjectionType", Json::Str(ty.to_owned()))]),
        attrs => Json::obj([
            ("ProjectionType", Json::Str(ty.to_owned())),
            (
                "NonKeyAttributes",
                Json::Arr(attrs.iter().map(|a| Json::Str(a.clone())).collect()),
            ),
        ]),
    }
}

/// The model as JSON text.
pub(crate) fn model(d: &TableDesign) -> String {
    let (pk, sk) = table_key(d);
    let created = date(d.created());
    let description = d.description().map_or_else(
        || {
            format!(
                "Drawn by dynakey from the key templates of {} entities.",
                d.entities.len()
            )
        },
        str::to_owned,
    );
    let non_key = non_key_attributes(d);
    let mut facet_names: Vec<String> = Vec::new();
    let mut facets = Vec::new();
    let mut all_items = Vec::new();
    for e in &d.entities {
        let m = e.meta;
        let mut facet_name = m.type_name.to_owned();
        if facet_names.contains(&facet_name) {
            facet_name = format!("{}_{}", m.type_name, m.discriminator);
        }
        facet_names.push(facet_name.clone());
        let mut alias = vec![("PartitionKeyAlias", Json::str(m.pk.template))];
        if sk.is_some() {
            let text = m.sk.as_ref().map_or("", |k| k.template);
            alias.push(("SortKeyAlias", Json::str(text)));
        }
        let mut attrs: Vec<&str> = vec![m.discriminator_attr];
        for ix in m.indexes {
            // A local index's partition key is the table's.
            let pk = ix.pk_attrs().filter(|_| ix.kind == IndexKind::Global);
            attrs.extend(pk.chain(ix.sk_attrs()).map(|(a, _)| a));
        }
        attrs.extend(m.fields.iter().map(|f| f.attr));
        attrs.retain(|a| *a != pk && Some(*a) != sk);
        let mut seen = Vec::new();
        attrs.retain(|a| {
            let fresh = !seen.contains(a);
            seen.push(*a);
            fresh
        });
        let items: Vec<Json> = e.examples.iter().map(json::item).collect();
        all_items.extend(items.iter().cloned());
        facets.push(Json::obj([
            ("FacetName", Json::Str(facet_name)),
            ("KeyAttributeAlias", Json::obj(alias)),
            ("TableData", Json::Arr(items)),
            (
                "NonKeyAttributes",
                Json::Arr(attrs.into_iter().map(Json::str).collect()),
            ),
        ]));
    }
    let ixs = indexes(d);
    // The projections `create_table` would give the indexes.
    let plan = crate::table::Plan::from_metas(&d.metas()).ok();
    // The format's key is one partition and one sort attribute: a native
    // index of more is left out, and the description says so.
    let (fits, left_out): (Vec<_>, Vec<_>) = ixs
        .iter()
        .partition(|ix| ix.pk.len() <= 1 && ix.sk.len() <= 1);
    let index_json = |k: IndexKind| -> Vec<Json> {
        fits.iter()
            .filter(|ix| ix.kind == k)
            .map(|ix| {
                Json::obj([
                    ("IndexName", Json::str(ix.name)),
                    (
                        "KeyAttributes",
                        key_attributes(ix.pk.first().copied(), ix.sk.first().copied()),
                    ),
                    ("Projection", projection(plan.as_ref(), ix.name)),
                ])
            })
            .collect()
    };
    let mut description = description;
    for ix in &left_out {
        let _ = write!(
            description,
            " Index {} is keyed by {}: more attributes than the one partition and one sort \
             attribute this format gives an index, so it is left out.",
            ix.name,
            ix.keys_text(|a| a.to_owned()),
        );
    }
    description.push_str(&super::vectors::workbench_note(d));
    let mut table = vec![
        ("TableName", Json::str(d.name())),
        (
            "KeyAttributes",
            key_attributes(Some((pk, KeyAttrType::S)), sk.map(|s| (s, KeyAttrType::S))),
        ),
        (
            "NonKeyAttributes",
            Json::Arr(non_key.iter().map(|(n, t)| attribute(n, t)).collect()),
        ),
        ("TableFacets", Json::Arr(facets)),
        (
            "GlobalSecondaryIndexes",
            Json::Arr(index_json(IndexKind::Global)),
        ),
    ];
    let locals = index_json(IndexKind::Local);
    if !locals.is_empty() {
        table.push(("LocalSecondaryIndexes", Json::Arr(locals)));
    }
    table.extend([
        ("TableData", Json::Arr(all_items)),
        (
            "DataAccess",
            Json::obj([("MySql", Json::obj(Vec::<(String, Json)>::new()))]),
        ),
        ("BillingMode", Json::str("PAY_PER_REQUEST")),
    ]);
    let doc = Json::obj([
        ("ModelName", Json::str(d.name())),
        (
            "ModelMetadata",
            Json::obj([
                ("Author", Json::str("dynakey")),
                ("DateCreated", Json::str(created.clone())),
                ("DateLastModified", Json::str(created)),
                ("Description", Json::Str(description)),
                ("AWSService", Json::str("Amazon DynamoDB")),
                ("Version", Json::str("3.0")),
            ]),
        ),
        ("DataModel", Json::Arr(vec![Json::obj(table)])),
    ]);
    let mut text = doc.pretty();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    #[test]
    fn dates_read_as_the_workbench_writes_them() {
        assert_eq!(
            super::date(datetime!(2023-05-11 21:18 UTC)),
            "May 11, 2023, 09:18 PM"
        );
        assert_eq!(
            super::date(datetime!(2026-01-02 00:05 UTC)),
            "Jan 02, 2026, 12:05 AM"
        );
        assert_eq!(
            super::date(datetime!(2026-12-31 12:00 UTC)),
            "Dec 31, 2026, 12:00 PM"
        );
    }
}
