//! `impl Entity`, the inherent key functions and the static metadata.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::codec::{decode_fields, encode_values};
use super::keys::{call_text_fn, key_fields, keys, tpl_const};
use super::{private, scoped};
use crate::model::{Entity, IndexModel, KeyKind, KeyModel, Projection, Stamp};

fn key_meta(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let attr = &k.attr;
    let mut names: Vec<String> = Vec::new();
    for i in k.fields() {
        let n = e.fields[i].ident.to_string();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let tc = tpl_const(k);
    quote!(#p::KeyMeta::__new(#attr, &[#(#names),*], #tc))
}

fn index_meta(e: &Entity, ix: &IndexModel) -> TokenStream {
    let p = private();
    let name = &ix.name;
    let kind = match ix.kind {
        KeyKind::Local => quote!(#p::IndexKind::Local),
        _ => quote!(#p::IndexKind::Global),
    };
    let pk = key_meta(e, &ix.pk);
    let sk = match &ix.sk {
        Some(k) => {
            let m = key_meta(e, k);
            quote!(#p::Some(#m))
        }
        None => quote!(#p::None),
    };
    let sparse = ix.sparse;
    let projection = match &ix.projection {
        Projection::All => quote!(#p::IndexProjection::All),
        Projection::KeysOnly => quote!(#p::IndexProjection::KeysOnly),
        Projection::Include(fs) => {
            let attrs = fs.iter().map(|&i| &e.fields[i].attr);
            quote!(#p::IndexProjection::Include(&[#(#attrs),*]))
        }
    };
    quote!(#p::IndexMeta { name: #name, kind: #kind, pk: #pk, sk: #sk, sparse: #sparse, projection: #projection })
}

/// The keys of one index as `Option<AttributeValue>` locals, one per key
/// attribute it writes. Each key attribute is written when its own inputs
/// are present: an item is in the index when both of its key attributes
/// exist, as DynamoDB defines it, so a sparse index leaves out an item while
/// any input is absent (or empty under `omit_empty`). Returns the `let`s and
/// the (attribute, local) pairs.
fn index_values(e: &Entity, ix: &IndexModel, first: usize) -> (TokenStream, Vec<(String, Ident)>) {
    let p = private();
    // A local index's partition key is the table's own attribute.
    let mut keys: Vec<&KeyModel> = Vec::new();
    if ix.kind != KeyKind::Local {
        keys.push(&ix.pk);
    }
    keys.extend(ix.sk.iter());
    let mut stmts = Vec::new();
    let mut slots = Vec::new();
    for (n, k) in keys.iter().enumerate() {
        let local = format_ident!("__a{}", first + n);
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
        let call = call_text_fn(e, k, true);
        let optional = key_fields(k)
            .into_iter()
            .any(|i| e.fields[i].optional || (e.fields[i].omit_empty() && ix.sparse));
        stmts.push(if optional {
            quote! {
                let #local = 'key: {
                    #(#binds)*
                    #p::Some(#p::AttributeValue::S(#call))
                };
            }
        } else {
            let call = call_text_fn(e, k, false);
            quote!(let #local = #p::Some(#p::AttributeValue::S(#call));)
        });
        slots.push((k.attr.clone(), local));
    }
    (quote!(#(#stmts)*), slots)
}

pub fn expand(e: &Entity, vis: &syn::Visibility) -> TokenStream {
    let p = private();
    let ident = &e.ident;
    let code = keys(e, vis);
    let update = super::update::expand(e, vis);
    let outer = &code.outer;
    let chain_impls = &code.impls;
    let inherent = &code.inherent;
    let update_outer = &update.outer;
    let update_impls = &update.impls;

    let type_name = ident.to_string();
    let disc = &e.discriminator;
    let disc_attr = &e.disc_attr;
    let pk_meta = key_meta(e, &e.pk);
    let sk_meta = match &e.sk {
        Some(k) => {
            let m = key_meta(e, k);
            quote!(#p::Some(#m))
        }
        None => quote!(#p::None),
    };
    let index_metas = e.indexes.iter().map(|ix| index_meta(e, ix));
    let field_metas = e.fields.iter().filter(|f| !f.skip()).map(|f| {
        let name = f.ident.to_string();
        let attr = &f.attr;
        // May be absent from a stored item (a set reads as empty).
        let optional = f.may_be_absent() || crate::types::is_set(&f.inner);
        let ty = f.ty_text();
        let default = f.default.is_some();
        quote!(#p::FieldMeta::__new(#name, #attr, #optional, #ty, #default))
    });
    let version = match e.fields.iter().find(|f| f.version()) {
        Some(f) => {
            let a = &f.attr;
            quote!(#p::Some(#a))
        }
        None => quote!(#p::None),
    };
    let ttl = match &e.ttl_attr {
        Some(a) => quote!(#p::Some(#a)),
        None => quote!(#p::None),
    };
    let stamp = |s: Stamp| match e.fields.iter().find(|f| f.stamp == Some(s)) {
        Some(f) => {
            let a = &f.attr;
            quote!(#p::Some(#a))
        }
        None => quote!(#p::None),
    };
    let (created_at, updated_at) = (stamp(Stamp::Created), stamp(Stamp::Updated));
    let unique = e.fields.iter().filter(|f| f.unique).map(|f| &f.attr);
    let validate = validate_fn(e);

    let pk_attr = &e.pk.attr;
    let pk_call = call_text_fn(e, &e.pk, false);
    let sk_key = match &e.sk {
        Some(k) => {
            let attr = &k.attr;
            let call = call_text_fn(e, k, false);
            quote!(#p::Some((#attr, #call)))
        }
        None => quote!(#p::None),
    };
    let to_item = to_item_body(e);
    // Batch writes take unversioned entities only (DYNA229).
    let unversioned = e
        .fields
        .iter()
        .all(|f| !f.version())
        .then(|| quote!(impl #p::Unversioned for #ident {}));
    let decode = decode_fields(&e.fields);

    let impls = scoped(quote! {
        #chain_impls
        #update_impls

        impl #ident {
            #inherent
        }

        #unversioned

        impl #p::Entity for #ident {
            const META: &'static #p::EntityMeta = &#p::EntityMeta {
                type_name: #type_name,
                discriminator: #disc,
                discriminator_attr: #disc_attr,
                pk: #pk_meta,
                sk: #sk_meta,
                indexes: &[#(#index_metas),*],
                fields: &[#(#field_metas),*],
                ttl_attr: #ttl,
                version_attr: #version,
                created_at: #created_at,
                updated_at: #updated_at,
                unique: &[#(#unique),*],
            };

            #validate

            fn to_item(&self) -> #p::Result<#p::Item, #p::EncodeError> {
                #to_item
            }

            fn from_item(__item: &#p::Item) -> #p::Result<Self, #p::DecodeError> {
                #p::check_discriminator(__item, #disc_attr, #disc)?;
                let __path = #p::AttrPath::root("");
                #p::Ok(Self { #decode })
            }

            fn item_key(&self) -> #p::Result<#p::Key<Self>, #p::KeyFormatError> {
                #p::Ok(#p::Key::__new(#pk_attr, #pk_call, #sk_key))
            }
        }
    });
    quote! {
        #outer
        #update_outer
        #impls
    }
}

/// The body of `to_item`. Every attribute value is computed first (in the
/// order the attributes used to be inserted: discriminator, table key,
/// index keys, fields), then the map comes from a per-type template holding
/// every attribute name: cloning it copies the table without hashing, and
/// one pass puts each value in its slot and drops the slots left empty. No
/// attribute name is hashed per item (SipHash was a quarter of the encode).
fn to_item_body(e: &Entity) -> TokenStream {
    let p = private();
    let some_s = |v: TokenStream| quote!(#p::Some(#p::AttributeValue::S(#v)));
    let mut lets: Vec<TokenStream> = Vec::new();
    // (attribute, local) in insertion order.
    let mut slots: Vec<(String, Ident)> = Vec::new();
    let single = |attr: &str, value: TokenStream, lets: &mut Vec<_>, slots: &mut Vec<_>| {
        let local = format_ident!("__a{}", slots.len());
        lets.push(quote!(let #local = #value;));
        slots.push((attr.to_owned(), local));
    };
    let disc = &e.discriminator;
    let disc_value = some_s(quote!(#p::String::from(#disc)));
    single(&e.disc_attr, disc_value, &mut lets, &mut slots);
    let pk_value = some_s(call_text_fn(e, &e.pk, false));
    single(&e.pk.attr, pk_value, &mut lets, &mut slots);
    if let Some(k) = &e.sk {
        single(
            &k.attr,
            some_s(call_text_fn(e, k, false)),
            &mut lets,
            &mut slots,
        );
    }
    for ix in &e.indexes {
        let (stmt, mine) = index_values(e, ix, slots.len());
        lets.push(stmt);
        slots.extend(mine);
    }
    for (attr, value) in encode_values(&e.fields) {
        single(&attr, value, &mut lets, &mut slots);
    }
    // Two sources for one attribute (fields renamed alike): the last one
    // that has a value wins, as with successive inserts.
    let mut groups: Vec<(String, Vec<Ident>)> = Vec::new();
    for (attr, local) in slots {
        match groups.iter_mut().find(|(a, _)| *a == attr) {
            Some((_, locals)) => locals.push(local),
            None => groups.push((attr, vec![local])),
        }
    }
    let names: Vec<&String> = groups.iter().map(|(a, _)| a).collect();
    let values = groups.iter().map(|(_, locals)| {
        let mut rev = locals.iter().rev();
        let last = rev.next().expect("a group has a local");
        let mut value = quote!(#last);
        for l in rev {
            value = quote!(#value.or(#l));
        }
        value
    });
    quote! {
        static __TEMPLATE: #p::OnceLock<#p::ItemTemplate> = #p::OnceLock::new();
        #(#lets)*
        #p::Ok(#p::ItemTemplate::fill(&__TEMPLATE, &[#(#names),*], &mut [#(#values),*]))
    }
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
