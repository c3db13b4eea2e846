//! An entity's model from its input: its options, fields, keys and
//! indexes (serde_derive's `Container::from_ast`).

use darling::util::SpannedValue;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::attr;
use crate::ctxt::Ctxt;
use crate::diag::Code;

use super::fields::fields;
use super::keys::{key, KeySpec};
use super::{indexes, native};
use super::{Entity, KeyKind, KeyRole, TemplateLit, UpdateModel};

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
                cx.report(
                    input.ident.span(),
                    Code::Shape
                        .msg(format!("{what} needs a struct with named fields"))
                        .help(format!(
                            "name the fields: `struct {} {{ id: String, .. }}`",
                            input.ident
                        )),
                );
                None
            }
        },
        _ => {
            cx.report(
                input.ident.span(),
                Code::Shape
                    .msg(format!(
                        "{what} needs a struct with named fields; `{}` is not one",
                        input.ident
                    ))
                    .help("for a type stored inside an item, derive DynamoValue"),
            );
            None
        }
    }
}

/// The entity model of a `DynamoEntity` input; `None` when its shape (not
/// a struct with named fields, or generic) leaves nothing to generate but
/// the `Entity` impl.
pub fn entity(cx: &Ctxt, input: &DeriveInput) -> Option<Entity> {
    let parsed = attr::entity(cx, input);
    let reported = parsed.is_none();
    let opts = parsed.unwrap_or_default();
    let raw = attr::keys(cx, &input.attrs);
    native::table_key_place(cx, &raw.native_table_keys);
    if !input.generics.params.is_empty() {
        cx.report(
            input.generics.span(),
            Code::Shape
                .msg(format!(
                    "entity `{}` has generic parameters, which DynamoEntity does not support",
                    input.ident
                ))
                .help("derive on a concrete struct"),
        );
        return None;
    }
    let named = named_fields(cx, input, "DynamoEntity")?;
    let mut fields = fields(cx, named);
    let ident = input.ident.clone();

    let discriminator = match &opts.entity {
        Some(d) => {
            if d.is_empty() {
                cx.report(
                    d.span(),
                    Code::Shape
                        .msg("the discriminator is empty")
                        .help("name the entity, as in #[dynamo(entity = \"EMPLOYEE\")]"),
                );
            }
            d.as_str().to_owned()
        }
        None if reported => String::new(),
        None => {
            cx.report(
                ident.span(),
                Code::Shape
                    .msg(format!("entity `{ident}` has no discriminator"))
                    .help(format!(
                        "add #[dynamo(entity = \"{}\")]: it tells the types of one table apart",
                        ident.to_string().to_uppercase()
                    )),
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
    let spec = |role, attr: String, fn_name: &str| KeySpec {
        role,
        kind: KeyKind::Table,
        attr,
        fn_name: fn_name.to_owned(),
        index: None,
    };
    let pk_tpl = raw.pk.clone().unwrap_or_else(|| {
        if raw.native_table_keys.is_empty() {
            cx.report(
                ident.span(),
                Code::Shape
                    .msg(format!("entity `{ident}` has no partition key"))
                    .help("add a template, as in #[pk(\"USER#<user_id>\")]"),
            );
        }
        TemplateLit {
            text: String::new(),
            span: ident.span(),
            label: "pk".into(),
        }
    });
    let pk_attr = attr_of(&opts.pk_attr, "pk");
    let pk = key(
        cx,
        &ident,
        &mut fields,
        &pk_tpl,
        spec(KeyRole::Partition, pk_attr, "pk"),
    );
    let sk = raw.sk.as_ref().map(|t| {
        let sk_attr = attr_of(&opts.sk_attr, "sk");
        key(
            cx,
            &ident,
            &mut fields,
            t,
            spec(KeyRole::Sort, sk_attr, "sk"),
        )
    });
    let (indexes, natives) = indexes::indexes(cx, &ident, &mut fields, &raw, &pk, sk.is_some());
    let vectors =
        super::vectors::vectors(cx, &ident, &fields, &raw, &attr::vectors(cx, &input.attrs));
    let e = Entity {
        ident,
        vis: input.vis.clone(),
        discriminator,
        disc_attr,
        pk,
        sk,
        indexes,
        natives,
        vectors,
        fields,
        update: UpdateModel::empty(),
        validate: opts.validate.clone(),
        stub: false,
    };
    Some(e)
}
