//! `impl Entity`, the inherent key functions and the static metadata.

use proc_macro2::TokenStream;
use quote::quote;

use super::codec::{decode_fields, encode_fields};
use super::keys::{call_text_fn, keys, private};
use crate::model::{Entity, IndexModel, KeyKind, KeyModel};

fn key_meta(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let attr = &k.attr;
    let tpl = &k.template;
    let prefix = k.prefix();
    let mut names: Vec<String> = Vec::new();
    for i in k.fields() {
        let n = e.fields[i].ident.to_string();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    quote!(#p::KeyMeta { attr: #attr, template: #tpl, prefix: #prefix, fields: &[#(#names),*] })
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
            quote!(::core::option::Option::Some(#m))
        }
        None => quote!(::core::option::Option::None),
    };
    let sparse = ix.sparse;
    quote!(#p::IndexMeta { name: #name, kind: #kind, pk: #pk, sk: #sk, sparse: #sparse })
}

/// Writes the keys of one index into `__item`; a sparse index only while
/// every input is present (and non-empty under `omit_empty`).
fn index_keys(e: &Entity, ix: &IndexModel) -> TokenStream {
    let p = private();
    let mut inputs: Vec<usize> = Vec::new();
    for i in ix.pk.fields().chain(ix.sk.iter().flat_map(|k| k.fields())) {
        if !inputs.contains(&i) {
            inputs.push(i);
        }
    }
    let binds = inputs.iter().map(|&i| {
        let f = &e.fields[i];
        let id = &f.ident;
        let inner = &f.inner;
        let bind = if f.optional {
            quote! {
                let #id = match &self.#id {
                    ::core::option::Option::Some(__v) => __v,
                    ::core::option::Option::None => break 'index,
                };
            }
        } else {
            quote!(let #id = &self.#id;)
        };
        let empty = if f.omit_empty && ix.sparse {
            quote!(if <#inner as #p::Attr>::is_empty_value(#id) { break 'index; })
        } else {
            quote!()
        };
        quote!(#bind #empty)
    });
    let pk_attr = &ix.pk.attr;
    let pk = call_text_fn(e, &ix.pk, true);
    let sk = ix.sk.as_ref().map(|k| {
        let attr = &k.attr;
        let call = call_text_fn(e, k, true);
        quote!(#p::put_s(&mut __item, #attr, #call);)
    });
    // A local index's partition key is the table's own attribute.
    let put_pk = if ix.kind == KeyKind::Local {
        quote!()
    } else {
        quote!(#p::put_s(&mut __item, #pk_attr, #pk);)
    };
    let name = &ix.name;
    quote! {
        #[allow(unused_labels, unreachable_code, clippy::never_loop)]
        'index: {
            let _ = #name;
            #(#binds)*
            #put_pk
            #sk
        }
    }
}

pub fn expand(e: &Entity, vis: &syn::Visibility) -> TokenStream {
    let p = private();
    let ident = &e.ident;
    let code = keys(e, vis);
    let update = super::update::expand(e, vis);
    let outer = &code.outer;
    let inherent = &code.inherent;

    let type_name = ident.to_string();
    let disc = &e.discriminator;
    let disc_attr = &e.disc_attr;
    let pk_meta = key_meta(e, &e.pk);
    let sk_meta = match &e.sk {
        Some(k) => {
            let m = key_meta(e, k);
            quote!(::core::option::Option::Some(#m))
        }
        None => quote!(::core::option::Option::None),
    };
    let index_metas = e.indexes.iter().map(|ix| index_meta(e, ix));
    let field_metas = e.fields.iter().filter(|f| !f.skip).map(|f| {
        let name = f.ident.to_string();
        let attr = &f.attr;
        let optional = f.may_be_absent();
        quote!(#p::FieldMeta { name: #name, attr: #attr, optional: #optional })
    });
    let version = match e.fields.iter().find(|f| f.version) {
        Some(f) => {
            let a = &f.attr;
            quote!(::core::option::Option::Some(#a))
        }
        None => quote!(::core::option::Option::None),
    };
    let ttl = match &e.ttl_attr {
        Some(a) => quote!(::core::option::Option::Some(#a)),
        None => quote!(::core::option::Option::None),
    };

    let pk_attr = &e.pk.attr;
    let pk_call = call_text_fn(e, &e.pk, false);
    let (sk_put, sk_key) = match &e.sk {
        Some(k) => {
            let attr = &k.attr;
            let call = call_text_fn(e, k, false);
            (
                quote!(#p::put_s(&mut __item, #attr, #call);),
                quote!(::core::option::Option::Some((#attr, #call))),
            )
        }
        None => (quote!(), quote!(::core::option::Option::None)),
    };
    let index_puts = e.indexes.iter().map(|ix| index_keys(e, ix));
    let n_attrs = e.fields.len() + 3 + 2 * e.indexes.len();
    let encode = encode_fields(&e.fields, true);
    let decode = decode_fields(&e.fields, true);

    quote! {
        #outer
        #update

        impl #ident {
            #inherent
        }

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
            };

            fn to_item(&self) -> ::core::result::Result<#p::Item, #p::EncodeError> {
                let mut __item: #p::Item = #p::HashMap::with_capacity(#n_attrs);
                #p::put_s(&mut __item, #disc_attr, #p::String::from(#disc));
                #p::put_s(&mut __item, #pk_attr, #pk_call);
                #sk_put
                #(#index_puts)*
                #encode
                ::core::result::Result::Ok(__item)
            }

            fn from_item(__item: &#p::Item) -> ::core::result::Result<Self, #p::DecodeError> {
                #p::check_discriminator(__item, #disc_attr, #disc)?;
                let __path = #p::AttrPath::root("");
                ::core::result::Result::Ok(Self { #decode })
            }

            fn item_key(&self) -> ::core::result::Result<#p::Key<Self>, #p::KeyFormatError> {
                ::core::result::Result::Ok(#p::Key::__new(#pk_attr, #pk_call, #sk_key))
            }
        }
    }
}

/// What is emitted next to the errors when the derive fails: an `Entity`
/// impl, so uses of the type elsewhere do not add errors of their own.
pub fn fallback(ident: &syn::Ident) -> TokenStream {
    let p = private();
    let name = ident.to_string();
    quote! {
        impl #p::Entity for #ident {
            const META: &'static #p::EntityMeta = &#p::EntityMeta {
                type_name: #name,
                discriminator: "",
                discriminator_attr: "",
                pk: #p::KeyMeta { attr: "", template: "", prefix: "", fields: &[] },
                sk: ::core::option::Option::None,
                indexes: &[],
                fields: &[],
                ttl_attr: ::core::option::Option::None,
                version_attr: ::core::option::Option::None,
            };
            fn to_item(&self) -> ::core::result::Result<#p::Item, #p::EncodeError> {
                ::core::panic!("the DynamoEntity derive failed")
            }
            fn from_item(_: &#p::Item) -> ::core::result::Result<Self, #p::DecodeError> {
                ::core::panic!("the DynamoEntity derive failed")
            }
            fn item_key(&self) -> ::core::result::Result<#p::Key<Self>, #p::KeyFormatError> {
                ::core::panic!("the DynamoEntity derive failed")
            }
        }
    }
}
