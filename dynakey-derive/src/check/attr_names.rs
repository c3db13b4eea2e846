//! Attribute names: two keys on one attribute (DYNA108), a field stored
//! under a key or discriminator attribute (DYNA110), and two fields stored
//! in one attribute (DYNA124).

use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Entity, Field, KeyKind, Value};

pub fn check_attr_names(cx: &Ctxt, e: &Entity) {
    let mut owners: Vec<(String, String)> =
        vec![(e.pk.attr.clone(), "the table's partition key".into())];
    if let Some(sk) = &e.sk {
        owners.push((sk.attr.clone(), "the table's sort key".into()));
    }
    for ix in &e.indexes {
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
                cx.report(ix.name_span, Code::IndexNames.msg(format!("attribute `{a}` would hold {who} and {other}")).help("give the index its own attribute names with pk_attr = \"...\" / sk_attr = \"...\""));
            }
            owners.push((a, who));
        }
    }
    check_stored_names(cx, e.struct_fields().map(|(_, f)| f));
    owners.push((e.disc_attr.clone(), "the discriminator".into()));
    for (_, f) in e.struct_fields().filter(|(_, f)| !f.skip()) {
        if let Some((_, who)) = owners.iter().find(|(o, _)| *o == f.attr) {
            cx.report(
                f.name.ident.span(),
                Code::FieldOnKeyAttribute
                    .msg(format!(
                        "field `{}` is stored as attribute `{}`, which holds {who}",
                        f.name.text, f.attr
                    ))
                    .fix(),
            );
        }
    }
}

/// Two stored fields of a nested `DynamoValue` in one attribute (DYNA124).
pub fn check_value_names(cx: &Ctxt, v: &Value) {
    if let Value::Struct { fields, .. } = v {
        check_stored_names(cx, fields);
    }
}

/// Two stored fields of one struct (an entity or a nested `DynamoValue`)
/// in one attribute: one value would overwrite the other in every item.
/// Reported at the later field, naming the earlier one.
fn check_stored_names<'a>(cx: &Ctxt, fields: impl IntoIterator<Item = &'a Field>) {
    let mut seen: Vec<&Field> = Vec::new();
    for f in fields.into_iter().filter(|f| f.stored()) {
        if let Some(first) = seen.iter().find(|g| g.attr == f.attr) {
            cx.report(f.name.ident.span(), Code::SharedAttribute.msg(format!("fields `{}` and `{}` are both stored in attribute `{}`, so one would overwrite the other in every item", first.name.text, f.name.text, f.attr)).fix());
        } else {
            seen.push(f);
        }
    }
}
