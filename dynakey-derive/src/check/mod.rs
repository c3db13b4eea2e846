//! Builds the checked models from the parsed attributes, reporting every
//! mistake with its DYNA code (see the catalogue in the README): the only
//! place user errors come from. Codegen works from what this returns.

mod attrs;
mod fields;
mod indexes;
mod keys;
mod others;
mod projection;
mod rules;
mod update;

use std::ops::Range;

use darling::util::SpannedValue;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::attr::{self, TemplateLit};
use crate::ctxt::Ctxt;
use crate::model::{Entity, KeyKind};
use crate::render::Diag;

use attrs::check_attrs;
pub use fields::fields;
use indexes::indexes;
use keys::KeyCtx;
pub use others::{projection, table, union, value};

pub fn diag(
    cx: &Ctxt,
    tpl: &TemplateLit,
    code: &'static str,
    message: String,
    range: Range<usize>,
    help: Option<String>,
) {
    let d = Diag {
        code,
        message,
        label: &tpl.label,
        template: &tpl.text,
        range,
        help,
    };
    cx.error(tpl.span, d.render());
}

/// The named fields of a struct, or a DYNA109 error.
pub fn named_fields<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    what: &str,
) -> Option<&'a syn::FieldsNamed> {
    match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(f) => Some(f),
            _ => {
                cx.error(
                    input.ident.span(),
                    format!("DYNA109: {what} needs a struct with named fields\n  = help: name the fields: `struct {} {{ id: String, .. }}`", input.ident),
                );
                None
            }
        },
        _ => {
            cx.error(
                input.ident.span(),
                format!("DYNA109: {what} needs a struct with named fields; `{}` is not one\n  = help: for a type stored inside an item, derive DynamoValue", input.ident),
            );
            None
        }
    }
}

pub fn entity(cx: &Ctxt, input: &DeriveInput) -> Option<Entity> {
    let parsed = attr::entity(cx, input);
    let reported = parsed.is_none();
    let opts = parsed.unwrap_or_default();
    let raw = attr::keys(cx, &input.attrs);
    if !input.generics.params.is_empty() {
        cx.error(
            input.generics.span(),
            format!("DYNA109: entity `{}` has generic parameters, which DynamoEntity does not support\n  = help: derive on a concrete struct", input.ident),
        );
    }
    let named = named_fields(cx, input, "DynamoEntity")?;
    let fields = fields(cx, named);
    let ident = input.ident.clone();

    let discriminator = match &opts.entity {
        Some(d) => {
            if d.is_empty() {
                cx.error(d.span(), "DYNA109: the discriminator is empty\n  = help: name the entity, as in #[dynamo(entity = \"EMPLOYEE\")]");
            }
            d.as_str().to_owned()
        }
        None if reported => String::new(),
        None => {
            cx.error(
                ident.span(),
                format!(
                    "DYNA109: entity `{ident}` has no discriminator\n  = help: add #[dynamo(entity = \"{}\")]: it tells the types of one table apart",
                    ident.to_string().to_uppercase()
                ),
            );
            String::new()
        }
    };
    let attr_of = |v: &Option<SpannedValue<String>>, d: &str| {
        v.as_ref()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_else(|| d.to_owned())
    };
    let disc_attr = attr_of(&opts.discriminator_attr, "_type");
    let pk_attr = attr_of(&opts.pk_attr, "pk");
    let sk_attr = attr_of(&opts.sk_attr, "sk");

    let Some(pk_tpl) = raw.pk.clone() else {
        cx.error(
            ident.span(),
            format!("DYNA109: entity `{ident}` has no partition key\n  = help: add a template, as in #[pk(\"USER#<user_id>\")]"),
        );
        return None;
    };
    let ctx = KeyCtx {
        cx,
        fields: &fields,
        ident: &ident,
    };
    let pk = ctx.key(
        &pk_tpl,
        false,
        KeyKind::Table,
        pk_attr.clone(),
        "pk".into(),
        None,
    );
    let sk = raw
        .sk
        .as_ref()
        .and_then(|t| ctx.key(t, true, KeyKind::Table, sk_attr.clone(), "sk".into(), None));
    if let Some(pk) = &pk {
        ctx.no_optional(&pk_tpl, pk, "the table key");
    }
    if let (Some(sk), Some(t)) = (&sk, &raw.sk) {
        ctx.no_optional(t, sk, "the table key");
    }
    let indexes = indexes(&ctx, &raw, pk.as_ref(), sk.is_some());
    check_attrs(
        cx,
        &raw,
        &fields,
        &disc_attr,
        &pk_attr,
        sk.as_ref().map(|_| sk_attr.as_str()),
        &indexes,
    );

    rules::entity(cx, &fields, &raw);
    let ttl_attr = fields.iter().find(|f| f.ttl()).map(|f| f.attr.clone());
    if fields.iter().filter(|f| f.version()).count() > 1 {
        cx.error(ident.span(), "DYNA112: more than one #[dynamo(version)] field\n  = help: an entity has one version attribute");
    }
    if fields.iter().filter(|f| f.ttl()).count() > 1 {
        cx.error(
            ident.span(),
            "DYNA112: more than one #[dynamo(ttl)] field\n  = help: a table has one TTL attribute",
        );
    }
    if cx.has_errors() {
        return None;
    }
    let pk = pk?;
    let update = update::model(&fields, &pk, sk.as_ref(), &indexes);
    Some(Entity {
        ident,
        discriminator,
        disc_attr,
        pk,
        sk,
        indexes,
        fields,
        ttl_attr,
        update,
        validate: opts.validate.clone(),
    })
}
