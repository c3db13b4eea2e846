//! `#[derive(DynamoEntity)]`: the whole expansion of an entity, and the
//! `Entity` impl a shape the derive cannot take still gets.

use proc_macro2::TokenStream;
use quote::quote;

use super::{body, private_path, scoped};
use crate::model::Entity;

pub fn expand(e: &Entity, krate: &TokenStream) -> TokenStream {
    let ident = &e.ident;
    let mut outer = super::private_alias(krate, ident);
    let mut items = TokenStream::new();
    let mut inherent = super::keys::inherent(e);
    if !e.stub {
        for k in e.all_keys() {
            items.extend(super::keys::tpl_def(e, k));
        }
        items.extend(super::native::attrs_defs(e));
        items.extend(super::vector::defs(e));
    }
    inherent.extend(super::native::pk_fns(e));
    inherent.extend(super::vector::search_fns(e));
    let (filters_outer, filters_impls) = super::vector::filters(e);
    outer.extend(filters_outer);
    items.extend(filters_impls);
    let c = super::chain::chains(e);
    outer.extend(c.structs);
    items.extend(c.impls);
    inherent.extend(c.entry);
    let update = super::update::expand(e);
    outer.extend(update.outer);
    items.extend(update.impls);
    let (attrs_outer, attrs_impls) = super::attrs::attrs(e);
    outer.extend(attrs_outer);
    items.extend(attrs_impls);
    outer.extend(super::metadata::macro_def(e, krate));

    let meta = if e.stub {
        let name = ident.to_string();
        quote!(const META: &'static __dk_EntityMeta = &__dk_EntityMeta::__stub(#name);)
    } else {
        super::meta::meta(e)
    };
    let to_item = body(e.stub, || super::codec::to_item(e));
    let from_item = body(e.stub, || super::codec::from_item(e));
    let item_key = body(e.stub, || super::codec::item_key(e));
    let validate = validate_fn(e);
    // Batch writes take unversioned entities only (DYNA229).
    let unversioned = e.fields.iter().all(|f| !f.version()).then(|| {
        quote! {
            #[automatically_derived]
            impl __dk_Unversioned for #ident {}
        }
    });
    items.extend(quote! {
        #[automatically_derived]
        impl #ident {
            #inherent
        }
        #unversioned
        #[automatically_derived]
        impl __dk_Entity for #ident {
            #meta
            fn to_item(&self) -> __dk_Result<__dk_Item, __dk_EncodeError> #to_item
            fn from_item(__item: &__dk_Item) -> __dk_Result<Self, __dk_DecodeError> #from_item
            fn item_key(&self) -> __dk_KeyResult<__dk_Key<Self>> #item_key
            #validate
        }
    });
    let scoped = scoped(krate, items);
    quote! {
        #outer
        #scoped
    }
}

/// `fn validate` when a field or the entity has `#[dynamo(validate = ..)]`:
/// one runtime call per validator.
fn validate_fn(e: &Entity) -> TokenStream {
    let entity = e.ident.to_string();
    let x = crate::unraw::local("x");
    let mut calls: Vec<TokenStream> = e
        .struct_fields()
        .filter_map(|(_, f)| {
            let path = f.validate.as_ref()?;
            let id = &f.name.ident;
            let name = &f.name.text;
            Some(if f.optional {
                quote! {
                    if let __dk_Some(#x) = &self.#id {
                        __dk_check_field(#entity, #name, #path(#x))?;
                    }
                }
            } else {
                quote!(__dk_check_field(#entity, #name, #path(&self.#id))?;)
            })
        })
        .collect();
    if let Some(path) = &e.validate {
        calls.push(quote!(__dk_check_entity(#entity, #path(self))?;));
    }
    if calls.is_empty() {
        return quote!();
    }
    let body = body(e.stub, || quote!(#(#calls)* __dk_Ok(())));
    quote! {
        fn validate(&self) -> __dk_Result<(), __dk_Error> #body
    }
}

/// An `Entity` impl for an input the derive could not model (not a struct
/// with named fields, or generic), so uses of the type elsewhere add no
/// errors of their own.
pub fn fallback(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let p = private_path(krate);
    let ident = &input.ident;
    let name = ident.to_string();
    quote! {
        #[automatically_derived]
        impl #p::Entity for #ident {
            const META: &'static #p::EntityMeta = &#p::EntityMeta::__stub(#name);
            fn to_item(&self) -> #p::Result<#p::Item, #p::EncodeError> {
                #p::stub()
            }
            fn from_item(_: &#p::Item) -> #p::Result<Self, #p::DecodeError> {
                #p::stub()
            }
            fn item_key(&self) -> #p::Result<#p::Key<Self>, #p::KeyFormatError> {
                #p::stub()
            }
        }
    }
}
