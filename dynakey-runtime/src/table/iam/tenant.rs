//! The partition keys one tenant's requests may name, as the
//! `dynamodb:LeadingKeys` patterns of its policy: each partition key
//! template with the tenant's value in place of its tenant field and `*`
//! in place of every other field.

use dynakey_core::template::escape_into;

use crate::entity::{EntityMeta, IndexKey, IndexKind, KeyMeta};
use crate::error::{Error, KeyFormatReason};
use crate::key::{check_raw, KeyTemplate, PartFormat, TemplatePart};
use crate::rules::unique::GUARD;

/// A tenant: the field that holds it in the keys and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tenant {
    pub(super) field: String,
    pub(super) value: Value,
}

/// The tenant's value: known now, or named by an IAM policy variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Value {
    Text(String),
    Variable(String),
}

/// What a tenant may reach: the patterns of the partition keys it may
/// name, and the indexes whose partition key holds it.
#[derive(Debug, Default)]
pub(super) struct Reach {
    pub(super) patterns: Vec<String>,
    pub(super) indexes: Vec<&'static str>,
}

/// Text as an IAM `StringLike` pattern matches it literally: `*`, `?` and
/// `$` are written as the policy variables `${*}`, `${?}` and `${$}`.
pub(super) fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '*' | '?' | '$' => {
                out.push_str("${");
                out.push(c);
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out
}

fn refuse(meta: &EntityMeta, why: String) -> Error {
    Error::refused(
        crate::error::RefusedReason::AccessPolicy,
        format!("a tenant's policy cannot confine {}: {why}", meta.type_name),
    )
}

/// The pattern of `key` for `tenant`, `None` when the template does not
/// hold the tenant's field.
fn pattern(meta: &EntityMeta, key: &KeyMeta, t: &Tenant) -> Result<Option<String>, Error> {
    let tpl = key.key;
    if !tpl.fields().any(|(name, _)| name == t.field) {
        return Ok(None);
    }
    let mut out = String::new();
    for part in tpl.parts() {
        match *part {
            TemplatePart::Lit(l) => out.push_str(&literal(l)),
            TemplatePart::Field { name, format } if name == t.field => match &t.value {
                Value::Text(value) => {
                    out.push_str(&literal(&written(meta, tpl, format, &t.field, value)?));
                }
                // IAM substitutes the variable's value as it is: a value
                // the template would escape never matches.
                Value::Variable(var) => out.push_str(&format!("${{{var}}}")),
            },
            TemplatePart::Field { .. } => {
                // `*` spans any text: two fields in a row need one.
                if !out.ends_with('*') {
                    out.push('*');
                }
            }
        }
    }
    Ok(Some(out))
}

/// The tenant's `value` as template `tpl` writes it in a field of `format`.
fn written(
    meta: &EntityMeta,
    tpl: &KeyTemplate,
    format: PartFormat,
    field: &str,
    value: &str,
) -> Result<String, Error> {
    let mut text = String::new();
    let written = match format {
        PartFormat::Text if tpl.is_raw() => check_raw(value).map(|()| value.to_owned()),
        PartFormat::Path => check_raw(value).map(|()| value.to_owned()),
        PartFormat::Text => escape_into(&mut text, value, tpl.escape())
            .map(|()| text)
            .map_err(|found| KeyFormatReason::ForbiddenChar { found }),
        _ => {
            return Err(refuse(
                meta,
                format!(
                    "its tenant field `{field}` has a number format in `{}`; a tenant is text",
                    tpl.text()
                ),
            ))
        }
    };
    let written =
        written.map_err(|reason| refuse(meta, format!("tenant value {value:?}: {reason}")))?;
    if written.is_empty() {
        return Err(refuse(meta, "the tenant value is empty".into()));
    }
    Ok(written)
}

fn push(patterns: &mut Vec<String>, p: String) {
    if !patterns.contains(&p) {
        patterns.push(p);
    }
}

/// What `tenant` may reach in the items of `metas`. Refuses an entity
/// whose table partition key does not hold the tenant's field, and one
/// with a table-wide unique value (its guard is no tenant's partition).
pub(super) fn reach(metas: &[&'static EntityMeta], t: &Tenant) -> Result<Reach, Error> {
    let mut r = Reach::default();
    for meta in metas {
        let table = pattern(meta, &meta.pk, t)?.ok_or_else(|| {
            refuse(
                meta,
                format!(
                    "its partition key `{}` does not hold the tenant field `{}`",
                    meta.pk.template, t.field
                ),
            )
        })?;
        push(&mut r.patterns, table);
        for ix in meta.indexes {
            let pk = match (&ix.key, ix.kind) {
                // A local index's partition key is the table's.
                (_, IndexKind::Local) => Some(&meta.pk),
                (IndexKey::Template { pk, .. }, IndexKind::Global) => Some(pk),
                // A native key's attributes are the fields' own values,
                // with no template to confine: not the tenant's index.
                (IndexKey::Native(_), IndexKind::Global) => None,
            };
            let Some(p) = pk.map(|k| pattern(meta, k, t)).transpose()?.flatten() else {
                continue;
            };
            push(&mut r.patterns, p);
            if !r.indexes.contains(&ix.name) {
                r.indexes.push(ix.name);
            }
        }
        guards(meta, t, &mut r.patterns)?;
    }
    r.patterns.sort();
    r.indexes.sort_unstable();
    Ok(r)
}

/// The guards of `meta`'s unique values scoped by the tenant (their keys
/// are `_UNIQUE#<discriminator>#<attribute>@<scope>#<length>:<tenant>#..`,
/// see [`rules::unique`](crate::rules::unique)).
fn guards(meta: &EntityMeta, t: &Tenant, patterns: &mut Vec<String>) -> Result<(), Error> {
    let tenant_attr = meta
        .fields
        .iter()
        .find(|f| f.name == t.field)
        .map_or(t.field.as_str(), |f| f.attr);
    for attr in meta.unique {
        match meta.unique_scope(attr) {
            Some(scope) if scope == tenant_attr => {
                let Value::Text(v) = &t.value else {
                    return Err(refuse(
                        meta,
                        format!("its unique `{attr}`'s guard keys hold the tenant's length, which a policy variable cannot give"),
                    ));
                };
                let d = meta.discriminator;
                let pk = format!("{GUARD}#{d}#{attr}@{scope}#{}:{v}#", v.len());
                push(patterns, format!("{}*", literal(&pk)));
            }
            _ => {
                return Err(refuse(
                    meta,
                    format!(
                        "its unique `{attr}` is guarded by items outside the tenant's partitions (scope it: `unique(scope = {})`)",
                        t.field
                    ),
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::literal;

    #[test]
    fn wildcards_and_dollars_are_written_literally() {
        assert_eq!(literal("A*B?C$D#"), "A${*}B${?}C${$}D#");
        assert_eq!(literal("TENANT#acme"), "TENANT#acme");
    }
}
