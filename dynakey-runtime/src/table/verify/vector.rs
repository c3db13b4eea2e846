//! The vector indexes of a live table against the code's: missing, extra,
//! or declared otherwise (vector attribute, dimensions, distance, search
//! schema, a projection narrower than what the search reads).

use aws_sdk_dynamodb::types::{TableDescription, VectorIndexDescription};

use super::report::{Difference, VectorAspect};
use super::{live_projection, missing};
use crate::table::vector::VectorDef;
use crate::table::Plan;

/// A search schema as text: `tenant HASH, status INLINE_FILTER`.
fn schema_text<'a>(elements: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let v: Vec<String> = elements.map(|(a, t)| format!("{a} {t}")).collect();
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(", ")
    }
}

fn expected_schema(def: &VectorDef) -> String {
    schema_text(
        def.meta
            .schema_attrs()
            .map(|(a, _, h)| (a, if h { "HASH" } else { "INLINE_FILTER" })),
    )
}

fn found_schema(live: &VectorIndexDescription) -> String {
    schema_text(
        live.search_schema()
            .iter()
            .map(|e| (e.attribute_name(), e.search_schema_element_type().as_str())),
    )
}

/// How `live` differs from `def`, aspect by aspect.
fn differences(
    def: &VectorDef,
    live: &VectorIndexDescription,
    table_keys: &[&str],
) -> Vec<Difference> {
    let m = def.meta;
    let index = m.name.to_owned();
    let mut out = Vec::new();
    let mut differ = |aspect, expected: String, found: String| {
        if expected != found {
            out.push(Difference::VectorIndex {
                index: index.clone(),
                aspect,
                expected,
                found,
            });
        }
    };
    let attr = live.vector_attribute().map(|a| a.attribute_name());
    differ(
        VectorAspect::VectorAttribute,
        m.vector_attr.to_owned(),
        attr.unwrap_or("(none)").to_owned(),
    );
    let dims = live.dimensions().map_or("(none)".into(), |d| d.to_string());
    differ(VectorAspect::Dimensions, m.dimensions.to_string(), dims);
    let distance = live.distance_function().map_or("(none)", |d| d.as_str());
    differ(
        VectorAspect::Distance,
        m.distance.as_str().to_owned(),
        distance.to_owned(),
    );
    differ(
        VectorAspect::SearchSchema,
        expected_schema(def),
        found_schema(live),
    );
    // What a search reads: the projection asked for, beyond the keys and
    // the search schema (which every vector index holds).
    let keys: Vec<&str> = table_keys
        .iter()
        .copied()
        .chain(m.schema_attrs().map(|(a, _, _)| a))
        .collect();
    let found = live_projection(live.projection());
    let lacks = missing(&def.projection, &found, &keys);
    if !lacks.is_empty() {
        differ(
            VectorAspect::Projection,
            lacks.join(", "),
            format!("{found}"),
        );
    }
    out
}

/// Every vector index difference between `t` and `plan`.
pub(super) fn vector_differences(
    t: &TableDescription,
    plan: &Plan,
    table_keys: &[&str],
) -> Vec<Difference> {
    let mut out = Vec::new();
    for (name, def) in &plan.vectors {
        match t
            .vector_indexes()
            .iter()
            .find(|v| v.index_name() == Some(*name))
        {
            Some(live) => out.extend(differences(def, live, table_keys)),
            None => out.push(Difference::MissingVectorIndex {
                index: (*name).to_owned(),
            }),
        }
    }
    for live in t.vector_indexes() {
        let n = live.index_name().unwrap_or_default();
        if !plan.vectors.contains_key(n) {
            out.push(Difference::ExtraVectorIndex {
                index: n.to_owned(),
            });
        }
    }
    out
}
