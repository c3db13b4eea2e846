//! The vector indexes of a table's entities checked against each other:
//! one name, one declaration (DYNA610), at most five between them
//! (DYNA611), no vector index named like another entity's global or
//! local index (DYNA612), one number of dimensions per vector attribute
//! (DYNA613). The words and the code list are
//! `model::vectors`'s. Each error points at the later entity in
//! `entities(..)`.

use proc_macro2::Span;

use super::meta::MetaEntity;
use crate::ctxt::Ctxt;
use crate::diag::Code;

/// One schema attribute: (attribute, `S`/`N`/`B`, or `?` when the derive
/// cannot tell, scope or filter).
pub type SchemaAttr = (String, String, bool);

/// A vector index as an entity recorded it.
#[derive(Clone)]
pub struct MetaVector {
    pub name: String,
    pub vector_attr: String,
    pub dimensions: String,
    pub distance: String,
    pub schema: Vec<SchemaAttr>,
}

impl MetaVector {
    /// The entity's metadata line: `vector NAME ATTR DIMS DISTANCE` and
    /// then `scope|filter ATTR CLASS` per search-schema attribute.
    pub fn parse(words: &[&str]) -> Option<Self> {
        let [name, vector_attr, dimensions, distance, rest @ ..] = words else {
            return None;
        };
        let mut schema = Vec::new();
        for chunk in rest.chunks(3) {
            let [kind, attr, class] = chunk else {
                return None;
            };
            schema.push(((*attr).to_owned(), (*class).to_owned(), *kind == "scope"));
        }
        Some(MetaVector {
            name: (*name).to_owned(),
            vector_attr: (*vector_attr).to_owned(),
            dimensions: (*dimensions).to_owned(),
            distance: (*distance).to_owned(),
            schema,
        })
    }

    /// How it is declared, in the words of the attribute.
    fn describe(&self) -> String {
        let part = |scope: bool| {
            self.schema
                .iter()
                .filter(|a| a.2 == scope)
                .map(|a| a.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "vector = {}, dimensions = {}, distance = \"{}\", scope({}), filter({})",
            self.vector_attr,
            self.dimensions,
            self.distance,
            part(true),
            part(false)
        )
    }

    /// Whether two declarations are one index (types compared where both
    /// sides know them).
    fn agrees(&self, o: &MetaVector) -> bool {
        let same_attr = |a: &SchemaAttr, b: &SchemaAttr| {
            a.0 == b.0 && a.2 == b.2 && (a.1 == b.1 || a.1 == "?" || b.1 == "?")
        };
        self.vector_attr == o.vector_attr
            && self.dimensions == o.dimensions
            && self.distance == o.distance
            && self.schema.len() == o.schema.len()
            && self
                .schema
                .iter()
                .zip(&o.schema)
                .all(|(a, b)| same_attr(a, b))
    }
}

/// The checks across the table's entities; `at(j)` is where entity `j` is
/// listed.
pub fn check(cx: &Ctxt, owner: &str, metas: &[MetaEntity], at: impl Fn(usize) -> Span) {
    // Each name's first declaration, and who made it.
    let mut first: Vec<(&MetaVector, String)> = Vec::new();
    let mut reported_limit = false;
    for (j, e) in metas.iter().enumerate().filter(|(_, e)| !e.failed) {
        for v in &e.vectors {
            match first.iter().find(|(f, _)| f.name == v.name) {
                Some((f, who)) if !f.agrees(v) => {
                    let message = format!(
                        "in table `{owner}`, `{who}` and `{}` declare vector index `{}` differently\n  | {who}: {}\n  | {}: {}",
                        e.name(),
                        v.name,
                        f.describe(),
                        e.name(),
                        v.describe()
                    );
                    cx.report(at(j), Code::VectorAgreement.msg(message).help("one index has one declaration: declare it the same way in every entity, or give each its own name"));
                }
                Some(_) => {}
                None => first.push((v, e.name())),
            }
        }
        if first.len() > 5 && !reported_limit {
            reported_limit = true;
            let names: Vec<&str> = first.iter().map(|(v, _)| v.name.as_str()).collect();
            cx.report(at(j), Code::VectorTableLimit.msg(format!("the entities of table `{owner}` declare {} vector indexes ({}); DynamoDB allows 5 per table", names.len(), names.join(", "))).help("share an index between entities (the same declaration) or drop one"));
        }
    }
    // One vector attribute, one number of dimensions.
    let mut dims: Vec<(&MetaVector, String)> = Vec::new();
    for (j, e) in metas.iter().enumerate().filter(|(_, e)| !e.failed) {
        for v in &e.vectors {
            match dims.iter().find(|(d, _)| d.vector_attr == v.vector_attr) {
                Some((d, who)) if d.dimensions != v.dimensions => {
                    let message = format!(
                        "in table `{owner}`, vector index `{}` of `{who}` reads attribute `{}` with {} dimensions, and `{}` of `{}` with {}",
                        d.name, d.vector_attr, d.dimensions, v.name, e.name(), v.dimensions
                    );
                    cx.report(at(j), Code::VectorTableDimensions.msg(message).help("DynamoDB requires one number of dimensions per vector attribute: give the vectors of another length their own attribute (#[dynamo(rename = \"..\")])"));
                }
                Some(_) => {}
                None => dims.push((v, e.name())),
            }
        }
    }
    for (j, e) in metas.iter().enumerate().filter(|(_, e)| !e.failed) {
        for (k, o) in metas
            .iter()
            .enumerate()
            .filter(|(k, o)| *k != j && !o.failed)
        {
            for v in &e.vectors {
                if let Some(ix) = o.indexes.iter().find(|ix| ix.name == v.name) {
                    let kind = if ix.global { "global" } else { "local" };
                    let message = format!(
                        "in table `{owner}`, `{}` declares vector index `{}` and `{}` a {kind} index of the same name",
                        e.name(),
                        v.name,
                        o.name()
                    );
                    cx.report(at(j.max(k)), Code::VectorTableName.msg(message).help("vector, global and local indexes share one namespace: rename one of them"));
                }
            }
        }
    }
}
