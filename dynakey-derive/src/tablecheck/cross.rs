//! The entities of one table (or union) checked against each other:
//! discriminators (DYNA301, DYNA302), the table key's attributes (DYNA303),
//! indexes (DYNA304), and a sort-key prefix that swallows another's in a
//! partition they share (DYNA305). Each error points at the later entity
//! of the pair in `entities(..)` and redraws both templates.

use proc_macro2::Span;

use super::meta::{MetaEntity, MetaIndex, MetaKey};
use crate::ctxt::Ctxt;
use crate::diag::render::caret;
use crate::diag::Code;

/// `key` of entity `who` redrawn, with a caret under `len` characters
/// from the start and `note` after it.
fn drawn(who: &str, k: &MetaKey, len: usize, note: &str) -> String {
    let label = format!("{who} {}", k.attr);
    let text = k.text();
    let end = text.char_indices().nth(len).map_or(text.len(), |(i, _)| i);
    caret(&label, &text, 0..end.max(1).min(text.len().max(1)), note)
}

fn key_line(who: &str, k: &MetaKey) -> String {
    format!("{who} {} = \"{}\"", k.attr, k.text())
}

/// The checks of two entities of a union: DYNA301 and DYNA302.
pub fn discriminators(
    cx: &Ctxt,
    what: &str,
    owner: &str,
    a: &MetaEntity,
    b: &MetaEntity,
    at: Span,
) -> bool {
    let (an, bn) = (a.name(), b.name());
    if a.disc == b.disc {
        cx.report(at, Code::SameDiscriminator.msg(format!("in {what} `{owner}`, `{an}` and `{bn}` have the same discriminator \"{}\", so their items cannot be told apart", a.disc)).help("give one of them another #[dynamo(entity = \"...\")]"));
        return false;
    }
    if a.disc_attr != b.disc_attr {
        cx.report(at, Code::DiscriminatorAttribute.msg(format!("in {what} `{owner}`, `{an}` stores its discriminator in `{}` and `{bn}` in `{}`; a table has one", a.disc_attr, b.disc_attr)).fix());
        return false;
    }
    true
}

fn same_table_key(a: &MetaEntity, b: &MetaEntity) -> bool {
    a.pk.attr == b.pk.attr
        && match (&a.sk, &b.sk) {
            (None, None) => true,
            (Some(x), Some(y)) => x.attr == y.attr,
            _ => false,
        }
}

/// The first pair of indexes that disagree: one name with another kind or
/// other key attributes, or two names on one attribute (a local index's
/// partition key is the table's, shared by design).
fn index_clash(a: &MetaEntity, b: &MetaEntity) -> Option<String> {
    for x in &a.indexes {
        for y in &b.indexes {
            if x.native.is_some() || y.native.is_some() {
                if x.name == y.name {
                    if let Some(why) = native_clash(x, y) {
                        return Some(format!(
                            "index `{}` is {} in `{}` and {} in `{}`{why}",
                            x.name,
                            native_shape(x),
                            a.name(),
                            native_shape(y),
                            b.name()
                        ));
                    }
                }
                // A native index writes no attribute of its own.
                continue;
            }
            let same_sk = match (&x.sk, &y.sk) {
                (None, None) => true,
                (Some(p), Some(q)) => p.attr == q.attr,
                _ => false,
            };
            if x.name == y.name {
                if x.global != y.global || x.pk.attr != y.pk.attr || !same_sk {
                    let shape = |i: &super::meta::MetaIndex| {
                        format!(
                            "{} index with keys `{}`{}",
                            if i.global { "a global" } else { "a local" },
                            i.pk.attr,
                            i.sk.as_ref()
                                .map(|k| format!(", `{}`", k.attr))
                                .unwrap_or_default()
                        )
                    };
                    return Some(format!(
                        "index `{}` is {} in `{}` and {} in `{}`",
                        x.name.clone(),
                        shape(x),
                        a.name(),
                        shape(y),
                        b.name()
                    ));
                }
            } else {
                let pk_clash = x.global && y.global && x.pk.attr == y.pk.attr;
                let sk_clash = match (&x.sk, &y.sk) {
                    (Some(p), Some(q)) => p.attr == q.attr,
                    _ => false,
                };
                if pk_clash || sk_clash {
                    let attr = if pk_clash {
                        &x.pk.attr
                    } else {
                        &x.sk.as_ref().expect("clash").attr
                    };
                    return Some(format!(
                        "indexes `{}` of `{}` and `{}` of `{}` both write attribute `{attr}`",
                        x.name.clone(),
                        a.name(),
                        y.name.clone(),
                        b.name()
                    ));
                }
            }
        }
    }
    None
}

