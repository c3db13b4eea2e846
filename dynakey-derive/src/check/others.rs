//! `DynamoValue`, `DynamoUnion` and `DynamoTable`: their shapes (DYNA109),
//! options (DYNA112) and lists (DYNA301).

use darling::util::SpannedValue;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use super::{fields, named_fields};
use crate::attr;
use crate::ctxt::Ctxt;
use crate::diag::Code;
use crate::model::{Table, Union, Value};

fn no_generics(cx: &Ctxt, input: &DeriveInput, what: &str) -> bool {
    if input.generics.params.is_empty() {
        return true;
    }
    cx.report(
        input.generics.span(),
        Code::Shape
            .msg(format!(
                "{what} does not support generic parameters on `{}`",
                input.ident
            ))
            .help("derive on a concrete type"),
    );
    false
}

/// A unit enum (stored by name) or a struct (stored as a map).
pub fn value(cx: &Ctxt, input: &DeriveInput) -> Option<Value> {
    attr::value_container(cx, input, "a value");
    let ident = input.ident.clone();
    if !no_generics(cx, input, "DynamoValue") {
        return None;
    }
    match &input.data {
        Data::Enum(en) => {
            let mut variants = Vec::new();
            for v in &en.variants {
                let rename = attr::variant(cx, v);
                if !matches!(v.fields, Fields::Unit) {
                    cx.report(
                        v.ident.span(),
                        Code::Shape
                            .msg(format!(
                                "variant `{}` has fields; DynamoValue stores unit enums by name",
                                v.ident
                            ))
                            .help("store data-carrying enums with #[dynamo(serde)] on the field"),
                    );
                    continue;
                }
                let name = rename
                    .map(|r| r.as_str().to_owned())
                    .unwrap_or_else(|| crate::unraw::Name::new(&v.ident).text);
                // Any other text is fine in a key: the template escapes what
                // sorts at or below its delimiter.
                if name.is_empty() || name.chars().any(dynakey_core::template::forbidden_raw) {
                    cx.report(v.ident.span(), Code::Shape.msg("a variant's stored name must be non-empty text without control characters or U+10FFFF"));
                }
                if let Some((other, _)) = variants.iter().find(|(_, n)| *n == name) {
                    cx.report(
                        v.ident.span(),
                        Code::Options
                            .msg(format!(
                                "variants `{other}` and `{}` are both stored as {name:?}",
                                v.ident
                            ))
                            .help("rename one"),
                    );
                }
                variants.push((v.ident.clone(), name));
            }
            (!cx.has_errors()).then_some(Value::Enum { ident, variants })
        }
        Data::Struct(_) => {
            let named = named_fields(cx, input, "DynamoValue")?;
            let fields = fields(cx, named);
            super::attr_names::check_stored_names(cx, &fields);
            for f in fields
                .iter()
                .filter(|f| f.serde() || f.ttl() || f.version())
            {
                cx.report(f.span, Code::Options.msg(format!("field `{}`: #[dynamo(serde)], #[dynamo(ttl)] and #[dynamo(version)] are for entity fields, not nested values", f.name.text)));
            }
            for f in fields
                .iter()
                .filter(|f| f.stamp.is_some() || f.unique || f.validate.is_some())
            {
                cx.report(f.span, Code::Options.msg(format!("field `{}`: #[dynamo(created_at)], #[dynamo(updated_at)], #[dynamo(unique)] and #[dynamo(validate)] are for entity fields, not nested values", f.name.text)).help("validate a nested value in its entity's validator, #[dynamo(validate = ..)] on the entity"));
            }
            (!cx.has_errors()).then_some(Value::Struct { ident, fields })
        }
        Data::Union(_) => {
            cx.report(
                ident.span(),
                Code::Shape.msg("DynamoValue does not support unions"),
            );
            None
        }
    }
}

/// An enum whose variants each hold one entity.
pub fn union(cx: &Ctxt, input: &DeriveInput) -> Option<Union> {
    attr::value_container(cx, input, "a union");
    let ident = input.ident.clone();
    let Data::Enum(en) = &input.data else {
        cx.report(ident.span(), Code::Shape.msg(format!("DynamoUnion goes on an enum of entity types, as in `enum {ident} {{ Member(Member), Membership(Membership) }}`")));
        return None;
    };
    if !no_generics(cx, input, "DynamoUnion") {
        return None;
    }
    let mut variants = Vec::new();
    for v in &en.variants {
        match &v.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                variants.push((v.ident.clone(), f.unnamed[0].ty.clone()))
            }
            _ => cx.report(
                v.ident.span(),
                Code::Shape.msg(format!(
                    "variant `{}` must hold one entity, as in `{}(Entity)`",
                    v.ident, v.ident
                )),
            ),
        }
    }
    if variants.is_empty() && !en.variants.is_empty() {
        return None;
    }
    if variants.is_empty() {
        cx.report(
            ident.span(),
            Code::Shape.msg("DynamoUnion needs at least one variant"),
        );
    }
    (!cx.has_errors()).then_some(Union { ident, variants })
}

