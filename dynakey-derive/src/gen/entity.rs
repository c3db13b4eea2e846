//! `impl Entity`, the inherent key functions and the static metadata.

use proc_macro2::TokenStream;
use quote::quote;

use super::codec::{decode_fields, encode_values};
use super::keys::{call_key_fn, call_text, key_fields, keys, tpl_name};
use super::text::{lit, tokens, w, Code, Piece, Types};
use super::{private, scoped};
use crate::model::{Entity, IndexModel, KeyKind, KeyModel, Projection, Stamp};

fn key_meta(e: &Entity, k: &KeyModel) -> String {
    let mut names: Vec<String> = Vec::new();
    for i in k.fields() {
        let n = lit(&e.fields[i].ident.to_string());
        if !names.contains(&n) {
            names.push(n);
        }
    }
    format!(
        "__dk::KeyMeta::__new({}, &[{}], {})",
        lit(&k.attr),
        names.join(", "),
        tpl_name(k)
    )
}

fn opt_meta(m: Option<String>) -> String {
    match m {
        Some(m) => format!("__dk::Some({m})"),
        None => "__dk::None".to_owned(),
    }
}

fn index_meta(e: &Entity, ix: &IndexModel) -> String {
    let kind = match ix.kind {
        KeyKind::Local => "Local",
        _ => "Global",
    };
    let projection = match &ix.projection {
        Projection::All => "__dk::IndexProjection::All".to_owned(),
        Projection::KeysOnly => "__dk::IndexProjection::KeysOnly".to_owned(),
        Projection::Include(fs) => {
            let attrs: Vec<String> = fs.iter().map(|&i| lit(&e.fields[i].attr)).collect();
            format!("__dk::IndexProjection::Include(&[{}])", attrs.join(", "))
        }
    };
    format!(
        "__dk::IndexMeta {{ name: {}, kind: __dk::IndexKind::{kind}, pk: {}, sk: {}, sparse: {}, projection: {projection} }}",
        lit(&ix.name),
        key_meta(e, &ix.pk),
        opt_meta(ix.sk.as_ref().map(|k| key_meta(e, k))),
        ix.sparse
    )
}

/// `const META`: everything the runtime knows of the entity.
fn meta(e: &Entity) -> String {
    let indexes: Vec<String> = e.indexes.iter().map(|ix| index_meta(e, ix)).collect();
    let fields: Vec<String> = e
        .fields
        .iter()
        .filter(|f| !f.skip())
        .map(|f| {
            // May be absent from a stored item (a set reads as empty).
            let optional = f.may_be_absent() || crate::types::is_set(&f.inner);
            format!(
                "__dk::FieldMeta::__new({}, {}, {optional}, {}, {})",
                lit(&f.ident.to_string()),
                lit(&f.attr),
                lit(&f.ty_text()),
                f.default.is_some()
            )
        })
        .collect();
    let attr_of = |f: Option<&crate::model::Field>| opt_meta(f.map(|f| lit(&f.attr)));
    let stamp = |s: Stamp| attr_of(e.fields.iter().find(|f| f.stamp == Some(s)));
    let unique: Vec<String> = e
        .fields
        .iter()
        .filter(|f| f.unique)
        .map(|f| lit(&f.attr))
        .collect();
    format!(
        "const META: &'static __dk::EntityMeta = &__dk::EntityMeta {{ \
         type_name: {}, discriminator: {}, discriminator_attr: {}, pk: {}, sk: {}, \
         indexes: &[{}], fields: &[{}], ttl_attr: {}, version_attr: {}, \
         created_at: {}, updated_at: {}, unique: &[{}] }};",
        lit(&e.ident.to_string()),
        lit(&e.discriminator),
        lit(&e.disc_attr),
        key_meta(e, &e.pk),
        opt_meta(e.sk.as_ref().map(|k| key_meta(e, k))),
        indexes.join(", "),
        fields.join(", "),
        opt_meta(e.ttl_attr.as_ref().map(|a| lit(a))),
        attr_of(e.fields.iter().find(|f| f.version())),
        stamp(Stamp::Created),
        stamp(Stamp::Updated),
        unique.join(", ")
    )
}