/// `a native index with keys pk(tenant:S, region:S), sk(n:N)`, or a
/// template index's shape.
fn native_shape(i: &MetaIndex) -> String {
    let list = |ks: &[(String, String)]| {
        ks.iter()
            .map(|(a, c)| format!("{a}:{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &i.native {
        Some(n) if n.sk.is_empty() => format!("a native index with key pk({})", list(&n.pk)),
        Some(n) => format!(
            "a native index with keys pk({}), sk({})",
            list(&n.pk),
            list(&n.sk)
        ),
        None => format!(
            "a template index with keys `{}`{}",
            i.pk.attr,
            i.sk.as_ref()
                .map(|k| format!(", `{}`", k.attr))
                .unwrap_or_default()
        ),
    }
}

/// Why two indexes of one name, one of them native, cannot be one index
/// of the table (DynamoDB refuses the second entity's writes): `None` when
/// they agree.
fn native_clash(x: &MetaIndex, y: &MetaIndex) -> Option<String> {
    let (Some(p), Some(q)) = (&x.native, &y.native) else {
        return Some(String::new());
    };
    let same = |a: &[(String, String)], b: &[(String, String)]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|((an, ac), (bn, bc))| an == bn && (ac == bc || ac == "?" || bc == "?"))
    };
    (!same(&p.pk, &q.pk) || !same(&p.sk, &q.sk))
        .then(|| ": a native index's key is the same attributes, of the same types, in the same order, for every entity".to_owned())
}

/// DYNA306: one attribute name with two DynamoDB types among the key
/// attributes of the table's entities (a table defines each key attribute
/// once). Template keys are S; a native key's attribute has its field's
/// type.
/// `reported`: the attributes already reported for an earlier pair, so
/// that one attribute with two types is one error however many entities
/// share it.
pub fn attribute_types(
    cx: &Ctxt,
    table: &str,
    a: &MetaEntity,
    b: &MetaEntity,
    at: Span,
    reported: &mut Vec<String>,
) -> bool {
    let typed = |e: &MetaEntity| {
        let mut out: Vec<(String, String, String)> = Vec::new();
        let mut key = |attr: &str, class: &str, where_: String| {
            out.push((attr.to_owned(), class.to_owned(), where_));
        };
        key(&e.pk.attr, "S", "the table's partition key".into());
        if let Some(sk) = &e.sk {
            key(&sk.attr, "S", "the table's sort key".into());
        }
        for ix in &e.indexes {
            match &ix.native {
                Some(n) => {
                    for (attr, class) in n.pk.iter().chain(&n.sk) {
                        key(
                            attr,
                            class,
                            format!("a key attribute of native index `{}`", ix.name),
                        );
                    }
                }
                None => {
                    if ix.global {
                        key(
                            &ix.pk.attr,
                            "S",
                            format!("the partition key of index `{}`", ix.name),
                        );
                    }
                    if let Some(sk) = &ix.sk {
                        key(
                            &sk.attr,
                            "S",
                            format!("the sort key of index `{}`", ix.name),
                        );
                    }
                }
            }
        }
        out
    };
    let (ta, tb) = (typed(a), typed(b));
    for (attr, ca, wa) in &ta {
        for (battr, cb, wb) in &tb {
            if attr == battr && ca != cb && ca != "?" && cb != "?" {
                if reported.contains(attr) {
                    return false;
                }
                reported.push(attr.clone());
                cx.report(at, Code::AttributeTypes.msg(format!("in table `{table}`, attribute `{attr}` is {wa} of `{}`, of type {ca}, and {wb} of `{}`, of type {cb}; a table gives each key attribute one type", a.name(), b.name())).fix());
                return false;
            }
        }
    }
    true
}

