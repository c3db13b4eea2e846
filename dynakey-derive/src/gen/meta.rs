//! `const META`: everything the runtime knows of an entity (keys, indexes,
//! fields, the data rules' attributes), built by the runtime's `const fn`s
//! from the templates' descriptions.

use proc_macro2::TokenStream;
use quote::quote;

use super::dk;
use super::keys::tpl_name;
use crate::model::{Entity, IndexModel, KeyKind, KeyModel, Projection, Stamp};

fn key_meta(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = dk();
    let tpl = tpl_name(k);
    let names = k
        .distinct_fields()
        .into_iter()
        .map(|i| &e.fields[i].name.text);
    quote!(#p::KeyMeta::__of(#tpl, &[#(#names),*]))
}

fn index_meta(e: &Entity, ix: &IndexModel) -> TokenStream {
    let p = dk();
    let kind = match ix.kind {
        KeyKind::Local => quote!(#p::IndexKind::Local),
        _ => quote!(#p::IndexKind::Global),
    };
    let projection = match &ix.projection {
        Projection::All => quote!(#p::IndexProjection::All),
        Projection::KeysOnly => quote!(#p::IndexProjection::KeysOnly),
        Projection::Include(fs) => {
            let attrs = fs.iter().map(|&i| &e.fields[i].attr);
            quote!(#p::IndexProjection::Include(&[#(#attrs),*]))
        }
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
    quote!(#p::IndexMeta::__new(#kind, #pk, #sk, #sparse, #projection))
}

/// `const META: &'static EntityMeta = ..;`
pub fn meta(e: &Entity) -> TokenStream {
    let p = dk();
    let type_name = e.ident.to_string();
    let (disc, disc_attr) = (&e.discriminator, &e.disc_attr);
    let pk = key_meta(e, &e.pk);
    let sk = match &e.sk {
        Some(k) => {
            let m = key_meta(e, k);
            quote!(#p::Some(#m))
        }
        None => quote!(#p::None),
    };
    let indexes = e.indexes.iter().map(|ix| index_meta(e, ix));
    let fields = e.struct_fields().filter(|(_, f)| !f.skip()).map(|(_, f)| {
        // May be absent from a stored item (a set reads as empty).
        let optional = f.may_be_absent() || crate::types::is_set(&f.inner);
        let (name, attr, ty, default) = (&f.name.text, &f.attr, f.ty_text(), f.default.is_some());
        quote!(#p::FieldMeta::__new(#name, #attr, #optional, #ty, #default))
    });
    let attr_of = |pred: &dyn Fn(&crate::model::Field) -> bool| {
        e.fields.iter().find(|f| pred(f)).map(|f| f.attr.clone())
    };
    let mut with = TokenStream::new();
    if let Some(a) = attr_of(&|f| f.ttl()) {
        with.extend(quote!(.__with_ttl(#a)));
    }
    if let Some(a) = attr_of(&|f| f.version()) {
        with.extend(quote!(.__with_version(#a)));
    }
    if let Some(a) = attr_of(&|f| f.stamp == Some(Stamp::Created)) {
        with.extend(quote!(.__with_created_at(#a)));
    }
    if let Some(a) = attr_of(&|f| f.stamp == Some(Stamp::Updated)) {
        with.extend(quote!(.__with_updated_at(#a)));
    }
    let unique: Vec<&String> = e
        .fields
        .iter()
        .filter(|f| f.unique)
        .map(|f| &f.attr)
        .collect();
    if !unique.is_empty() {
        with.extend(quote!(.__with_unique(&[#(#unique),*])));
    }
    quote! {
        const META: &'static #p::EntityMeta = &#p::EntityMeta::__new(
            #type_name, #disc, #disc_attr, #pk, #sk, &[#(#indexes),*], &[#(#fields),*]
        ) #with;
    }
}
