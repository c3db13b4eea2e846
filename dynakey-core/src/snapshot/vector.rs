//! A vector index's line (format 3 on): its name, vector attribute,
//! dimensions and distance, then its scope, filter and projection, each a
//! keyword followed by quoted attribute names, so a name that reads like
//! a keyword is still a name.
//!
//! ```text
//!   vector BySimilar "embedding" 4 COSINE scope "tenant" filter "status" projection INCLUDE "title"
//! ```

use super::quote;
use super::text::Token;

/// A vector index of an entity (`#[vector_index(..)]`), as format 3 and
/// later record it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vector {
    /// The index name.
    pub name: String,
    /// The attribute holding the vector.
    pub attr: String,
    /// The number of elements of every vector.
    pub dimensions: u32,
    /// The distance function as the API names it (`COSINE`).
    pub distance: String,
    /// The scope attribute (DynamoDB's `HASH` element): none or one.
    pub scope: Vec<String>,
    /// The filter attributes (`INLINE_FILTER` elements).
    pub filters: Vec<String>,
    /// What the index holds of each item.
    pub projection: Projection,
}

/// What a vector index holds of each item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    /// Every attribute (`ALL`).
    All,
    /// The keys only (`KEYS_ONLY`).
    KeysOnly,
    /// The keys and these attributes (`INCLUDE`).
    Include(Vec<String>),
}

impl Vector {
    /// The line, indented under its entity.
    pub(super) fn line(&self) -> String {
        let mut out = format!(
            "  vector {} {} {} {}",
            self.name,
            quote(&self.attr),
            self.dimensions,
            self.distance
        );
        let names = |out: &mut String, names: &[String]| {
            for n in names {
                out.push(' ');
                out.push_str(&quote(n));
            }
        };
        for (word, list) in [("scope", &self.scope), ("filter", &self.filters)] {
            if !list.is_empty() {
                out.push(' ');
                out.push_str(word);
                names(&mut out, list);
            }
        }
        match &self.projection {
            Projection::All => out.push_str(" projection ALL"),
            Projection::KeysOnly => out.push_str(" projection KEYS_ONLY"),
            Projection::Include(list) => {
                out.push_str(" projection INCLUDE");
                names(&mut out, list);
            }
        }
        out
    }

    /// The facts of a line's words after `vector`.
    pub(super) fn parse(t: &[Token]) -> Result<Vector, &'static str> {
        let [name, attr, dimensions, distance, rest @ ..] = t else {
            return Err("a vector index without its name, attribute, dimensions and distance");
        };
        let mut v = Vector {
            name: name.text.clone(),
            attr: attr.text.clone(),
            dimensions: dimensions
                .text
                .parse()
                .map_err(|_| "a vector index's dimensions that are not a number")?,
            distance: distance.text.clone(),
            scope: Vec::new(),
            filters: Vec::new(),
            projection: Projection::All,
        };
        // The list the quoted names go to, by the keyword before them.
        let mut to: Option<&mut Vec<String>> = None;
        let mut include = Vec::new();
        let mut projection = None;
        let mut after_projection = false;
        for w in rest {
            if w.quoted {
                to.as_mut()
                    .ok_or("an attribute name after no `scope`, `filter` or `INCLUDE`")?
                    .push(w.text.clone());
                continue;
            }
            let word = w.text.as_str();
            to = match word {
                "scope" => Some(&mut v.scope),
                "filter" => Some(&mut v.filters),
                "projection" if projection.is_none() => None,
                "ALL" | "KEYS_ONLY" | "INCLUDE" if after_projection => {
                    projection = Some(w.text.clone());
                    (word == "INCLUDE").then_some(&mut include)
                }
                _ => return Err("an unknown word on a vector index's line"),
            };
            after_projection = word == "projection";
        }
        if after_projection {
            return Err("a `projection` without ALL, KEYS_ONLY or INCLUDE");
        }
        v.projection = match projection.as_deref() {
            None | Some("ALL") => Projection::All,
            Some("KEYS_ONLY") => Projection::KeysOnly,
            _ => Projection::Include(include),
        };
        Ok(v)
    }
}