/// Where `a`'s sort-key prefix swallows `b`'s in a partition they can
/// share: `(index, a's partition key, a's sort key, b's sort key)`.
fn overlap<'a>(
    a: &'a MetaEntity,
    b: &'a MetaEntity,
) -> Option<(Option<String>, &'a MetaKey, &'a MetaKey, &'a MetaKey)> {
    let at = |place: Option<String>,
              a_pk: &'a MetaKey,
              a_sk: Option<&'a MetaKey>,
              b_pk: &MetaKey,
              b_sk: Option<&'a MetaKey>| {
        match (a_sk, b_sk) {
            (Some(x), Some(y))
                if a_pk.prefix() == b_pk.prefix() && y.prefix().starts_with(&x.prefix()) =>
            {
                Some((place, a_pk, x, y))
            }
            _ => None,
        }
    };
    if let Some(o) = at(None, &a.pk, a.sk.as_ref(), &b.pk, b.sk.as_ref()) {
        return Some(o);
    }
    for x in a.indexes.iter().filter(|i| i.native.is_none()) {
        for y in b.indexes.iter().filter(|i| i.native.is_none()) {
            if x.name == y.name {
                if let Some(o) = at(
                    Some(x.name.clone()),
                    &x.pk,
                    x.sk.as_ref(),
                    &y.pk,
                    y.sk.as_ref(),
                ) {
                    return Some(o);
                }
            }
        }
    }
    None
}

/// DYNA305 for `a` over `b` (`allowed`: the table opted out for the pair).
fn shadowing(
    cx: &Ctxt,
    table: &str,
    a: &MetaEntity,
    b: &MetaEntity,
    allowed: bool,
    at: Span,
) -> bool {
    let Some((place, a_pk, a_sk, b_sk)) = overlap(a, b) else {
        return true;
    };
    let path = a_sk.has_path();
    if allowed && !path {
        return true;
    }
    let (an, bn) = (a.name(), b.name());
    let place = match place {
        Some(ix) => format!("index `{ix}` of table `{table}`"),
        None => format!("table `{table}`"),
    };
    let prefix = a_sk.prefix().chars().count();
    let m = Code::PrefixOverlap
        .msg(format!("in {place}, the sort-key prefix of `{an}` begins every sort key of `{bn}`, in a partition they can share"))
        .draw(drawn(&an, a_sk, prefix, "this prefix"))
        .draw(drawn(&bn, b_sk, prefix, "begins this key too"))
        .draw(key_line(&format!("{an} partition"), a_pk));
    let m = if path {
        m.note(format!("the last field of `{an}`'s sort key is a `path`, so a value of `{an}` can write a key of `{bn}`: no table can allow that"))
            .help("give them distinct literal prefixes (e.g. \"FOLDER#\" and \"FILE#\")")
    } else {
        m.note(format!("a typed query of `{an}` also reads (and pays for) `{bn}`'s items, then leaves them out by discriminator"))
            .help(format!("give them distinct literal prefixes, or accept the cost for this table with #[dynamo(overlap({an}, {bn}))]"))
    };
    cx.report(at, m);
    false
}

/// The checks of two entities of table `table` up to their indexes
/// (DYNA301–DYNA304): `false` when one failed, so the later ones, which
/// assume them, do not run.
pub fn agree(cx: &Ctxt, table: &str, a: &MetaEntity, b: &MetaEntity, at: Span) -> bool {
    if !discriminators(cx, "table", table, a, b, at) {
        return false;
    }
    let (an, bn) = (a.name(), b.name());
    if !same_table_key(a, b) {
        let mut m = Code::TableKeyAttributes.msg(format!(
            "in table `{table}`, `{an}` and `{bn}` store the table key in different attributes"
        ));
        for (who, e) in [(&an, a), (&bn, b)] {
            m = m.draw(key_line(who, &e.pk));
            if let Some(sk) = &e.sk {
                m = m.draw(key_line(who, sk));
            }
        }
        cx.report(at, m.fix());
        return false;
    }
    if let Some(why) = index_clash(a, b) {
        cx.report(
            at,
            Code::IndexDisagreement
                .msg(format!(
                    "in table `{table}`, `{an}` and `{bn}` disagree on an index: {why}"
                ))
                .fix(),
        );
        return false;
    }
    true
}

/// DYNA305 both ways between two entities of table `table`; `a_over_b` /
/// `b_over_a`: the table allows that overlap.
pub fn prefixes(
    cx: &Ctxt,
    table: &str,
    a: &MetaEntity,
    b: &MetaEntity,
    (a_over_b, b_over_a): (bool, bool),
    at: Span,
) {
    if !shadowing(cx, table, a, b, a_over_b, at) {
        return;
    }
    // Equal prefixes overlap both ways: reported once, above.
    if overlap(a, b).is_none() {
        shadowing(cx, table, b, a, b_over_a, at);
    }
}