/// Where one attribute value of `to_item` comes from.
enum Source {
    /// `__w.<method>(slot, <argument>)`, as text.
    Call(&'static str, String),
    /// A sparse key: `Option<Result<String, _>>`, `None` while an input is
    /// absent.
    Sparse(TokenStream),
    /// A field's value: `Option<AttributeValue>`, or a `Result` of one for a
    /// `serde` field (`true`).
    Field(TokenStream, bool),
}

/// The keys an index writes. Each key attribute is written when its own
/// inputs are present: an item is in the index when both of its key
/// attributes exist, as DynamoDB defines it, so a sparse index leaves out
/// an item while any input is absent (or empty under `omit_empty`).
fn index_values(e: &Entity, ix: &IndexModel, out: &mut Vec<(String, Source)>) {
    let p = private();
    // A local index's partition key is the table's own attribute.
    let mut keys: Vec<&KeyModel> = Vec::new();
    if ix.kind != KeyKind::Local {
        keys.push(&ix.pk);
    }
    keys.extend(ix.sk.iter());
    for k in keys {
        let optional = key_fields(k)
            .into_iter()
            .any(|i| e.fields[i].optional || (e.fields[i].omit_empty() && ix.sparse));
        if !optional {
            out.push((k.attr.clone(), key_source(e, k)));
            continue;
        }
        let binds = key_fields(k).into_iter().map(|i| {
            let f = &e.fields[i];
            let id = &f.ident;
            let inner = &f.inner;
            let bind = if f.optional {
                quote! {
                    let #p::Some(#id) = &self.#id else { break 'key #p::None };
                }
            } else {
                quote!(let #id = &self.#id;)
            };
            let empty = if f.omit_empty() && ix.sparse {
                quote!(if <#inner as #p::Attr>::is_empty_value(#id) { break 'key #p::None; })
            } else {
                quote!()
            };
            quote!(#bind #empty)
        });
        let call = call_key_fn(e, k, true);
        let value = quote!('key: { #(#binds)* #p::Some(#call) });
        out.push((k.attr.clone(), Source::Sparse(value)));
    }
}

/// A key every item has, written from the entity's own fields.
fn key_source(e: &Entity, k: &KeyModel) -> Source {
    Source::Call("key", call_text(e, k, false))
}

pub fn expand(e: &Entity, vis: &syn::Visibility) -> TokenStream {
    let ident = &e.ident;
    let types = Types::of(e);
    let code = keys(e, vis, &types);
    let update = super::update::expand(e, vis, &types);
    let outer = &code.outer;
    let update_outer = &update.outer;

    let mut imp = Code::default();
    imp.text.push_str(&meta(e));
    imp.tokens.extend(validate_fn(e));
    imp.hybrid_fn(
        "fn to_item(&self) -> __dk::Result<__dk::Item, __dk::EncodeError>",
        to_item_body(e),
    );
    imp.hybrid_fn(
        "fn from_item(__item: &__dk::Item) -> __dk::Result<Self, __dk::DecodeError>",
        from_item_body(e),
    );
    let sk_key = match &e.sk {
        Some(k) => format!(
            "__dk::Some(({}, {}?))",
            lit(&k.attr),
            call_text(e, k, false)
        ),
        None => "__dk::None".to_owned(),
    };
    w!(
        imp.text,
        "fn item_key(&self) -> __dk::Result<__dk::Key<Self>, __dk::KeyFormatError> {{ \
         __dk::Ok(__dk::Key::__new({}, {}?, {sk_key})) }}",
        lit(&e.pk.attr),
        call_text(e, &e.pk, false)
    );

    let mut items = code.impls.into_tokens();
    items.extend(update.impls);
    items.extend(code.inherent.wrapped(&format!("impl {ident}")));
    // Batch writes take unversioned entities only (DYNA229).
    if e.fields.iter().all(|f| !f.version()) {
        items.extend(tokens(&format!("impl __dk::Unversioned for {ident} {{}}")));
    }
    items.extend(imp.one_block(&format!("impl __dk::Entity for {ident}")));
    items.extend(types.aliases);
    let impls = scoped(items);
    quote! {
        #outer
        #update_outer
        #impls
    }
}

/// The body of `to_item`. Every attribute value goes to a runtime
/// `ItemWriter` at its slot (in the order the attributes used to be
/// inserted: discriminator, table key, index keys, fields) with one call
/// and no early return; the writer keeps the first error, and the map comes
/// from a per-type template holding every attribute name: cloning it copies
/// the table without hashing, and one pass puts each value in its slot and
/// drops the slots left empty. No attribute name is hashed per item.
fn to_item_body(e: &Entity) -> Vec<Piece> {
    let mut sources: Vec<(String, Source)> = vec![(
        e.disc_attr.clone(),
        Source::Call("text", lit(&e.discriminator)),
    )];
    sources.push((e.pk.attr.clone(), key_source(e, &e.pk)));
    if let Some(k) = &e.sk {
        sources.push((k.attr.clone(), key_source(e, k)));
    }
    for ix in &e.indexes {
        index_values(e, ix, &mut sources);
    }
    for (attr, value, serde) in encode_values(&e.fields) {
        sources.push((attr, Source::Field(value, serde)));
    }
    // Two sources for one attribute (fields renamed alike) share a slot:
    // the last one that has a value wins, as with successive inserts.
    let mut names: Vec<String> = Vec::new();
    let mut calls = Vec::new();
    for (attr, source) in sources {
        let slot = names.iter().position(|a| *a == attr).unwrap_or_else(|| {
            names.push(attr);
            names.len() - 1
        });
        let at = syn::Index::from(slot);
        calls.push(match source {
            Source::Call(method, arg) => Piece::Text(format!("__w.{method}({slot}, {arg});")),
            Source::Sparse(v) => Piece::Tokens(quote!(__w.sparse_key(#at, #v);)),
            Source::Field(v, true) => Piece::Tokens(quote!(__w.encoded(#at, #v);)),
            Source::Field(v, false) => Piece::Tokens(quote!(__w.set(#at, #v);)),
        });
    }
    let list: Vec<String> = names.iter().map(|a| lit(a)).collect();
    let mut body = vec![Piece::Text(format!(
        "static __TEMPLATE: __dk::OnceLock<__dk::ItemTemplate> = __dk::OnceLock::new(); \
         let mut __w = __dk::ItemWriter::<{}>::default();",
        names.len()
    ))];
    body.extend(calls);
    body.push(Piece::Text(format!(
        "__w.finish(&__TEMPLATE, &[{}])",
        list.join(", ")
    )));
    body
}

/// The body of `from_item`: the discriminator checked, then each field
/// decoded in order (the first error ends it).
fn from_item_body(e: &Entity) -> Vec<Piece> {
    let decode = decode_fields(&e.fields);
    vec![
        Piece::Text(format!(
            "__dk::check_discriminator(__item, {}, {})?; \
             let __path = __dk::AttrPath::root(\"\");",
            lit(&e.disc_attr),
            lit(&e.discriminator)
        )),
        Piece::Tokens(quote!(__dk::Ok(Self { #decode }))),
    ]
}

/// `fn validate` when a field or the entity has `#[dynamo(validate = ..)]`:
/// one runtime call per validator.
fn validate_fn(e: &Entity) -> TokenStream {
    let p = private();
    let entity = e.ident.to_string();
    let mut calls: Vec<TokenStream> = e
        .fields
        .iter()
        .filter_map(|f| {
            let path = f.validate.as_ref()?;
            let id = &f.ident;
            let name = f.name();
            Some(if f.optional {
                quote! {
                    if let #p::Some(__x) = &self.#id {
                        #p::check_field(#entity, #name, #path(__x))?;
                    }
                }
            } else {
                quote!(#p::check_field(#entity, #name, #path(&self.#id))?;)
            })
        })
        .collect();
    if let Some(path) = &e.validate {
        calls.push(quote!(#p::check_entity(#entity, #path(self))?;));
    }
    if calls.is_empty() {
        return quote!();
    }
    quote! {
        fn validate(&self) -> #p::Result<(), #p::Error> {
            #(#calls)*
            #p::Ok(())
        }
    }
}

/// What is emitted next to the errors when the derive fails: an `Entity`
/// impl, so uses of the type elsewhere do not add errors of their own.
pub fn fallback(input: &syn::DeriveInput) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let name = ident.to_string();
    quote! {
        impl #p::Entity for #ident {
            const META: &'static #p::EntityMeta = &#p::EntityMeta {
                type_name: #name,
                discriminator: "",
                discriminator_attr: "",
                pk: #p::KeyMeta { attr: "", template: "", prefix: "", fields: &[], key: &#p::KeyTemplate::new("", "", &[]) },
                sk: #p::None,
                indexes: &[],
                fields: &[],
                ttl_attr: #p::None,
                version_attr: #p::None,
                created_at: #p::None,
                updated_at: #p::None,
                unique: &[],
            };
            fn to_item(&self) -> #p::Result<#p::Item, #p::EncodeError> {
                ::core::panic!("the DynamoEntity derive failed")
            }
            fn from_item(_: &#p::Item) -> #p::Result<Self, #p::DecodeError> {
                ::core::panic!("the DynamoEntity derive failed")
            }
            fn item_key(&self) -> #p::Result<#p::Key<Self>, #p::KeyFormatError> {
                ::core::panic!("the DynamoEntity derive failed")
            }
        }
    }
}
