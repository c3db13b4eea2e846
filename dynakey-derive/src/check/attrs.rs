//! Attribute names: two keys on one attribute (DYNA108), a field stored
//! under a key or discriminator attribute (DYNA110).

use proc_macro2::Span;

use crate::attr::RawKeys;
use crate::ctxt::Ctxt;
use crate::model::{Field, IndexModel, KeyKind};

/// DYNA108 (two keys on one attribute) and DYNA110 (a field named like a
/// key or discriminator attribute).
pub fn check_attrs(
    cx: &Ctxt,
    raw: &RawKeys,
    fields: &[Field],
    disc: &str,
    pk: &str,
    sk: Option<&str>,
    indexes: &[IndexModel],
) {
    let mut owners: Vec<(String, String)> =
        vec![(pk.to_owned(), "the table's partition key".into())];
    if let Some(sk) = sk {
        owners.push((sk.to_owned(), "the table's sort key".into()));
    }
    for ix in indexes {
        let span = raw
            .indexes
            .iter()
            .find(|r| r.name == ix.name)
            .map(|r| r.name_span)
            .unwrap_or_else(Span::call_site);
        let mut mine = Vec::new();
        if ix.kind == KeyKind::Global {
            mine.push((
                ix.pk.attr.clone(),
                format!("the partition key of index `{}`", ix.name),
            ));
        }
        if let Some(s) = &ix.sk {
            mine.push((
                s.attr.clone(),
                format!("the sort key of index `{}`", ix.name),
            ));
        }
        for (a, who) in mine {
            if let Some((_, other)) = owners.iter().find(|(o, _)| *o == a) {
                cx.error(span, format!("DYNA108: attribute `{a}` would hold {who} and {other}\n  = help: give the index its own attribute names with pk_attr = \"...\" / sk_attr = \"...\""));
            }
            owners.push((a, who));
        }
    }
    owners.push((disc.to_owned(), "the discriminator".into()));
    for f in fields.iter().filter(|f| !f.skip()) {
        if let Some((_, who)) = owners.iter().find(|(o, _)| *o == f.attr) {
            cx.error(
                f.ident.span(),
                format!("DYNA110: field `{}` is stored as attribute `{}`, which holds {who}\n  = help: rename the attribute with #[dynamo(rename = \"...\")]", f.ident, f.attr),
            );
        }
    }
}