fn name(p: &syn::Path) -> String {
    p.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// The entities of one table, the overlaps it allows, and where its schema
/// snapshot is (DYNA500 when `schema = ".."` names a file that does not
/// exist or does not read as a snapshot).
pub fn table(cx: &Ctxt, input: &DeriveInput) -> Option<Table> {
    let opts = attr::table(cx, input);
    let ident = input.ident.clone();
    if !no_generics(cx, input, "DynamoTable") {
        return None;
    }
    let entities: Vec<syn::Path> = opts
        .entities
        .as_ref()
        .map(|l| l.iter().cloned().collect())
        .unwrap_or_default();
    if entities.is_empty() {
        cx.report(
            ident.span(),
            Code::Shape
                .msg(format!("table `{ident}` lists no entities"))
                .help("add #[dynamo(entities(Member, Membership, ..))]"),
        );
    }
    for (i, a) in entities.iter().enumerate() {
        if entities[..i].iter().any(|b| b == a) {
            cx.report(
                a.span(),
                Code::SameDiscriminator
                    .msg(format!("`{}` is listed twice in table `{ident}`", name(a)))
                    .help("list each entity once"),
            );
        }
    }
    let mut overlaps = Vec::new();
    for pair in &opts.overlap {
        let list: Vec<&syn::Path> = pair.iter().collect();
        let [a, b] = list.as_slice() else {
            cx.report(pair.span(), Code::Options.msg("`overlap` takes two entities of the table, as in #[dynamo(overlap(Task, Comment))]"));
            continue;
        };
        for p in [a, b] {
            if !entities.contains(p) {
                cx.report(
                    p.span(),
                    Code::Options
                        .msg(format!(
                            "`{}` in `overlap` is not an entity of table `{ident}`",
                            name(p)
                        ))
                        .help("list it in `entities(..)`, or drop it from `overlap`"),
                );
            }
        }
        overlaps.push(((*a).clone(), (*b).clone()));
    }
    let (schema_path, schema_lit) = schema_path(&ident, opts.schema.as_ref());
    if let Some(lit) = &schema_lit {
        match std::fs::read_to_string(&schema_path) {
            Ok(text) => {
                if let Err(e) = dynakey_core::snapshot::parse(&text) {
                    cx.report(lit.span(), Code::Snapshot.msg(format!("the schema snapshot {} of table `{ident}` could not be read: {e}", lit.value())).help("rewrite it from the code with `DYNAKEY_SCHEMA=overwrite cargo test`"));
                }
            }
            Err(e) => cx.report(lit.span(), Code::Snapshot.msg(format!("the schema snapshot {} of table `{ident}` does not exist ({schema_path}: {e})", lit.value())).help(format!("the path is relative to the file that holds #[derive(DynamoTable)], as `include_str!` reads it; write the snapshot with `DYNAKEY_SCHEMA=overwrite cargo test`, or drop `schema` for the default `dynakey/{ident}.schema` in the crate"))),
        }
    }
    let stream = opts.stream.as_ref().and_then(|v| {
        let variant = match v.as_str() {
            "KEYS_ONLY" => "KeysOnly",
            "NEW_IMAGE" => "NewImage",
            "OLD_IMAGE" => "OldImage",
            "NEW_AND_OLD_IMAGES" => "NewAndOldImages",
            other => {
                cx.report(
                    v.span(),
                    Code::StreamView
                        .msg(format!("`{other}` is not a stream view"))
                        .fix(),
                );
                return None;
            }
        };
        Some(variant)
    });
    Some(Table {
        ident,
        entities,
        overlaps,
        schema_path,
        migrations: opts.migrations.clone(),
        stream,
    })
}

/// Where the snapshot is: `schema = "path"` relative to the file holding
/// the derive (as `include_str!` reads it), or `dynakey/<Table>.schema` in
/// the crate.
fn schema_path(
    ident: &syn::Ident,
    schema: Option<&SpannedValue<String>>,
) -> (String, Option<syn::LitStr>) {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let Some(s) = schema else {
        let path = std::path::Path::new(&manifest).join(format!("dynakey/{ident}.schema"));
        return (path.to_string_lossy().into_owned(), None);
    };
    let file = s.span().unwrap().local_file();
    // The file's path is relative to the compiler's working directory (or
    // absolute).
    let cwd = std::env::current_dir().unwrap_or_default();
    let dir = file
        .as_ref()
        .and_then(|f| f.parent())
        .map(|d| cwd.join(d))
        .unwrap_or_else(|| manifest.into());
    let path = dir.join(s.as_str()).to_string_lossy().into_owned();
    (path, Some(syn::LitStr::new(s.as_str(), s.span())))
}

/// Some fields of an entity: `#[dynamo(of = Entity)]` on a struct with
/// named fields (the types are checked in the generated code: DYNA119).
pub fn projection(cx: &Ctxt, input: &DeriveInput) -> Option<crate::model::ProjectionModel> {
    let opts = attr::projection(cx, input);
    let named = named_fields(cx, input, "DynamoProjection")?;
    if !no_generics(cx, input, "DynamoProjection") {
        return None;
    }
    let Some(of) = opts.of else {
        cx.report(
            input.ident.span(),
            Code::Shape
                .msg(format!(
                    "projection `{}` does not name its entity",
                    input.ident
                ))
                .help("add #[dynamo(of = Task)]: the entity whose fields it holds"),
        );
        return None;
    };
    let fields = named
        .named
        .iter()
        .filter_map(|f| {
            let inner = crate::types::option_inner(&f.ty).unwrap_or(&f.ty).clone();
            Some((f.ident.clone()?, inner, f.ty.clone()))
        })
        .collect();
    Some(crate::model::ProjectionModel {
        ident: input.ident.clone(),
        of,
        fields,
    })
}
